/**
 * Operator CLI: `npm run swish -- <command> [options]`. Works against the same database as
 * the server: DATABASE_URL when set, otherwise the embedded PostgreSQL under DATA_DIR (the
 * running server's, or one started just for this command).
 */
import { parseArgs } from 'node:util';
import { closeDb, getDb } from '../server/db/client';
import { ensureDatabase } from '../server/db/bootstrap';
import { createApiKey, revokeApiKey, type Environment } from '../server/domain/api-keys/api-keys';
import { grantCredits, getBalance } from '../server/domain/billing/credits';
import { expireCredits } from '../server/domain/billing/holds';
import { creditStatement } from '../server/domain/billing/statement';
import { approveTopup, pendingTopups, rejectTopup, toApiTopup } from '../server/domain/billing/topups';
import { isAppError } from '../server/domain/errors';
import { addMember, MEMBER_ROLES, type MemberRole } from '../server/domain/members/members';
import { createOrganization, getOrganization, listOrganizations } from '../server/domain/organizations/organizations';

class UsageError extends Error {}

const HELP = `Swish operator CLI

Usage: npm run swish -- <command> [options]

Commands:
  orgs:create --name NAME [--grant-cents C] [--json]
      Create an organization with its default group, one production and one staging
      API key (printed once) and an optional credit grant.
  orgs:list [--json]
  members:add --org ORG_ID --email EMAIL [--role owner|admin|coach] [--json]
      Give a dashboard account (signed up already) a role in an organization, e.g. the
      owner of one made with orgs:create (default role: owner).
  keys:create --org ORG_ID --env production|staging [--name NAME] [--no-rate-limit] [--json]
      Issue an API key (printed once). --no-rate-limit lifts the per-minute limit for
      this key only (benchmarks, trusted back-ends).
  keys:revoke KEY_ID [--json]
  credits:grant --org ORG_ID --cents C [--reason TEXT] [--json]
  balance --org ORG_ID [--json]
  credits:statement --org ORG_ID [--from DATE] [--to DATE] [--json]
      Opening balance, grants, settlements, expiries and closing balance of a period
      (dates YYYY-MM-DD, UTC; default: the last 30 days). Reconciles to the cent.
  topups:list [--json]
      Pending top-up requests (admins ask for credit in the dashboard).
  topups:approve ID [--note TEXT] [--json]    grant the requested credit
  topups:reject ID [--note TEXT] [--json]

Options:
  --json   print machine-readable JSON only
  --help   this text
`;

function cents(value: string | undefined, flag: string): number {
  if (value === undefined) throw new UsageError(`${flag} is required`);
  if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} must be a positive whole number of cents, got "${value}"`);
  }
  return Number(value);
}

/** A UTC calendar day (YYYY-MM-DD) as a Date, plus `plusDays` (1 makes `--to` inclusive). */
function day(value: string, flag: string, plusDays: number): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new UsageError(`${flag} must be a date like 2026-11-01, got "${value}"`);
  }
  return new Date(Date.parse(`${value}T00:00:00Z`) + plusDays * 86_400_000);
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

async function run(argv: string[]): Promise<{ json: unknown; text: string }> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'grant-cents': { type: 'string' },
      org: { type: 'string' },
      env: { type: 'string' },
      cents: { type: 'string' },
      reason: { type: 'string' },
      'no-rate-limit': { type: 'boolean' },
      from: { type: 'string' },
      to: { type: 'string' },
      note: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const db = getDb();
  switch (command) {
    case 'orgs:create': {
      const grant = values['grant-cents'] === undefined ? 0 : cents(values['grant-cents'], '--grant-cents');
      const org = await createOrganization(db, { name: required(values.name, '--name'), grantCents: grant });
      const keys = Object.fromEntries(org.keys.map((k) => [k.environment, { id: k.id, secret: k.secret }]));
      return {
        json: { id: org.id, name: org.name, default_group: org.defaultGroupId, granted_cents: grant, keys },
        text: [
          `Created organization ${org.id} (${org.name})`,
          `  default group: ${org.defaultGroupId}`,
          `  credit granted: ${grant} cents`,
          `  production key: ${keys.production.secret}`,
          `  staging key:    ${keys.staging.secret}`,
          'The keys are shown only now; store them safely.',
        ].join('\n'),
      };
    }
    case 'orgs:list': {
      const orgs = await listOrganizations(db);
      const rows = await Promise.all(
        orgs.map(async (o) => ({
          id: o.id,
          name: o.name,
          created: Math.floor(o.createdAt.getTime() / 1000),
          active_keys: o.keyCount,
          rate_cents_per_hour: o.rateCentsPerHour,
          available_cents: (await getBalance(db, o.id)).available_cents,
        })),
      );
      return {
        json: rows,
        text: rows.length
          ? rows.map((r) => `${r.id}  ${r.name}  available ${r.available_cents}¢  keys ${r.active_keys}`).join('\n')
          : 'No organizations yet. Create one with: npm run swish -- orgs:create --name NAME',
      };
    }
    case 'members:add': {
      const role = values.role ?? 'owner';
      if (!MEMBER_ROLES.includes(role as MemberRole)) throw new UsageError(`--role must be one of ${MEMBER_ROLES.join(', ')}`);
      const org = await getOrganization(db, required(values.org, '--org'));
      const { member, previousRole } = await addMember(db, { organizationId: org.id, email: required(values.email, '--email'), role: role as MemberRole });
      return {
        json: { organization: org.id, ...member, previous_role: previousRole },
        text:
          previousRole === null
            ? `${member.email} is now ${member.role} of ${org.id} (${org.name}); they see it when they sign in.`
            : `${member.email} was ${previousRole} of ${org.id} (${org.name}) and is now ${member.role}.`,
      };
    }
    case 'keys:create': {
      const env = required(values.env, '--env');
      if (env !== 'production' && env !== 'staging') throw new UsageError('--env must be production or staging');
      const org = await getOrganization(db, required(values.org, '--org'));
      const key = await createApiKey(db, {
        organizationId: org.id,
        environment: env as Environment,
        name: values.name ?? null,
        rateLimitPerMinute: values['no-rate-limit'] ? null : 60,
      });
      return {
        json: { id: key.id, environment: key.environment, organization: org.id, secret: key.secret, rate_limited: key.rateLimitPerMinute !== null },
        text: `Created ${env} key ${key.id} for ${org.id}:\n  ${key.secret}\nThe key is shown only now; store it safely.`,
      };
    }
    case 'keys:revoke': {
      const key = await revokeApiKey(db, { keyId: required(positionals[0], 'KEY_ID') });
      return {
        json: { id: key.id, revoked: Math.floor(key.revokedAt!.getTime() / 1000) },
        text: `Revoked ${key.id}.`,
      };
    }
    case 'credits:grant': {
      const org = required(values.org, '--org');
      const amount = cents(values.cents, '--cents');
      const grant = await db.transaction((tx) =>
        grantCredits(tx, { organizationId: org, amountCents: amount, source: 'manual', reason: values.reason ?? null }),
      );
      const balance = await getBalance(db, org);
      return {
        json: { id: grant.id, organization: org, amount_cents: amount, expires_at: Math.floor(grant.expiresAt.getTime() / 1000), balance },
        text: `Granted ${amount} cents to ${org} (${grant.id}, expires ${grant.expiresAt.toISOString().slice(0, 10)}). Available: ${balance.available_cents} cents.`,
      };
    }
    case 'balance': {
      const balance = await getBalance(db, required(values.org, '--org'));
      return { json: balance, text: JSON.stringify(balance, null, 2) };
    }
    case 'credits:statement': {
      const org = required(values.org, '--org');
      const to = values.to ? day(values.to, '--to', 1) : new Date();
      const from = values.from ? day(values.from, '--from', 0) : new Date(to.getTime() - 30 * 86_400_000);
      await expireCredits(db);
      const st = await creditStatement(db, { organizationId: org, from, to });
      const money = (c: number) => `${c < 0 ? '-' : ''}$${(Math.abs(c) / 100).toFixed(2)}`;
      const text = [
        `Credit statement for ${org}, ${from.toISOString().slice(0, 10)} to ${to.toISOString().slice(0, 10)} (UTC)`,
        `  opening balance   ${money(st.opening_cents)}`,
        ...st.lines.map((l) => `  ${new Date(l.created * 1000).toISOString().slice(0, 16).replace('T', ' ')}  ${l.kind.padEnd(14)} ${money(l.amount_cents).padStart(12)}  ${l.description ?? ''}`),
        `  grants            ${money(st.grants_cents)}`,
        `  settlements       ${money(st.settlements_cents)}`,
        `  expiries          ${money(st.expiries_cents)}`,
        `  closing balance   ${money(st.closing_cents)}`,
      ].join('\n');
      return { json: st, text };
    }
    case 'topups:list': {
      const pending = await pendingTopups(db);
      const rows = pending.map((p) => ({ ...toApiTopup(p.request), organization: p.request.organizationId, organization_name: p.organizationName }));
      return {
        json: rows,
        text: rows.length
          ? rows.map((r) => `${r.id}  ${r.organization} (${r.organization_name})  $${(r.amount_cents / 100).toFixed(2)}  ref ${r.reference ?? '—'}`).join('\n')
          : 'No pending top-up requests.',
      };
    }
    case 'topups:approve':
    case 'topups:reject': {
      const id = required(positionals[0], 'ID');
      const decided = command === 'topups:approve' ? await approveTopup(db, { id, note: values.note }) : await rejectTopup(db, { id, note: values.note });
      return { json: decided, text: `${decided.id} ${decided.status}${decided.grant ? ` (credit grant ${decided.grant})` : ''}.` };
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const asJson = argv.includes('--json');
  if (argv.length === 0 || argv.includes('--help') || argv[0] === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  let stopDb = async () => {};
  try {
    const db = await ensureDatabase({ mode: 'client' });
    stopDb = db.stop;
    const { json, text } = await run(argv);
    process.stdout.write(asJson ? JSON.stringify(json, null, 2) + '\n' : text + '\n');
    return 0;
  } catch (err) {
    if (err instanceof UsageError) process.stderr.write(`error: ${err.message}\n\n${HELP}`);
    else if (isAppError(err)) process.stderr.write(`error: ${err.message}${err.param ? ` (${err.param})` : ''}\n`);
    else if (err instanceof TypeError && /Unknown option|Unexpected argument/.test(err.message)) process.stderr.write(`error: ${err.message}\n`);
    else process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await closeDb();
    await stopDb();
  }
}

main().then((code) => process.exit(code));
