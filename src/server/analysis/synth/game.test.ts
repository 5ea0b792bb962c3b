import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGroundTruth, type GroundTruthClip } from '../ground-truth.js';
import { probeVideo, runFfmpeg } from '../../media/ffmpeg.js';
import { shuffled } from './draw.js';
import { ownClothes } from './entities.js';
import { Rng } from './prng.js';
import { renderSyntheticGame, simulateSyntheticGame, type ScriptEvent } from './render.js';

function checkConsistency(clip: GroundTruthClip): void {
  const all = [...clip.attempts, ...((clip.synthetic?.offscreen_attempts as GroundTruthClip['attempts']) ?? [])];
  const byTeam = [0, 0];
  for (const a of all) {
    expect(a.made).toBe((a.points ?? 0) > 0);
    if (a.made) expect(a.points).toBe(a.is_free_throw ? 1 : a.is_three_point ? 3 : 2);
    expect(['swish', 'rim_in', 'bank_in'].includes(a.kind!)).toBe(a.made);
    expect(a.rim_arrival_s).toBeGreaterThan(a.release_s!);
    if (a.assister) expect(a.made && !a.is_free_throw).toBe(true);
    if (a.made) expect(a.rebounder).toBeNull();
    byTeam[a.shooter!.team] += a.points ?? 0;
  }
  expect(clip.synthetic?.points_by_team).toEqual(byTeam);
  for (const t of clip.synthetic!.teams) expect(t.score).toBe(byTeam[t.id]);
  expect(clip.n_attempts).toBe(clip.attempts.length);
  expect(clip.n_made).toBe(clip.attempts.filter((a) => a.made).length);
  clip.attempts.forEach((a, i) => expect(a.n).toBe(i + 1));
}

describe('game simulation (no video)', () => {
  it('is deterministic per seed and differs between seeds', () => {
    const a = simulateSyntheticGame({ seed: 5, durationSeconds: 90 });
    const b = simulateSyntheticGame({ seed: 5, durationSeconds: 90 });
    const c = simulateSyntheticGame({ seed: 6, durationSeconds: 90 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(c)).not.toBe(JSON.stringify(a));
    expect(a.n_attempts).toBeGreaterThan(4);
  });

  it('produces valid, self-consistent ground truth for full-court panning games', () => {
    const clip = simulateSyntheticGame({ seed: 8, durationSeconds: 150, camera: 'panning', players: 10 });
    parseGroundTruth({ schema: {}, clips: [clip] });
    expect(clip.synthetic!.hoops).toHaveLength(2);
    const all = [...clip.attempts, ...(clip.synthetic!.offscreen_attempts as GroundTruthClip['attempts'])];
    expect(new Set(all.map((a) => a.hoop_index)).size).toBe(2);
    checkConsistency(clip);
  });

  it('mixes outcomes, 2s and 3s, assists and rebounds over a longer game', () => {
    const clip = simulateSyntheticGame({ seed: 21, durationSeconds: 480, players: 6 });
    checkConsistency(clip);
    const kinds = new Set(clip.attempts.map((a) => a.kind));
    for (const k of ['swish', 'rim_in', 'rim_out']) expect(kinds.has(k as never)).toBe(true);
    expect(clip.attempts.some((a) => a.is_three_point)).toBe(true);
    expect(clip.attempts.some((a) => !a.is_three_point && !a.is_free_throw)).toBe(true);
    expect(clip.attempts.some((a) => a.assister)).toBe(true);
    expect(clip.attempts.some((a) => a.rebounder)).toBe(true);
    expect(clip.n_attempts).toBeGreaterThan(35);
  });

  it('script mode produces exactly the scripted attempts, in order', () => {
    const script: ScriptEvent[] = [
      { kind: 'swish', points: 2 },
      { kind: 'rim_out' },
      { kind: 'bank_in' },
      { kind: 'air_ball' },
      { kind: 'free_throw', made: true },
      { kind: 'three', made: true },
      { kind: 'rim_in', points: 3 },
      { kind: 'bank_out' },
      { kind: 'free_throw', made: false },
    ];
    const clip = simulateSyntheticGame({ seed: 3, script, players: 4 });
    checkConsistency(clip);
    expect(clip.attempts).toHaveLength(script.length);
    const a = clip.attempts;
    expect(a.map((x) => x.kind).slice(0, 4)).toEqual(['swish', 'rim_out', 'bank_in', 'air_ball']);
    expect(a[0].points).toBe(2);
    expect(a[4]).toMatchObject({ is_free_throw: true, made: true, points: 1 });
    expect(a[5]).toMatchObject({ is_three_point: true, made: true, points: 3 });
    expect(a[6]).toMatchObject({ kind: 'rim_in', is_three_point: true, points: 3 });
    expect(a[7]).toMatchObject({ kind: 'bank_out', made: false, points: 0 });
    expect(a[8]).toMatchObject({ is_free_throw: true, made: false, points: 0 });
    expect(a[4].distance_m).toBeGreaterThan(4.2);
    expect(a[4].distance_m).toBeLessThan(4.7);
  });

  it('off-ball players shuffle in live play and stand still for free throws; the shuffle changes no event', () => {
    const script: ScriptEvent[] = [
      { kind: 'swish' },
      { kind: 'free_throw', made: true },
      { kind: 'rim_out' },
      { kind: 'free_throw', made: false },
      { kind: 'three', made: true },
    ];
    // per frame: time, and each player's drawn offset from its simulated position (m)
    const frames: Array<{ t: number; offsets: Map<string, number>; nearBall: Set<string> }> = [];
    const clip = simulateSyntheticGame({ seed: 31, script, players: 6, offBallMotion: true }, 'x.mp4', (g) => {
      const offsets = new Map<string, number>();
      const nearBall = new Set<string>();
      for (const p of g.players) {
        const d = shuffled(p, g.t, g.ball);
        offsets.set(p.id, Math.hypot(d.pos.x - p.pos.x, d.pos.y - p.pos.y));
        if (Math.hypot(g.ball.pos.x - p.pos.x, g.ball.pos.y - p.pos.y) < 3) nearBall.add(p.id);
      }
      frames.push({ t: g.t, offsets, nearBall });
    });
    expect(clip.attempts.map((a) => a.is_free_throw)).toEqual([false, true, false, true, false]);
    for (const a of clip.attempts) {
      // the second before the release, players away from the ball
      const window = frames.filter((f) => f.t > a.release_s! - 1 && f.t <= a.release_s!);
      const moved = new Map<string, number>();
      for (const f of window) for (const [id, o] of f.offsets) if (!f.nearBall.has(id)) moved.set(id, Math.max(moved.get(id) ?? 0, o));
      expect(moved.size).toBeGreaterThanOrEqual(3);
      if (a.is_free_throw) for (const o of moved.values()) expect(o).toBe(0);
      else expect([...moved.values()].filter((o) => o > 0.05).length).toBeGreaterThanOrEqual(3);
    }
    // the shuffle is drawn only: the game it draws is the one simulated without looking at it
    const { offBallMotion: _, ...without } = clip.synthetic!.options;
    // and without the option nobody is drawn off their simulated spot
    let offset = 0;
    const plain = simulateSyntheticGame({ seed: 31, script, players: 6 }, 'x.mp4', (g) => {
      for (const p of g.players) {
        const d = shuffled(p, g.t, g.ball);
        offset = Math.max(offset, Math.hypot(d.pos.x - p.pos.x, d.pos.y - p.pos.y));
      }
    });
    expect(offset).toBe(0);
    expect(JSON.stringify({ ...plain, synthetic: { ...plain.synthetic, options: without } })).toBe(
      JSON.stringify({ ...clip, synthetic: { ...clip.synthetic, options: without } }),
    );
  });

  it('a pickup game dresses every player in their own shirt and plays the same game; the option is recorded only when set', () => {
    const plain = simulateSyntheticGame({ seed: 5, durationSeconds: 40, players: 10 });
    const pickup = simulateSyntheticGame({ seed: 5, durationSeconds: 40, players: 10, shirts: true });
    expect(pickup.attempts).toEqual(plain.attempts);
    expect(pickup.synthetic?.options.shirts).toBe(true);
    expect('shirts' in (plain.synthetic?.options ?? {})).toBe(false);
    const ids = plain.synthetic!.players!.map((p) => p.id);
    const clothes = ownClothes(ids, new Rng(5).fork('shirts'));
    expect(new Set([...clothes.values()].map((c) => c.shirt.join())).size).toBe(10);
    expect(ownClothes(ids, new Rng(5).fork('shirts'))).toEqual(clothes);
  });

  it('noShots and noHoop clips have no attempts', () => {
    const a = simulateSyntheticGame({ seed: 4, durationSeconds: 40, noShots: true });
    expect(a.n_attempts).toBe(0);
    expect(a.synthetic!.offscreen_attempts).toEqual([]);
    expect(a.synthetic!.passes).toBeGreaterThan(3);
    const b = simulateSyntheticGame({ seed: 4, durationSeconds: 40, noHoop: true });
    expect(b.n_attempts).toBe(0);
    expect(b.synthetic!.hoops).toEqual([]);
  });

  it('rejects invalid options', () => {
    expect(() => simulateSyntheticGame({ players: 11 })).toThrow(/players/);
    expect(() => simulateSyntheticGame({ width: 641 })).toThrow(/even/);
    expect(() => simulateSyntheticGame({ teamColors: 'pink-pink' })).toThrow(/preset/);
  });
});

describe('rendered clips', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'synth-test-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('renders a clip with the requested size, fps, duration and an audio track, plus its ground truth', async () => {
    const out = join(dir, 'clip.mp4');
    const opts = { seed: 2, durationSeconds: 4, width: 480, height: 270, fps: 25 };
    const clip = await renderSyntheticGame(opts, out);
    const probe = await probeVideo(out);
    expect(probe.width).toBe(480);
    expect(probe.height).toBe(270);
    expect(probe.fps).toBeCloseTo(25, 3);
    expect(probe.codec).toBe('h264');
    expect(probe.hasAudio).toBe(true);
    expect(Math.abs(probe.durationSeconds - 4)).toBeLessThan(0.15);
    expect(clip.media.frames).toBe(100);
    const file = parseGroundTruth(JSON.parse(await readFile(join(dir, 'clip.json'), 'utf8')));
    expect(file.clips).toHaveLength(1);
    expect(file.clips[0].file).toBe('clip.mp4');
    const dry = simulateSyntheticGame(opts, 'clip.mp4');
    expect({ ...file.clips[0], media: null }).toEqual({ ...dry, media: null });
  });

  it('draws the ball where the ground truth says it is released', async () => {
    const out = join(dir, 'script.mp4');
    const clip = await renderSyntheticGame({ seed: 12, script: [{ kind: 'swish' }, { kind: 'three', made: false }], width: 640, height: 360, players: 2, view: 'sideline', noise: 0, crf: 18 }, out);
    expect(clip.attempts).toHaveLength(2);
    for (const a of clip.attempts) {
      const t = a.release_s! + 0.5 / 30;
      const { stdout } = await runFfmpeg(['-ss', t.toFixed(3), '-i', out, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']);
      expect(stdout.length).toBe(640 * 360 * 3);
      const cx = Math.round(a.release_xy!.x * 640);
      const cy = Math.round(a.release_xy!.y * 360);
      let orange = 0;
      for (let y = cy - 4; y <= cy + 4; y++) {
        for (let x = cx - 4; x <= cx + 4; x++) {
          if (x < 0 || y < 0 || x >= 640 || y >= 360) continue;
          const i = (y * 640 + x) * 3;
          const r = stdout[i];
          const g = stdout[i + 1];
          const b = stdout[i + 2];
          if (r > g + 35 && r > b + 60) orange++;
        }
      }
      expect(orange, `ball pixels near release of attempt ${a.n}`).toBeGreaterThan(3);
    }
  });
});
