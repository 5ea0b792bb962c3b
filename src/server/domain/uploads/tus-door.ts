import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';
import { getDb, type Database } from '../../db/client';
import { logger } from '../../logger';
import { contentTypeForKey, getMediaStorage } from '../../media/storage';
import { AppError, ERROR_CODES, isAppError } from '../errors';
import { newId } from '../ids';
import {
  createUploadRecord,
  getUploadRow,
  markUploadComplete,
  markUploadExpired,
  maxUploadBytes,
  recordUploadOffset,
  toApiUpload,
  UPLOAD_TTL_MS,
  uploadPartsDir,
  uploadStorageKey,
} from './uploads';

/**
 * `/v1/uploads`: resumable uploads, tus 1.0.0 (DESIGN §4) with creation,
 * creation-with-upload, expiration, termination and checksum (sha1). @tus/server and its
 * file store handle the protocol; around them this door adds what the product needs:
 * - the organization (API key or dashboard session) on every request, and 404 for another
 *   organization's upload;
 * - an `uploads` row per upload (`up_…` id, size, offset, status), so a session can be
 *   submitted from it once `complete`;
 * - the finished file moved into media storage (`uploads/<up_id>/<file>`: local disk or S3),
 *   where the processing pipeline reads it;
 * - `GET /v1/uploads/{id}` as JSON; errors outside the tus exchange in the spec's error body;
 * - the checksum extension (`Upload-Checksum: sha1 <base64>` on PATCH; 460 on mismatch),
 *   which the library does not implement.
 */

export type Authenticate = (req: Request, opts: { rateLimit: boolean; responseHeaders: Headers }) => Promise<{ organizationId: string }>;

const requestScope = new AsyncLocalStorage<{ organizationId: string }>();
const TUS_VERSION = '1.0.0';
const CHECKSUM_ALGORITHMS = ['sha1'];
/** A PATCH carrying a checksum is read into memory to verify it; larger chunks must be split. */
const MAX_CHECKSUM_CHUNK = 256 * 1024 * 1024;

const globalKey = Symbol.for('swish.tus');
type GlobalWithTus = typeof globalThis & { [globalKey]?: Server };

/** A tus hook error: the library answers with this status and body. */
const tusError = (status_code: number, body: string) => Object.assign(new Error(body), { status_code, body });

/**
 * Moves a fully received upload into media storage and marks it `complete`. Runs after the
 * tus library answered (it still reads its own files while answering), and again on a later
 * HEAD/PATCH if a previous attempt failed half-way, so an upload never stays stuck.
 */
async function finishUpload(db: Database, uploadId: string): Promise<void> {
  const row = await db.query.uploads.findFirst({ where: (u, { eq }) => eq(u.id, uploadId) });
  if (!row || row.status !== 'uploading') return;
  const key = uploadStorageKey(uploadId, row.filename);
  const dir = uploadPartsDir();
  await getMediaStorage().putFile(key, join(/*turbopackIgnore: true*/ dir, uploadId), contentTypeForKey(key), { move: true });
  await markUploadComplete(db, { id: uploadId, storageKey: key });
  await rm(join(/*turbopackIgnore: true*/ dir, uploadId), { force: true });
  await rm(join(/*turbopackIgnore: true*/ dir, `${uploadId}.json`), { force: true });
}

function tusServer(): Server {
  const g = globalThis as GlobalWithTus;
  g[globalKey] ??= new Server({
    path: '/v1/uploads',
    datastore: new FileStore({ directory: uploadPartsDir(), expirationPeriodInMilliseconds: UPLOAD_TTL_MS }),
    relativeLocation: true,
    maxSize: maxUploadBytes(),
    disableTerminationForFinishedUploads: true,
    namingFunction: () => newId('upload'),
    onUploadCreate: async (_req, upload) => {
      const scope = requestScope.getStore();
      if (!scope) throw tusError(500, 'Upload outside of a request.\n');
      if (upload.size === undefined) throw tusError(400, 'Upload-Length is required: the size decides the credit hold.\n');
      const filename = upload.metadata?.filename ?? upload.metadata?.name ?? null;
      await createUploadRecord(getDb(), { id: upload.id, organizationId: scope.organizationId, sizeBytes: upload.size, filename: filename?.slice(0, 255) ?? null });
      return {};
    },
  });
  return g[globalKey];
}

function jsonResponse(status: number, body: unknown, headers: Headers): Response {
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(body), { status, headers });
}

function errorResponse(req: Request, err: AppError, headers: Headers): Response {
  for (const [k, v] of Object.entries(err.headers ?? {})) headers.set(k, v);
  if (req.method === 'HEAD') return new Response(null, { status: ERROR_CODES[err.code].status, headers });
  return jsonResponse(ERROR_CODES[err.code].status, err.toBody(), headers);
}

function tusText(status: number, body: string, headers: Headers): Response {
  headers.set('Tus-Resumable', TUS_VERSION);
  headers.set('Content-Type', 'text/plain; charset=utf-8');
  return new Response(body, { status, headers });
}

/** Verifies `Upload-Checksum` of a PATCH; returns the request to hand on (its body read once). */
async function verifyChecksum(req: Request, headers: Headers): Promise<Request | Response> {
  const header = req.headers.get('upload-checksum');
  if (!header) return req;
  const [algorithm, digest] = header.trim().split(/\s+/);
  if (!CHECKSUM_ALGORITHMS.includes(algorithm?.toLowerCase() ?? '') || !digest) {
    return tusText(400, `Unsupported checksum algorithm; supported: ${CHECKSUM_ALGORITHMS.join(',')}.\n`, headers);
  }
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (declared > MAX_CHECKSUM_CHUNK) return tusText(413, `Chunks with a checksum are at most ${MAX_CHECKSUM_CHUNK} bytes.\n`, headers);
  const body = Buffer.from(await req.arrayBuffer());
  if (body.length > MAX_CHECKSUM_CHUNK) return tusText(413, `Chunks with a checksum are at most ${MAX_CHECKSUM_CHUNK} bytes.\n`, headers);
  if (createHash('sha1').update(body).digest('base64') !== digest) return tusText(460, 'Checksum Mismatch\n', headers);
  return new Request(req.url, { method: req.method, headers: req.headers, body });
}

/** Handles one request under /v1/uploads. */
export async function handleUploadRequest(req: Request, authenticate: Authenticate): Promise<Response> {
  const headers = new Headers({ 'Request-Id': newId('request'), 'Cache-Control': 'no-store' });
  const db = getDb();
  try {
    const url = new URL(req.url);
    const rest = url.pathname.replace(/^\/v1\/uploads\/?/i, '');
    const id = rest || null;
    const method = req.method.toUpperCase();

    if (method === 'OPTIONS') {
      const res = await tusServer().handleWeb(req);
      const out = new Headers(res.headers);
      for (const [k, v] of headers) out.set(k, v);
      out.set('Tus-Extension', `${res.headers.get('Tus-Extension') ?? ''},checksum`.replace(/^,/, ''));
      out.set('Tus-Checksum-Algorithm', CHECKSUM_ALGORITHMS.join(','));
      return new Response(res.body, { status: res.status, headers: out });
    }
    if (id?.includes('/')) throw new AppError('route_missing', { message: `Unrecognized request URL (${method} ${url.pathname}).` });
    const allowed = id ? ['GET', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'] : ['POST', 'OPTIONS'];
    if (!allowed.includes(method)) {
      throw new AppError('method_not_allowed', { message: `Method not allowed; use ${allowed.join(', ')}.`, headers: { Allow: allowed.join(', ') } });
    }

    const { organizationId } = await authenticate(req, { rateLimit: method === 'POST' || method === 'GET', responseHeaders: headers });

    let forward = req;
    if (id) {
      const row = await getUploadRow(db, { organizationId, id });
      if (method === 'GET') return jsonResponse(200, toApiUpload(row), headers);
      if (row.status === 'expired') return tusText(410, 'This upload expired or was terminated; start a new one.\n', headers);
      if (row.status === 'complete') {
        if (method === 'HEAD') {
          headers.set('Tus-Resumable', TUS_VERSION);
          headers.set('Upload-Offset', String(row.sizeBytes));
          headers.set('Upload-Length', String(row.sizeBytes));
          return new Response(null, { status: 200, headers });
        }
        return tusText(method === 'PATCH' ? 409 : 400, 'This upload is complete.\n', headers);
      }
      if (method === 'PATCH') {
        const checked = await verifyChecksum(req, headers);
        if (checked instanceof Response) return checked;
        forward = checked;
      }
    } else {
      const length = req.headers.get('upload-length');
      if (length === null && req.headers.get('upload-defer-length') !== null) {
        throw new AppError('parameter_missing', { message: 'Send Upload-Length: the size decides the credit hold.', param: 'Upload-Length' });
      }
      // an empty file can only fail later (and sat `uploading`, tus never sending its offset)
      if (length !== null && /^0+$/.test(length)) {
        throw new AppError('parameter_invalid', { message: 'The file is empty (0 bytes); upload the video itself.', param: 'Upload-Length' });
      }
      if (length !== null && /^\d+$/.test(length) && Number(length) > maxUploadBytes()) {
        throw new AppError('body_too_large', { message: `The file is larger than the ${maxUploadBytes()} bytes allowed.`, param: 'Upload-Length' });
      }
    }

    const res = await requestScope.run({ organizationId }, () => tusServer().handleWeb(forward));
    const offset = res.headers.get('upload-offset');
    const uploadId = id ?? res.headers.get('location')?.split('/').pop() ?? null;
    if (uploadId && offset && res.status < 300 && method !== 'DELETE') {
      await recordUploadOffset(db, { id: uploadId, offset: Number(offset) });
      const row = await getUploadRow(db, { organizationId, id: uploadId });
      if (row.status === 'uploading' && Number(offset) === row.sizeBytes) {
        try {
          await finishUpload(db, uploadId);
        } catch (err) {
          logger.error({ err, upload: uploadId }, 'could not move a finished upload into media storage');
          return tusText(500, 'The upload could not be stored; retry (HEAD, then PATCH) to finish it.\n', headers);
        }
      }
    }
    if (id && method === 'DELETE' && res.status === 204) await markUploadExpired(db, id);
    const out = new Headers(res.headers);
    for (const [k, v] of headers) out.set(k, v);
    return new Response(res.body, { status: res.status, headers: out });
  } catch (err) {
    if (isAppError(err)) return errorResponse(req, err, headers);
    logger.error({ err }, 'upload request failed');
    return errorResponse(req, new AppError('internal_error', { message: 'An internal error occurred. Quote the Request-Id if you contact support.' }), headers);
  }
}
