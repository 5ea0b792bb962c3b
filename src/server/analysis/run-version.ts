/**
 * Version of the analyser's output; bump whenever the artifacts change meaningfully for the same
 * video. Its own module so that billing can name it without loading the analyser.
 */
export const ANALYSER_RUN_VERSION = 79;
