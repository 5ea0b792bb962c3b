/**
 * Media speed check: `npx tsx src/server/media/bench.ts [seconds] [source.mp4]`. Takes the
 * first `seconds` of `source.mp4` (stream copy), or makes a 720p test video (moving test
 * pattern + tone), then times the session renditions (one process with `split` against one
 * process per rendition) and highlight clips (one and two at a time). Prints wall time, CPU
 * time of the ffmpeg children (per clip too) and × real time.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderHighlightClips } from './clips';
import { probeVideo, runFfmpeg } from './ffmpeg';
import { h264Args } from './ffmpeg-progress';
import { plannedSessionRenditions, remuxDecision, remuxFacts, renderSessionMedia } from './renditions';
import { LocalMediaStorage } from './storage';

/** CPU seconds used by finished child processes (Linux), so load from other processes does not skew the comparison. */
function childCpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return NaN;
  }
}

async function measure(label: string, mediaSeconds: number, fn: () => Promise<unknown>) {
  const cpu0 = childCpuSeconds();
  const t0 = performance.now();
  await fn();
  const wall = (performance.now() - t0) / 1000;
  const cpu = childCpuSeconds() - cpu0;
  console.log(`${label.padEnd(44)} wall ${wall.toFixed(1).padStart(6)} s  cpu ${cpu.toFixed(1).padStart(6)} s  ${(mediaSeconds / wall).toFixed(2)}× real time`);
  return cpu;
}

async function main() {
  const seconds = Number(process.argv[2] ?? 60);
  const dir = await mkdtemp(join(tmpdir(), 'swish-media-bench-'));
  try {
    const input = join(dir, 'game.mp4');
    if (process.argv[3]) {
      await runFfmpeg(['-i', process.argv[3], '-t', String(seconds), '-c', 'copy', '-movflags', '+faststart', input]);
    } else {
      await runFfmpeg([
        '-f', 'lavfi', '-i', `testsrc2=s=1280x720:r=30:d=${seconds}`,
        '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
        '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', input,
      ]);
    }
    const probe = await probeVideo(input);
    const storage = new LocalMediaStorage(join(dir, 'media'));
    console.log(`source: ${probe.width}×${probe.height} ${probe.fps} fps, ${probe.durationSeconds.toFixed(1)} s, audio ${probe.hasAudio}`);

    const remux = remuxDecision(await remuxFacts(input, probe), plannedSessionRenditions(probe));
    console.log(`renditions: ${plannedSessionRenditions(probe).map((r) => `${r.name} ${r.name === remux.rendition ? 'copied' : 'encoded'}`).join(', ')}`);
    await measure('renditions: one process, split (shipped)', seconds, () => renderSessionMedia({ sessionId: 'sess_bench', input, probe, storage }));
    await measure('renditions: one process per rendition', seconds, async () => {
      for (const r of plannedSessionRenditions(probe)) {
        await runFfmpeg(['-i', input, '-vf', `scale=${r.width}:${r.height},setsar=1`, ...h264Args({ crf: r.crf, maxrateKbps: r.maxrateKbps, fps: probe.fps, audio: true }), join(dir, `${r.name}.mp4`)]);
      }
    });

    const clipCount = Math.max(2, Math.floor(seconds / 15));
    const clips = Array.from({ length: clipCount }, (_, i) => ({
      highlightId: `hl_${i}`,
      start: i * 15 + 1,
      end: i * 15 + 11,
      focus: [
        { t: i * 15 + 1, x: 0.2, y: 0.6 },
        { t: i * 15 + 6, x: 0.8, y: 0.3 },
        { t: i * 15 + 11, x: 0.5, y: 0.4 },
      ],
    }));
    for (const concurrency of [1, 2]) {
      const cpu = await measure(`clips: ${clipCount} × 10 s, ${concurrency} at a time`, clipCount * 10, () =>
        renderHighlightClips({ sessionId: 'sess_bench', input, probe, storage, clips, concurrency }),
      );
      console.log(`${''.padEnd(44)} cpu per 10 s clip ${(cpu / clipCount).toFixed(2)} s`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
