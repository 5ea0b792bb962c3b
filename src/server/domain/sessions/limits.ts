/** Limits of DESIGN §5: longer or taller videos fail with `video_too_large`. */

/** The longest video processed (`SWISH_MAX_VIDEO_SECONDS`, default 4 h). */
export const maxVideoSeconds = () => Number(process.env.SWISH_MAX_VIDEO_SECONDS ?? 4 * 3600);

/** The tallest video processed, by its short side (`SWISH_MAX_VIDEO_HEIGHT`, default 2160, 4K). */
export const maxVideoHeight = () => Number(process.env.SWISH_MAX_VIDEO_HEIGHT ?? 2160);
