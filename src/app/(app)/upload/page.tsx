'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useToast } from '../../_components/ui';
import { errorMessage, useTRPC } from '../../_lib/trpc';
import { SampleGameButton } from '../sample-game';
import { defaultSessionOptions, SessionOptionsFields, toApiOptions, type SessionOptionsValue } from './session-options';
import { Uploader } from './uploader';

function SubmitByLink() {
  const trpc = useTRPC();
  const router = useRouter();
  const toast = useToast();
  const queryClient = useQueryClient();
  const groups = useQuery(trpc.dashboard.groups.list.queryOptions());
  const [error, setError] = useState<string | null>(null);
  const [options, setOptions] = useState<SessionOptionsValue>(defaultSessionOptions);
  const create = useMutation(
    trpc.sessions.create.mutationOptions({
      onSuccess: (s) => {
        void queryClient.invalidateQueries({ queryKey: trpc.dashboard.sessions.pathKey() });
        toast('Submitted — processing started');
        router.push(`/sessions/${s.id}`);
      },
      onError: (err) => setError(errorMessage(err)),
    }),
  );
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    const f = new FormData(e.currentTarget);
    const name = String(f.get('name') ?? '').trim();
    const group = String(f.get('group') ?? '');
    create.mutate({
      source: { url: String(f.get('url')).trim() },
      ...(group ? { group } : {}),
      metadata: name ? { name } : {},
      options: toApiOptions(options),
    });
  }
  return (
    <section className="card" aria-labelledby="link-h">
      <div className="card-head">
        <div>
          <h2 id="link-h">Submit by link</h2>
          <p>A public https link to an MP4/MOV file, or a match page on a supported video platform.</p>
        </div>
      </div>
      <form className="card-body form" onSubmit={submit}>
        <label className="field">
          <span>Video link</span>
          <input className="input" name="url" type="url" required placeholder="https://videos.example.com/game.mp4" />
        </label>
        <div className="grid-2">
          <label className="field">
            <span>Name</span>
            <input className="input" name="name" maxLength={200} placeholder="vs. Eagles, home" />
          </label>
          <label className="field">
            <span>Group</span>
            <select className="select" name="group" defaultValue="">
              {groups.data?.map((g) => (
                <option key={g.id} value={g.is_default ? '' : g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
        </div>
        <SessionOptionsFields value={options} onChange={setOptions} disabled={create.isPending} />
        {error && (
          <div className="notice notice-danger" role="alert">
            {error}
          </div>
        )}
        <div>
          <button className="btn btn-primary" type="submit" disabled={create.isPending}>
            {create.isPending ? 'Submitting…' : 'Submit link'}
          </button>
        </div>
      </form>
    </section>
  );
}

export default function UploadPage() {
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Upload</h1>
          <p>Add a game: upload the file, give a link, or try a sample game.</p>
        </div>
        <div className="page-actions">
          <SampleGameButton />
        </div>
      </div>
      <div className="stack">
        <Uploader />
        <SubmitByLink />
      </div>
    </div>
  );
}
