import { parentPort } from 'node:worker_threads';
import { computeRun, makeScratch, packFeatures, type Scratch } from './frame-features';
import { runTask, type WorkerTask } from './worker-tasks';

let scratch: Scratch | null = null;
let scratchKey = '';

parentPort?.on('message', (msg: { id: number; task: WorkerTask }) => {
  try {
    const { task } = msg;
    if (task.kind === 'frames') {
      const key = `${task.width}x${task.height}`;
      if (!scratch || key !== scratchKey) {
        scratch = makeScratch(task.width, task.height);
        scratchKey = key;
      }
      const result = packFeatures(computeRun(task.frames, task.width, task.height, task.firstIndex, scratch, task.format ?? 'rgb24'));
      // The frames' buffers go back to the sender for reuse (each once: a run may repeat a frame).
      const recycle = task.recycle ? [...new Set(task.frames.map((f) => f.buffer as ArrayBuffer))] : [];
      parentPort?.postMessage({ id: msg.id, ok: true, result, recycle }, [
        result.frames.buffer,
        result.blobs.buffer,
        result.motion.buffer,
        result.thumbs.buffer,
        ...recycle,
      ] as ArrayBuffer[]);
      return;
    }
    Promise.resolve(runTask(task)).then(
      (result) => parentPort?.postMessage({ id: msg.id, ok: true, result }),
      (err: unknown) => parentPort?.postMessage({ id: msg.id, ok: false, error: String((err as Error)?.stack ?? err) }),
    );
  } catch (err) {
    parentPort?.postMessage({ id: msg.id, ok: false, error: String((err as Error)?.stack ?? err) });
  }
});
