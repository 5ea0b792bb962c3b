import { mkdtemp, readFile, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3Server, type TestS3Server } from '../../../test/s3-server';
import { mediaKeys, S3MediaStorage, setMediaStorage, type MediaStorage } from '../../media/storage';
import { localSource, workDir } from './steps';

let s3: TestS3Server;
let dataDir: string;
const savedDataDir = process.env.DATA_DIR;

beforeAll(async () => {
  s3 = await startTestS3Server('swish-local-source');
  dataDir = await mkdtemp(join(tmpdir(), 'swish-local-source-'));
  process.env.DATA_DIR = dataDir;
});
afterAll(async () => {
  setMediaStorage(undefined);
  if (savedDataDir === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = savedDataDir;
  await rm(dataDir, { recursive: true, force: true });
  await s3?.stop();
});

describe('localSource with media in S3-compatible storage', () => {
  it('downloads the original once for the steps of a run, and again when the copy there is not whole', async () => {
    const storage = new S3MediaStorage(s3.config('t/'));
    let downloads = 0;
    // the real S3 storage, its downloads counted
    const counted = new Proxy(storage, {
      get(target, prop) {
        if (prop === 'get') return (...args: Parameters<MediaStorage['get']>) => (downloads++, target.get(...args));
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    setMediaStorage(counted);
    const key = mediaKeys.sessionOriginal('sess_local', 'mp4');
    const bytes = Buffer.alloc(300_000, 7);
    await storage.put(key, bytes, 'video/mp4');

    const first = await localSource('sess_local', key);
    expect(first.startsWith(workDir('sess_local'))).toBe(true);
    expect((await readFile(first)).equals(bytes)).toBe(true);
    expect(await localSource('sess_local', key)).toBe(first);
    expect(downloads).toBe(1);

    // a copy cut short (a disk that filled up, a file someone touched) is downloaded again
    await truncate(first, 1000);
    expect(await localSource('sess_local', key)).toBe(first);
    expect(downloads).toBe(2);
    expect((await readFile(first)).equals(bytes)).toBe(true);
  });
});
