/**
 * High dynamic range sources: a phone's HDR video (HLG, an iPhone's default) or HDR10 / Dolby Vision's base layer (PQ),
 * both BT.2020. Read as SDR they look dim and washed out, so the analysis and every SDR output map them first.
 */
export type HdrTransfer = 'hlg' | 'pq';

/**
 * A filtergraph fragment (no trailing comma) mapping HDR frames to SDR BT.709 primaries and transfer: HLG, scene-referred
 * and made to be shown on SDR screens, in one zscale step; PQ, absolute light up to thousands of nits, tone-mapped in
 * linear light (Hable's curve). `matrix`: the YUV matrix of the frames out (`bt709` for tagged H.264 renditions,
 * `bt470bg` — BT.601 — where they go on as untagged video or JPEG), limited range, in `format`. Costs about 20 ms of
 * CPU per 1080p frame (zimg's float transfer functions), so it runs on frames already scaled down where it can.
 */
export function toSdrFilter(hdr: HdrTransfer, matrix: 'bt709' | 'bt470bg', format = 'yuv444p'): string {
  const from = 'pin=bt2020:min=bt2020nc:rin=tv';
  if (hdr === 'hlg') return `zscale=tin=arib-std-b67:${from}:npl=100:t=bt709:p=bt709:m=${matrix}:r=tv,format=${format}`;
  return `zscale=tin=smpte2084:${from}:t=linear:npl=100:p=bt709:m=gbr,format=gbrpf32le,tonemap=hable:desat=0,zscale=t=bt709:m=${matrix}:r=tv,format=${format}`;
}

/** Encoder options tagging an output as SDR BT.709 (an HDR source's mapped renditions and clips). */
export const BT709_TAGS = ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709'];
