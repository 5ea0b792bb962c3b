import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { beginShutdown, ShuttingDown } from '../../shutdown';
import { ProcessingFailure } from './source';
import { jobSignal, watchdog, watched } from './steps';

// (its own file: the stop is process-wide, and this test stops it)
describe('job watchdogs at a stop', () => {
  it('abort the steps still running with ShuttingDown, which is no processing failure', async () => {
    const db = {} as Database; // no progress is recorded here
    const dog = watchdog(db, 'sess_x', 'analysing', { recordProgress: false });
    const original = new Error('ffmpeg exited');
    expect(dog.signal.aborted).toBe(false);
    expect(dog.reason(original)).toBe(original);
    const reel = jobSignal(); // the steps without a watchdog: a manual highlight, a reel
    expect(reel.aborted).toBe(false);

    // a step that runs until its signal aborts, as the analyser and ffmpeg steps do
    const step = watched(db, 'sess_x', 'analysing', [0, 1], (signal) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('killed')))),
    );
    beginShutdown();
    await expect(step).rejects.toBeInstanceOf(ShuttingDown);
    expect(dog.signal.aborted).toBe(true);
    expect(dog.reason(original)).toBeInstanceOf(ShuttingDown);
    expect(dog.reason(original)).not.toBeInstanceOf(ProcessingFailure);
    dog.done();
    expect(reel.aborted).toBe(true);
    expect(reel.reason).toBeInstanceOf(ShuttingDown);

    // a step that starts during the stop ends at once
    const late = watchdog(db, 'sess_y', 'rendering', { recordProgress: false });
    expect(late.signal.aborted).toBe(true);
    late.done();
  });
});
