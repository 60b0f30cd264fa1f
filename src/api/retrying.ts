// The one retry loop: the HTTP layer (its policy in retry.ts), the locked-file retries
// (src/files/lockedFiles.ts) and the bulk import's look-ups (bulk.ts) each run it with a rule of their own.

import { setTimeout as sleep } from 'node:timers/promises';

/** What one retry loop decides: which failures are tried again, after how long, and what ends it. */
export interface RetryRule {
  retriable(error: unknown): boolean;
  /** The wait after failed attempt `attempt` (from 1) before the next, or undefined to give up. */
  waitMs(attempt: number, error: unknown): number | undefined;
  /** What a retriable failure given up on is thrown as (default: itself). */
  givenUp?(error: unknown): unknown;
  /** Ends a wait: `aborted()` is thrown (default: the signal's reason). */
  signal?: AbortSignal;
  aborted?(): unknown;
}

/** Runs `operation` until it succeeds, or fails in a way `rule` does not retry, or `rule` gives up. */
export async function retrying<T>(operation: (attempt: number) => Promise<T>, rule: RetryRule): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (!rule.retriable(error)) throw error;
      const wait = rule.waitMs(attempt, error);
      if (wait === undefined) throw rule.givenUp ? rule.givenUp(error) : error;
      await sleep(wait, undefined, { signal: rule.signal }).catch(() => {
        throw rule.aborted ? rule.aborted() : rule.signal?.reason;
      });
    }
  }
}
