import type { DecodeGeometry } from './decode';
import { FrameBuffers, frameBytes, streamFrames, usesSidePipe, type FrameRange } from './decode';
import { packedFrameShift, packedLength, unpackFeatures, type FrameFeatures, type PackedFeatures } from './frame-features';
import type { RimCandidate } from './hoop-appearance';
import type { RimSample } from './rim-tracks';
import type { WorkerPool } from './pool';

/** A full analysis frame kept for the hoop locator and player colour sampling. */
export interface SampledFrame {
  index: number;
  t: number;
  /** Interleaved RGB, whatever the decode chain delivers. */
  rgb: Uint8Array;
}

export interface ExtractResult {
  /** Per-frame features as the workers return them (pass these on to another worker). */
  packed: PackedFeatures[];
  /** The same, unpacked (computed on first access, on the calling thread). */
  readonly features: FrameFeatures[];
  samples: SampledFrame[];
  /** Rim candidates (image pixels) of a frame about every second while the camera moves. */
  rimSamples: RimSample[];
  /**
   * While the camera moves, every second rim-search frame (about one every 2 s; at most
   * `maxViewSamples`, over a longer stride for a long video): where a panning camera's court is read,
   * per shot (see `court-lines.ts#courtViewsAt`).
   */
  viewSamples: SampledFrame[];
  frameCount: number;
  /** `parts`: ffmpeg processes that decoded the video at once; `redecoded`: a part whose seek did not land on its first frame was decoded again from the start (see {@link decodeSplits}). */
  timing: { decodeWaitMs: number; totalMs: number; parts: number; redecoded: boolean };
}

/** A view sample is kept at every this many rim searches at least (about one every 2 s while the camera moves). */
const VIEW_EVERY_SEARCHES = 2;
/**
 * At most this many view samples (~0.7 MB each at 640 × 360): a video longer than twice as many
 * seconds keeps one every `length / MAX_VIEW_SAMPLES` seconds, a stride fixed before decoding.
 */
export const MAX_VIEW_SAMPLES = 120;

/** Frames per worker task: longer runs repeat less context work (2 frames per run). */
export const RUN = 24;

/** A frame is searched for rims while the camera moves: when a run that ends at most this many seconds before it … */
export const RIM_SEARCH_AFTER_MOVE_S = 3;
/** … shifted (Σ |dx| + |dy| over its frames) this many pixels or more. */
export const RIM_SEARCH_SHIFT_PX = 3;

/** A video shorter than this (seconds) is decoded in one piece: a part's seek costs up to a key-frame interval of decoding. */
export const SPLIT_MIN_SECONDS = 40;

/**
 * Where a video is cut to be decoded in parts at once (the first frame of each part after the
 * first; multiples of {@link RUN}, so that the runs and their features are the same as one
 * decode's). One ffmpeg process decodes at most one core's worth, and on two cores it was the
 * bottleneck of extraction with the other core half idle (MEASUREMENTS.md, "Speed work, eighth round"):
 * with a worker pool of two or more, a video of at least {@link SPLIT_MIN_SECONDS} is decoded in
 * two parts, each by its own process. `SWISH_DECODE_PARTS` (1–8) sets the count for machines with
 * more cores (1: one piece). A decode with a side pipe (the YUV and two-stage chains) is not cut.
 */
export function decodeSplits(geo: DecodeGeometry, expectedFrames: number, poolSize: number): number[] {
  const env = Number(process.env.SWISH_DECODE_PARTS);
  const want = Number.isInteger(env) && env >= 1 && env <= 8 ? env : poolSize >= 2 ? 2 : 1;
  if (want < 2 || usesSidePipe(geo)) return [];
  const minPart = (SPLIT_MIN_SECONDS / 2) * geo.fps;
  const parts = Math.min(want, Math.floor(expectedFrames / minPart));
  const splits: number[] = [];
  for (let k = 1; k < parts; k++) splits.push(Math.round((expectedFrames * k) / parts / RUN) * RUN);
  return splits;
}

/** One part of a decode: frames `[lo, hi)` are its own; it is decoded from `lo - 1` (the context frame of its first run) or from 0. */
interface Part {
  lo: number;
  hi: number;
  seek: boolean;
  /** False once its frames are known to be wrong (its seek missed): nothing it sends is kept. */
  alive: boolean;
  /** Copies of the frames it shares with its neighbour: its first two (a seeking part), its last two (a part with an end). */
  head: Uint8Array[];
  tail: Uint8Array[];
  /** Index after the last frame it decoded. */
  count: number;
  /** Hands its last, short run to a worker (when it turns out to be the last part). */
  flush: () => void;
}

/**
 * Streams a video through ffmpeg and the worker pool: frames are grouped into runs of
 * consecutive frames (plus one context frame on each side) and each run is processed by one
 * worker; at most two runs per worker are in flight, so memory stays bounded. A few frames
 * are kept (about one per `sampleEvery` seconds, at most `maxSamples`) for the hoop locator.
 * While the camera moves (a run's summed shift ≥ 3 px, held for 3 s), one frame a second is
 * also searched for rims in a worker, so a panning camera's hoops can be followed in the image.
 * Whether a frame is searched is decided from the runs that end before it, never from how
 * far the workers have got: such a frame is held until those runs are back, so the same video
 * always gets the same searches.
 *
 * A long video is decoded in parts at once (see {@link decodeSplits}; `splits` chooses the cuts,
 * for tests). Each part also decodes the frame before its first (the context of its first run),
 * and the part before it the frame after its last, so every run gets the frames one decode would
 * give it. Those two shared frames are compared: when a part's seek did not land on them, that
 * part and the ones after it are decoded again from the start in one piece, so the features are
 * always one decode's.
 */
export async function extractFeatures(
  path: string,
  geo: DecodeGeometry,
  pool: WorkerPool,
  opts: {
    durationSeconds: number;
    sampleEvery?: number;
    maxSamples?: number;
    maxViewSamples?: number;
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
    splits?: number[];
  },
): Promise<ExtractResult> {
  const t0 = performance.now();
  const maxSamples = opts.maxSamples ?? 24;
  const expected = Math.max(1, Math.round(opts.durationSeconds * geo.fps));
  const sampleStep = Math.max(1, Math.round(Math.max(opts.sampleEvery ?? 0.5, opts.durationSeconds / maxSamples) * geo.fps));
  /** Per run (run k holds frames `[k·RUN, k·RUN + RUN)`): its features. */
  const results: PackedFeatures[] = [];
  let samples: SampledFrame[] = [];
  let rimSamples: RimSample[] = [];
  let viewSamples: SampledFrame[] = [];
  const rimStep = Math.max(1, Math.round(geo.fps));
  // one rim search a second at most: a stride fixed by the length keeps the count bounded while decoding
  const viewStep = rimStep * Math.max(VIEW_EVERY_SEARCHES, Math.ceil(opts.durationSeconds / (opts.maxViewSamples ?? MAX_VIEW_SAMPLES)));
  const format = geo.format ?? 'rgb24';
  /** Per run: the index of its last frame read (its right context frame, or its own last frame for the video's last run), and once it is back whether the camera moved. */
  const runs: { last: number; moved?: { moving: boolean; lastIndex: number } }[] = [];
  /** Rim-search candidates waiting for the runs that end before them to come back. */
  let held: { index: number; rgb: Uint8Array }[] = [];
  const inflight = new Set<Promise<void>>();
  let waitMs = 0;
  let done = 0;

  /**
   * Hands a run to a worker. Frames the next run does not need (all but the last `keep`) are
   * transferred, not copied: the worker owns them afterwards.
   */
  const dispatch = (part: Part, frames: Uint8Array[], firstIndex: number, keep: number, last: number) => {
    const slot = firstIndex / RUN;
    runs[slot] = { last };
    // The kept frames go as copies in recycled buffers, so that every buffer is transferred and
    // comes back with the result (see FrameBuffers).
    const copies = new Map<Uint8Array, Uint8Array>();
    for (const f of frames.slice(frames.length - keep)) {
      if (copies.has(f)) continue;
      const c = buffers.take();
      c.set(f);
      copies.set(f, c);
    }
    const sent = frames.map((f) => copies.get(f) ?? f);
    const transfer = [...new Set(sent.map((f) => f.buffer as ArrayBuffer))];
    const recycle = (bufs: ArrayBuffer[]) => buffers.give(bufs);
    const p = pool
      .run<PackedFeatures>({ kind: 'frames', frames: sent, width: geo.width, height: geo.height, firstIndex, format, recycle: true }, transfer, recycle)
      .then((r) => {
        if (!part.alive) return;
        results[slot] = r;
        const n = packedLength(r);
        const { shift, lastIndex } = packedFrameShift(r);
        runs[slot].moved = { moving: shift >= RIM_SEARCH_SHIFT_PX && n > 0, lastIndex };
        releaseHeld();
        done += n;
        opts.onProgress?.(Math.min(1, done / expected));
      });
    track(p);
  };

  const track = (p: Promise<void>) => {
    const tracked = p.finally(() => inflight.delete(tracked));
    // An extraction that stops early (aborted, a part failed) leaves its runs in flight; one of
    // them failing later (the pool closed, a worker died) must not be an unhandled rejection,
    // which ends a Node process. The waits below still see every failure.
    tracked.catch(() => {});
    inflight.add(tracked);
  };

  const searchRims = (part: Part, rgb: Uint8Array, index: number) => {
    if (index % viewStep === 0) viewSamples.push({ index, t: index / geo.fps, rgb: rgb.slice() });
    track(
      pool.run<RimCandidate[]>({ kind: 'rims', rgb, width: geo.width, height: geo.height }, [rgb.buffer as ArrayBuffer]).then((rims) => {
        if (part.alive) rimSamples.push({ index, rims });
      }),
    );
  };

  /**
   * Whether frame `x` gets a rim search: a run that ends before it (its right context frame
   * included) saw the camera move, and its last frame is at most 3 s before `x`. Undefined while
   * one of the runs that can say so is not back. Those are the runs ending in the 3 s before
   * `x`: run k reads up to frame (k + 1)·RUN.
   */
  const searchesRims = (x: number): boolean | undefined => {
    const hi = Math.floor((x - 1) / RUN) - 1;
    const lo = Math.max(0, Math.ceil((x - RIM_SEARCH_AFTER_MOVE_S * rimStep) / RUN) - 1);
    let search = false;
    for (let k = lo; k <= hi; k++) {
      const run = runs[k];
      if (!run?.moved) return undefined;
      if (run.last < x && run.moved.moving && run.moved.lastIndex + RIM_SEARCH_AFTER_MOVE_S * rimStep >= x) search = true;
    }
    return search;
  };

  /** Searches the held frames whose deciding runs are all back. */
  const releaseHeld = () => {
    held = held.filter((h) => {
      const search = searchesRims(h.index);
      if (search === undefined) return true;
      if (search) searchRims(partOf(h.index), h.rgb, h.index);
      return false;
    });
  };

  /** Whether frame `index` goes to the searches: a sample, or a candidate for a rim search. */
  const wantsRgb = (index: number) => index % sampleStep === 0 || index % rimStep === 0;

  const sideFrame = (rgb: Uint8Array, index: number) => {
    const sample = index % sampleStep === 0;
    if (sample) samples.push({ index, t: index / geo.fps, rgb });
    if (index % rimStep === 0) {
      held.push({ index, rgb: sample ? rgb.slice() : rgb });
      releaseHeld();
    }
  };

  const buffers = new FrameBuffers(frameBytes(geo));
  const splits = opts.splits ?? decodeSplits(geo, expected, pool.size);
  const bounds = [0, ...splits, Infinity];
  let parts: Part[] = bounds.slice(0, -1).map((lo, k) => newPart(lo, bounds[k + 1], lo > 0));
  const partOf = (index: number) => parts.find((p) => p.alive && index >= p.lo && index < p.hi) ?? parts[0];

  function newPart(lo: number, hi: number, seek: boolean): Part {
    return { lo, hi, seek, alive: true, head: [], tail: [], count: 0, flush: () => {} };
  }

  /** Decodes one part: its own frames go to the runs and searches; the frames it shares with its neighbours are kept for the check. */
  const decodePart = async (part: Part): Promise<void> => {
    let window: Uint8Array[] = [];
    let windowStart = 0;
    const from = part.lo > 0 ? part.lo - 1 : 0;
    const range: FrameRange | undefined =
      part.lo === 0 && part.hi === Infinity ? undefined : { first: from, seek: part.seek, ...(part.hi < Infinity ? { end: part.hi + 1 } : {}) };

    // An rgb24 decode through a two-stage chain gets the searches' frames (the direct chain's) from
    // the side pipe, but uses them where the main frame of the same index arrives, as the direct
    // chain does: a frame's rim search waits for the runs dispatched before it (`held`). (Such a
    // decode is never cut: see decodeSplits.)
    const sideInStep = format === 'rgb24' && usesSidePipe(geo);
    const early = new Map<number, Uint8Array>();
    let sideEnded = false;
    let wake: (() => void) | null = null;
    const onSide = sideInStep
      ? (rgb: Uint8Array, index: number) => {
          early.set(index, rgb);
          wake?.();
        }
      : sideFrame;
    const sideAt = async (index: number): Promise<Uint8Array | null> => {
      while (!early.has(index) && !sideEnded) await new Promise<void>((r) => (wake = r));
      const rgb = early.get(index) ?? null;
      early.delete(index);
      return rgb;
    };

    part.flush = () => {
      if (window.length >= 2) {
        window.push(window[window.length - 1]);
        dispatch(part, window, windowStart, 0, windowStart + window.length - 3);
        window = [];
      }
    };
    part.count = await streamFrames(
      path,
      geo,
      async (rgb, index) => {
        if (index < part.lo + 1 && part.lo > 0) part.head.push(rgb.slice());
        if (index >= part.hi - 1) part.tail.push(rgb.slice());
        const own = index >= part.lo && index < part.hi;
        // RGB frames for the hoop, rim and court searches: copies of the frames of the rgb24 chain
        // (the frame itself is transferred to a worker), from the side pipe for a YUV chain.
        if (own && sideInStep) {
          if (wantsRgb(index)) {
            const direct = await sideAt(index);
            if (direct) sideFrame(direct, index);
          }
        } else if (own && format === 'rgb24' && wantsRgb(index)) {
          sideFrame(rgb.slice(), index);
        }
        if (window.length === 0) {
          // the video's first frame is its own left context; a later part's first frame is the
          // context of its first run
          window = index === 0 ? [rgb, rgb] : [rgb];
          windowStart = index === 0 ? 0 : index + 1;
          return;
        }
        window.push(rgb);
        if (window.length === RUN + 2) {
          dispatch(part, window, windowStart, 2, index);
          const last2 = window.slice(-2);
          window = last2;
          windowStart = index;
        }
        while (inflight.size >= 2 * pool.size) {
          const w0 = performance.now();
          await Promise.race(inflight);
          waitMs += performance.now() - w0;
        }
      },
      opts.signal,
      {
        every: [sampleStep, rimStep],
        onRgb: onSide,
        onEnd: () => {
          sideEnded = true;
          wake?.();
        },
      },
      buffers,
      range,
    );
  };

  /** Drops what a part (and the parts after it) sent: its seek missed, or the video ended before it. */
  const drop = (from: Part) => {
    for (const p of parts.slice(parts.indexOf(from))) p.alive = false;
    results.length = Math.min(results.length, from.lo / RUN);
    runs.length = Math.min(runs.length, from.lo / RUN);
    samples = samples.filter((smp) => smp.index < from.lo);
    rimSamples = rimSamples.filter((r) => r.index < from.lo);
    viewSamples = viewSamples.filter((v) => v.index < from.lo);
    held = held.filter((h) => h.index < from.lo);
  };

  const settled = await Promise.allSettled(parts.map(decodePart));
  if (opts.signal?.aborted) throw new Error('analysis aborted');
  if (settled[0].status === 'rejected') throw settled[0].reason;
  // a later part that failed is decoded again like one whose seek missed
  const failed = new Set(parts.filter((_, k) => settled[k].status === 'rejected'));
  let redecoded = false;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k];
    const next = parts[k + 1];
    if (!next) {
      part.flush();
      break;
    }
    if (part.count < part.hi + 1) {
      // the video ended before the cut (its length was overstated): this part is the last
      drop(next);
      parts = parts.slice(0, k + 1);
      part.flush();
      break;
    }
    const same =
      !failed.has(next) && next.head.length === 2 && part.tail.length === 2 && next.head.every((f, i) => Buffer.compare(f, part.tail[i]) === 0);
    if (!same) {
      // the seek did not land on the frame the part before it ends with: decode the rest again
      // from the start, in one piece
      drop(next);
      redecoded = true;
      const rest = newPart(next.lo, Infinity, false);
      parts = [...parts.slice(0, k + 1), rest];
      await decodePart(rest);
      rest.flush();
      break;
    }
  }
  releaseHeld();
  // A run coming back may start rim searches of held frames: wait until nothing is left.
  while (inflight.size) await Promise.all(inflight);
  if (held.length) throw new Error(`extract: ${held.length} frames held for rim searches after every run returned`);
  samples.sort((a, b) => a.index - b.index);
  while (samples.length > maxSamples) {
    for (let i = samples.length - 2; i > 0 && samples.length > maxSamples; i -= 2) samples.splice(i, 1);
  }
  viewSamples.sort((a, b) => a.index - b.index);
  rimSamples.sort((a, b) => a.index - b.index);
  const frameCount = parts[parts.length - 1].count;
  let unpacked: FrameFeatures[] | null = null;
  return {
    packed: results,
    get features() {
      return (unpacked ??= unpackFeatures(results));
    },
    samples,
    rimSamples,
    viewSamples,
    frameCount,
    timing: { decodeWaitMs: waitMs, totalMs: performance.now() - t0, parts: parts.length, redecoded },
  };
}
