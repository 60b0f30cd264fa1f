// The guard rails of the optional online look-ups behind hovers: answers are kept for a while (least
// recently used out first, with a time-to-live) and new look-ups are rate limited (a token bucket), so
// moving the mouse over a file full of tax numbers cannot flood the API. Pure: the clock is injected.

export type CachedLookup<V> = { outcome: 'answer'; value: V; fromCache: boolean } | { outcome: 'rateLimited' };

export interface OnlineLookupOptions {
  maxEntries?: number;
  ttlMs?: number;
  /** Look-ups allowed at once; `perSecond` on average after that. */
  burst?: number;
  perSecond?: number;
  now?: () => number;
}

/**
 * Answers from the cache, or asks `fetch` when the rate limit allows. Only answers are cached:
 * a failure (thrown by `fetch`) is retried on the next hover, a rate-limited miss costs nothing.
 */
export class OnlineLookupCache<V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly limits: Required<OnlineLookupOptions>;
  private tokens: number;
  private updatedAt: number;

  constructor(options: OnlineLookupOptions = {}) {
    this.limits = { maxEntries: 500, ttlMs: 10 * 60_000, burst: 4, perSecond: 2, now: Date.now, ...options };
    this.tokens = this.limits.burst;
    this.updatedAt = this.limits.now();
  }

  async lookup(key: string, fetch: () => Promise<V>): Promise<CachedLookup<V>> {
    const { maxEntries, ttlMs, burst, perSecond, now } = this.limits;
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (entry && entry.expiresAt > now()) {
      this.entries.set(key, entry);
      return { outcome: 'answer', value: entry.value, fromCache: true };
    }
    this.tokens = Math.min(burst, this.tokens + ((now() - this.updatedAt) / 1000) * perSecond);
    this.updatedAt = now();
    if (this.tokens < 1) return { outcome: 'rateLimited' };
    this.tokens -= 1;
    const value = await fetch();
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: now() + ttlMs });
    while (this.entries.size > maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return { outcome: 'answer', value, fromCache: false };
  }

  clear(): void {
    this.entries.clear();
  }
}
