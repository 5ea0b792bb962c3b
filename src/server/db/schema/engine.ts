import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns';

/**
 * State of the embedded Inngest engine (src/server/jobs/engine). Everything a run needs to
 * survive a crash lives here; the engine process keeps nothing that cannot be rebuilt from
 * these rows. Unused when the service runs on Inngest Cloud or self-hosted Inngest.
 */

/** One row per app that synced (PUT /api/inngest → POST /fn/register). */
export const inngestApps = pgTable('inngest_apps', {
  id: text('id').primaryKey(),
  url: text('url').notNull(),
  sdk: text('sdk'),
  framework: text('framework'),
  syncedAt: ts('synced_at').notNull(),
});

/** The function configs exactly as the SDK sent them at the last sync (`config` is the SDK's FunctionConfig). */
export const inngestFunctions = pgTable(
  'inngest_functions',
  {
    id: text('id').primaryKey(),
    appId: text('app_id').notNull(),
    name: text('name').notNull(),
    config: jsonb('config').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('inngest_functions_app_idx').on(t.appId)],
);

/**
 * Every event received by the event API. `externalId` is the id the sender chose (events
 * with the same id are accepted once, as on Inngest). `processedAt` is null until the
 * event's triggers, waiters and cancellations were handled, so a crash in between is
 * picked up again.
 */
export const inngestEvents = pgTable(
  'inngest_events',
  {
    id: text('id').primaryKey(),
    externalId: text('external_id'),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: ts('received_at').notNull(),
    processedAt: ts('processed_at'),
  },
  (t) => [
    uniqueIndex('inngest_events_external_id_idx').on(t.externalId),
    index('inngest_events_unprocessed_idx').on(t.receivedAt).where(sql`processed_at is null`),
    index('inngest_events_name_idx').on(t.name, t.receivedAt),
  ],
);

/**
 * One function run. `concurrency` holds the evaluated concurrency constraints
 * (`[{ key, limit }]`) so every queue item of the run counts against the same slots;
 * `parentRunId`/`parentStepId` link a run started by `step.invoke` to the waiting caller.
 */
export const inngestRuns = pgTable(
  'inngest_runs',
  {
    id: text('id').primaryKey(),
    appId: text('app_id').notNull(),
    functionId: text('function_id').notNull(),
    eventId: text('event_id'),
    event: jsonb('event').notNull(),
    status: text('status', { enum: ['running', 'completed', 'failed', 'cancelled'] }).notNull(),
    output: jsonb('output'),
    error: jsonb('error'),
    /** Set once the run fanned out into parallel steps: from then on each step runs only when asked by id. */
    disableImmediateExecution: boolean('disable_immediate_execution').notNull().default(false),
    concurrency: jsonb('concurrency').notNull().default(sql`'[]'::jsonb`),
    rateLimitKey: text('rate_limit_key'),
    idempotencyKey: text('idempotency_key'),
    parentRunId: text('parent_run_id'),
    parentStepId: text('parent_step_id'),
    createdAt: ts('created_at').notNull(),
    endedAt: ts('ended_at'),
  },
  (t) => [
    uniqueIndex('inngest_runs_fn_event_idx').on(t.functionId, t.eventId),
    index('inngest_runs_fn_created_idx').on(t.functionId, t.createdAt),
    index('inngest_runs_rate_limit_idx').on(t.rateLimitKey, t.createdAt),
    index('inngest_runs_idempotency_idx').on(t.idempotencyKey, t.createdAt),
  ],
);

/** Memoised step results, keyed by the SDK's hashed step id; `seq` keeps completion order. */
export const inngestSteps = pgTable(
  'inngest_steps',
  {
    runId: text('run_id').notNull(),
    stepId: text('step_id').notNull(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    result: jsonb('result').notNull(),
    completedAt: ts('completed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.stepId] })],
);

/**
 * Calls to make to the app: `stepId` null is a discovery call (`stepId=step`), otherwise
 * the hashed id of a planned step. A worker leases an item (`leaseToken`, `leasedUntil`,
 * extended while the call runs); an item whose lease ran out is taken again, which is
 * how a run resumes after the process died.
 */
export const inngestQueue = pgTable(
  'inngest_queue',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: text('app_id').notNull(),
    runId: text('run_id').notNull(),
    stepId: text('step_id'),
    attempt: integer('attempt').notNull().default(0),
    runAt: ts('run_at').notNull(),
    status: text('status', { enum: ['queued', 'leased'] }).notNull().default('queued'),
    leaseToken: text('lease_token'),
    leasedUntil: ts('leased_until'),
    concurrencyKeys: text('concurrency_keys').array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [
    uniqueIndex('inngest_queue_step_idx').on(t.runId, t.stepId).where(sql`step_id is not null`),
    uniqueIndex('inngest_queue_discovery_idx').on(t.runId).where(sql`step_id is null and status = 'queued'`),
    index('inngest_queue_due_idx').on(t.appId, t.runAt),
    // a claim takes the due calls in order from here, reading about as many as it takes (store.ts claimBatch)
    index('inngest_queue_queued_idx').on(t.runAt, t.id).where(sql`status = 'queued'`),
    // the calls in flight, which every claim counts
    index('inngest_queue_leased_idx').on(t.leasedUntil).where(sql`status = 'leased'`),
  ],
);

/**
 * What a run is waiting for: a `sleep` until `expiresAt`, an `event` (step.waitForEvent,
 * `expression` is its `if`), an `invoke`d run to finish, or a `cancel` condition
 * (cancelOn) that ends the run when a matching event arrives.
 */
export const inngestWaits = pgTable(
  'inngest_waits',
  {
    runId: text('run_id').notNull(),
    stepId: text('step_id').notNull(),
    kind: text('kind', { enum: ['sleep', 'event', 'invoke', 'cancel'] }).notNull(),
    eventName: text('event_name'),
    expression: text('expression'),
    expiresAt: ts('expires_at'),
    invokedRunId: text('invoked_run_id'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.stepId] }),
    index('inngest_waits_event_idx').on(t.eventName),
    index('inngest_waits_expiry_idx').on(t.expiresAt),
    index('inngest_waits_invoked_idx').on(t.invokedRunId),
  ],
);

/** Next fire time of each cron trigger; the instance that locks the row starts the run. */
export const inngestCrons = pgTable(
  'inngest_crons',
  {
    functionId: text('function_id').notNull(),
    cron: text('cron').notNull(),
    nextAt: ts('next_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.functionId, t.cron] })],
);
