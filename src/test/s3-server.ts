import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3StorageConfig } from '../server/media/storage';

type KoaContext = { path: string; params?: { bucket?: string; key?: string }; state: { vhost?: boolean } };
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<unknown>) => Promise<unknown>;

const require = createRequire(import.meta.url);

/**
 * The emulator drops the trailing slash of a path-style bucket URL (`/bucket/`, which the SDK
 * sends for ListObjectsV2 and DeleteObjects) from the canonical URI it signs, where S3 signs
 * the path as sent; every bucket-level request then fails with SignatureDoesNotMatch. The
 * signature check itself is kept: this only gives it the path the client signed.
 */
function loadS3rver(): new (opts: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
} {
  const authPath = require.resolve('@20minutes/s3rver/lib/middleware/authentication.js');
  const authentication = require(authPath) as (() => KoaMiddleware) & { slashFixed?: boolean };
  if (!authentication.slashFixed) {
    const fixed = () => {
      const check = authentication();
      return async (ctx: KoaContext, next: () => Promise<unknown>) => {
        const bucket = ctx.params?.bucket;
        if (!bucket || ctx.params!.key || ctx.state.vhost || !ctx.path.endsWith(`/${bucket}/`)) return check(ctx, next);
        ctx.params!.bucket = `${bucket}/`;
        let restored = false;
        const restore = () => {
          if (!restored) ctx.params!.bucket = bucket;
          restored = true;
        };
        try {
          return await check(ctx, () => {
            restore();
            return next();
          });
        } finally {
          restore();
        }
      };
    };
    fixed.slashFixed = true;
    require.cache[authPath]!.exports = fixed;
  }
  return require('@20minutes/s3rver');
}

/**
 * A local S3-compatible server for tests (`@20minutes/s3rver`: the S3 REST API over HTTP on a
 * folder, checking AWS Signature V4 of both signed requests and presigned URLs, and their
 * expiry). Its one account has the access key `S3RVER` and secret `S3RVER`.
 */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** A path-style storage config for the server's bucket. */
  config(prefix?: string): S3StorageConfig;
  /** The `SWISH_S3_*` environment that points the app at this server. */
  env(prefix?: string): Record<string, string>;
  stop(): Promise<void>;
}

export const TEST_S3_ACCESS_KEY = 'S3RVER';
export const TEST_S3_SECRET_KEY = 'S3RVER';

export async function startTestS3Server(bucket = 'swish-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'swish-s3-'));
  const S3rver = loadS3rver();
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: !process.env.DEBUG_S3RVER,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const config = (prefix = ''): S3StorageConfig => ({
    bucket,
    region: 'us-east-1',
    endpoint,
    accessKeyId: TEST_S3_ACCESS_KEY,
    secretAccessKey: TEST_S3_SECRET_KEY,
    forcePathStyle: true,
    prefix,
  });
  return {
    endpoint,
    bucket,
    config,
    env: (prefix = '') => ({
      SWISH_S3_BUCKET: bucket,
      SWISH_S3_REGION: 'us-east-1',
      SWISH_S3_ENDPOINT: endpoint,
      SWISH_S3_ACCESS_KEY_ID: TEST_S3_ACCESS_KEY,
      SWISH_S3_SECRET_ACCESS_KEY: TEST_S3_SECRET_KEY,
      SWISH_S3_FORCE_PATH_STYLE: 'true',
      SWISH_S3_PREFIX: prefix,
    }),
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
