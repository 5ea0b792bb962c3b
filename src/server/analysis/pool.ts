import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { availableParallelism } from 'node:os';
import type { WorkerTask } from './worker-tasks';

const require = createRequire(import.meta.url);

/**
 * Starts a worker for `worker.ts`/`worker.js`. When running from TypeScript sources (tsx, vitest)
 * the worker first registers the tsx loader, so the same code runs in development, tests and
 * production without a build step.
 */
function startWorker(): Worker {
  const self = import.meta.url;
  if (self.endsWith('.ts')) {
    const api = pathToFileURL(require.resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;
    const target = new URL('./worker.ts', self).href;
    const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(target)}); });`;
    return new Worker(boot, { eval: true });
  }
  return new Worker(new URL('./worker.js', self));
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  /** Receives the buffers a task hands back (see {@link WorkerPool.run}). */
  recycle?: (buffers: ArrayBuffer[]) => void;
}

/** Workers of a pool by default: one per core, at most 2. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

/**
 * A small pool of analysis workers (default: one per core, at most 2) so that the per-frame image
 * work never runs on the web server's main thread. Tasks go to the least busy worker.
 */
export class WorkerPool {
  private readonly workers: Worker[] = [];
  private readonly busy: number[] = [];
  private readonly pending = new Map<number, Pending & { worker: number }>();
  private nextId = 1;
  private closed = false;

  constructor(size = defaultPoolSize()) {
    for (let i = 0; i < size; i++) {
      const w = startWorker();
      w.on('message', (msg: { id: number; ok: boolean; result?: unknown; error?: string; recycle?: ArrayBuffer[] }) => {
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        if (--this.busy[p.worker] === 0) w.unref();
        if (msg.recycle?.length) p.recycle?.(msg.recycle);
        if (msg.ok) p.resolve(msg.result);
        else p.reject(new Error(msg.error ?? 'worker task failed'));
      });
      w.on('error', (err) => {
        this.failAll(i, err);
        void this.close();
      });
      w.on('exit', (code) => {
        if (this.closed) return;
        this.failAll(i, new Error(`analysis worker exited with code ${code}`));
        void this.close();
      });
      // Idle workers never keep the process alive; a worker with a task does (see run). This
      // comes after the listeners: adding a 'message' listener refs the worker again.
      w.unref();
      this.workers.push(w);
      this.busy.push(0);
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get size(): number {
    return this.workers.length;
  }

  /** Number of tasks not yet answered. */
  get inFlight(): number {
    return this.pending.size;
  }

  private failAll(worker: number, err: Error): void {
    for (const [id, p] of this.pending) {
      if (p.worker !== worker) continue;
      this.pending.delete(id);
      p.reject(err);
    }
  }

  /**
   * Runs a task on the least busy worker; `transfer` lists buffers handed over without copying.
   * `recycle` receives the buffers the task hands back before the result (a `frames` task with
   * `recycle: true` returns its frames' buffers).
   */
  run<T>(task: WorkerTask, transfer: ArrayBuffer[] = [], recycle?: (buffers: ArrayBuffer[]) => void): Promise<T> {
    if (this.closed) return Promise.reject(new Error('worker pool closed'));
    let wi = 0;
    for (let i = 1; i < this.workers.length; i++) if (this.busy[i] < this.busy[wi]) wi = i;
    const id = this.nextId++;
    if (this.busy[wi]++ === 0) this.workers[wi].ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, worker: wi, recycle });
      this.workers[wi].postMessage({ id, task }, transfer);
    });
  }

  /** Terminates the workers; pending tasks are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new Error('worker pool closed'));
    }
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

let shared: WorkerPool | null = null;
let sharedUsers = 0;
let idleTimer: NodeJS.Timeout | null = null;

/**
 * Borrows the process-wide analysis pool (created on first use): starting workers costs
 * about half a second, which matters for short clips. The pool is closed after 30 s unused;
 * idle workers never keep the process alive (a CLI run exits when its analysis ends).
 */
export function acquireSharedPool(): WorkerPool {
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = null;
  }
  if (!shared || shared.isClosed) shared = new WorkerPool();
  sharedUsers++;
  return shared;
}

/** Returns a pool borrowed with {@link acquireSharedPool}. */
export function releaseSharedPool(): void {
  sharedUsers = Math.max(0, sharedUsers - 1);
  if (sharedUsers > 0 || !shared) return;
  const pool = shared;
  idleTimer = setTimeout(() => {
    if (shared === pool && sharedUsers === 0) {
      shared = null;
      void pool.close();
    }
  }, 30_000);
  idleTimer.unref();
}
