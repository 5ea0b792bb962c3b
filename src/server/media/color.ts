/**
 * High dynamic range sources: a phone's HDR video (HLG, an iPhone's default) or HDR10 / Dolby Vision's base layer (PQ),
 * both BT.2020. Read as SDR they look dim and washed out, so the analysis and every SDR output map them first.
 */
export type HdrTransfer = 'hlg' | 'pq';

/**
 * A filtergraph fragment (no trailing comma) mapping HDR frames to SDR BT.709 primaries and transfer: HLG, scene-referred
 * and made to be shown on SDR screens, in one zscale step; PQ, absolute light up to thousands of nits, in linear light
 * with its reference white ({@link PQ_REFERENCE_WHITE_NITS}) as SDR's white, the light over it compressed by a Möbius
 * curve (which leaves the range under its knee nearly as it is). `matrix`: the YUV matrix of the frames out (`bt709`
 * for tagged H.264 renditions, `bt470bg` — BT.601 — where they go on as untagged video or JPEG), limited range, in
 * `format`.
 *
 * Each zscale step is told what comes in by its own options and gets frames already tagged as what it puts out
 * ({@link zscaleOnce}): it then sets its conversion up once, where it otherwise sets it up again on every frame.
 */
export function toSdrFilter(hdr: HdrTransfer, matrix: 'bt709' | 'bt470bg', format = 'yuv444p'): string {
  const from = 'pin=bt2020:min=bt2020nc:rin=tv';
  const sdr = { trc: 'bt709', primaries: 'bt709', matrix };
  if (hdr === 'hlg') return `${zscaleOnce(`tin=arib-std-b67:${from}:npl=100`, sdr)},format=${format}`;
  const linear = zscaleOnce(`tin=smpte2084:${from}:npl=${PQ_REFERENCE_WHITE_NITS}`, { trc: 'linear', primaries: 'bt709', matrix: 'gbr', range: 'pc' });
  return `${linear},format=gbrpf32le,tonemap=mobius:desat=0,${zscaleOnce('tin=linear:pin=bt709:min=gbr:rin=pc', sdr)},format=${format}`;
}

/**
 * The light (cd/m²) of a PQ video's reference white — paper, a white shirt in the scene's light — which SDR shows as
 * its white: 203 in ITU-R BT.2408's production guidelines, which HDR10 cameras and grading follow. Taken as 100 (SDR's
 * own peak) with Hable's tone curve, PQ copies of the real clips came out 11–20 levels darker than the clips, and
 * one found a wrong hoop; at 203 with the Möbius curve (ffmpeg's knee, 0.3) 3–6 levels (see "PQ video" in the
 * analyser's MEASUREMENTS.md).
 */
export const PQ_REFERENCE_WHITE_NITS = 203;

/**
 * A zscale step converting from `input` (its `tin`, `pin`, `min`, `rin` options) to `output` (limited range unless
 * given: float RGB comes out in full range, whatever is asked), that sets its conversion up once. The npm ffmpeg's
 * zscale (a 2018 build) sets its conversion up again whenever a frame's colour tags differ from those of the frames it
 * puts out, which is every frame of a conversion, and a set-up with a transfer function costs 5–13 ms of CPU whatever
 * the frame's size (12–13 ms for HLG to BT.709 at 640×360 and at 64×36 alike): that was nearly all of the mapping's
 * cost. So each frame is first tagged as what comes out (`setparams`); zscale reads what comes in from its options, so
 * the pixels are the same, byte for byte.
 */
export function zscaleOnce(input: string, output: { trc: string; primaries: string; matrix: string; range?: 'tv' | 'pc' }): string {
  const { trc, primaries, matrix, range = 'tv' } = output;
  return `setparams=color_trc=${trc}:color_primaries=${primaries}:colorspace=${matrix}:range=${range},zscale=${input}:t=${trc}:p=${primaries}:m=${matrix}:r=${range}`;
}

/** Encoder options tagging an output as SDR BT.709 (an HDR source's mapped renditions and clips). */
export const BT709_TAGS = ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709'];
