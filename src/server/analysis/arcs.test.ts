import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fitArc, linkTracks, stitchTracks, STITCH_OVERLAP, type BallCandidate, type Track } from './ball-track';
import { CLEAN_FLIGHT_POINTS, CLOSE_FLIGHT_RISE, GRAVITY_NORM_30FPS, bendOf, cleanSpeeds, estimateTimeScale, gravityWindowScale, isCloseFlightArc, isDescentArc, isFlightArc, median, releaseCuts, releasePoint, splitIntoArcs, thrownInGapCuts, typicalSpeed } from './arcs';

const cand = (frame: number, x: number, y: number, r = 5): BallCandidate => ({ frame, x, y, r, score: 0.8, ballColour: 0.6 });

/** A 30 fps real-time throw: c = g_norm * r px/frame². */
function throwPoints(f0: number, n: number, x0: number, y0: number, vx: number, vy: number, r = 5): BallCandidate[] {
  const c = GRAVITY_NORM_30FPS * r;
  return Array.from({ length: n }, (_, i) => cand(f0 + i, x0 + vx * i, y0 + vy * i + c * i * i, r));
}

describe('fitArc', () => {
  it('recovers the parabola of noiseless points', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -20, max: 20, noNaN: true }),
        fc.double({ min: -10, max: 10, noNaN: true }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        (vx, vy, c) => {
          const pts = Array.from({ length: 12 }, (_, i) => cand(100 + i, 50 + vx * i, 200 + vy * i + c * i * i));
          const f = fitArc(pts)!;
          expect(f.c).toBeCloseTo(c, 6);
          expect(f.b).toBeCloseTo(vy, 5);
          expect(f.e).toBeCloseTo(vx, 6);
          expect(f.rms).toBeLessThan(1e-6);
        },
      ),
    );
  });

  it('needs three points', () => {
    expect(fitArc([cand(0, 0, 0), cand(1, 1, 1)])).toBeNull();
  });
});

describe('arcs', () => {
  it('splits a flight at a rim bounce and keeps both parabolas', () => {
    const up = throwPoints(0, 20, 100, 300, 6, -10);
    const last = up[up.length - 1];
    const bounce = throwPoints(20, 14, last.x - 3, last.y - 2, -5, -6);
    const arcs = splitIntoArcs({ id: 1, points: [...up, ...bounce] });
    expect(arcs.length).toBeGreaterThanOrEqual(2);
    expect(arcs[0].points[0].frame).toBe(0);
    expect(arcs[0].points[arcs[0].points.length - 1].frame).toBeGreaterThanOrEqual(18);
    const dims = { width: 640, height: 360 };
    expect(arcs.every((a) => isFlightArc(a, 30, dims))).toBe(true);
  });

  it('rejects a straight horizontal glide (no gravity) as a flight', () => {
    const pts = Array.from({ length: 15 }, (_, i) => cand(i, 100 + 8 * i, 200));
    const arcs = splitIntoArcs({ id: 1, points: pts });
    expect(arcs.some((a) => isFlightArc(a, 30, { width: 640, height: 360 }))).toBe(false);
  });

  it('estimates a 2× speed-up from the gravity of the arcs', () => {
    const r = 5;
    const c = 4 * GRAVITY_NORM_30FPS * r;
    const pts = Array.from({ length: 16 }, (_, i) => cand(i, 100 + 8 * i, 300 - 20 * i + c * i * i, r));
    const arcs = splitIntoArcs({ id: 1, points: pts });
    expect(estimateTimeScale(arcs, 30)).toBeCloseTo(2, 1);
  });

  it('moves the gravity window for slow motion and for 3× clips, and leaves it for real-time and 2× clips', () => {
    const r = 5;
    const dims = { width: 640, height: 360 };
    // three throws at a speed-up `k` (gravity per frame × k²; the velocities scale by k)
    const clip = (k: number) =>
      [0, 1, 2].flatMap((t) => {
        const c = k * k * GRAVITY_NORM_30FPS * r;
        const n = Math.round(30 / k);
        const pts = Array.from({ length: n }, (_, i) => cand(100 * t + i, 100 + 4 * k * i, 300 - 12 * k * i + c * i * i, r));
        return splitIntoArcs({ id: t, points: pts });
      });
    expect(gravityWindowScale(clip(1), 30, dims)).toBe(1);
    expect(gravityWindowScale(clip(2), 30, dims)).toBeCloseTo(1, 2);
    const slow = clip(0.5);
    expect(slow.some((a) => isFlightArc(a, 30, dims))).toBe(false);
    const ks = gravityWindowScale(slow, 30, dims);
    expect(ks).toBeCloseTo(0.25, 1);
    expect(slow.every((a) => a.points.length < 8 || isFlightArc(a, 30, dims, ks))).toBe(true);
    expect(estimateTimeScale(slow.filter((a) => isFlightArc(a, 30, dims, ks)), 30, ks)).toBeCloseTo(0.5, 1);
    const fast = clip(3);
    expect(fast.some((a) => isFlightArc(a, 30, dims))).toBe(false);
    const kf = gravityWindowScale(fast, 30, dims);
    expect(kf).toBeCloseTo(2.25, 1);
    expect(estimateTimeScale(fast.filter((a) => isFlightArc(a, 30, dims, kf)), 30, kf)).toBeCloseTo(3, 1);
  });

  it('moves the window with the speed from 2× up, without a step: a clip reading 2.5× keeps its flights that read 2.9×', () => {
    const r = 5;
    const dims = { width: 640, height: 360 };
    // a throw at a speed-up `k`, 10 frames followed
    const flight = (t: number, k: number) => {
      const c = k * k * GRAVITY_NORM_30FPS * r;
      const pts = Array.from({ length: 10 }, (_, i) => cand(100 * t + i, 100 + 4 * k * i, 300 - 12 * k * i + c * i * i, r));
      return splitIntoArcs({ id: t, points: pts });
    };
    // a 3× clip whose flights read a little slow (perspective, blur), one of them at 2.9× (8.4 g: over the unmoved window's 7)
    const clip = [flight(0, 2.4), flight(1, 2.5), flight(2, 2.5), flight(3, 2.9)].flat();
    const k = gravityWindowScale(clip, 30, dims);
    expect(k).toBeCloseTo((2.5 / 2) ** 2, 1);
    expect(clip.filter((a) => isFlightArc(a, 30, dims))).toHaveLength(3);
    expect(clip.filter((a) => isFlightArc(a, 30, dims, k))).toHaveLength(4);
    // the window grows with the speed read, from 1 at 2×
    const at = (s: number) => gravityWindowScale([0, 1, 2].flatMap((t) => flight(t, s)), 30, dims);
    expect(at(1.9)).toBe(1);
    expect(at(2.2)).toBeGreaterThan(1);
    expect(at(2.2)).toBeLessThan(at(2.5));
    expect(at(2.5)).toBeLessThan(at(2.8));
  });

  it('reads a fast clip from its short flights when fewer than three are long (3×, each followed for 6 frames)', () => {
    const r = 5;
    const dims = { width: 640, height: 360 };
    const k = 3;
    const c = k * k * GRAVITY_NORM_30FPS * r;
    const fast = [0, 1, 2].flatMap((t) => {
      const pts = Array.from({ length: 6 }, (_, i) => cand(100 * t + i, 100 + 4 * k * i, 300 - 12 * k * i + c * i * i, r));
      return splitIntoArcs({ id: t, points: pts });
    });
    expect(fast).toHaveLength(3);
    expect(fast.every((a) => a.points.length < CLEAN_FLIGHT_POINTS)).toBe(true);
    const kf = gravityWindowScale(fast, 30, dims);
    expect(kf).toBeCloseTo(2.25, 1);
    expect(estimateTimeScale(fast.filter((a) => isFlightArc(a, 30, dims, kf)), 30, kf)).toBeCloseTo(3, 1);
    // two short flights say nothing: the clip stays real time
    expect(gravityWindowScale(fast.slice(0, 2), 30, dims)).toBe(1);
    expect(estimateTimeScale(fast.slice(0, 2), 30)).toBe(1);
  });

  it('reads the speed from the flights that bend: flat passes reading slow do not outvote three real-time shots', () => {
    const r = 5;
    const dims = { width: 640, height: 360 };
    // a shot: 30 frames, rising ~9.5 radii to its apex and falling back; real time
    const shot = (t: number) => {
      const c = GRAVITY_NORM_30FPS * r;
      const pts = Array.from({ length: 30 }, (_, i) => cand(1000 * t + i, 100 + 6 * i, 300 - 29 * c * i + c * i * i, r));
      return splitIntoArcs({ id: t, points: pts });
    };
    // a pass: 10 frames nearly straight across, its sag reading 0.45× (a fifth of the gravity), bending < 1 radius
    const pass = (t: number) => {
      const c = 0.2 * GRAVITY_NORM_30FPS * r;
      const pts = Array.from({ length: 10 }, (_, i) => cand(1000 * t + i, 100 + 15 * i, 200 - 9 * c * i + c * i * i, r));
      return splitIntoArcs({ id: t, points: pts });
    };
    const shots = [0, 1, 2].flatMap(shot);
    const passes = [3, 4, 5, 6, 7, 8, 9].flatMap(pass);
    expect(shots.map(bendOf).every((b) => b > 9)).toBe(true);
    expect(passes.map(bendOf).every((b) => b < 1)).toBe(true);
    const all = [...shots, ...passes];
    // counted alike, the seven passes would say slow motion
    expect(median(cleanSpeeds(all, GRAVITY_NORM_30FPS * 1).map((f) => f.speed))).toBeLessThan(0.5);
    expect(gravityWindowScale(all, 30, dims)).toBe(1);
    expect(estimateTimeScale(all.filter((a) => isFlightArc(a, 30, dims)), 30)).toBeCloseTo(1, 1);
    expect(typicalSpeed([{ speed: 0.4, bend: 1 }, { speed: 0.45, bend: 1 }, { speed: 1, bend: 10 }])).toBe(1);
    // no bend at all: the plain median
    expect(typicalSpeed([{ speed: 0.4, bend: 0 }, { speed: 0.5, bend: 0 }, { speed: 1, bend: 0 }])).toBe(0.5);
  });

  it('cuts a track where the ball leaves the hands, so the whole flight is one arc', () => {
    // the shooter's hands carry the ball up ~1 px a frame (with the wobble of a blob on moving arms), then it flies:
    // 30 frames, 9 px a frame up at first, under the gravity of a real-time clip
    const r = 4.5;
    const hold = [0, 1, 3, 4, 5, 8].map((f, k) => cand(f, 300 + (k % 2), 200 - 1.1 * f + (k === 4 ? 2 : 0), r));
    const flight = throwPoints(8, 30, 300.5, 191.2, 0.3, -9, r);
    const pts = [...hold, ...flight.slice(1)];
    expect(releaseCuts(pts)).toEqual([5]);
    const arcs = splitIntoArcs({ id: 1, points: pts });
    const whole = arcs.find((a) => a.points[0].frame === 8 && a.points[a.points.length - 1].frame === 37);
    expect(whole).toBeDefined();
    expect(isFlightArc(whole!, 30, { width: 640, height: 360 })).toBe(true);
    // a free flight alone is never cut, not even at its apex where it is slowest
    expect(releaseCuts(flight)).toEqual([]);
    // nor a small ball that starts to drift from a standstill under a ball radius a frame (a pixel or two of jitter)
    const small = [0, 1, 2, 3, 4, 5, 6, 7].map((f) => cand(f, 200 + 1.6 * Math.max(0, f - 5), 100, 2));
    expect(releaseCuts(small)).toEqual([]);
  });

  it('cuts at the release when the blob of the rising ball jitters from one frame to the next', () => {
    // measured (the scripted clip `made`, seed 101, with off-ball players moving): the hands' blob comes up fast, stops
    // with the ball at the release (frames 134–138), then the ball rises 11.3 then 6.7 px a frame, the blob merged with
    // the hands for a frame; the slower step alone is just under 3 times the hold's fastest step, the two together are 9
    const p = (frame: number, x: number, y: number, r: number) => cand(frame, x, y, r);
    const pts = [
      p(131, 469.17, 179.61, 3.39), p(133, 477.79, 168.03, 4.65), p(134, 482.7, 154.1, 3.57), p(135, 481.7, 152.1, 2.52),
      p(138, 483.0, 147.83, 5.53), p(139, 484.02, 136.58, 5.64), p(140, 484.16, 129.88, 6.08), p(141, 484.0, 123.5, 5.53),
      p(142, 484.1, 120.7, 3.57), p(143, 486.5, 107.7, 2.52), p(144, 483.07, 103.07, 2.99),
    ];
    expect(releaseCuts(pts)).toEqual([4]);
    expect(splitIntoArcs({ id: 1, points: pts }).some((a) => a.points[0].frame === 138 && a.points[a.points.length - 1].frame === 144)).toBe(true);
    // a ball standing still whose blob jumps for one frame and comes back did not fly off
    const blip = [0, 1, 2, 3, 4, 5, 6].map((f) => cand(f, 200 + (f === 4 ? 8 : 0), 100, 4));
    expect(releaseCuts(blip)).toEqual([]);
  });

  it('finds the release where the rise began', () => {
    const hold = [cand(0, 100, 300), cand(1, 100, 300), cand(2, 101, 299)];
    const flight = throwPoints(3, 20, 102, 296, 6, -10);
    const arcs = splitIntoArcs({ id: 1, points: [...hold, ...flight] });
    const main = arcs.find((a) => a.points.length >= 15)!;
    expect(releasePoint(main).frame).toBeLessThanOrEqual(4);
  });

  it('does not bend a parabola upward across a gap: the hands rising and the flight after it are two pieces', () => {
    // measured (dev-1407 at 47.4–48.1 s, a lob from under the rim seen from the corner): the ball rises in the hands
    // ~3.6 px a frame, is lost in the arm's blob for 6 frames, then flies up 8 px a frame slowing to its apex; the stitch
    // joined the two, and one parabola took the hands with the first 8 frames of the flight, bending up (−0.3 g)
    const y = [235, 230, 230, 230, 230, 227, 224, 221, 220, 217, 211, 209, 208, 204, 203, 195, 157, 149, 141, 134, 128, 122, 117, 111, 108, 105, 102, 97, 100, 95];
    const f = [1405, 1406, 1407, 1409, 1410, 1412, 1413, 1414, 1415, 1416, 1417, 1418, 1419, 1420, 1421, 1422, 1429, 1430, 1431, 1432, 1433, 1434, 1435, 1436, 1437, 1438, 1439, 1440, 1441, 1442];
    const x = [347, 351, 354, 359, 362, 370, 370, 370, 371, 369, 371, 368, 369, 369, 365, 366, 371, 372, 373, 373, 374, 375, 374, 376, 377, 378, 378, 379, 377, 379];
    const r = [4.8, 4.8, 4.8, 4.8, 4.8, 4.8, 4.8, 4.8, 6.3, 6.3, 6.3, 6.3, 6.3, 6.3, 6.3, 6.3, 6.8, 6.8, 6.8, 6.8, 6.8, 6.5, 6.1, 6, 5.5, 5.3, 5.3, 3.4, 4, 3];
    const pts = f.map((frame, i) => cand(frame, x[i], y[i], r[i]));
    const arcs = splitIntoArcs({ id: 1, points: pts });
    const rise = arcs.find((a) => a.points[0].frame === 1429);
    expect(rise?.points.at(-1)?.frame).toBeGreaterThanOrEqual(1440);
    expect(isFlightArc(rise!, 30, { width: 640, height: 360 })).toBe(true);
    expect(arcs.some((a) => a.points[0].frame < 1429 && a.points.at(-1)!.frame > 1429)).toBe(false);
    expect(thrownInGapCuts(pts).map((k) => pts[k].frame)).toEqual([1429]);
    // a flight lost for 6 frames (behind a player) and seen again on its parabola stays one arc
    const flight = throwPoints(0, 24, 100, 300, 5, -9).filter((p) => p.frame < 8 || p.frame > 13);
    expect(thrownInGapCuts(flight)).toEqual([]);
    const whole = splitIntoArcs({ id: 2, points: flight });
    expect(whole.map((a) => [a.points[0].frame, a.points.at(-1)!.frame])).toEqual([[0, 23]]);
    // measured (a real clip made brighter, 43.4–44.6 s): a ball falling into a 2-frame gap and rising out of it bounced
    // off the floor; cut there, its bounce became a flight, and the clip's hoop moved to the floor
    const bounceY = [181, 184, 185, 186, 190, 194, 198, 201, 205, 211, 216, 222, 227, 234, 241, 243, 237, 233, 227, 224, 219, 216, 213, 206];
    const bounceF = [1302, 1303, 1304, 1305, 1306, 1307, 1308, 1309, 1310, 1311, 1312, 1313, 1314, 1315, 1316, 1319, 1320, 1321, 1322, 1323, 1324, 1325, 1326, 1327];
    expect(thrownInGapCuts(bounceF.map((frame, i) => cand(frame, 209 - i, bounceY[i], 5)))).toEqual([]);
    // a small blob held still that, after a gap, jumps up and down on its way up (an arm waving, not a throw)
    const arm = [0, 1, 2, 3, 7, 8, 9, 10, 11, 12].map((frame, i) => cand(frame, 200, [200, 200, 201, 200, 190, 178, 182, 170, 174, 172][i], 3));
    expect(thrownInGapCuts(arm)).toEqual([]);
  });
});

describe('close flights', () => {
  const dims = { width: 640, height: 360 };
  /** 16 frames of a throw rising `rise` ball radii to its apex at frame ~10, drifting 0.8 px a frame sideways. */
  const upAndDown = (rise: number) => {
    const r = 5;
    const c = GRAVITY_NORM_30FPS * r;
    return splitIntoArcs({ id: 1, points: throwPoints(0, 16, 300, 200, 0.8, -Math.sqrt(4 * c * rise * r), r) })[0];
  };

  it('takes a ball thrown up and coming down near where it went up as a close flight, not a flight', () => {
    // Panning games (seed 721 at 39.7 s, 724 at 15.6 s): a close shot's rise fitted gravity over 10–16 points and
    // climbed 4.7–5.1 ball radii to its apex over the rim, but came back down near its first point (4.1–4.8 ball
    // radii from first to last point, under the 5 a flight must travel): no flight, and the hoop was dropped.
    const a = upAndDown(4.5);
    expect(a.points).toHaveLength(16);
    expect(isFlightArc(a, 30, dims)).toBe(false);
    expect(isCloseFlightArc(a, 30, dims)).toBe(true);
    // rising less, it is not one
    const low = upAndDown(3);
    expect(low.points[0].y - low.apexY).toBeLessThan(CLOSE_FLIGHT_RISE * low.r);
    expect(isCloseFlightArc(low, 30, dims)).toBe(false);
    // a flight is not a close flight too
    const [flight] = splitIntoArcs({ id: 2, points: throwPoints(0, 14, 300, 40, -3, 2, 8) });
    expect(isFlightArc(flight, 30, dims)).toBe(true);
    expect(isCloseFlightArc(flight, 30, dims)).toBe(false);
    // a straight glide up (no gravity) is not one either
    const [glide] = splitIntoArcs({ id: 3, points: Array.from({ length: 12 }, (_, i) => cand(i, 300, 200 - 3 * i)) });
    expect(isCloseFlightArc(glide, 30, dims)).toBe(false);
  });
});

describe('descents', () => {
  const dims = { width: 640, height: 360 };
  const line = (n: number, vx: number, vy: number, c = 0) => Array.from({ length: n }, (_, i) => cand(i, 300 + vx * i, 40 + vy * i + c * i * i, 8));
  const one = (pts: BallCandidate[]) => splitIntoArcs({ id: 1, points: pts });

  it('takes a ball falling at an even pace (a fall away from the camera) as a descent, not as a flight', () => {
    const [a] = one(line(14, -3, 7.5));
    expect(isFlightArc(a, 30, dims)).toBe(false);
    expect(isDescentArc(a, 30, dims)).toBe(true);
    // a little gravity left in the image (a third of it) is still a descent
    const [b] = one(line(14, -3, 6, (GRAVITY_NORM_30FPS * 8) / 3));
    expect(isDescentArc(b, 30, dims)).toBe(true);
  });

  it('not a flight with gravity, a rise, a short or slow drift, or a small blob', () => {
    const [flight] = one(throwPoints(0, 14, 300, 40, -3, 2, 8));
    expect(isFlightArc(flight, 30, dims)).toBe(true);
    expect(isDescentArc(flight, 30, dims)).toBe(false);
    expect(isDescentArc(one(line(14, -3, -7.5))[0], 30, dims)).toBe(false);
    expect(isDescentArc(one(line(6, -3, 7.5))[0], 30, dims)).toBe(false);
    expect(isDescentArc(one(line(14, -3, 1))[0], 30, dims)).toBe(false);
    const small = line(14, -3, 7.5).map((p) => ({ ...p, r: 2 }));
    expect(isDescentArc(one(small)[0], 30, dims)).toBe(false);
  });
});

describe('linkTracks', () => {
  it('follows a fast ball through clutter and a missed detection', () => {
    const flight = throwPoints(0, 20, 50, 300, 10, -12);
    const perFrame: BallCandidate[][] = flight.map((p, i) => (i === 7 ? [] : [p, cand(i, 400 + (i % 3), 50 + (i % 2))]));
    const tracks = linkTracks(perFrame);
    const longest = tracks.reduce((a, b) => (b.points.length > a.points.length ? b : a));
    expect(longest.points.length).toBe(19);
    expect(longest.points.every((p) => p.x < 300)).toBe(true);
  });
});

describe('stitchTracks', () => {
  // a slow close shot: up from the hands, over its apex near frame 20, down to the rim
  const flight = throwPoints(0, 36, 200, 200, -1, -4.5, 3);
  const track = (id: number, points: BallCandidate[]): Track => ({ id, points });
  const frames = (t: Track) => t.points.map((p) => p.frame);

  it('joins a track broken for a few frames where the first one\'s parabola lands', () => {
    const out = stitchTracks([track(1, flight.slice(0, 14)), track(2, flight.slice(18))], 10, STITCH_OVERLAP);
    expect(out).toHaveLength(1);
    expect(frames(out[0])).toEqual([...flight.slice(0, 14), ...flight.slice(18)].map((p) => p.frame));
  });

  it('joins a track that took over the ball from a fragment of its blob, from its first sighting after the end', () => {
    // the ball's blob splits at frame 13: the fragment 4 px below starts a track that takes the ball's next sightings
    const fragment = { ...flight[13], y: flight[13].y + 4, r: 2 };
    const out = stitchTracks([track(1, flight.slice(0, 14)), track(2, [fragment, ...flight.slice(14)])], 10, STITCH_OVERLAP);
    expect(out).toHaveLength(1);
    expect(frames(out[0])).toEqual(flight.map((p) => p.frame));
    expect(out[0].points).not.toContain(fragment);
  });

  it('joins an overlap of at most STITCH_OVERLAP frames, and only along the parabola', () => {
    const late = (k: number, overlap = STITCH_OVERLAP) => stitchTracks([track(1, flight.slice(0, 14)), track(2, flight.slice(13 - k))], 10, overlap);
    expect(late(STITCH_OVERLAP)).toHaveLength(1);
    expect(late(STITCH_OVERLAP + 1)).toHaveLength(2);
    // without an overlap (a still camera's clips) only a track after the end is joined
    expect(late(0, 0)).toHaveLength(2);
    expect(late(-1, 0)).toHaveLength(1);
    // a track beside the flight through the overlap (another player's hands) is not the ball's
    const beside = [...flight.slice(11, 14).map((p) => ({ ...p, x: p.x + 12 })), ...flight.slice(14)];
    expect(stitchTracks([track(1, flight.slice(0, 14)), track(2, beside)], 10, STITCH_OVERLAP)).toHaveLength(2);
  });

  it('takes a track that continues the flight after a gap before a short one that overlaps its end', () => {
    // a blob that follows the ball for two frames, then stays where it was (the ball's blob joined to an edge), and
    // the ball seen again from frame 19, its centre read 4 px aside
    const hover = [12, 13, 14, 15, 16, 17].map((f) => flight[Math.min(f, 14)]);
    const again = flight.slice(19).map((p) => ({ ...p, x: p.x + 4 }));
    const out = stitchTracks([track(1, flight.slice(0, 14)), track(2, hover), track(3, again)], 10, STITCH_OVERLAP);
    const ball = out.find((t) => t.id === 1)!;
    expect(frames(ball)).toEqual([...flight.slice(0, 14), ...again].map((p) => p.frame));
    expect(out.map((t) => t.id).sort()).toEqual([1, 2]);
  });
});
