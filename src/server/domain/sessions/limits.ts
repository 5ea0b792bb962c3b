/** The longest video processed (`SWISH_MAX_VIDEO_SECONDS`, default 4 h): longer ones fail as `video_too_large`. */
export const maxVideoSeconds = () => Number(process.env.SWISH_MAX_VIDEO_SECONDS ?? 4 * 3600);
