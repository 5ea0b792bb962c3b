/**
 * Minimal software rasteriser on RGB24 buffers: polygons by scanline with horizontal
 * edge coverage, discs, capsules (thick lines), thin anti-aliased lines and a tiny digit
 * font. Everything the renderer draws is built from these, with no native dependencies.
 */

export type RGB = readonly [number, number, number];

/** An RGB24 image. `data` clamps on write, so shading can overshoot safely. */
export interface Frame {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

export function createFrame(width: number, height: number): Frame {
  return { width, height, data: new Uint8ClampedArray(width * height * 3) };
}

function blendPixel(d: Uint8ClampedArray, i: number, r: number, g: number, b: number, a: number): void {
  if (a >= 0.999) {
    d[i] = r;
    d[i + 1] = g;
    d[i + 2] = b;
  } else if (a > 0.003) {
    d[i] += (r - d[i]) * a;
    d[i + 1] += (g - d[i + 1]) * a;
    d[i + 2] += (b - d[i + 2]) * a;
  }
}

/** Fills the horizontal span [x0, x1) of row y with partial coverage at both ends. */
function span(f: Frame, y: number, x0: number, x1: number, c: RGB, alpha: number): void {
  if (y < 0 || y >= f.height || x1 <= x0) return;
  const w = f.width;
  const xa = Math.max(0, x0);
  const xb = Math.min(w, x1);
  if (xb <= xa) return;
  const ia = Math.floor(xa);
  const ib = Math.ceil(xb) - 1;
  const d = f.data;
  const row = y * w * 3;
  if (ia === ib) {
    blendPixel(d, row + ia * 3, c[0], c[1], c[2], alpha * (xb - xa));
    return;
  }
  blendPixel(d, row + ia * 3, c[0], c[1], c[2], alpha * (ia + 1 - xa));
  blendPixel(d, row + ib * 3, c[0], c[1], c[2], alpha * (xb - ib));
  const r = c[0];
  const g = c[1];
  const b = c[2];
  if (alpha >= 0.999) {
    for (let x = ia + 1, i = row + (ia + 1) * 3; x < ib; x++, i += 3) {
      d[i] = r;
      d[i + 1] = g;
      d[i + 2] = b;
    }
  } else {
    for (let x = ia + 1, i = row + (ia + 1) * 3; x < ib; x++, i += 3) {
      d[i] += (r - d[i]) * alpha;
      d[i + 1] += (g - d[i + 1]) * alpha;
      d[i + 2] += (b - d[i + 2]) * alpha;
    }
  }
}

/** Fills a polygon (flat array x0,y0,x1,y1,...) with the non-zero rule at pixel-centre rows. */
export function fillPolygon(f: Frame, pts: ArrayLike<number>, c: RGB, alpha = 1): void {
  const n = pts.length >> 1;
  if (n < 3) return;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const y = pts[i * 2 + 1];
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const y0 = Math.max(0, Math.ceil(minY - 0.5));
  const y1 = Math.min(f.height - 1, Math.floor(maxY - 0.5));
  const xs: number[] = [];
  for (let y = y0; y <= y1; y++) {
    const sy = y + 0.5;
    xs.length = 0;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const ay = pts[j * 2 + 1];
      const by = pts[i * 2 + 1];
      if ((ay <= sy && by > sy) || (by <= sy && ay > sy)) {
        const ax = pts[j * 2];
        const bx = pts[i * 2];
        xs.push(ax + ((sy - ay) / (by - ay)) * (bx - ax));
      }
    }
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) span(f, y, xs[k], xs[k + 1], c, alpha);
  }
}

/** Fills an axis-aligned ellipse. */
export function fillEllipse(f: Frame, cx: number, cy: number, rx: number, ry: number, c: RGB, alpha = 1): void {
  if (rx <= 0 || ry <= 0) return;
  if (rx < 0.7 && ry < 0.7) {
    const x = Math.floor(cx);
    const y = Math.floor(cy);
    if (x >= 0 && y >= 0 && x < f.width && y < f.height) blendPixel(f.data, (y * f.width + x) * 3, c[0], c[1], c[2], alpha * Math.min(1, Math.PI * rx * ry));
    return;
  }
  const y0 = Math.max(0, Math.ceil(cy - ry - 0.5));
  const y1 = Math.min(f.height - 1, Math.floor(cy + ry - 0.5));
  for (let y = y0; y <= y1; y++) {
    const dy = (y + 0.5 - cy) / ry;
    const h = 1 - dy * dy;
    if (h <= 0) continue;
    const hw = rx * Math.sqrt(h);
    span(f, y, cx - hw, cx + hw, c, alpha);
  }
}

/** Fills a disc whose colour is computed per pixel from (dx, dy) normalized to the radius (for shading). */
export function fillShadedDisc(
  f: Frame,
  cx: number,
  cy: number,
  r: number,
  shade: (nx: number, ny: number, out: number[]) => void,
  alpha = 1,
): void {
  const d = f.data;
  const out = [0, 0, 0];
  const x0 = Math.max(0, Math.floor(cx - r - 1));
  const x1 = Math.min(f.width - 1, Math.ceil(cx + r + 1));
  const y0 = Math.max(0, Math.floor(cy - r - 1));
  const y1 = Math.min(f.height - 1, Math.ceil(cy + r + 1));
  const inv = 1 / Math.max(r, 0.3);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const dx = x + 0.5 - cx;
      const dy = y + 0.5 - cy;
      const dist = Math.sqrt(dx * dx + dy * dy);
      const cov = Math.min(1, r + 0.5 - dist);
      if (cov <= 0) continue;
      shade(dx * inv, dy * inv, out);
      blendPixel(d, (y * f.width + x) * 3, out[0], out[1], out[2], alpha * cov);
    }
  }
}

/** A thick line with round caps of widths w0 at (x0,y0) and w1 at (x1,y1). */
export function capsule(f: Frame, x0: number, y0: number, x1: number, y1: number, w0: number, w1: number, c: RGB, alpha = 1): void {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len = Math.hypot(dx, dy);
  if (len < 1e-6) {
    fillEllipse(f, x0, y0, Math.max(w0, w1) / 2, Math.max(w0, w1) / 2, c, alpha);
    return;
  }
  const nx = -dy / len;
  const ny = dx / len;
  const h0 = w0 / 2;
  const h1 = w1 / 2;
  fillPolygon(f, [x0 + nx * h0, y0 + ny * h0, x1 + nx * h1, y1 + ny * h1, x1 - nx * h1, y1 - ny * h1, x0 - nx * h0, y0 - ny * h0], c, alpha);
  if (alpha >= 0.999) {
    fillEllipse(f, x0, y0, h0, h0, c, alpha);
    fillEllipse(f, x1, y1, h1, h1, c, alpha);
  }
}

/** A thin anti-aliased line (Wu), width about one pixel times `alpha`. */
export function line(f: Frame, x0: number, y0: number, x1: number, y1: number, c: RGB, alpha = 1): void {
  const d = f.data;
  const w = f.width;
  const h = f.height;
  const steep = Math.abs(y1 - y0) > Math.abs(x1 - x0);
  if (steep) {
    [x0, y0] = [y0, x0];
    [x1, y1] = [y1, x1];
  }
  if (x0 > x1) {
    [x0, x1] = [x1, x0];
    [y0, y1] = [y1, y0];
  }
  const dx = x1 - x0;
  const grad = dx < 1e-9 ? 0 : (y1 - y0) / dx;
  const xs = Math.round(x0);
  const xe = Math.round(x1);
  const plot = (px: number, py: number, a: number) => {
    const X = steep ? py : px;
    const Y = steep ? px : py;
    if (X < 0 || Y < 0 || X >= w || Y >= h) return;
    blendPixel(d, (Y * w + X) * 3, c[0], c[1], c[2], a * alpha);
  };
  for (let x = xs; x <= xe; x++) {
    const y = y0 + grad * (x - x0) - 0.5;
    const yi = Math.floor(y);
    const fr = y - yi;
    plot(x, yi, 1 - fr);
    plot(x, yi + 1, fr);
  }
}

/** Draws a line of given pixel width: thin AA line below 1.5 px, capsule above. */
export function strokeLine(f: Frame, x0: number, y0: number, x1: number, y1: number, width: number, c: RGB, alpha = 1): void {
  if (width < 1.5) line(f, x0, y0, x1, y1, c, alpha * Math.max(0.35, Math.min(1, width)));
  else capsule(f, x0, y0, x1, y1, width, width, c, alpha);
}

const DIGITS: Record<string, string[]> = {
  '0': ['111', '101', '101', '101', '111'],
  '1': ['010', '110', '010', '010', '111'],
  '2': ['111', '001', '111', '100', '111'],
  '3': ['111', '001', '111', '001', '111'],
  '4': ['101', '101', '111', '001', '001'],
  '5': ['111', '100', '111', '001', '111'],
  '6': ['111', '100', '111', '101', '111'],
  '7': ['111', '001', '010', '010', '010'],
  '8': ['111', '101', '111', '101', '111'],
  '9': ['111', '101', '111', '001', '111'],
};

/**
 * Draws digits centred at (cx, cy) with a cell size in pixels, as a 3x5 block font.
 * `skew` shears columns horizontally to follow a turned torso.
 */
export function drawDigits(f: Frame, text: string, cx: number, cy: number, cell: number, c: RGB, alpha = 1, squeeze = 1): void {
  const cw = cell * squeeze;
  const total = text.length * 4 - 1;
  const left = cx - (total * cw) / 2;
  const top = cy - (5 * cell) / 2;
  for (let k = 0; k < text.length; k++) {
    const g = DIGITS[text[k]];
    if (!g) continue;
    for (let r = 0; r < 5; r++) {
      for (let col = 0; col < 3; col++) {
        if (g[r][col] !== '1') continue;
        const x = left + (k * 4 + col) * cw;
        const y = top + r * cell;
        fillPolygon(f, [x, y, x + cw, y, x + cw, y + cell, x, y + cell], c, alpha);
      }
    }
  }
}
