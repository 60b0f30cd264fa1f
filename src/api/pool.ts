// The one bounded pool of the code: a work queue drained by at most `concurrency` workers at once.

/**
 * Runs `work` on every item of `queue`, at most `concurrency` at a time. A worker may push follow-up
 * work onto the queue (customer batches split after a 422), which any worker picks up; emptying the
 * queue stops what has not started. Rejects with the first failure (work under way goes on).
 */
export async function drain<T>(queue: T[], concurrency: number, work: (item: T, queue: T[]) => Promise<void>): Promise<void> {
  let active = 0;
  await new Promise<void>((resolve, reject) => {
    const next = (): void => {
      if (queue.length === 0 && active === 0) return resolve();
      for (; active < concurrency && queue.length > 0; active++) work(queue.shift() as T, queue).then(settled, reject);
    };
    const settled = (): void => {
      active--;
      next();
    };
    next();
  });
}
