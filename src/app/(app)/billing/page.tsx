'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { Pager, usePaging } from '../../_components/pager';
import { Empty, ErrorState, Loading, useToast } from '../../_components/ui';
import { formatCents, formatDate, formatDay, formatDuration } from '../../_lib/format';
import { errorMessage, useTRPC, useTRPCClient, type Outputs } from '../../_lib/trpc';
import { AdminOnly } from '../admin-only';

type UsageStatus = 'held' | 'settled' | 'voided';
type UsageFilter = { status?: UsageStatus; 'created[gte]'?: number; 'created[lte]'?: number };
type UsageEvent = Outputs['usage']['list']['data'][number];

const toUnix = (date: string, endOfDay = false) => (date ? Math.floor(new Date(`${date}T${endOfDay ? '23:59:59' : '00:00:00'}`).getTime() / 1000) : undefined);

function csv(rows: UsageEvent[]): string {
  const cols = ['id', 'created', 'session', 'group', 'api_key', 'sku', 'status', 'run_version', 'held_seconds', 'quantity_seconds', 'rate_cents_per_hour', 'cost_cents', 'settled_at', 'voided_at'] as const;
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [cols.join(','), ...rows.map((r) => cols.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}

function Balance() {
  const trpc = useTRPC();
  const balance = useQuery({ ...trpc.balance.get.queryOptions({}), refetchInterval: 15000 });
  if (balance.error) return <ErrorState error={balance.error} retry={() => balance.refetch()} />;
  const b = balance.data;
  return (
    <div className="grid-4" data-testid="balance">
      <div className="card stat">
        <div className="label">Available</div>
        <div className="value">{b ? formatCents(b.available_cents) : '…'}</div>
        <div className="sub">what new sessions can use</div>
      </div>
      <div className="card stat">
        <div className="label">Held</div>
        <div className="value">{b ? formatCents(b.held_cents) : '…'}</div>
        <div className="sub">for sessions in progress</div>
      </div>
      <div className="card stat">
        <div className="label">Credit</div>
        <div className="value">{b ? formatCents(b.credit_cents) : '…'}</div>
        <div className="sub">{b ? `${formatCents(b.rate_cents_per_hour)} per hour of video` : ''}</div>
      </div>
      <div className="card stat">
        <div className="label">Soonest expiry</div>
        <div className="value" style={{ fontSize: 18, paddingTop: 4 }}>{b ? formatDay(b.soonest_expiry) : '…'}</div>
        <div className="sub">credit expires a year after purchase</div>
      </div>
    </div>
  );
}

type Settings = Outputs['dashboard']['billing']['autoRecharge'];

/** Dollars typed by the admin → whole cents. */
const toCents = (dollars: string) => Math.round(Number(dollars) * 100);

function TopUp({ settings }: { settings: Settings | undefined }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const topups = useQuery(trpc.dashboard.billing.topups.queryOptions());
  const [amount, setAmount] = useState('50');
  const [reference, setReference] = useState('');
  const cards = settings?.card_payments ?? false;
  const request = useMutation(
    trpc.dashboard.billing.requestTopup.mutationOptions({
      onSuccess: () => {
        toast('Top-up requested — credit is added when it is approved');
        setReference('');
        void queryClient.invalidateQueries({ queryKey: trpc.dashboard.billing.topups.queryKey() });
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const checkout = useMutation(
    trpc.dashboard.billing.checkout.mutationOptions({
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  return (
    <section className="card" aria-labelledby="topup-h">
      <div className="card-head">
        <div>
          <h2 id="topup-h">Add credit</h2>
          <p>
            {cards
              ? 'Pay by card with Stripe ($10 – $10,000). The card is saved for auto-recharge; credit is added as soon as Stripe confirms the payment.'
              : 'Card payments are not set up on this deployment: request a top-up, paid by invoice; credit is added when it is approved.'}
          </p>
        </div>
      </div>
      <form
        className="card-body form"
        onSubmit={(e) => {
          e.preventDefault();
          if (cards) checkout.mutate({ amount_cents: toCents(amount) });
          else request.mutate({ amount_cents: toCents(amount), ...(reference.trim() ? { reference: reference.trim() } : {}) });
        }}
      >
        <div className="grid-2">
          <label className="field">
            <span>Amount (USD)</span>
            <input className="input" type="number" min={10} max={10000} step="0.01" required value={amount} onChange={(e) => setAmount(e.target.value)} />
          </label>
          {!cards && (
            <label className="field">
              <span>PO or reference (optional)</span>
              <input className="input" maxLength={200} value={reference} onChange={(e) => setReference(e.target.value)} />
            </label>
          )}
        </div>
        <div>
          {cards ? (
            <button className="btn btn-primary" type="submit" disabled={checkout.isPending || !settings}>
              {checkout.isPending ? 'Opening Stripe…' : 'Pay by card'}
            </button>
          ) : (
            <button className="btn btn-primary" type="submit" disabled={request.isPending || !settings}>
              Request top-up
            </button>
          )}
        </div>
        {topups.data && topups.data.length > 0 && (
          <ul className="stack" style={{ gap: 4, listStyle: 'none', padding: 0, margin: 0 }} aria-label="Top-up requests">
            {topups.data.slice(0, 5).map((t) => (
              <li key={t.id} className="row">
                <span className="grow">
                  {formatCents(t.amount_cents)} · {formatDay(t.created)}
                  {t.reference ? ` · ${t.reference}` : ''}
                </span>
                <span className={`badge ${t.status === 'approved' ? 'badge-processed' : t.status === 'rejected' ? 'badge-failed' : 'badge-queued'}`}>{t.status}</span>
              </li>
            ))}
          </ul>
        )}
      </form>
    </section>
  );
}

function AutoRecharge({ settings }: { settings: Settings | undefined }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<{ enabled: boolean; threshold: string; amount: string } | null>(null);
  const current = form ?? (settings ? { enabled: settings.enabled, threshold: String(settings.threshold_cents / 100), amount: String(settings.amount_cents / 100) } : null);
  const save = useMutation(
    trpc.dashboard.billing.updateAutoRecharge.mutationOptions({
      onSuccess: (next) => {
        toast(next.enabled ? 'Auto-recharge is on' : 'Auto-recharge settings saved');
        setForm(null);
        queryClient.setQueryData(trpc.dashboard.billing.autoRecharge.queryKey(), next);
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const why = settings?.unavailable_reason ?? null;
  const locked = !settings || (why !== null && !settings.enabled);
  return (
    <section className="card" aria-labelledby="auto-h">
      <div className="card-head">
        <div>
          <h2 id="auto-h">Auto-recharge</h2>
          <p>Buy credit automatically with the saved card when the available balance drops below a threshold — at most once an hour.</p>
        </div>
      </div>
      <form
        className="card-body form"
        onSubmit={(e) => {
          e.preventDefault();
          if (current) save.mutate({ enabled: current.enabled, threshold_cents: toCents(current.threshold), amount_cents: toCents(current.amount) });
        }}
      >
        {settings?.disabled_reason && (
          <div className="notice notice-warning" data-testid="recharge-disabled">
            <div>{settings.disabled_reason}</div>
          </div>
        )}
        <div className="grid-2">
          <label className="field">
            <span>When available credit falls below (USD)</span>
            <input
              className="input"
              type="number"
              min={0}
              max={10000}
              step="0.01"
              required
              disabled={locked}
              aria-describedby={why ? 'auto-why' : undefined}
              value={current?.threshold ?? ''}
              onChange={(e) => current && setForm({ ...current, threshold: e.target.value })}
            />
          </label>
          <label className="field">
            <span>Add (USD)</span>
            <input
              className="input"
              type="number"
              min={10}
              max={10000}
              step="0.01"
              required
              disabled={locked}
              aria-describedby={why ? 'auto-why' : undefined}
              value={current?.amount ?? ''}
              onChange={(e) => current && setForm({ ...current, amount: e.target.value })}
            />
          </label>
        </div>
        <label className="checkbox">
          <input
            type="checkbox"
            disabled={locked}
            aria-describedby={why ? 'auto-why' : undefined}
            checked={current?.enabled ?? false}
            onChange={(e) => current && setForm({ ...current, enabled: e.target.checked })}
          />{' '}
          Enable auto-recharge
        </label>
        {why && (
          <p className="hint" id="auto-why">
            Unavailable: {why}
          </p>
        )}
        <div>
          <button className="btn" type="submit" disabled={locked || save.isPending || !form}>
            Save
          </button>
        </div>
        {settings && settings.attempts.length > 0 && (
          <ul className="stack" style={{ gap: 4, listStyle: 'none', padding: 0, margin: 0 }} aria-label="Auto-recharge attempts">
            {settings.attempts.map((a) => (
              <li key={a.id} className="row">
                <span className="grow">
                  {formatCents(a.amount_cents)} · {formatDate(a.created)}
                  {a.error_code ? ` · ${a.error_code}` : ''}
                </span>
                <span className={`badge ${a.status === 'succeeded' ? 'badge-processed' : 'badge-failed'}`}>{a.status}</span>
              </li>
            ))}
          </ul>
        )}
      </form>
    </section>
  );
}

const KIND_LABEL = { grant: 'Grant', settlement: 'Settlement', expiry: 'Expiry', debt_repayment: 'Debt repayment' } as const;

/** The last 30 days of the ledger, as `credits:statement` prints it: it reconciles to the cent. */
function Statement() {
  const trpc = useTRPC();
  const statement = useQuery(trpc.dashboard.billing.statement.queryOptions({ days: 30 }));
  const s = statement.data;
  return (
    <section className="card" aria-labelledby="statement-h" data-testid="statement">
      <div className="card-head">
        <div>
          <h2 id="statement-h">Statement — last 30 days</h2>
          <p>Opening balance, every grant, settlement and expiry, closing balance.</p>
        </div>
      </div>
      {statement.error ? (
        <div className="card-body">
          <ErrorState error={statement.error} retry={() => statement.refetch()} />
        </div>
      ) : !s ? (
        <Loading />
      ) : (
        <>
          <div className="card-body grid-4">
            {(
              [
                ['Opening', s.opening_cents],
                ['Grants', s.grants_cents],
                ['Settlements', s.settlements_cents],
                ['Expiries', s.expiries_cents],
              ] as const
            ).map(([label, cents]) => (
              <div key={label}>
                <div className="cell-sub">{label}</div>
                <div className="num" data-testid={`statement-${label.toLowerCase()}`}>
                  {formatCents(cents)}
                </div>
              </div>
            ))}
          </div>
          {s.lines.length > 0 && (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th>Date</th>
                    <th>Kind</th>
                    <th>Description</th>
                    <th className="num">Amount</th>
                  </tr>
                </thead>
                <tbody>
                  {s.lines.slice(-50).map((l) => (
                    <tr key={l.id}>
                      <td className="cell-sub">{formatDate(l.created)}</td>
                      <td>{KIND_LABEL[l.kind]}</td>
                      <td>{l.description ?? ''}</td>
                      <td className="num">{formatCents(l.amount_cents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <div className="card-body row">
            <span className="grow">
              Closing balance{s.lines.length > 50 ? ` (the last 50 of ${s.lines.length} lines are shown)` : ''}
            </span>
            <strong data-testid="statement-closing">{formatCents(s.closing_cents)}</strong>
          </div>
        </>
      )}
    </section>
  );
}

/** Stripe sends the admin back with `?checkout=success|cancelled`. */
function CheckoutReturn() {
  const [state, setState] = useState<string | null>(null);
  useEffect(() => setState(new URLSearchParams(window.location.search).get('checkout')), []);
  if (state === 'success') {
    return (
      <div className="notice notice-success" role="status">
        <div>Payment received. The credit is added as soon as Stripe confirms it, usually within seconds.</div>
      </div>
    );
  }
  if (state === 'cancelled') {
    return (
      <div className="notice notice-info" role="status">
        <div>The card payment was cancelled; nothing was charged.</div>
      </div>
    );
  }
  return null;
}

function Usage() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const toast = useToast();
  const [status, setStatus] = useState<UsageStatus | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const paging = usePaging();
  const [exporting, setExporting] = useState(false);
  const filter: UsageFilter = {
    ...(status ? { status } : {}),
    ...(from ? { 'created[gte]': toUnix(from) } : {}),
    ...(to ? { 'created[lte]': toUnix(to, true) } : {}),
  };
  const list = useQuery({ ...trpc.usage.list.queryOptions({ limit: 20, ...filter, ...paging.cursor }), placeholderData: keepPreviousData });
  const reset = paging.reset;

  async function exportCsv() {
    setExporting(true);
    try {
      const rows: UsageEvent[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await client.usage.list.query({ limit: 100, ...filter, ...(after ? { starting_after: after } : {}) });
        rows.push(...page.data);
        if (!page.has_more || rows.length >= 10_000) break;
        after = page.data[page.data.length - 1].id;
      }
      const url = URL.createObjectURL(new Blob([csv(rows)], { type: 'text/csv' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `swish-usage-${new Date().toISOString().slice(0, 10)}.csv`;
      a.click();
      URL.revokeObjectURL(url);
    } catch (err) {
      toast(errorMessage(err), 'error');
    } finally {
      setExporting(false);
    }
  }

  const rows = list.data?.data ?? [];
  return (
    <section className="card" aria-labelledby="usage-h">
      <div className="card-head">
        <div>
          <h2 id="usage-h">Usage</h2>
          <p>One line per processed video: held at submit, settled for the measured length, voided on failure.</p>
        </div>
        <button className="btn" onClick={exportCsv} disabled={exporting}>
          {exporting ? 'Exporting…' : 'Export CSV'}
        </button>
      </div>
      <div className="card-body row" style={{ borderBottom: '1px solid var(--border)' }}>
        <label className="field">
          <span>Status</span>
          <select className="select" value={status} onChange={(e) => (setStatus(e.target.value as UsageStatus | ''), reset())}>
            <option value="">All</option>
            <option value="held">Held</option>
            <option value="settled">Settled</option>
            <option value="voided">Voided</option>
          </select>
        </label>
        <label className="field">
          <span>From</span>
          <input className="input" type="date" value={from} onChange={(e) => (setFrom(e.target.value), reset())} />
        </label>
        <label className="field">
          <span>To</span>
          <input className="input" type="date" value={to} onChange={(e) => (setTo(e.target.value), reset())} />
        </label>
      </div>
      {list.error ? (
        <div className="card-body">
          <ErrorState error={list.error} retry={() => list.refetch()} />
        </div>
      ) : !list.data ? (
        <Loading />
      ) : rows.length === 0 ? (
        from && to && from > to ? (
          <Empty title="No dates in this range">The “From” date is after the “To” date.</Empty>
        ) : status || from || to ? (
          <Empty title="No usage matches these filters">Change the status or the dates to see more.</Empty>
        ) : (
          <Empty title="No usage yet">Usage appears here when a video is submitted.</Empty>
        )
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="usage-table">
              <thead>
                <tr>
                  <th>Created</th>
                  <th>Session</th>
                  <th>Status</th>
                  <th className="num">Held</th>
                  <th className="num">Measured</th>
                  <th className="num">Cost</th>
                  <th className="hide-sm">Submitted by</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((u) => (
                  <tr key={u.id}>
                    <td className="cell-sub">{formatDate(u.created)}</td>
                    <td>
                      <Link className="mono" href={`/sessions/${u.session}`}>
                        {u.session}
                      </Link>
                    </td>
                    <td>
                      <span className="badge badge-plain">{u.status}</span>
                    </td>
                    <td className="num">{formatDuration(u.held_seconds)}</td>
                    <td className="num">{u.status === 'settled' ? formatDuration(u.quantity_seconds) : '—'}</td>
                    <td className="num">{formatCents(u.cost_cents)}</td>
                    <td className="hide-sm">{u.api_key ? <span className="mono">{u.api_key}</span> : 'Dashboard'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager paging={paging} total={list.data.total_count} hasMore={list.data.has_more} rows={rows} noun="line" />
        </>
      )}
    </section>
  );
}

function Credit() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.dashboard.billing.autoRecharge.queryOptions());
  if (settings.error) return <ErrorState error={settings.error} retry={() => settings.refetch()} />;
  return (
    <div className="grid-2">
      <TopUp settings={settings.data} />
      <AutoRecharge settings={settings.data} />
    </div>
  );
}

export default function BillingPage() {
  return (
    <AdminOnly>
      <div className="page">
        <div className="page-head">
          <div>
            <h1>Billing</h1>
            <p>Prepaid credit and what processing used it.</p>
          </div>
        </div>
        <div className="stack">
          <CheckoutReturn />
          <Balance />
          <Credit />
          <Statement />
          <Usage />
        </div>
      </div>
    </AdminOnly>
  );
}
