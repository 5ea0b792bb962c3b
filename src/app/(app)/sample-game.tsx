'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { errorMessage, useTRPC } from '../_lib/trpc';
import { useToast } from '../_components/ui';

/**
 * "Try a sample game": the server renders a synthetic game with the analyser's generator and
 * submits it like an upload; this button follows it until the session exists, then opens it.
 */
export function SampleGameButton({ primary = false }: { primary?: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [uploadId, setUploadId] = useState<string | null>(null);
  const start = useMutation(
    trpc.dashboard.sampleGame.start.mutationOptions({
      onSuccess: (s) => setUploadId(s.upload_id),
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const status = useQuery({
    ...trpc.dashboard.sampleGame.status.queryOptions({ upload: uploadId ?? '' }),
    enabled: uploadId !== null,
    refetchInterval: (q) => (q.state.data?.state === 'rendering' || !q.state.data ? 1500 : false),
  });
  useEffect(() => {
    const s = status.data;
    if (!s) return;
    if (s.state === 'submitted' && s.session_id) {
      setUploadId(null);
      void queryClient.invalidateQueries({ queryKey: trpc.dashboard.sessions.list.queryKey() });
      router.push(`/sessions/${s.session_id}`);
    } else if (s.state === 'failed') {
      setUploadId(null);
      toast(s.error ?? 'The sample game failed.', 'error');
    }
  }, [status.data, router, toast, queryClient, trpc]);

  const busy = start.isPending || uploadId !== null;
  return (
    <button className={`btn ${primary ? 'btn-primary' : ''}`} onClick={() => start.mutate()} disabled={busy} aria-live="polite">
      {busy ? (
        <>
          <span className="spinner" aria-hidden="true" /> Rendering sample game…
        </>
      ) : (
        'Try a sample game'
      )}
    </button>
  );
}
