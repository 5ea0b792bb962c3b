'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useToast } from '../../../_components/ui';
import { errorMessage, useTRPC } from '../../../_lib/trpc';
import type { Session } from './types';

/** Longest manual highlight (the server enforces the same). */
const MAX_SECONDS = 60;

export const clock = (s: number | null | undefined) => {
  if (s === null || s === undefined) return '–';
  const m = Math.floor(s / 60);
  return `${m}:${(s - m * 60).toFixed(1).padStart(4, '0')}`;
};

const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));

/**
 * Marking a moment of the game video as a highlight: `I` / `O` (or the buttons) set the in
 * and out points at the player's current time, Create sends them; the clip is cut in the
 * background and appears among the highlights when ready. Lists the session's manual
 * highlights with their state, and deletes them.
 */
export function MarkHighlight({ session, videoRef }: { session: Session; videoRef: RefObject<HTMLVideoElement | null> }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [mark, setMark] = useState<{ in: number | null; out: number | null }>({ in: null, out: null });
  const list = useQuery({
    ...trpc.dashboard.highlights.list.queryOptions({ session: session.id }),
    refetchInterval: (q) => (q.state.data?.some((h) => h.status === 'processing') ? 1500 : false),
  });
  const ready = list.data?.filter((h) => h.status === 'ready').length ?? 0;
  const seenReady = useRef(ready);
  useEffect(() => {
    // a clip finished: the public Session now lists it (its highlight count changed)
    if (ready !== seenReady.current) {
      seenReady.current = ready;
      void queryClient.invalidateQueries({ queryKey: trpc.sessions.get.queryKey({ id: session.id }) });
    }
  }, [ready, queryClient, trpc, session.id]);

  const create = useMutation(
    trpc.dashboard.highlights.create.mutationOptions({
      onSuccess: () => {
        setMark({ in: null, out: null });
        void queryClient.invalidateQueries({ queryKey: trpc.dashboard.highlights.list.queryKey({ session: session.id }) });
        toast('Highlight marked — cutting the clip');
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const remove = useMutation(
    trpc.dashboard.highlights.delete.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.dashboard.highlights.list.queryKey({ session: session.id }) });
        void queryClient.invalidateQueries({ queryKey: trpc.sessions.get.queryKey({ id: session.id }) });
        toast('Highlight deleted');
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );

  const now = () => Math.round((videoRef.current?.currentTime ?? 0) * 10) / 10;
  const setIn = () => setMark((m) => ({ in: now(), out: m.out !== null && m.out > now() ? m.out : null }));
  const setOut = () => setMark((m) => ({ in: m.in, out: now() }));
  const keys = useRef({ setIn, setOut });
  keys.current = { setIn, setOut };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || typing(e.target)) return;
      if (e.key === 'i' || e.key === 'I') keys.current.setIn();
      else if (e.key === 'o' || e.key === 'O') keys.current.setOut();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const length = mark.in !== null && mark.out !== null ? mark.out - mark.in : null;
  const problem =
    length === null ? null : length <= 0 ? 'The out point must be after the in point.' : length < 1 ? 'At least 1 second.' : length > MAX_SECONDS ? `At most ${MAX_SECONDS} seconds.` : null;

  return (
    <section className="card" aria-labelledby="mark-h" data-testid="mark-highlight">
      <div className="card-head">
        <div>
          <h2 id="mark-h">Mark a highlight</h2>
          <p>
            Play the video, press <kbd>I</kbd> at the start and <kbd>O</kbd> at the end (1–{MAX_SECONDS} s), then create the clip.
          </p>
        </div>
      </div>
      <div className="card-body stack" style={{ gap: 10 }}>
        <div className="row">
          <button type="button" className="btn btn-sm" onClick={setIn} aria-keyshortcuts="I">
            Mark in (I)
          </button>
          <span className="mono" data-testid="mark-in">
            {clock(mark.in)}
          </span>
          <button type="button" className="btn btn-sm" onClick={setOut} aria-keyshortcuts="O" disabled={mark.in === null}>
            Mark out (O)
          </button>
          <span className="mono" data-testid="mark-out">
            {clock(mark.out)}
          </span>
          {length !== null && !problem && <span className="muted">{length.toFixed(1)} s</span>}
          <span className="grow" />
          <button
            type="button"
            className="btn btn-sm btn-primary"
            disabled={length === null || Boolean(problem) || create.isPending}
            onClick={() => mark.in !== null && mark.out !== null && create.mutate({ session: session.id, start_seconds: mark.in, end_seconds: mark.out })}
          >
            Create highlight
          </button>
        </div>
        {problem && (
          <p className="muted" role="status">
            {problem}
          </p>
        )}
        {list.data && list.data.length > 0 && (
          <ul className="stack" style={{ gap: 6, listStyle: 'none', padding: 0, margin: 0 }} aria-label="Manual highlights">
            {list.data.map((h) => (
              <li key={h.id} className="row" data-testid="manual-highlight" data-status={h.status}>
                <span className="mono">
                  {clock(h.start_seconds)}–{clock((h.start_seconds ?? 0) + h.length_seconds)}
                </span>
                <span className={`badge badge-${h.status === 'ready' ? 'processed' : h.status}`}>
                  {h.status === 'ready' ? 'Ready' : h.status === 'processing' ? 'Cutting' : 'Failed'}
                </span>
                <span className="muted">{h.shot ? 'with a shot' : h.status === 'ready' ? 'no shot in this moment' : ''}</span>
                <span className="grow" />
                <button
                  type="button"
                  className="btn btn-sm btn-ghost btn-danger"
                  aria-label={`Delete highlight at ${clock(h.start_seconds)}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate({ session: session.id, highlight: h.id })}
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
