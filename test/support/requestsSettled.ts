// Test helper: wait until a sandbox's request log stops growing. Views that earlier tests left open
// keep loading in the background, so a test that counts requests first lets them finish.

export interface SettleOptions {
  /** How long the count must stay the same. */
  quietMs?: number;
  /** Give up (and throw) after this long. */
  maxMs?: number;
}

/** Resolves with the request count once it has not changed for `quietMs`; throws after `maxMs`. */
export async function requestsSettled(count: () => number | Promise<number>, options: SettleOptions = {}): Promise<number> {
  const quietMs = options.quietMs ?? 300;
  const deadline = Date.now() + (options.maxMs ?? 15_000);
  let seen = await count();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const now = await count();
    if (now === seen) return now;
    if (Date.now() > deadline) throw new Error(`the sandbox was still receiving requests after ${options.maxMs ?? 15_000} ms`);
    seen = now;
  }
}

interface WatchedSandbox {
  requestLog(): ReadonlyArray<unknown>;
  inFlight(): number;
}

/**
 * Resolves once the sandbox (or every one of several) has no request in flight and the request
 * logs have not grown for `quietMs` (a request is logged only when its answer is finished, so a
 * slow one is seen only by its count in flight); throws after `maxMs`. Resolves with the log length.
 */
export async function sandboxIdle(sandboxes: WatchedSandbox | readonly WatchedSandbox[], options: SettleOptions = {}): Promise<number> {
  const all: readonly WatchedSandbox[] = Array.isArray(sandboxes) ? sandboxes : [sandboxes as WatchedSandbox];
  const quietMs = options.quietMs ?? 300;
  const maxMs = options.maxMs ?? 15_000;
  const deadline = Date.now() + maxMs;
  const inFlight = () => all.reduce((n, s) => n + s.inFlight(), 0);
  let seen = -1;
  for (;;) {
    const now = all.reduce((n, s) => n + s.requestLog().length, 0);
    if (now === seen && inFlight() === 0) return now;
    if (Date.now() > deadline) throw new Error(`the sandbox still had ${inFlight()} request(s) in flight after ${maxMs} ms`);
    seen = inFlight() === 0 ? now : -1;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}
