// Reproductions of a reader's worst case, each run in a worker thread, so a test can say "still running"
// after a time limit instead of hanging the whole run. Support code is bundled into each test file, so
// `__filename` is the test's own bundle: the worker runs that file again and serves one reproduction.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/** In a worker: runs the reproduction the test asked for and says when it finished. Call at top level. */
export function serveReproductions(reproductions: Record<string, () => unknown>): void {
  if (isMainThread) return;
  reproductions[(workerData as { reproduction: string }).reproduction]();
  parentPort?.postMessage('finished');
}

/** Runs a reproduction in a worker; 'finished', or 'still running' after `ms` (the worker is then ended). */
export function runInWorker(reproduction: string, ms: number): Promise<'finished' | 'still running'> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(__filename, { workerData: { reproduction } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve('still running');
    }, ms);
    worker.once('message', () => {
      clearTimeout(timer);
      void worker.terminate();
      resolve('finished');
    });
    worker.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}
