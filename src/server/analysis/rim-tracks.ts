/**
 * A moving camera's hoops followed through its sampled frames by their appearance (the rim reads of
 * `hoop-appearance.ts`), and the camera path re-anchored on them. The finishing stage's work: the
 * rim reads themselves are made during extraction.
 */
import type { RimCandidate } from './hoop-appearance';

/** Rim candidates of one sampled frame, in image pixels of that frame. */
export interface RimSample {
  index: number;
  rims: RimCandidate[];
}

/** A hoop followed by its appearance across sampled frames of a moving camera. */
export interface RimTrack {
  /** Sampled frame indices and the rim seen there, in image pixels. */
  obs: Array<{ index: number; x: number; y: number; w: number; score: number }>;
}

/**
 * Follows hoops through the sampled frames of a moving camera in image coordinates: a rim seen in
 * one sample is looked for in the next where the camera path says it moved to, with a gate that
 * grows with the camera motion (the integrated path drifts on fast pans). A track ends when its
 * rim leaves the frame or is not seen in two samples running. Only tracks seen in `minObs`
 * samples are kept: one-off candidates are court lines, shirts or shoes.
 */
export function trackRims(
  samples: RimSample[],
  ox: ArrayLike<number>,
  oy: ArrayLike<number>,
  dims: { width: number; height: number },
  minScore = 0.8,
  minObs = 3,
): RimTrack[] {
  const done: RimTrack[] = [];
  let live: Array<{ t: RimTrack; misses: number }> = [];
  for (const smp of samples) {
    const cands = smp.rims.filter((r) => r.score >= minScore);
    const used = new Uint8Array(cands.length);
    const pairs: Array<{ d: number; li: number; ci: number }> = [];
    live.forEach((lt, li) => {
      const last = lt.t.obs[lt.t.obs.length - 1];
      const mx = ox[smp.index] - ox[last.index];
      const my = oy[smp.index] - oy[last.index];
      const px = last.x + mx;
      const py = last.y + my;
      const gx = Math.max(1.5 * last.w, 0.8 * last.w + 0.2 * Math.abs(mx));
      const gy = Math.max(0.8 * last.w, 0.5 * last.w + 0.2 * Math.abs(my));
      cands.forEach((c, ci) => {
        const dx = Math.abs(c.x - px);
        const dy = Math.abs(c.y - py);
        if (dx > gx || dy > gy || c.w > 1.6 * last.w || c.w < last.w / 1.6) return;
        pairs.push({ d: dx / gx + dy / gy, li, ci });
      });
    });
    pairs.sort((a, b) => a.d - b.d);
    const matched = new Set<number>();
    for (const p of pairs) {
      if (matched.has(p.li) || used[p.ci]) continue;
      matched.add(p.li);
      used[p.ci] = 1;
      const c = cands[p.ci];
      live[p.li].t.obs.push({ index: smp.index, x: c.x, y: c.y, w: c.w, score: c.score });
      live[p.li].misses = 0;
    }
    const next: typeof live = [];
    live.forEach((lt, li) => {
      if (matched.has(li)) return next.push(lt);
      const last = lt.t.obs[lt.t.obs.length - 1];
      const px = last.x + ox[smp.index] - ox[last.index];
      const inView = px > 0 && px < dims.width;
      if (++lt.misses <= 1 && inView) next.push(lt);
      else done.push(lt.t);
    });
    cands.forEach((c, ci) => {
      if (!used[ci]) next.push({ t: { obs: [{ index: smp.index, x: c.x, y: c.y, w: c.w, score: c.score }] }, misses: 0 });
    });
    live = next;
  }
  done.push(...live.map((l) => l.t));
  return done.filter((t) => t.obs.length >= minObs).sort((a, b) => a.obs[0].index - b.obs[0].index);
}

/**
 * Re-anchors an integrated camera path on tracked hoops. Frame-to-frame shifts drift (integer
 * steps, a yawing lens moves the image edges more than its centre), by hundreds of pixels over a
 * panning game; a hoop does not move, so while one is tracked its image position minus the
 * corrected offset must stay put. Each track is anchored where it starts (so the correction is
 * continuous), the correction at a sample is the mean over the tracks seen there, held while no
 * hoop is in view and interpolated linearly between samples. Returns the corrected offsets.
 */
export function anchorPath(
  tracks: RimTrack[],
  ox: Float64Array,
  oy: Float64Array,
): { ox: Float64Array; oy: Float64Array } {
  const n = ox.length;
  const bySample = new Map<number, Array<{ t: number; x: number; y: number }>>();
  tracks.forEach((tr, t) => {
    for (const o of tr.obs) {
      const l = bySample.get(o.index) ?? [];
      l.push({ t, x: o.x, y: o.y });
      bySample.set(o.index, l);
    }
  });
  const idx = [...bySample.keys()].sort((a, b) => a - b);
  const anchors = new Map<number, { x: number; y: number }>();
  const knots: Array<{ f: number; cx: number; cy: number }> = [];
  let cx = 0;
  let cy = 0;
  for (const f of idx) {
    const seen = bySample.get(f)!;
    const old = seen.filter((s) => anchors.has(s.t));
    if (old.length) {
      cx = old.reduce((a, s) => a + (s.x - ox[f] - anchors.get(s.t)!.x), 0) / old.length;
      cy = old.reduce((a, s) => a + (s.y - oy[f] - anchors.get(s.t)!.y), 0) / old.length;
    }
    for (const s of seen) if (!anchors.has(s.t)) anchors.set(s.t, { x: s.x - ox[f] - cx, y: s.y - oy[f] - cy });
    knots.push({ f, cx, cy });
  }
  const nx = new Float64Array(ox);
  const ny = new Float64Array(oy);
  if (!knots.length) return { ox: nx, oy: ny };
  let k = 0;
  for (let f = 0; f < n; f++) {
    while (k + 1 < knots.length && knots[k + 1].f <= f) k++;
    const a = knots[k];
    const b = knots[k + 1];
    let x = a.cx;
    let y = a.cy;
    if (f < a.f) {
      x = a.cx;
      y = a.cy;
    } else if (b) {
      const u = (f - a.f) / (b.f - a.f);
      x = a.cx + u * (b.cx - a.cx);
      y = a.cy + u * (b.cy - a.cy);
    }
    nx[f] += x;
    ny[f] += y;
  }
  return { ox: nx, oy: ny };
}
