import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { ProcessingFailure } from './source';
import { watched } from './steps';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const db = {} as Database; // progress is recorded only every 2 s; these steps end before that

describe('a watched stage', () => {
  const saved = process.env.SWISH_JOB_TIMEOUT;
  afterEach(() => {
    if (saved === undefined) delete process.env.SWISH_JOB_TIMEOUT;
    else process.env.SWISH_JOB_TIMEOUT = saved;
  });

  it('fails as `timeout` once it has been silent for SWISH_JOB_TIMEOUT, and is aborted', async () => {
    process.env.SWISH_JOB_TIMEOUT = '0.3';
    let aborted = false;
    const stage = watched(db, 'sess_t', 'analysing', [0, 1], async (signal, onProgress) => {
      signal.addEventListener('abort', () => (aborted = true));
      onProgress(0.1);
      await sleep(100);
      onProgress(0.2); // then nothing more
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('killed'))));
    });
    const err = await stage.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProcessingFailure);
    expect((err as ProcessingFailure).code).toBe('timeout');
    expect(aborted).toBe(true);
  });

  it('runs as long as it keeps reporting progress', async () => {
    process.env.SWISH_JOB_TIMEOUT = '0.3';
    const result = await watched(db, 'sess_t', 'analysing', [0, 1], async (_signal, onProgress) => {
      for (let i = 1; i <= 6; i++) {
        await sleep(100); // 600 ms in all, never 300 ms silent
        onProgress(i / 6);
      }
      return 'done';
    });
    expect(result).toBe('done');
  });
});
