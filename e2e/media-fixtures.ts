import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { renderSyntheticGame } from '../src/server/analysis/synth/render';
import { ffmpegPath, ffprobePath } from '../src/server/media/ffmpeg';

const run = promisify(execFile);

export interface FixtureServer {
  url: (name: string) => string;
  close: () => Promise<void>;
  truth: Record<string, Awaited<ReturnType<typeof renderSyntheticGame>>>;
}

/**
 * Source videos for the processing tests, served over HTTP on loopback like a customer's
 * CDN: synthetic games with exact ground truth, plus files that must fail (missing, not a
 * video, too tall, a download that stalls).
 */
export async function startFixtureServer(dir: string, opts: { only?: string[] } = {}): Promise<FixtureServer> {
  mkdirSync(dir, { recursive: true });
  const truth: FixtureServer['truth'] = {};
  const small = { width: 640, height: 360 };
  const want = (name: string) => !opts.only || opts.only.includes(name);
  if (want('game.mp4')) truth['game.mp4'] = await renderSyntheticGame({ seed: 3, ...small, script: [{ kind: 'swish' }, { kind: 'air_ball' }, { kind: 'bank_in' }] }, join(dir, 'game.mp4'));
  if (want('no-shots.mp4')) truth['no-shots.mp4'] = await renderSyntheticGame({ seed: 4, ...small, durationSeconds: 8, noShots: true }, join(dir, 'no-shots.mp4'));
  if (want('no-hoop.mp4')) truth['no-hoop.mp4'] = await renderSyntheticGame({ seed: 5, ...small, durationSeconds: 8, noHoop: true }, join(dir, 'no-hoop.mp4'));
  if (want('too-tall.mp4')) await run(ffmpegPath(), ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=2560x1440:rate=30:duration=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', join(dir, 'too-tall.mp4')]);

  const server: Server = createServer((req, res) => {
    const name = (req.url ?? '/').slice(1).split('?')[0];
    if (name === 'not-a-video.mp4') {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end('this is not a video, just some text pretending to be one');
      return;
    }
    if (name === 'stall.mp4') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '50000000' });
      res.write(Buffer.alloc(1000));
      return; // never finishes
    }
    try {
      const file = join(dir, name);
      const size = statSync(file).size;
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(size) });
      res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    truth,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** ffprobe of a downloaded media URL. */
export async function probeUrl(url: string, into: string) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} → ${res.status}`);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(into, Buffer.from(await res.arrayBuffer()));
  const { stdout } = await run(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', into]);
  const info = JSON.parse(stdout) as { streams: Array<{ codec_type: string; width?: number; height?: number }>; format: { duration: string } };
  const video = info.streams.find((s) => s.codec_type === 'video');
  return { width: video?.width ?? 0, height: video?.height ?? 0, duration: Number(info.format.duration), audio: info.streams.some((s) => s.codec_type === 'audio') };
}
