'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { Icon, useToast } from '../../_components/ui';
import { formatBytes, formatDuration } from '../../_lib/format';
import { apiError, errorMessage, useTRPC } from '../../_lib/trpc';
import { defaultSessionOptions, SessionOptionsFields, toApiOptions, type SessionOptionsValue } from './session-options';

type TusModule = typeof import('tus-js-client');
type TusUpload = InstanceType<TusModule['Upload']>;
type PreviousUpload = Awaited<ReturnType<TusUpload['findPreviousUploads']>>[number];

/** 16 MiB chunks: a paused or broken upload loses at most one chunk, and progress is smooth. */
const CHUNK_BYTES = 16 * 1024 * 1024;

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; paused: boolean }
  | { kind: 'submitting' }
  | { kind: 'done'; sessionId: string }
  | { kind: 'error'; message: string; canRetry: boolean };

/** Reads a video's length in the browser (for a tight credit hold); null when it cannot. */
function readDuration(file: File): Promise<number | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    const done = (v: number | null) => {
      URL.revokeObjectURL(url);
      resolve(v);
    };
    const timer = setTimeout(() => done(null), 5000);
    video.preload = 'metadata';
    video.onloadedmetadata = () => {
      clearTimeout(timer);
      done(Number.isFinite(video.duration) && video.duration > 0 ? video.duration : null);
    };
    video.onerror = () => {
      clearTimeout(timer);
      done(null);
    };
    video.src = url;
  });
}

/** Speed over the last few seconds and time left. */
function useRate() {
  const samples = useRef<Array<[number, number]>>([]);
  return useCallback((bytes: number, total: number) => {
    const now = performance.now();
    samples.current.push([now, bytes]);
    while (samples.current.length > 2 && now - samples.current[0][0] > 5000) samples.current.shift();
    const [t0, b0] = samples.current[0];
    const speed = now - t0 > 300 ? ((bytes - b0) / (now - t0)) * 1000 : 0;
    return { speed, eta: speed > 0 ? (total - bytes) / speed : null, reset: () => (samples.current = []) };
  }, []);
}

export function Uploader() {
  const trpc = useTRPC();
  const router = useRouter();
  const toast = useToast();
  const queryClient = useQueryClient();
  const groups = useQuery(trpc.dashboard.groups.list.queryOptions());
  const inputRef = useRef<HTMLInputElement>(null);
  const uploadRef = useRef<TusUpload | null>(null);
  const tusRef = useRef<TusModule | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [duration, setDuration] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [opponent, setOpponent] = useState('');
  const [group, setGroup] = useState('');
  const [options, setOptions] = useState<SessionOptionsValue>(defaultSessionOptions);
  const [over, setOver] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [progress, setProgress] = useState({ bytes: 0, total: 0, speed: 0, eta: null as number | null });
  const [unfinished, setUnfinished] = useState<PreviousUpload[]>([]);
  const rate = useRate();

  const create = useMutation(trpc.sessions.create.mutationOptions());

  useEffect(() => {
    void import('tus-js-client').then(async (tus) => {
      tusRef.current = tus;
      const all = await tus.defaultOptions.urlStorage.findAllUploads().catch(() => []);
      setUnfinished(all.filter((u) => u.uploadUrl?.includes('/v1/uploads/')));
    });
    return () => void uploadRef.current?.abort();
  }, []);

  async function pick(f: File) {
    setFile(f);
    setPhase({ kind: 'idle' });
    setProgress({ bytes: 0, total: f.size, speed: 0, eta: null });
    setName((n) => n || f.name.replace(/\.[^.]+$/, '').replace(/[_-]+/g, ' '));
    setDuration(await readDuration(f));
  }

  async function submitSession(uploadUrl: string) {
    setPhase({ kind: 'submitting' });
    const uploadId = uploadUrl.split('/').pop()!;
    const metadata: Record<string, string> = {};
    if (name.trim()) metadata.name = name.trim();
    if (opponent.trim()) metadata.opponent = opponent.trim();
    try {
      const session = await create.mutateAsync({
        source: { type: 'upload', upload_id: uploadId },
        ...(duration ? { duration_seconds: Math.max(1, Math.ceil(duration)) } : {}),
        ...(group ? { group } : {}),
        metadata,
        options: toApiOptions(options),
      });
      setPhase({ kind: 'done', sessionId: session.id });
      void queryClient.invalidateQueries({ queryKey: trpc.dashboard.sessions.pathKey() });
      toast('Upload complete — processing started');
      router.push(`/sessions/${session.id}`);
    } catch (err) {
      const api = apiError(err);
      setPhase({
        kind: 'error',
        message: api?.code === 'insufficient_credits' ? `${api.message} An admin can add credit on the Billing page; then submit again.` : errorMessage(err),
        canRetry: true,
      });
      uploadRef.current = null;
      // keep the finished upload's URL so "Try again" only re-submits
      retrySubmit.current = () => submitSession(uploadUrl);
    }
  }
  const retrySubmit = useRef<(() => void) | null>(null);

  async function start() {
    const tus = tusRef.current ?? (tusRef.current = await import('tus-js-client'));
    if (!file) return;
    retrySubmit.current = null;
    rate(0, file.size).reset();
    const upload = new tus.Upload(file, {
      endpoint: '/v1/uploads',
      // a smaller chunk can be set for very unstable connections (and tests) in localStorage
      chunkSize: Number(window.localStorage.getItem('swish.uploadChunkBytes')) || CHUNK_BYTES,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      metadata: { filename: file.name, filetype: file.type || 'video/mp4' },
      removeFingerprintOnSuccess: true,
      onProgress: (bytes, total) => {
        const r = rate(bytes, total);
        setProgress({ bytes, total, speed: r.speed, eta: r.eta });
      },
      onError: (err) => {
        const status = (err as { originalResponse?: { getStatus(): number } }).originalResponse?.getStatus();
        setPhase({
          kind: 'error',
          message:
            status === 413
              ? 'This file is larger than the service accepts.'
              : status === 401 || status === 403
                ? 'Your sign-in expired. Sign in again, then pick the same file to resume.'
                : 'The upload was interrupted. Resume continues from where it stopped.',
          canRetry: status !== 413,
        });
      },
      onSuccess: () => void submitSession(upload.url!),
    });
    uploadRef.current = upload;
    const previous = await upload.findPreviousUploads();
    if (previous.length) upload.resumeFromPreviousUpload(previous[0]);
    setPhase({ kind: 'uploading', paused: false });
    upload.start();
  }

  function pause() {
    void uploadRef.current?.abort();
    setPhase({ kind: 'uploading', paused: true });
  }
  function resume() {
    if (!uploadRef.current) return void start();
    rate(0, 0).reset();
    setPhase({ kind: 'uploading', paused: false });
    uploadRef.current.start();
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const f = e.dataTransfer.files[0];
    if (f) void pick(f);
  };

  const pct = progress.total ? Math.floor((progress.bytes / progress.total) * 100) : 0;
  const busy = phase.kind === 'uploading' || phase.kind === 'submitting';
  const resumable = file ? unfinished.find((u) => u.metadata.filename === file.name && u.size === file.size) : undefined;

  return (
    <section className="card" aria-labelledby="upload-h">
      <div className="card-head">
        <div>
          <h2 id="upload-h">Upload a game video</h2>
          <p>MP4 or MOV. Uploads resume after a lost connection or a page reload: pick the same file again.</p>
        </div>
      </div>
      <div className="card-body stack">
        {!file && unfinished.length > 0 && (
          <div className="notice notice-warning">
            <div>
              <strong>Unfinished upload{unfinished.length > 1 ? 's' : ''}</strong>
              {unfinished.map((u) => `${u.metadata.filename ?? 'file'} (${u.size ? formatBytes(u.size) : '?'})`).join(', ')} — choose the same file to continue where it stopped.
            </div>
          </div>
        )}
        <div
          className="dropzone"
          data-over={over}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
          onClick={() => !busy && inputRef.current?.click()}
        >
          <div className="empty" style={{ padding: 0 }}>
            <div className="icon" aria-hidden="true">
              {Icon.upload}
            </div>
          </div>
          {file ? (
            <>
              <strong>{file.name}</strong>
              <span className="muted">
                {formatBytes(file.size)}
                {duration ? ` · ${formatDuration(duration)}` : ''}
              </span>
            </>
          ) : (
            <>
              <strong>Drag a video here</strong>
              <span className="muted">or</span>
            </>
          )}
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={(e) => {
              e.stopPropagation();
              inputRef.current?.click();
            }}
          >
            {file ? 'Choose another file' : 'Choose a file'}
          </button>
          <input
            ref={inputRef}
            type="file"
            accept="video/mp4,video/quicktime,video/*,.mp4,.mov,.m4v"
            className="sr-only"
            aria-label="Video file"
            data-testid="file-input"
            tabIndex={-1}
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void pick(f);
              e.target.value = '';
            }}
          />
        </div>

        {file && (
          <div className="grid-3">
            <label className="field">
              <span>Name</span>
              <input className="input" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} disabled={busy} />
            </label>
            <label className="field">
              <span>Opponent (optional)</span>
              <input className="input" value={opponent} onChange={(e) => setOpponent(e.target.value)} maxLength={200} disabled={busy} />
            </label>
            <label className="field">
              <span>Group</span>
              <select className="select" value={group} onChange={(e) => setGroup(e.target.value)} disabled={busy}>
                {groups.data?.map((g) => (
                  <option key={g.id} value={g.is_default ? '' : g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
            </label>
          </div>
        )}
        {file && <SessionOptionsFields value={options} onChange={setOptions} disabled={busy} />}

        {file && phase.kind !== 'idle' && (
          <div className="stack" style={{ gap: 6 }} aria-live="polite">
            <div className="progress progress-lg" role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
              <div style={{ width: `${pct}%` }} />
            </div>
            <div className="upload-meta" data-testid="upload-status">
              <span>
                {phase.kind === 'submitting'
                  ? 'Upload complete — starting processing…'
                  : phase.kind === 'uploading' && phase.paused
                    ? `Paused at ${pct}%`
                    : `${pct}% · ${formatBytes(progress.bytes)} of ${formatBytes(progress.total)}`}
              </span>
              {phase.kind === 'uploading' && !phase.paused && (
                <span>
                  {progress.speed > 0 ? `${formatBytes(progress.speed)}/s` : 'measuring…'}
                  {progress.eta !== null ? ` · ${formatDuration(progress.eta)} left` : ''}
                </span>
              )}
            </div>
          </div>
        )}

        {phase.kind === 'error' && (
          <div className="notice notice-danger" role="alert">
            <div className="grow">{phase.message}</div>
          </div>
        )}

        {file && (
          <div className="row">
            {phase.kind === 'idle' && (
              <button className="btn btn-primary" onClick={() => void start()}>
                {resumable ? 'Resume upload' : 'Upload and analyse'}
              </button>
            )}
            {phase.kind === 'uploading' &&
              (phase.paused ? (
                <button className="btn btn-primary" onClick={resume}>
                  Resume
                </button>
              ) : (
                <button className="btn" onClick={pause}>
                  Pause
                </button>
              ))}
            {phase.kind === 'error' && phase.canRetry && (
              <button className="btn btn-primary" onClick={() => (retrySubmit.current ? retrySubmit.current() : resume())}>
                {retrySubmit.current ? 'Submit again' : 'Resume'}
              </button>
            )}
            {phase.kind === 'done' && (
              <Link className="btn btn-primary" href={`/sessions/${phase.sessionId}`}>
                Open session
              </Link>
            )}
            <span className="hint">Processing is charged per second of video; the length is read from the file so the hold matches.</span>
          </div>
        )}
      </div>
    </section>
  );
}
