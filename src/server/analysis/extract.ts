import type { DecodeGeometry } from './decode';
import { FrameBuffers, frameBytes, streamFrames, usesSidePipe } from './decode';
import { packedFrameShift, packedLength, unpackFeatures, type FrameFeatures, type PackedFeatures } from './frame-features';
import type { RimCandidate, RimSample } from './hoop-appearance';
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
  frameCount: number;
  timing: { decodeWaitMs: number; totalMs: number };
}

/** Frames per worker task: longer runs repeat less context work (2 frames per run). */
const RUN = 24;

/**
 * Streams a video through ffmpeg and the worker pool: frames are grouped into runs of
 * consecutive frames (plus one context frame on each side) and each run is processed by one
 * worker; at most two runs per worker are in flight, so memory stays bounded. A few frames
 * are kept (about one per `sampleEvery` seconds, at most `maxSamples`) for the hoop locator.
 * While the camera moves (a run's summed shift ≥ 3 px, held for 3 s), one frame a second is
 * also searched for rims in a worker, so a panning camera's hoops can be followed in the image.
 * Whether a frame is searched is decided from every run that ends before it, never from how
 * far the workers have got: such a frame is held until those runs are back, so the same video
 * always gets the same searches.
 */
export async function extractFeatures(
  path: string,
  geo: DecodeGeometry,
  pool: WorkerPool,
  opts: {
    durationSeconds: number;
    sampleEvery?: number;
    maxSamples?: number;
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
  },
): Promise<ExtractResult> {
  const t0 = performance.now();
  const maxSamples = opts.maxSamples ?? 24;
  const expected = Math.max(1, Math.round(opts.durationSeconds * geo.fps));
  const sampleStep = Math.max(1, Math.round(Math.max(opts.sampleEvery ?? 0.5, opts.durationSeconds / maxSamples) * geo.fps));
  const results: PackedFeatures[] = [];
  const samples: SampledFrame[] = [];
  const rimSamples: RimSample[] = [];
  const rimStep = Math.max(1, Math.round(geo.fps));
  const format = geo.format ?? 'rgb24';
  let movingUntil = -1;
  /** Per dispatched run, in order: its last new frame, and once it is back whether the camera moved. */
  const runs: { last: number; moved?: { moving: boolean; lastIndex: number } }[] = [];
  /** Runs whose shifts `movingUntil` has taken in (a prefix of `runs`). */
  let runsCounted = 0;
  let streamEnded = false;
  /** Rim-search candidates waiting for every run that ends before them to come back. */
  const held: { index: number; rgb: Uint8Array }[] = [];
  const inflight = new Set<Promise<void>>();
  let window: Uint8Array[] = [];
  let windowStart = 0;
  let runNo = 0;
  let waitMs = 0;
  let done = 0;

  /**
   * Hands a run to a worker. Frames the next run does not need (all but the last `keep`) are
   * transferred, not copied: the worker owns them afterwards.
   */
  const dispatch = (frames: Uint8Array[], firstIndex: number, keep: number, last: number) => {
    const slot = runNo++;
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
        results[slot] = r;
        const n = packedLength(r);
        const { shift, lastIndex } = packedFrameShift(r);
        runs[slot].moved = { moving: shift >= 3 && n > 0, lastIndex };
        releaseHeld();
        done += n;
        opts.onProgress?.(Math.min(1, done / expected));
      });
    const tracked = p.finally(() => inflight.delete(tracked));
    inflight.add(tracked);
  };

  const searchRims = (rgb: Uint8Array, index: number) => {
    const p = pool.run<RimCandidate[]>({ kind: 'rims', rgb, width: geo.width, height: geo.height }, [rgb.buffer as ArrayBuffer]).then((rims) => {
      rimSamples.push({ index, rims });
    });
    const tracked = p.finally(() => inflight.delete(tracked));
    inflight.add(tracked);
  };

  /** Searches the held frames whose earlier runs are all back, in frame order. */
  const releaseHeld = () => {
    while (held.length) {
      const next = held[0];
      for (; ; runsCounted++) {
        const run = runs[runsCounted];
        // Not dispatched yet: it may still end before this frame, unless the stream is over.
        if (!run) {
          if (streamEnded) break;
          return;
        }
        if (run.last >= next.index) break;
        if (!run.moved) return;
        if (run.moved.moving) movingUntil = Math.max(movingUntil, run.moved.lastIndex + 3 * rimStep);
      }
      held.shift();
      if (next.index <= movingUntil) searchRims(next.rgb, next.index);
    }
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

  // An rgb24 decode through a two-stage chain gets the searches' frames (the direct chain's) from
  // the side pipe, but uses them where the main frame of the same index arrives, as the direct
  // chain does: a frame's rim search waits for the runs dispatched before it (`held`).
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

  const buffers = new FrameBuffers(frameBytes(geo));
  const frameCount = await streamFrames(
    path,
    geo,
    async (rgb, index) => {
      // RGB frames for the hoop, rim and court searches: copies of the frames of the rgb24 chain
      // (the frame itself is transferred to a worker), from the side pipe for a YUV chain.
      if (sideInStep) {
        if (wantsRgb(index)) {
          const direct = await sideAt(index);
          if (direct) sideFrame(direct, index);
        }
      } else if (format === 'rgb24' && wantsRgb(index)) {
        sideFrame(rgb.slice(), index);
      }
      if (window.length === 0) {
        window = [rgb, rgb];
        windowStart = index;
        return;
      }
      window.push(rgb);
      if (window.length === RUN + 2) {
        dispatch(window, windowStart, 2, index);
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
  );
  if (window.length >= 2) {
    window.push(window[window.length - 1]);
    dispatch(window, windowStart, 0, windowStart + window.length - 3);
  }
  streamEnded = true;
  releaseHeld();
  // A run coming back may start rim searches of held frames: wait until nothing is left.
  while (inflight.size) await Promise.all(inflight);
  if (held.length) throw new Error(`extract: ${held.length} frames held for rim searches after every run returned`);
  while (samples.length > maxSamples) {
    for (let i = samples.length - 2; i > 0 && samples.length > maxSamples; i -= 2) samples.splice(i, 1);
  }
  rimSamples.sort((a, b) => a.index - b.index);
  let unpacked: FrameFeatures[] | null = null;
  return {
    packed: results,
    get features() {
      return (unpacked ??= unpackFeatures(results));
    },
    samples,
    rimSamples,
    frameCount,
    timing: { decodeWaitMs: waitMs, totalMs: performance.now() - t0 },
  };
}
