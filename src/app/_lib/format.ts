/** Display helpers shared by the dashboard pages. */

export function formatCents(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '—';
  const sign = cents < 0 ? '−' : '';
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;
}

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  return h ? `${h}:${String(m).padStart(2, '0')}:${String(r).padStart(2, '0')}` : `${m}:${String(r).padStart(2, '0')}`;
}

export function formatDate(unix: number | null | undefined): string {
  if (!unix) return '—';
  return new Date(unix * 1000).toLocaleString(undefined, { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });
}

export function formatDay(unix: number | null | undefined): string {
  if (!unix) return '—';
  return new Date(unix * 1000).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
}

export function timeAgo(unix: number | null | undefined): string {
  if (!unix) return 'never';
  const s = Math.max(0, Math.round(Date.now() / 1000 - unix));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return formatDay(unix);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** Pipeline stage names as a user reads them. */
export const STAGE_LABELS: Record<string, string> = {
  queued: 'Waiting to start',
  downloading: 'Fetching the video',
  source: 'Fetching the video',
  probe: 'Checking the video',
  analyse: 'Finding shots',
  analysis: 'Finding shots',
  analysing: 'Finding shots',
  rendering: 'Encoding video',
  'cutting highlights': 'Cutting highlight clips',
  derive: 'Building box scores',
  renditions: 'Encoding video',
  highlights: 'Cutting highlight clips',
  clips: 'Cutting highlight clips',
  settle: 'Finishing up',
};

export function stageLabel(stage: string | null | undefined): string {
  if (!stage) return 'Processing';
  return STAGE_LABELS[stage] ?? stage.replace(/[_-]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}

/** What a failure code means and what to do about it (SPEC §2.2 `error.code`). */
export const FAILURE_HELP: Record<string, { title: string; explain: string; action: string }> = {
  no_shots: {
    title: 'No shots found',
    explain: 'The video was analysed but no shot attempts were detected.',
    action: 'Check that the recording shows shots at a hoop (not only warm-ups or timeouts), then upload the game again. You were not charged.',
  },
  no_hoops: {
    title: 'No hoop in view',
    explain: 'No basketball hoop could be found in the video.',
    action: 'Record with the hoop in frame — a tripod behind the baseline or at half court works best — and upload again. You were not charged.',
  },
  no_court: {
    title: 'No court found',
    explain: 'The court lines could not be found, so shots could not be placed.',
    action: 'Use a wider, steadier shot of the court and upload again. You were not charged.',
  },
  video_too_large: {
    title: 'Video too large',
    explain: 'The video is longer or of a higher resolution than the service accepts.',
    action: 'Trim the video to the game (at most 4 hours) or export it at 1080p or lower, then upload again. You were not charged.',
  },
  source_invalid: {
    title: 'Not a playable video',
    explain: 'The file could not be decoded as a video.',
    action: 'Upload an MP4 or MOV file (H.264 is safest). If the file plays on your computer, re-export it and try again. You were not charged.',
  },
  source_unavailable: {
    title: 'Video could not be fetched',
    explain: 'The link did not answer, needed a sign-in, or the upload was gone.',
    action: 'Make sure the link is public and points to the video file (https), or upload the file instead. You were not charged.',
  },
  timeout: {
    title: 'Processing timed out',
    explain: 'Processing made no progress within the time limit.',
    action: 'Submit the video again; if it happens twice, contact support with the session id. You were not charged.',
  },
  unknown: {
    title: 'Internal error',
    explain: 'Processing failed because of an error on our side.',
    action: 'Submit the video again; if it happens twice, contact support with the session id. You were not charged.',
  },
};
