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
import { isAppError } from '../server/domain/errors';
import { createOrganization, getOrganization, listOrganizations } from '../server/domain/organizations/organizations';

class UsageError extends Error {}

const HELP = `Swish operator CLI

Usage: npm run swish -- <command> [options]

Commands:
  orgs:create --name NAME [--grant-cents C] [--json]
      Create an organization with its default group, one production and one staging
      API key (printed once) and an optional credit grant.
  orgs:list [--json]
  keys:create --org ORG_ID --env production|staging [--name NAME] [--no-rate-limit] [--json]
      Issue an API key (printed once). --no-rate-limit lifts the per-minute limit for
      this key only (benchmarks, trusted back-ends).
  keys:revoke KEY_ID [--json]
  credits:grant --org ORG_ID --cents C [--reason TEXT] [--json]
  balance --org ORG_ID [--json]

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
