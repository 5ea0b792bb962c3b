'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { CopyButton, ErrorState, Loading, useToast } from '../../_components/ui';
import { authClient, authErrorMessage } from '../../_lib/auth-client';
import { formatDay } from '../../_lib/format';
import { errorMessage, useTRPC } from '../../_lib/trpc';
import { useIsAdmin, useMe } from '../app-shell';

const ROLE_HELP = {
  owner: 'Everything an admin can, and making or removing owners',
  admin: 'Billing, API keys, webhooks and members',
  coach: 'Upload and watch games, edit sessions and players',
} as const;

function Groups() {
  const trpc = useTRPC();
  const toast = useToast();
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const groups = useQuery(trpc.dashboard.groups.list.queryOptions());
  const [name, setName] = useState('');
  const create = useMutation(
    trpc.dashboard.groups.create.mutationOptions({
      onSuccess: (g) => {
        setName('');
        toast(`Group “${g.name}” created`);
        void queryClient.invalidateQueries({ queryKey: trpc.dashboard.groups.list.queryKey() });
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  return (
    <section className="card" aria-labelledby="groups-h">
      <div className="card-head">
        <div>
          <h2 id="groups-h">Groups</h2>
          <p>File sessions by team or level (“Varsity”, “JV”) and filter the sessions list by them.</p>
        </div>
      </div>
      {groups.error ? (
        <div className="card-body">
          <ErrorState error={groups.error} />
        </div>
      ) : !groups.data ? (
        <Loading />
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th className="num">Sessions</th>
                <th className="hide-sm">Id</th>
              </tr>
            </thead>
            <tbody>
              {groups.data.map((g) => (
                <tr key={g.id}>
                  <td>
                    <Link href={`/sessions?group=${g.id}`} className="table-link">
                      {g.name}
                    </Link>{' '}
                    {g.is_default && <span className="badge badge-plain">default</span>}
                  </td>
                  <td className="num">{g.session_count}</td>
                  <td className="hide-sm mono cell-sub">{g.id}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {admin && (
        <form
          className="card-body row"
          style={{ borderTop: '1px solid var(--border)' }}
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) create.mutate({ name });
          }}
        >
          <label className="grow" style={{ maxWidth: 320 }}>
            <span className="sr-only">New group name</span>
            <input className="input" style={{ width: '100%' }} value={name} onChange={(e) => setName(e.target.value)} placeholder="New group, e.g. Varsity" maxLength={60} />
          </label>
          <button className="btn" type="submit" disabled={!name.trim() || create.isPending}>
            Create group
          </button>
        </form>
      )}
    </section>
  );
}

function Members() {
  const trpc = useTRPC();
  const toast = useToast();
  const me = useMe();
  const queryClient = useQueryClient();
  const members = useQuery(trpc.dashboard.members.list.queryOptions());
  const [pending, setPending] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.dashboard.members.list.queryKey() });
  const origin = typeof window === 'undefined' ? '' : window.location.origin;

  async function run(action: () => Promise<{ error: { message?: string } | null }>, ok: string) {
    setPending(true);
    const { error } = await action();
    setPending(false);
    if (error) toast(authErrorMessage(error), 'error');
    else toast(ok);
    void refresh();
  }

  function invite(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    void run(
      () => authClient.organization.inviteMember({ email: String(f.get('email')).trim(), role: f.get('role') as 'admin' | 'coach', organizationId: me.active.id }),
      'Invitation created — copy its link below',
    ).then(() => form.reset());
  }

  return (
    <section className="card" aria-labelledby="members-h">
      <div className="card-head">
        <div>
          <h2 id="members-h">Members</h2>
          <p>Who can sign in to this organization, and what they can do.</p>
        </div>
      </div>
      {members.error ? (
        <div className="card-body">
          <ErrorState error={members.error} />
        </div>
      ) : !members.data ? (
        <Loading />
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Member</th>
                  <th>Role</th>
                  <th className="hide-sm">Joined</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {members.data.members.map((m) => {
                  const self = m.user_id === me.user.id;
                  return (
                    <tr key={m.id}>
                      <td>
                        {m.name}
                        {self ? ' (you)' : ''}
                        <div className="cell-sub">{m.email}</div>
                      </td>
                      <td>
                        {m.role === 'owner' || self ? (
                          <span className="badge badge-plain">{m.role}</span>
                        ) : (
                          <select
                            className="select"
                            aria-label={`Role of ${m.name}`}
                            value={m.role}
                            disabled={pending}
                            onChange={(e) =>
                              void run(() => authClient.organization.updateMemberRole({ memberId: m.id, role: e.target.value as 'admin' | 'coach', organizationId: me.active.id }), 'Role changed')
                            }
                          >
                            <option value="admin">admin</option>
                            <option value="coach">coach</option>
                          </select>
                        )}
                      </td>
                      <td className="hide-sm cell-sub">{formatDay(m.created)}</td>
                      <td className="num">
                        {!self && m.role !== 'owner' && (
                          <button
                            className="btn btn-sm btn-danger"
                            disabled={pending}
                            onClick={() => void run(() => authClient.organization.removeMember({ memberIdOrEmail: m.id, organizationId: me.active.id }), 'Member removed')}
                          >
                            Remove
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {members.data.invitations.length > 0 && (
            <div className="card-body stack" style={{ borderTop: '1px solid var(--border)', gap: 10 }}>
              <strong>Pending invitations</strong>
              {members.data.invitations.map((inv) => {
                const link = `${origin}/invite/${inv.id}`;
                return (
                  <div key={inv.id} className="row">
                    <span style={{ minWidth: 200 }}>
                      {inv.email} · {inv.role} <span className="cell-sub">· expires {formatDay(inv.expires_at)}</span>
                    </span>
                    <input className="input grow mono" readOnly value={link} aria-label={`Invitation link for ${inv.email}`} onFocus={(e) => e.currentTarget.select()} />
                    <CopyButton text={link} label="Copy link" />
                    <button className="btn btn-sm btn-ghost" onClick={() => void run(() => authClient.organization.cancelInvitation({ invitationId: inv.id }), 'Invitation cancelled')}>
                      Cancel
                    </button>
                  </div>
                );
              })}
            </div>
          )}
          <form className="card-body row" style={{ borderTop: '1px solid var(--border)', alignItems: 'flex-end' }} onSubmit={invite}>
            <label className="field grow" style={{ minWidth: 220 }}>
              <span>Invite by email</span>
              <input className="input" name="email" type="email" required placeholder="coach@school.edu" />
            </label>
            <label className="field">
              <span>Role</span>
              <select className="select" name="role" defaultValue="coach">
                <option value="coach">coach</option>
                <option value="admin">admin</option>
              </select>
            </label>
            <button className="btn btn-primary" type="submit" disabled={pending}>
              Invite
            </button>
          </form>
          <div className="card-body hint" style={{ paddingTop: 0 }}>
            Roles: {Object.entries(ROLE_HELP).map(([r, h]) => `${r} — ${h}`).join('; ')}. No email is sent: share the invitation link; the invitee signs in with that email address and accepts.
          </div>
        </>
      )}
    </section>
  );
}

export default function TeamPage() {
  const admin = useIsAdmin();
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Team &amp; groups</h1>
          <p>Groups organise sessions; members share the organization’s sessions and credit.</p>
        </div>
      </div>
      <div className="stack">
        <Groups />
        {admin && <Members />}
      </div>
    </div>
  );
}
