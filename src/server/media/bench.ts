/**
 * Media speed check: `npx tsx src/server/media/bench.ts [seconds] [source.mp4] [--clips-only]`.
 * Takes the first `seconds` of `source.mp4` (stream copy), or makes a 720p test video (moving
 * test pattern + tone), then times the session renditions (one process with `split` against
 * one process per rendition) and highlight clips (one and two at a time). Prints wall time,
 * CPU time of the ffmpeg children (per clip too) and × real time. Then each clip once with
 * its horizontal clip encoded and once smart-cut (when the source allows it), interleaved, so
 * that the load of a shared machine weighs on both alike. `--clips-only`: that comparison only.
 * `--on-demand`: each clip once with its smaller renditions encoded eagerly and once on demand
 * (interleaved), then the first request of each on-demand rendition: CPU and wall time.
 */
import { procCpuSeconds } from '../../bench/cpu';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HIGHLIGHT_RENDITIONS, horizontalSmartCutSource, renderHighlightClip, renderHighlightClips } from './clips';
import { ensureOnDemandRendition } from './on-demand';
import { probeVideo, runFfmpeg } from './ffmpeg';
import { h264Args } from './ffmpeg-progress';
import { plannedSessionRenditions, remuxDecision, remuxFacts, renderSessionMedia } from './renditions';
import { LocalMediaStorage, mediaKeys } from './storage';

/** CPU seconds used by finished child processes (Linux), so load from other processes does not skew the comparison. */
function childCpuSeconds(): number {
  return procCpuSeconds()?.children ?? NaN;
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
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const clipsOnly = process.argv.includes('--clips-only');
  const seconds = Number(args[0] ?? 60);
  const dir = await mkdtemp(join(tmpdir(), 'swish-media-bench-'));
  try {
    const input = join(dir, 'game.mp4');
    if (args[1]) {
      await runFfmpeg(['-i', args[1], '-t', String(seconds), '-c', 'copy', '-movflags', '+faststart', input]);
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
    if (process.argv.includes('--on-demand')) return await onDemandComparison();
    if (!clipsOnly) await renditionsAndClips();
    let smartFactsCpu = 0;
    const smartCut = await (async () => {
      const cpu0 = childCpuSeconds();
      const facts = await horizontalSmartCutSource(input, probe);
      smartFactsCpu = childCpuSeconds() - cpu0;
      return facts;
    })();
    if (!smartCut) {
      console.log('smart cut: not possible for this source (horizontal clips are encoded)');
      return;
    }
    console.log(`smart cut: source facts read once per session, cpu ${smartFactsCpu.toFixed(2)} s`);
    const totals = { encoded: 0, smart: 0 };
    for (const [i, clip] of clips.entries()) {
      // alternate which goes first
      const modes = i % 2 ? (['smart', 'encoded'] as const) : (['encoded', 'smart'] as const);
      const line: string[] = [];
      for (const mode of modes) {
        const cpu0 = childCpuSeconds();
        await renderHighlightClip({ sessionId: 'sess_bench', input, probe, storage, clip: { ...clip, highlightId: `${clip.highlightId}_${mode}` }, smartCut: mode === 'smart' ? smartCut : null });
        const cpu = childCpuSeconds() - cpu0;
        totals[mode] += cpu;
        line.push(`${mode} ${cpu.toFixed(2)}`);
      }
      console.log(`clip ${clip.start}–${clip.end} s: cpu ${line.join(', ')} s`);
    }
    console.log(
      `per 10 s clip: encoded ${(totals.encoded / clipCount).toFixed(2)} cpu-s, smart cut ${(totals.smart / clipCount).toFixed(2)} cpu-s (${((totals.smart / totals.encoded - 1) * 100).toFixed(0)} %)`,
    );
    return;

    async function onDemandComparison() {
      const totals = { eager: 0, 'on-demand': 0 };
      const firstRequest = new Map<string, { cpu: number; wall: number; n: number }>();
      for (const [i, clip] of clips.entries()) {
        const modes = i % 2 ? (['on-demand', 'eager'] as const) : (['eager', 'on-demand'] as const);
        const line: string[] = [];
        for (const mode of modes) {
          const cpu0 = childCpuSeconds();
          const id = `${clip.highlightId}_${mode}`;
          const result = await renderHighlightClip({ sessionId: 'sess_bench', input, probe, storage, clip: { ...clip, highlightId: id }, renditions: mode });
          const cpu = childCpuSeconds() - cpu0;
          totals[mode] += cpu;
          line.push(`${mode} ${cpu.toFixed(2)}`);
          if (mode !== 'on-demand') continue;
          for (const r of HIGHLIGHT_RENDITIONS) {
            const key = result.video[r.name];
            if (!key || key === result.video.horizontal) continue;
            const c0 = childCpuSeconds();
            const t0 = performance.now();
            await ensureOnDemandRendition(storage, mediaKeys.highlightVideo('sess_bench', id, r.name));
            const m = firstRequest.get(r.name) ?? { cpu: 0, wall: 0, n: 0 };
            firstRequest.set(r.name, { cpu: m.cpu + childCpuSeconds() - c0, wall: m.wall + (performance.now() - t0) / 1000, n: m.n + 1 });
          }
        }
        console.log(`clip ${clip.start}–${clip.end} s at processing: cpu ${line.join(', ')} s`);
      }
      const eager = totals.eager / clipCount;
      const onDemand = totals['on-demand'] / clipCount;
      console.log(`per 10 s clip at processing: eager ${eager.toFixed(2)} cpu-s, on demand ${onDemand.toFixed(2)} cpu-s (${((onDemand / eager - 1) * 100).toFixed(0)} %)`);
      let all = 0;
      for (const [name, m] of firstRequest) {
        all += m.cpu / m.n;
        console.log(`first request of ${name.padEnd(5)} (10 s clip): cpu ${(m.cpu / m.n).toFixed(2)} s, wall ${(m.wall / m.n).toFixed(2)} s`);
      }
      console.log(`every rendition requested once: ${(onDemand + all).toFixed(2)} cpu-s per 10 s clip against ${eager.toFixed(2)} eager`);
    }

    async function renditionsAndClips() {
    const remux = remuxDecision(await remuxFacts(input, probe), plannedSessionRenditions(probe));
    console.log(`renditions: ${plannedSessionRenditions(probe).map((r) => `${r.name} ${r.name === remux.rendition ? 'copied' : 'encoded'}`).join(', ')}`);
    await measure('renditions: one process, split (shipped)', seconds, () => renderSessionMedia({ sessionId: 'sess_bench', input, probe, storage }));
    await measure('renditions: one process per rendition', seconds, async () => {
      for (const r of plannedSessionRenditions(probe)) {
        await runFfmpeg(['-i', input, '-vf', `scale=${r.width}:${r.height},setsar=1`, ...h264Args({ crf: r.crf, maxrateKbps: r.maxrateKbps, fps: probe.fps, audio: true }), join(dir, `${r.name}.mp4`)]);
      }
    });

    for (const concurrency of [1, 2]) {
      const cpu = await measure(`clips: ${clipCount} × 10 s, ${concurrency} at a time`, clipCount * 10, () =>
        renderHighlightClips({ sessionId: 'sess_bench', input, probe, storage, clips, concurrency }),
      );
      console.log(`${''.padEnd(44)} cpu per 10 s clip ${(cpu / clipCount).toFixed(2)} s`);
    }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
