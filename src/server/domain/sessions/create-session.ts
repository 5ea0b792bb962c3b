import { and, eq } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client';
import { groups, sessions, uploads } from '../../db/schema';
import { placeHold } from '../billing/holds';
import { estimateHoldSeconds } from '../billing/money';
import { AppError, notFound } from '../errors';
import { isId, newId } from '../ids';
import { safeFetch } from '../net/outbound';
import { resolveSource, type SourceInput } from './source';
import { toApiSessions, type ApiSession } from './serialize';
import { maxVideoSeconds } from './limits';

export interface SessionOptions {
  session_type?: 'solo' | '1v1' | '2v2' | '3v3' | '4v4' | '5v5';
  session_mode?: string;
  point_system?: number;
  court_type?: string;
  camera_setup?: 'stationary' | 'panning';
  recording_setup?: string;
  has_jerseys?: boolean;
  num_players?: number;
  recording_team_name?: string;
  opponent_team_name?: string;
}

export interface CreateSessionInput {
  source: SourceInput;
  group?: string;
  metadata?: Record<string, string>;
  duration_seconds?: number;
  options?: SessionOptions;
}

export interface CreatedSession {
  session: ApiSession;
  heldCents: number;
  availableAfter: number;
}

/** The submit response's cost headers (SPEC §4.1): the cents held and the balance left after the hold. */
export function costHeaders(created: CreatedSession): Record<string, string> {
  return { 'X-Service-Cost-Cents': String(created.heldCents), 'X-Service-Balance-Cents': String(created.availableAfter) };
}

/** Bounded HEAD for a URL source's size; any failure just means "unknown". */
async function remoteSize(url: string): Promise<number | null> {
  try {
    // as many redirects as the download follows, or a link it would fetch gets the 2-hour hold
    const res = await safeFetch(url, { method: 'HEAD', timeoutMs: 3_000, maxRedirects: 5 });
    const len = Number(res.headers.get('content-length'));
    return res.ok && Number.isFinite(len) && len > 0 ? len : null;
  } catch {
    return null;
  }
}

/**
 * Submits a video (SPEC §4.1, §3): checks the source, group and upload, estimates the hold
 * (declared duration, else file size at 4 Mbit/s, else 2 h) and, in one transaction,
 * creates the `queued` session and its `held` usage event — or throws 402 and creates
 * nothing.
 */
export async function createSession(
  db: Database,
  opts: {
    organizationId: string;
    apiKeyId: string | null;
    input: CreateSessionInput;
    /** Runs last inside the transaction (an idempotent request stores its response there). */
    beforeCommit?: (tx: Tx, created: CreatedSession) => Promise<void>;
  },
): Promise<CreatedSession> {
  const { input, organizationId } = opts;
  const source = resolveSource(input.source);

  let groupId: string;
  if (input.group !== undefined) {
    const [g] = isId('group', input.group)
      ? await db.select().from(groups).where(and(eq(groups.id, input.group), eq(groups.organizationId, organizationId)))
      : [];
    if (!g) throw notFound('group', 'group');
    groupId = g.id;
  } else {
    const [g] = await db.select().from(groups).where(and(eq(groups.organizationId, organizationId), eq(groups.isDefault, true)));
    if (!g) {
      throw new AppError('no_group', { message: 'This organization has no group yet; create one before submitting sessions.' });
    }
    groupId = g.id;
  }

  // a declared length past the limit can only fail later, after holding its credit: refused now
  if (input.duration_seconds !== undefined && input.duration_seconds > maxVideoSeconds()) {
    throw new AppError('parameter_invalid', {
      message: `duration_seconds is ${input.duration_seconds}; videos longer than ${maxVideoSeconds()} s are not processed.`,
      param: 'duration_seconds',
    });
  }
  let sizeBytes: number | null = null;
  if (source.type === 'upload') {
    const [up] = isId('upload', source.uploadId!)
      ? await db.select().from(uploads).where(and(eq(uploads.id, source.uploadId!), eq(uploads.organizationId, organizationId)))
      : [];
    if (!up) throw notFound('upload', 'source.upload_id');
    if (up.status !== 'complete') {
      throw new AppError('upload_not_finished', {
        message: up.status === 'expired' ? 'This upload expired before it was finished; upload the file again.' : 'This upload is not finished yet; finish it, then submit.',
        param: 'source.upload_id',
      });
    }
    sizeBytes = up.sizeBytes;
  } else if (source.type === 'url' && input.duration_seconds === undefined) {
    sizeBytes = await remoteSize(source.url!);
  }
  const heldSeconds = estimateHoldSeconds({ durationSeconds: input.duration_seconds, sizeBytes });

  const sessionId = newId('session');
  return db.transaction(async (tx) => {
    const hold = await placeHold(tx, { organizationId, sessionId, groupId, apiKeyId: opts.apiKeyId, heldSeconds });
    const [row] = await tx
      .insert(sessions)
      .values({
        id: sessionId,
        organizationId,
        groupId,
        apiKeyId: opts.apiKeyId,
        status: 'queued',
        sourceType: source.type,
        sourceUrl: source.url,
        uploadId: source.uploadId,
        metadata: input.metadata ?? {},
        options: { session_type: '5v5', has_jerseys: false, point_system: 2, ...(input.options ?? {}) },
        declaredDurationSeconds: input.duration_seconds ?? null,
      })
      .returning();
    const [session] = await toApiSessions(tx, [row]);
    const created = { session, heldCents: hold.heldCents, availableAfter: hold.availableAfter };
    await opts.beforeCommit?.(tx, created);
    return created;
  });
}
