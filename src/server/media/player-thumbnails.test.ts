import { describe, expect, it } from 'vitest';
import { PLAYER_THUMBNAIL, thumbnailCrop } from './player-thumbnails';

const frame = { width: 1280, height: 720 };
const px = (b: [number, number, number, number]) => [b[0] * frame.width, b[1] * frame.height, b[2] * frame.width, b[3] * frame.height];

/** The crop is 3:4, inside the frame, and holds the whole box, which its outline marks. */
function expectFramed(box: [number, number, number, number]) {
  const c = thumbnailCrop(box, frame);
  const [x0, y0, x1, y1] = px(box);
  expect(c.width / c.height).toBeCloseTo(PLAYER_THUMBNAIL.width / PLAYER_THUMBNAIL.height, 2);
  expect(c.x).toBeGreaterThanOrEqual(0);
  expect(c.y).toBeGreaterThanOrEqual(0);
  expect(c.x + c.width).toBeLessThanOrEqual(frame.width);
  expect(c.y + c.height).toBeLessThanOrEqual(frame.height);
  expect(c.x).toBeLessThanOrEqual(x0);
  expect(c.y).toBeLessThanOrEqual(y0);
  expect(c.x + c.width).toBeGreaterThanOrEqual(x1);
  expect(c.y + c.height).toBeGreaterThanOrEqual(y1);
  // the outline sits on the box, in the crop's pixels
  expect(Math.abs(c.x + c.outline.x - x0)).toBeLessThanOrEqual(1);
  expect(Math.abs(c.y + c.outline.y - y0)).toBeLessThanOrEqual(1);
  expect(c.outline.x + c.outline.width).toBeLessThanOrEqual(c.width);
  expect(c.outline.y + c.outline.height).toBeLessThanOrEqual(c.height);
  return c;
}

describe('thumbnailCrop', () => {
  it('crops twice the box, a tenth higher than centred, and outlines it two picture pixels thick', () => {
    const c = expectFramed([0.5, 0.3, 0.55, 0.7]); // 64 × 288 px
    expect(c).toEqual({ x: 456, y: 14, width: 432, height: 576, outline: { x: 184, y: 202, width: 64, height: 288, thickness: 8 } });
    // more room above the box (the head it misses) than below it (the shoes it holds)
    expect(c.outline.y).toBeGreaterThan(c.height - c.outline.y - c.outline.height);
  });

  it('gives a player far away a fifth of the frame around them', () => {
    const c = expectFramed([0.5, 0.5, 0.51, 0.53]); // 13 × 22 px
    expect(c.height).toBe(144);
    expect(c.outline.thickness).toBe(2);
  });

  it('takes a wide box in whole', () => {
    const c = expectFramed([0.3, 0.5, 0.45, 0.6]); // 192 × 72 px
    expect(c.width).toBeGreaterThanOrEqual(1.5 * 192 - 1);
  });

  it('moves, never cuts, a crop at the edge of the frame', () => {
    const c = expectFramed([0.95, 0.6, 1, 0.9]);
    expect(c.x + c.width).toBe(frame.width);
    expect(c.height).toBe(432);
  });

  it('shrinks to the frame a box as large as it, centred on it', () => {
    expect(thumbnailCrop([0, 0, 1, 1], frame)).toEqual({ x: 370, y: 0, width: 540, height: 720, outline: { x: 0, y: 0, width: 540, height: 720, thickness: 9 } });
  });

  it('gives a crop for a degenerate box', () => {
    const c = expectFramed([0.5, 0.5, 0.5, 0.5]);
    expect(c.height).toBe(144);
  });
});
