'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConfirmModal, Empty, ErrorState, Loading, Modal, ModalActions, SecretModal, useToast } from '../../_components/ui';
import { formatDate } from '../../_lib/format';
import { errorMessage, useTRPC, type Outputs } from '../../_lib/trpc';

type Endpoint = Outputs['webhooks']['list']['data'][number];

function Deliveries({ endpoint }: { endpoint: Endpoint }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const deliveries = useQuery({ ...trpc.webhooks.deliveries.queryOptions({ id: endpoint.id, limit: 20 }), refetchInterval: 5000 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey({ id: endpoint.id, limit: 20 }) });
  const redeliver = useMutation(
    trpc.events.redeliver.mutationOptions({ onSuccess: () => (toast('Redelivery queued'), void refresh()), onError: (err) => toast(errorMessage(err), 'error') }),
  );
  const test = useMutation(
    trpc.webhooks.sendTest.mutationOptions({ onSuccess: () => (toast('Test event sent'), void refresh()), onError: (err) => toast(errorMessage(err), 'error') }),
  );
  return (
    <div className="stack" style={{ gap: 8 }}>
      <div className="row">
        <strong className="grow">Deliveries</strong>
        <button className="btn btn-sm" onClick={() => test.mutate({ id: endpoint.id })} disabled={test.isPending}>
          Send test event
        </button>
      </div>
      {deliveries.error ? (
        <ErrorState error={deliveries.error} />
      ) : !deliveries.data ? (
        <Loading rows={2} />
      ) : deliveries.data.data.length === 0 ? (
        <p className="muted">No deliveries yet. Events are sent here when sessions finish.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Event</th>
                <th>Status</th>
                <th className="num">Attempts</th>
                <th className="hide-sm">Last response</th>
                <th className="hide-sm">Created</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {deliveries.data.data.map((d) => (
                <tr key={d.id}>
                  <td>
                    {d.event_type}
                    <div className="cell-sub mono">{d.kind === 'test' ? 'test event' : d.event}</div>
                  </td>
                  <td>
                    <span className={`badge ${d.status === 'succeeded' ? 'badge-processed' : d.status === 'failed' ? 'badge-failed' : 'badge-queued'}`}>{d.status}</span>
                  </td>
                  <td className="num">
                    {d.attempt_count}/{d.max_attempts}
                  </td>
                  <td className="hide-sm cell-sub">{d.response_status ?? d.error ?? '—'}</td>
                  <td className="hide-sm cell-sub">{formatDate(d.created)}</td>
                  <td className="num">
                    {d.kind !== 'test' && (
                      <button className="btn btn-sm" onClick={() => redeliver.mutate({ id: d.event, endpoint: endpoint.id })} disabled={redeliver.isPending}>
                        Redeliver
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export function Webhooks() {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions({ limit: 100 }));
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  /** Why the add form was refused, shown in the form (a toast would sit behind the dialog). */
  const [formError, setFormError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
  const onError = (err: unknown) => toast(errorMessage(err), 'error');
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({ onSuccess: (e) => (setCreating(false), setSecret(e.secret), void refresh()), onError: (err) => setFormError(errorMessage(err)) }),
  );
  const openForm = (on: boolean) => (setFormError(null), setCreating(on));
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions({ onSuccess: (e) => (setSecret(e.secret), void refresh()), onError }));
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: () => void refresh(), onError }));
  const remove = useMutation(trpc.webhooks.delete.mutationOptions({ onSuccess: () => (setDeleting(null), toast('Endpoint deleted'), void refresh()), onError }));

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const events = f.getAll('events') as Array<'session.processed' | 'session.failed'>;
    // no event ticked is no subscription at all, not "all events"
    if (events.length === 0) return setFormError('Choose at least one event to send.');
    setFormError(null);
    create.mutate({
      url: String(f.get('url')).trim(),
      enabled_events: events.length === 2 ? ['*'] : events,
      description: String(f.get('description') ?? '').trim() || null,
    });
  }

  return (
    <section className="card" aria-labelledby="wh-h">
      <div className="card-head">
        <div>
          <h2 id="wh-h">Webhook endpoints</h2>
          <p>Swish POSTs signed events (Standard Webhooks) when sessions are processed or fail, and retries for about 3 days.</p>
        </div>
        <button className="btn btn-primary" onClick={() => openForm(true)}>
          Add endpoint
        </button>
      </div>
      {endpoints.error ? (
        <div className="card-body">
          <ErrorState error={endpoints.error} retry={() => endpoints.refetch()} />
        </div>
      ) : !endpoints.data ? (
        <Loading />
      ) : endpoints.data.data.length === 0 ? (
        <Empty title="No endpoints">Add an https URL of your server to receive session.processed and session.failed events.</Empty>
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {endpoints.data.data.map((e) => (
            <li key={e.id} style={{ borderTop: '1px solid var(--border)' }}>
              <div className="card-body row">
                <div className="grow" style={{ minWidth: 220 }}>
                  <div className="mono" style={{ overflowWrap: 'anywhere' }}>
                    {e.url}
                  </div>
                  <div className="cell-sub">
                    {e.enabled_events.includes('*') ? 'All events' : e.enabled_events.join(', ')}
                    {e.description ? ` · ${e.description}` : ''}
                  </div>
                </div>
                <span className={`badge ${e.status === 'enabled' ? 'badge-processed' : e.status === 'failing' ? 'badge-failed' : 'badge-queued'}`}>{e.status}</span>
                <button className="btn btn-sm" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                  {open === e.id ? 'Hide deliveries' : 'Deliveries'}
                </button>
                <button className="btn btn-sm" onClick={() => rotate.mutate({ id: e.id })} disabled={rotate.isPending}>
                  Rotate secret
                </button>
                <button className="btn btn-sm" onClick={() => update.mutate({ id: e.id, disabled: e.status !== 'disabled' })}>
                  {e.status === 'disabled' ? 'Enable' : 'Disable'}
                </button>
                <button className="btn btn-sm btn-danger" onClick={() => setDeleting(e)}>
                  Delete
                </button>
              </div>
              {open === e.id && (
                <div className="card-body" style={{ paddingTop: 0 }}>
                  <Deliveries endpoint={e} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}

      <Modal open={creating} onClose={() => openForm(false)} title="Add a webhook endpoint">
        <form className="form" onSubmit={submit}>
          {formError && (
            <div className="notice notice-danger" role="alert">
              {formError}
            </div>
          )}
          <label className="field">
            <span>Endpoint URL</span>
            <input className="input" name="url" type="url" required placeholder="https://example.com/webhooks/swish" autoFocus />
          </label>
          <fieldset className="field" style={{ border: 0, padding: 0, margin: 0 }}>
            <legend className="label" style={{ marginBottom: 4 }}>
              Events
            </legend>
            <label className="checkbox">
              <input type="checkbox" name="events" value="session.processed" defaultChecked /> session.processed
            </label>
            <label className="checkbox">
              <input type="checkbox" name="events" value="session.failed" defaultChecked /> session.failed
            </label>
          </fieldset>
          <label className="field">
            <span>Description (optional)</span>
            <input className="input" name="description" maxLength={500} />
          </label>
          <ModalActions onCancel={() => openForm(false)} label="Add endpoint" pending={create.isPending} />
        </form>
      </Modal>

      <SecretModal
        secret={secret}
        onClose={() => setSecret(null)}
        title="Signing secret"
        description="Verify the webhook-signature header with this secret. It is shown only now; after a rotation the previous secret keeps working for 24 hours."
      />

      <ConfirmModal
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete this endpoint?"
        description="Nothing more is sent to it. Its delivery log is deleted too."
        confirmLabel="Delete endpoint"
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
        pending={remove.isPending}
      />
    </section>
  );
}
