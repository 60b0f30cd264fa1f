// The guard rails of the optional online look-ups behind hovers: answers are kept for a while
// (a small LRU with a time-to-live) and new look-ups are rate limited (a token bucket), so moving the
// mouse over a file full of tax numbers cannot flood the API. Pure: the clock is injected.

export type Clock = () => number;

/** Least-recently-used map whose entries expire `ttlMs` after they were stored. */
export class TtlLruCache<K, V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: Clock = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Allows `burst` look-ups at once and `perSecond` on average after that. */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly now: Clock = Date.now,
  ) {
    this.tokens = burst;
    this.updatedAt = now();
  }

  /** Takes one token when there is one; false means "not now". */
  tryTake(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) / 1000) * this.perSecond);
    this.updatedAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export type CachedLookup<V> = { outcome: 'answer'; value: V; fromCache: boolean } | { outcome: 'rateLimited' };

export interface OnlineLookupOptions {
  maxEntries?: number;
  ttlMs?: number;
  burst?: number;
  perSecond?: number;
  now?: Clock;
}

/**
 * Answers from the cache, or asks `fetch` when the rate limit allows. Only answers are cached:
 * a failure (thrown by `fetch`) is retried on the next hover, a rate-limited miss costs nothing.
 */
export class OnlineLookupCache<V> {
  private readonly cache: TtlLruCache<string, V>;
  private readonly bucket: TokenBucket;

  constructor(options: OnlineLookupOptions = {}) {
    const now = options.now ?? Date.now;
    this.cache = new TtlLruCache(options.maxEntries ?? 500, options.ttlMs ?? 10 * 60_000, now);
    this.bucket = new TokenBucket(options.burst ?? 4, options.perSecond ?? 2, now);
  }

  async lookup(key: string, fetch: () => Promise<V>): Promise<CachedLookup<V>> {
    const cached = this.cache.get(key);
    if (cached !== undefined) return { outcome: 'answer', value: cached, fromCache: true };
    if (!this.bucket.tryTake()) return { outcome: 'rateLimited' };
    const value = await fetch();
    this.cache.set(key, value);
    return { outcome: 'answer', value, fromCache: false };
  }

  clear(): void {
    this.cache.clear();
  }
}
