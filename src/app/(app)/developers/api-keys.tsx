'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConfirmModal, Empty, ErrorState, Loading, Modal, ModalActions, SecretModal, useToast } from '../../_components/ui';
import { formatDay, timeAgo } from '../../_lib/format';
import { errorMessage, useTRPC, type Outputs } from '../../_lib/trpc';

type Key = Outputs['dashboard']['apiKeys']['list'][number];

export function ApiKeys() {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.dashboard.apiKeys.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ secret: string; name: string | null } | null>(null);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.apiKeys.list.queryKey() });
  const create = useMutation(
    trpc.dashboard.apiKeys.create.mutationOptions({
      onSuccess: (k) => {
        setCreating(false);
        setSecret({ secret: k.secret, name: k.name });
        void refresh();
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const revoke = useMutation(
    trpc.dashboard.apiKeys.revoke.mutationOptions({
      onSuccess: () => {
        setRevoking(null);
        toast('Key revoked');
        void refresh();
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    create.mutate({ environment: f.get('environment') as 'production' | 'staging', name: String(f.get('name') ?? '') || undefined });
  }

  return (
    <section className="card" aria-labelledby="keys-h">
      <div className="card-head">
        <div>
          <h2 id="keys-h">API keys</h2>
          <p>Keys authenticate calls to the REST API. A secret is shown once, when the key is created.</p>
        </div>
        <button className="btn btn-primary" onClick={() => setCreating(true)}>
          Create key
        </button>
      </div>
      {keys.error ? (
        <div className="card-body">
          <ErrorState error={keys.error} retry={() => keys.refetch()} />
        </div>
      ) : !keys.data ? (
        <Loading />
      ) : keys.data.length === 0 ? (
        <Empty title="No API keys">Create a key to call the API from your own software.</Empty>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="keys-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th className="hide-sm">Created</th>
                <th>Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id} data-key={k.id}>
                  <td>
                    {k.name ?? <span className="muted">Unnamed</span>}
                    <div className="cell-sub">{k.environment}</div>
                  </td>
                  <td className="mono">
                    swish_{k.environment === 'production' ? 'prod' : 'stg'}_…{k.last4}
                  </td>
                  <td className="hide-sm cell-sub">{formatDay(k.created)}</td>
                  <td className="cell-sub">{timeAgo(k.last_used)}</td>
                  <td className="num">
                    {k.revoked ? (
                      <span className="badge badge-failed" data-testid="revoked">
                        Revoked
                      </span>
                    ) : (
                      <button className="btn btn-sm btn-danger" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name ?? k.id}`}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <Modal open={creating} onClose={() => setCreating(false)} title="Create an API key" description="Use production keys against this deployment; staging keys work against a staging deployment.">
        <form className="form" onSubmit={submit} id="create-key-form">
          <label className="field">
            <span>Name</span>
            <input className="input" name="name" maxLength={80} placeholder="e.g. Team website" autoFocus />
          </label>
          <label className="field">
            <span>Environment</span>
            <select className="select" name="environment" defaultValue="production">
              <option value="production">Production</option>
              <option value="staging">Staging</option>
            </select>
          </label>
          <ModalActions onCancel={() => setCreating(false)} label="Create key" pending={create.isPending} />
        </form>
      </Modal>

      <SecretModal
        secret={secret?.secret ?? null}
        onClose={() => setSecret(null)}
        title="Copy your new key"
        description="This is the only time the secret is shown. Store it somewhere safe, such as your server’s environment."
        testId="new-secret"
      />

      <ConfirmModal
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Revoke this key?"
        description="Requests with it fail at once with 401 api_key_revoked. This cannot be undone."
        confirmLabel="Revoke key"
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
        pending={revoke.isPending}
      />
    </section>
  );
}
