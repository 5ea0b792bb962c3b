import { median } from './arcs';
import { backProject, type CourtCamera } from './court-lines';
import type { PixelBackground } from './jersey';

/**
 * Which team is on offence at a moment, from where the players stand (`jersey.ts` reads it at each release): a
 * defender stays between his man and the basket, so the attacking team's players stand farther from the basket than
 * the defending team's. Read where the jersey under the ball cannot be: a camera behind the basket sees the
 * defender closing out between it and the shooter, and the body attached to the ball is then his.
 *
 * Each team's kits are found in the frame as foreground blobs of its colour (against the background image of a still
 * camera), and the court read puts them on the floor.
 */

/** A frame's foreground, kept sparse (players cover a few per cent of a frame): the pixels' indices and their RGB. */
export interface ForegroundThumb {
  width: number;
  height: number;
  index: Uint32Array;
  rgb: Uint8Array;
}

/** Difference from a still camera's background (sum over R, G, B) from which a pixel is foreground (here and in `jersey.ts#sampleShooter`). */
export const BG_TOLERANCE = 45;

/**
 * A pixel that is the background darkened evenly (each channel 25–95 % of the background's, the three ratios within
 * 0.12 of each other): a player's shadow on the floor, which would read as a dark jersey at his feet.
 */
export function isShadow(r: number, g: number, b: number, bg: readonly number[]): boolean {
  const k0 = r / Math.max(1, bg[0]);
  const k1 = g / Math.max(1, bg[1]);
  const k2 = b / Math.max(1, bg[2]);
  const lo = Math.min(k0, k1, k2);
  const hi = Math.max(k0, k1, k2);
  return lo >= 0.25 && hi <= 0.95 && hi - lo <= 0.12;
}

/** The foreground of a frame against a still camera's background, shadows left out ({@link isShadow}). */
export function foregroundThumb(frame: { rgb: Uint8Array; width: number; height: number }, background: PixelBackground): ForegroundThumb {
  const { width, height } = frame;
  const index: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 3;
      const r = frame.rgb[p];
      const g = frame.rgb[p + 1];
      const b = frame.rgb[p + 2];
      const bg = background(x, y);
      if (!bg || Math.abs(r - bg[0]) + Math.abs(g - bg[1]) + Math.abs(b - bg[2]) < BG_TOLERANCE || isShadow(r, g, b, bg)) continue;
      index.push(y * width + x);
    }
  }
  const rgb = new Uint8Array(index.length * 3);
  index.forEach((i, k) => rgb.set(frame.rgb.subarray(3 * i, 3 * i + 3), 3 * k));
  return { width, height, index: Uint32Array.from(index), rgb };
}

/** Where each team's players stand: the median distance (m) from the basket over its `n` kit blobs (null with none). */
export interface TeamSpacing {
  distance: [number | null, number | null];
  n: [number, number];
}

/**
 * Least area of a jersey blob, in ball areas (πr², the ball's radius at release): a torso at the shooter's depth
 * covers about 8; a player half hidden behind another still shows a few.
 */
export const MIN_JERSEY_BALLS = 1.5;

/**
 * Height (m) of the lowest row of a player's team colour, the hem of his shorts, just above the knee. The floor under a
 * player is where his feet are, but his feet are often hidden behind a nearer player's body, which puts him as near as
 * that player; the hem shows between the nearer players more often. An error in this height changes every row's depth
 * the same way, so the two teams' order from the basket hardly moves (measured from 0.5 to 0.8 m on the synthetic
 * views from behind the basket: 63, 62 and 67 right of 75 reads).
 */
export const HEM_HEIGHT_M = 0.65;

/**
 * Each team's distance from the basket in one frame: the frame's foreground pixels of each team's colour (`teamOf`:
 * `jersey.ts` classifies a pixel, skin left out) joined into blobs (4-neighbours); a blob of at least
 * {@link MIN_JERSEY_BALLS} ball areas is a player's kit, and where he stands is its lowest row, under the blob's centre,
 * taken at {@link HEM_HEIGHT_M} over the floor by the court camera (`court-lines.ts#backProject`; the basket is at the
 * floor's origin). A blob cut by the frame's bottom edge, or whose hem row does not reach that height in front of the
 * camera, says nothing. Each team's distance is the median over its blobs.
 */
export function teamSpacing(thumb: ForegroundThumb, teamOf: (r: number, g: number, b: number) => 0 | 1 | null, camera: CourtCamera, ballR: number): TeamSpacing {
  const { width, height, index, rgb } = thumb;
  const label = new Int8Array(width * height).fill(-1);
  index.forEach((i, k) => {
    const t = teamOf(rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2]);
    if (t !== null) label[i] = t;
  });
  const minArea = MIN_JERSEY_BALLS * Math.PI * ballR ** 2;
  const seen = new Uint8Array(width * height);
  const dists: [number[], number[]] = [[], []];
  const stack: number[] = [];
  for (let s = 0; s < width * height; s++) {
    const team = label[s];
    if (team < 0 || seen[s]) continue;
    seen[s] = 1;
    stack.push(s);
    let area = 0;
    let sx = 0;
    let y1 = 0;
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i / width) | 0;
      area++;
      sx += x;
      if (y > y1) y1 = y;
      const visit = (j: number) => {
        if (label[j] === team && !seen[j]) (seen[j] = 1), stack.push(j);
      };
      if (x > 0) visit(i - 1);
      if (x < width - 1) visit(i + 1);
      if (y > 0) visit(i - width);
      if (y < height - 1) visit(i + width);
    }
    if (area < minArea) continue;
    // a blob cut by the frame's bottom edge has no hem in view
    if (y1 >= height - 1) continue;
    const at = backProject(camera, sx / area + 0.5, y1 + 0.5, HEM_HEIGHT_M);
    if (at) dists[team].push(Math.hypot(at.x, at.y));
  }
  const med = (v: number[]) => (v.length ? median(v) : null);
  return { distance: [med(dists[0]), med(dists[1])], n: [dists[0].length, dists[1].length] };
}

/** Least difference (m) between the two teams' distances from the basket for the spacing to name the team on offence. */
export const OFFENCE_MARGIN_M = 0.5;

/** The team on offence by {@link teamSpacing}: the one standing farther from the basket, by {@link OFFENCE_MARGIN_M} at least; null when a team was not seen or the two stand about as far. */
export function offenceOf(sp: TeamSpacing): 0 | 1 | null {
  const [d0, d1] = sp.distance;
  if (d0 === null || d1 === null || Math.abs(d0 - d1) < OFFENCE_MARGIN_M) return null;
  return d0 > d1 ? 0 : 1;
}

/** Where the players stand names the team on offence for a camera behind the basket unless `SWISH_SPACING_TEAMS=0` (for comparisons). */
export function spacingTeamsEnabled(): boolean {
  return process.env.SWISH_SPACING_TEAMS !== '0';
}
