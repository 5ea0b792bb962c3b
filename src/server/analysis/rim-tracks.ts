/**
 * A moving camera's hoops followed through its sampled frames by their appearance (the rim reads of
 * `hoop-appearance.ts`), and the camera path re-anchored on them. The finishing stage's work: the
 * rim reads themselves are made during extraction.
 */
import { median } from './arcs';
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
 * Rim score that carries a track on (see {@link trackRims}): a rim read while the camera swings is blurred along the
 * swing and scores lower than one read still. Measured on pan-985: its rims scored 1.0 with the camera still and
 * 0.60–0.71 in the seconds the camera swung under them (at 16.8, 62.5 and 80.8 s, three shots), where the
 * path put them (within 7 px); with 0.8 needed throughout, their tracks broke or never started and the shots were lost.
 */
export const RIM_FOLLOW_SCORE = 0.55;

/** Rim score that starts a track (see {@link trackRims}). */
export const RIM_START_SCORE = 0.8;

/** A track's samples whose rim scored as one that starts a track: where its rim is placed. */
export function firmTrack(t: RimTrack): RimTrack {
  const firm = t.obs.filter((o) => o.score >= RIM_START_SCORE);
  return firm.length ? { obs: firm } : t;
}

/**
 * A track's firm samples ({@link firmTrack}) in runs with at most one sample between them (samples `step` frames
 * apart): the tracks that rims scoring ≥ {@link RIM_START_SCORE} alone give. The caller anchors the camera path on
 * the runs of ≥ 3 samples, as it was anchored before blurred reads carried tracks on, so the path the make rules were
 * measured on stays. On the firm reads of whole tracks, 24 panning games gave about the same calls as on these runs
 * (1 more right, 1 fewer wrong); on every read, blurred ones included (and tracks kept with one firm read), 9 more of
 * their makes and misses were called wrong.
 */
export function firmRuns(t: RimTrack, step: number): RimTrack[] {
  const out: RimTrack[] = [];
  for (const o of firmTrack(t).obs) {
    const run = out[out.length - 1];
    if (run && o.index - run.obs[run.obs.length - 1].index <= 2 * step) run.obs.push(o);
    else out.push({ obs: [o] });
  }
  return out;
}

/** Where the rim of `from` is expected in sample `index`, and how far (px) a candidate may be from it. */
function gate(from: RimTrack['obs'][number], index: number, ox: ArrayLike<number>, oy: ArrayLike<number>) {
  const mx = ox[index] - ox[from.index];
  const my = oy[index] - oy[from.index];
  return {
    px: from.x + mx,
    py: from.y + my,
    gx: Math.max(1.5 * from.w, 0.8 * from.w + 0.2 * Math.abs(mx)),
    gy: Math.max(0.8 * from.w, 0.5 * from.w + 0.2 * Math.abs(my)),
  };
}

/**
 * How much wider than its track's firm width a rim read in a swing may be (see {@link trackRims}): the blur widens
 * it. On pan-991 a rim read 16 px wide at 1.0 read 32, 28 and 26 px at 0.63–0.71 in the three samples of a swing
 * after it (94–96 s); held to 1.6 times its width the track ended there and the shot at 95.9 s was lost.
 */
export const RIM_BLUR_WIDER = 2.2;

/**
 * How far candidate `c` is from where gate `g` expects its rim (in gates; > 1 on either axis, or another size:
 * Infinity). Its width is held against `width`, the track's firm width ({@link firmWidth}): from 1.6 times narrower
 * to 1.6 times wider, or {@link RIM_BLUR_WIDER} for a read below `minScore` (a swing blurs the rim wider).
 */
function gateDistance(g: ReturnType<typeof gate>, width: number, c: RimCandidate, minScore: number): number {
  const dx = Math.abs(c.x - g.px);
  const dy = Math.abs(c.y - g.py);
  const wider = c.score >= minScore ? 1.6 : RIM_BLUR_WIDER;
  if (dx > g.gx || dy > g.gy || c.w > wider * width || c.w < width / 1.6) return Infinity;
  return dx / g.gx + dy / g.gy;
}

/**
 * The track's firm width: the median width of its three firm reads nearest its end (`last`) or its start. A firm
 * read can be blurred wide too: on pan-991 at 65 and 66 s the rim read 26 and 30 px wide at 1.0 and 0.94, and 16–20 px
 * in the five samples after; held against the last firm read alone, reads that narrow end a track. Measured on the 24
 * panning games against the last firm read: 2 more shots found, made/missed right 210 → 214 and wrong 35 → 33.
 */
function firmWidth(t: RimTrack, minScore: number, last: boolean): number {
  const firm = t.obs.filter((o) => o.score >= minScore).map((o) => o.w);
  if (!firm.length) return (last ? t.obs[t.obs.length - 1] : t.obs[0]).w;
  return median(last ? firm.slice(-3) : firm.slice(0, 3));
}

/**
 * Follows hoops through the sampled frames of a moving camera in image coordinates: a rim seen in
 * one sample is looked for in the next where the camera path says it moved to, with a gate that
 * grows with the camera motion (the integrated path drifts on fast pans). A track starts at a rim
 * scoring ≥ `minScore` and goes on through rims scoring ≥ {@link RIM_FOLLOW_SCORE} (a swing blurs
 * them); it is followed back the same way from its first sample. A track ends when its rim leaves
 * the frame or is not seen in two samples running. Only tracks seen in `minObs` samples are kept:
 * one-off candidates are court lines, shirts or shoes.
 */
export function trackRims(
  samples: RimSample[],
  ox: ArrayLike<number>,
  oy: ArrayLike<number>,
  dims: { width: number; height: number },
  minScore = RIM_START_SCORE,
  minObs = 3,
  followScore = RIM_FOLLOW_SCORE,
): RimTrack[] {
  const done: RimTrack[] = [];
  let live: Array<{ t: RimTrack; misses: number }> = [];
  const taken = samples.map((smp) => new Uint8Array(smp.rims.length));
  const inView = (x: number) => x > 0 && x < dims.width;
  samples.forEach((smp, si) => {
    const pairs: Array<{ d: number; li: number; ci: number }> = [];
    live.forEach((lt, li) => {
      const g = gate(lt.t.obs[lt.t.obs.length - 1], smp.index, ox, oy);
      const width = firmWidth(lt.t, minScore, true);
      smp.rims.forEach((c, ci) => {
        if (c.score < followScore) return;
        const d = gateDistance(g, width, c, minScore);
        if (d < Infinity) pairs.push({ d, li, ci });
      });
    });
    pairs.sort((a, b) => a.d - b.d);
    const matched = new Set<number>();
    for (const p of pairs) {
      if (matched.has(p.li) || taken[si][p.ci]) continue;
      matched.add(p.li);
      taken[si][p.ci] = 1;
      const c = smp.rims[p.ci];
      live[p.li].t.obs.push({ index: smp.index, x: c.x, y: c.y, w: c.w, score: c.score });
      live[p.li].misses = 0;
    }
    const next: typeof live = [];
    live.forEach((lt, li) => {
      if (matched.has(li)) return next.push(lt);
      const last = lt.t.obs[lt.t.obs.length - 1];
      if (++lt.misses <= 1 && inView(gate(last, smp.index, ox, oy).px)) next.push(lt);
      else done.push(lt.t);
    });
    smp.rims.forEach((c, ci) => {
      if (taken[si][ci] || c.score < minScore) return;
      taken[si][ci] = 1;
      next.push({ t: { obs: [{ index: smp.index, x: c.x, y: c.y, w: c.w, score: c.score }] }, misses: 0 });
    });
    live = next;
  });
  done.push(...live.map((l) => l.t));
  // each track followed back from its first sample, through rims no track took
  const at = new Map(samples.map((smp, si) => [smp.index, si]));
  for (const t of done.sort((a, b) => a.obs[0].index - b.obs[0].index)) {
    let misses = 0;
    for (let si = at.get(t.obs[0].index)! - 1; si >= 0; si--) {
      const g = gate(t.obs[0], samples[si].index, ox, oy);
      const width = firmWidth(t, minScore, false);
      let best = -1;
      let bestD = Infinity;
      samples[si].rims.forEach((c, ci) => {
        if (taken[si][ci] || c.score < followScore) return;
        const d = gateDistance(g, width, c, minScore);
        if (d < bestD) [best, bestD] = [ci, d];
      });
      if (best >= 0) {
        taken[si][best] = 1;
        const c = samples[si].rims[best];
        t.obs.unshift({ index: samples[si].index, x: c.x, y: c.y, w: c.w, score: c.score });
        misses = 0;
      } else if (++misses > 1 || !inView(g.px)) break;
    }
  }
  return done.filter((t) => t.obs.filter((o) => o.score >= minScore).length >= minObs).sort((a, b) => a.obs[0].index - b.obs[0].index);
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
