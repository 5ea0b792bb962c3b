import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { mediaUrlTtlSeconds, signMediaUrl } from './urls';

/** Size and type of a stored object. */
export interface MediaObjectInfo {
  size: number;
  contentType: string;
  /** Last modification, used for ETag / Last-Modified. */
  modified: Date;
}

/** An inclusive byte range, as in an HTTP `Range` header. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where session media, highlight clips and artifacts live. Keys are relative, slash-separated
 * paths such as `sessions/sess_…/720p.mp4`; the database stores keys, never URLs, so the
 * backend can change without rewriting rows.
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** Stores bytes under `key`, replacing any previous object atomically. */
  put(key: string, body: Buffer | Uint8Array | string, contentType?: string): Promise<void>;
  /** Stores a file under `key` (streamed, never read into memory); `move` lets local storage rename instead of copying. */
  putFile(key: string, filePath: string, contentType?: string, opts?: { move?: boolean }): Promise<void>;
  /** A readable stream of the object or of one byte range of it; null when absent. */
  get(key: string, range?: ByteRange): Promise<{ stream: Readable; info: MediaObjectInfo } | null>;
  stat(key: string): Promise<MediaObjectInfo | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes the object `prefix` and every object under `prefix/`; returns how many were removed. */
  delete(prefix: string): Promise<number>;
  /**
   * An absolute, expiring URL a client can fetch the object from. Expiry is rounded up to the
   * hour (cacheable) unless `exact` (short-lived URLs, e.g. a public reel page's video).
   */
  url(key: string, ttlSeconds?: number, opts?: { exact?: boolean }): string;
  /** Filesystem path of the object (local storage only), for streaming from disk. */
  localPath?(key: string): string;
}

const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  ts: 'video/mp2t',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  jsonl: 'application/x-ndjson',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
};

/** The Content-Type served for a key, from its extension (local storage keeps no metadata besides the file). */
export function contentTypeForKey(key: string): string {
  const dot = key.lastIndexOf('.');
  const ext = dot >= 0 ? key.slice(dot + 1).toLowerCase() : '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/**
 * Throws unless `key` is a safe relative object key: slash-separated segments of letters,
 * digits, `.`, `_`, `-`, none starting with a dot (so no `..`, no hidden files), no
 * absolute paths, no backslashes. Keys reach the filesystem and URLs, so this is the one
 * guard against path traversal.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) throw new InvalidMediaKeyError(key);
  for (const segment of key.split('/')) {
    if (!SEGMENT.test(segment)) throw new InvalidMediaKeyError(key);
  }
}

export class InvalidMediaKeyError extends Error {
  constructor(key: unknown) {
    super(`invalid media key: ${JSON.stringify(String(key).slice(0, 80))}`);
    this.name = 'InvalidMediaKeyError';
  }
}

/** Media on the local disk under `root` (default `${DATA_DIR}/media`), served by the signed /media route. */
export class LocalMediaStorage implements MediaStorage {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(root?: string) {
    this.root = resolve(/*turbopackIgnore: true*/ root ?? join(process.env.DATA_DIR ?? '.data', 'media'));
  }

  localPath(key: string): string {
    assertValidKey(key);
    const path = resolve(this.root, ...key.split('/'));
    if (!path.startsWith(this.root + sep)) throw new InvalidMediaKeyError(key);
    return path;
  }

  /** A temp file beside the destination, so the final rename stays on one filesystem and is atomic. */
  private async tempFor(path: string): Promise<string> {
    await mkdir(dirname(path), { recursive: true });
    return join(dirname(path), `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  }

  async put(key: string, body: Buffer | Uint8Array | string): Promise<void> {
    const path = this.localPath(key);
    const tmp = await this.tempFor(path);
    try {
      await writeFile(tmp, body);
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async putFile(key: string, filePath: string, _contentType?: string, opts: { move?: boolean } = {}): Promise<void> {
    const path = this.localPath(key);
    if (opts.move) {
      await mkdir(dirname(path), { recursive: true });
      try {
        await rename(filePath, path);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      }
    }
    const tmp = await this.tempFor(path);
    try {
      await copyFile(filePath, tmp);
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    if (opts.move) await unlink(filePath).catch(() => {});
  }

  async stat(key: string): Promise<MediaObjectInfo | null> {
    try {
      const st = await stat(this.localPath(key));
      if (!st.isFile()) return null;
      return { size: st.size, contentType: contentTypeForKey(key), modified: st.mtime };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async get(key: string, range?: ByteRange) {
    const info = await this.stat(key);
    if (!info) return null;
    const stream = createReadStream(this.localPath(key), range ? { start: range.start, end: range.end } : {});
    return { stream, info };
  }

  async delete(prefix: string): Promise<number> {
    const path = this.localPath(prefix);
    let removed = 0;
    const count = async (p: string): Promise<void> => {
      const st = await stat(p).catch(() => null);
      if (!st) return;
      if (st.isDirectory()) for (const name of await readdir(p)) await count(join(p, name));
      else removed += 1;
    };
    await count(path);
    await rm(path, { recursive: true, force: true });
    return removed;
  }

  url(key: string, ttlSeconds?: number, opts: { exact?: boolean } = {}): string {
    assertValidKey(key);
    return signMediaUrl(key, ttlSeconds, opts)!;
  }
}

/** Settings of the S3-compatible backend (AWS S3, MinIO, R2, …). */
export interface S3StorageConfig {
  bucket: string;
  region: string;
  /** Custom endpoint such as `http://minio:9000`; AWS when absent. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `bucket.host/key` (virtual-hosted) by default; path style `host/bucket/key` for most self-hosted servers. */
  forcePathStyle: boolean;
  /** Key prefix inside the bucket (e.g. `swish/`), empty by default. */
  prefix: string;
}

/** RFC 3986 encoding as SigV4 wants it: everything but A–Z a–z 0–9 - . _ ~ percent-encoded. */
const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A presigned GET URL (AWS Signature Version 4, query-string form). Written out here rather
 * than taken from the SDK's async presigner so that URLs can be made synchronously while a
 * response is serialised, exactly like local signed URLs.
 */
export function presignS3GetUrl(
  cfg: Pick<S3StorageConfig, 'bucket' | 'region' | 'endpoint' | 'accessKeyId' | 'secretAccessKey' | 'forcePathStyle'>,
  objectKey: string,
  ttlSeconds: number,
  now = new Date(),
): string {
  const endpoint = new URL(cfg.endpoint ?? `https://s3.${cfg.region}.amazonaws.com`);
  if (!cfg.endpoint && cfg.region === 'us-east-1') endpoint.hostname = 's3.amazonaws.com';
  const encodedKey = objectKey.split('/').map(uriEncode).join('/');
  let host = endpoint.host;
  let path: string;
  if (cfg.forcePathStyle) {
    path = `${endpoint.pathname.replace(/\/$/, '')}/${uriEncode(cfg.bucket)}/${encodedKey}`;
  } else {
    host = `${cfg.bucket}.${endpoint.host}`;
    path = `${endpoint.pathname.replace(/\/$/, '')}/${encodedKey}`;
  }
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${cfg.region}/s3/aws4_request`;
  const query: Array<[string, string]> = [
    ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
    ['X-Amz-Credential', `${cfg.accessKeyId}/${scope}`],
    ['X-Amz-Date', amzDate],
    ['X-Amz-Expires', String(Math.min(Math.max(1, Math.floor(ttlSeconds)), 604_800))],
    ['X-Amz-SignedHeaders', 'host'],
  ];
  const canonicalQuery = query
    .map(([k, v]) => [uriEncode(k), uriEncode(v)])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = ['GET', path, canonicalQuery, `host:${host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${cfg.secretAccessKey}`, day), cfg.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `${endpoint.protocol}//${host}${path}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}

type S3Sdk = typeof import('@aws-sdk/client-s3');

/**
 * Media in an S3-compatible bucket. Reads go straight from the bucket to clients through
 * presigned URLs. The SDK (`@aws-sdk/client-s3`, a dependency) is imported on first use:
 * loading it costs about 0.25 CPU-s and 23 MB, which deployments on local disk never pay.
 */
export class S3MediaStorage implements MediaStorage {
  readonly kind = 's3' as const;
  private client?: Promise<{ sdk: S3Sdk; client: InstanceType<S3Sdk['S3Client']> }>;

  constructor(readonly config: S3StorageConfig) {}

  private objectKey(key: string): string {
    assertValidKey(key);
    return `${this.config.prefix}${key}`;
  }

  private s3() {
    this.client ??= (async () => {
      const sdk = await import('@aws-sdk/client-s3');
      const client = new sdk.S3Client({
        region: this.config.region,
        endpoint: this.config.endpoint,
        forcePathStyle: this.config.forcePathStyle,
        credentials: { accessKeyId: this.config.accessKeyId, secretAccessKey: this.config.secretAccessKey },
        // CRC checksums only where the operation requires one (DeleteObjects): the SDK's default
        // sends streamed uploads as `aws-chunked` with a checksum trailer, which many
        // S3-compatible servers do not accept; a plain PutObject with Content-Length works everywhere.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return { sdk, client };
    })();
    return this.client;
  }

  async put(key: string, body: Buffer | Uint8Array | string, contentType?: string): Promise<void> {
    const { sdk, client } = await this.s3();
    await client.send(
      new sdk.PutObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key), Body: body, ContentType: contentType ?? contentTypeForKey(key) }),
    );
  }

  async putFile(key: string, filePath: string, contentType?: string, opts: { move?: boolean } = {}): Promise<void> {
    const { sdk, client } = await this.s3();
    const { size } = await stat(filePath);
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.config.bucket,
        Key: this.objectKey(key),
        Body: createReadStream(filePath),
        ContentLength: size,
        ContentType: contentType ?? contentTypeForKey(key),
      }),
    );
    if (opts.move) await unlink(filePath).catch(() => {});
  }

  async stat(key: string): Promise<MediaObjectInfo | null> {
    const { sdk, client } = await this.s3();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
      return {
        size: Number(head.ContentLength ?? 0),
        contentType: head.ContentType ?? contentTypeForKey(key),
        modified: head.LastModified ?? new Date(0),
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async get(key: string, range?: ByteRange) {
    const { sdk, client } = await this.s3();
    try {
      const out = await client.send(
        new sdk.GetObjectCommand({
          Bucket: this.config.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const total = typeof out.ContentRange === 'string' ? Number(out.ContentRange.split('/')[1]) : Number(out.ContentLength ?? 0);
      return {
        stream: out.Body as Readable,
        info: { size: total, contentType: out.ContentType ?? contentTypeForKey(key), modified: out.LastModified ?? new Date(0) },
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(prefix: string): Promise<number> {
    const { sdk, client } = await this.s3();
    const base = this.objectKey(prefix);
    const keys: string[] = [];
    if (await this.exists(prefix)) keys.push(base);
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: `${base}/`, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    for (let i = 0; i < keys.length; i += 1000) {
      await client.send(
        new sdk.DeleteObjectsCommand({
          Bucket: this.config.bucket,
          Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
        }),
      );
    }
    return keys.length;
  }

  url(key: string, ttlSeconds = mediaUrlTtlSeconds(), opts: { exact?: boolean } = {}): string {
    const nowSec = Date.now() / 1000;
    if (opts.exact) {
      const signedAt = Math.floor(nowSec);
      return presignS3GetUrl(this.config, this.objectKey(key), Math.min(Math.ceil(ttlSeconds), 604_800), new Date(signedAt * 1000));
    }
    // Rounded to the hour like local URLs, so repeated reads within an hour give one cacheable URL.
    const expiresAt = Math.ceil((nowSec + Math.min(ttlSeconds, 604_800 - 3600)) / 3600) * 3600;
    const signedAt = Math.floor(nowSec / 3600) * 3600;
    return presignS3GetUrl(this.config, this.objectKey(key), expiresAt - signedAt, new Date(signedAt * 1000));
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** Reads the S3 settings from the environment; null when `SWISH_S3_BUCKET` is not set (local disk). */
export function s3ConfigFromEnv(env: Record<string, string | undefined> = process.env): S3StorageConfig | null {
  const bucket = env.SWISH_S3_BUCKET;
  if (!bucket) return null;
  const accessKeyId = env.SWISH_S3_ACCESS_KEY_ID ?? env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.SWISH_S3_SECRET_ACCESS_KEY ?? env.SWISH_S3_SECRET ?? env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw new Error('SWISH_S3_BUCKET is set but SWISH_S3_ACCESS_KEY_ID / SWISH_S3_SECRET_ACCESS_KEY are missing');
  }
  const prefix = (env.SWISH_S3_PREFIX ?? '').replace(/^\/+/, '');
  return {
    bucket,
    region: env.SWISH_S3_REGION ?? env.AWS_REGION ?? 'us-east-1',
    endpoint: env.SWISH_S3_ENDPOINT || undefined,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: ['1', 'true', 'yes'].includes((env.SWISH_S3_FORCE_PATH_STYLE ?? '').toLowerCase()),
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
  };
}

let instance: MediaStorage | undefined;

/**
 * The process-wide storage: S3 when `SWISH_S3_BUCKET` is set, otherwise local disk under
 * `${DATA_DIR}/media` (the zero-setup default).
 */
export function getMediaStorage(): MediaStorage {
  if (!instance) {
    const s3 = s3ConfigFromEnv();
    instance = s3 ? new S3MediaStorage(s3) : new LocalMediaStorage();
  }
  return instance;
}

/** Replaces the singleton (tests, or a process that configures storage itself). */
export function setMediaStorage(storage: MediaStorage | undefined): void {
  instance = storage;
  signedUrls.clear();
}

/**
 * Signed URLs are deterministic within an hour (both backends round the signing time and
 * the expiry to the hour), so they are cached per (hour, expiry hour, key): a session read
 * again and again — a dashboard polling, a client paging — signs each of its URLs once an
 * hour instead of on every read (signing is most of the CPU of serialising a session).
 */
const signedUrls = new Map<string, string>();
const SIGNED_URL_CACHE_SIZE = 100_000;
let signedUrlsHour = 0;

/**
 * The URL clients fetch a stored object from (signed local URL or presigned S3 URL), or
 * null for a missing key, so serializers can map nullable keys directly.
 */
export function mediaUrl(key: string | null | undefined, ttlSeconds?: number, opts?: { exact?: boolean }): string | null {
  if (!key) return null;
  // exact expiries (short-lived links) are not deterministic within the hour: never cached
  if (opts?.exact) return getMediaStorage().url(key, ttlSeconds, opts);
  const now = Date.now() / 1000;
  const hour = Math.floor(now / 3600);
  if (hour !== signedUrlsHour || signedUrls.size >= SIGNED_URL_CACHE_SIZE) {
    signedUrls.clear();
    signedUrlsHour = hour;
  }
  const ttl = ttlSeconds ?? mediaUrlTtlSeconds();
  const cacheKey = `${Math.floor((now + ttl) / 3600)} ${ttl} ${key}`;
  let url = signedUrls.get(cacheKey);
  if (url === undefined) {
    const storage = getMediaStorage();
    // an on-demand rendition may not exist yet: its URL is the app's, which makes it, then redirects to the bucket
    url = storage.kind !== 'local' && onDemandHighlightRendition(key) ? signMediaUrl(key, ttl)! : storage.url(key, ttl);
    signedUrls.set(cacheKey, url);
  }
  return url;
}

/** The object key layout, in one place so the pipeline, the route and cleanup agree. */
export const mediaKeys = {
  sessionPrefix: (sessionId: string) => `sessions/${sessionId}`,
  sessionOriginal: (sessionId: string, ext: string) => `sessions/${sessionId}/original.${ext}`,
  sessionPreview: (sessionId: string) => `sessions/${sessionId}/preview.jpg`,
  sessionRendition: (sessionId: string, name: string) => `sessions/${sessionId}/${name}.mp4`,
  sessionArtifact: (sessionId: string, name: string) => `sessions/${sessionId}/artifacts/${name}.jsonl`,
  highlightPrefix: (sessionId: string, highlightId: string) => `sessions/${sessionId}/highlights/${highlightId}`,
  highlightVideo: (sessionId: string, highlightId: string, name: string) => `sessions/${sessionId}/highlights/${highlightId}/${name}.mp4`,
  highlightPreview: (sessionId: string, highlightId: string, name: string) =>
    `sessions/${sessionId}/highlights/${highlightId}/preview-${name}.jpg`,
  playerThumbnail: (sessionId: string, playerId: string) => `sessions/${sessionId}/players/${playerId}.jpg`,
  reelPrefix: (reelId: string) => `reels/${reelId}`,
  reelVideo: (reelId: string) => `reels/${reelId}/reel.mp4`,
  reelPoster: (reelId: string) => `reels/${reelId}/poster.jpg`,
};

/**
 * How the smaller renditions of a highlight (`1080p`…`144p` below its `horizontal` clip) are
 * made: `on-demand` (the default; `SWISH_HIGHLIGHT_RENDITIONS`) encodes each from the stored
 * `horizontal` clip on its first request and keeps it; `eager` encodes them all while the
 * session is processed. An unknown value throws, so a misspelt setting fails loudly.
 */
export function highlightRenditionsMode(env: Record<string, string | undefined> = process.env): 'on-demand' | 'eager' {
  const value = env.SWISH_HIGHLIGHT_RENDITIONS ?? 'on-demand';
  if (value !== 'on-demand' && value !== 'eager') {
    throw new Error(`SWISH_HIGHLIGHT_RENDITIONS must be "on-demand" or "eager", not ${JSON.stringify(value)}`);
  }
  return value;
}

const HIGHLIGHT_RENDITION_KEY = /^sessions\/([^/]+)\/highlights\/([^/]+)\/(\d+)p\.mp4$/;

/**
 * The parts of a highlight rendition's key (`sessions/<s>/highlights/<h>/<N>p.mp4`) when
 * renditions are made on demand, else null: the keys the media route may make on a request.
 */
export function onDemandHighlightRendition(key: string): { sessionId: string; highlightId: string; shortSide: number } | null {
  if (highlightRenditionsMode() !== 'on-demand') return null;
  const m = HIGHLIGHT_RENDITION_KEY.exec(key);
  return m ? { sessionId: m[1], highlightId: m[2], shortSide: Number(m[3]) } : null;
}
