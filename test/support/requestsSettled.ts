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

/**
 * Resolves once the sandbox has no request in flight and its request log has not grown for
 * `quietMs` (a request is logged only when its answer is finished); throws after `maxMs`.
 */
export async function sandboxIdle(sandbox: { requestLog(): ReadonlyArray<unknown>; inFlight(): number }, options: SettleOptions = {}): Promise<number> {
  const quietMs = options.quietMs ?? 300;
  const maxMs = options.maxMs ?? 15_000;
  const deadline = Date.now() + maxMs;
  let seen = -1;
  for (;;) {
    const now = sandbox.requestLog().length;
    if (now === seen && sandbox.inFlight() === 0) return now;
    if (Date.now() > deadline) throw new Error(`the sandbox still had ${sandbox.inFlight()} request(s) in flight after ${maxMs} ms`);
    seen = sandbox.inFlight() === 0 ? now : -1;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}
