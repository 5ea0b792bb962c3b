/**
 * Why a session failed (SPEC §2.2 `error.code`), with the message a user sees. The
 * dashboard explains each one; the processing pipeline picks the code.
 */
export const SESSION_FAILURES = {
  no_shots: 'No shot attempts were found in this video.',
  no_hoops: 'No basketball hoop was found in this video.',
  no_court: 'No basketball court was found in this video.',
  video_too_large: 'The video is longer or of a higher resolution than the service accepts.',
  source_invalid: 'The source is not a video that can be decoded.',
  source_unavailable: 'The source could not be fetched.',
  timeout: 'Processing made no progress within the time limit.',
  unknown: 'Processing failed because of an internal error.',
} as const;

export type SessionFailureCode = keyof typeof SESSION_FAILURES;
export const SESSION_FAILURE_CODES = Object.keys(SESSION_FAILURES) as [SessionFailureCode, ...SessionFailureCode[]];
