// The hover's online look-up guard rails, on a fake clock: LRU + time-to-live, token bucket, and the
// cache that combines them (answers cached, failures and rate-limited misses not).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { OnlineLookupCache, TokenBucket, TtlLruCache } from '../../../../src/editor/hover/onlineCache';

function fakeClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

test('TtlLruCache: an entry expires exactly ttl after it was stored', () => {
  const clock = fakeClock();
  const cache = new TtlLruCache<string, number>(10, 1000, clock.now);
  cache.set('a', 1);
  clock.advance(999);
  assert.equal(cache.get('a'), 1);
  clock.advance(1);
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.size, 0, 'an expired entry is dropped when found');
});

test('TtlLruCache: storing again renews the time-to-live', () => {
  const clock = fakeClock();
  const cache = new TtlLruCache<string, number>(10, 1000, clock.now);
  cache.set('a', 1);
  clock.advance(800);
  cache.set('a', 2);
  clock.advance(800);
  assert.equal(cache.get('a'), 2);
});

test('TtlLruCache: beyond maxEntries the least recently used goes first', () => {
  const cache = new TtlLruCache<string, number>(3, 60_000, fakeClock().now);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('c', 3);
  assert.equal(cache.get('a'), 1); // a is now the most recently used
  cache.set('d', 4);
  assert.equal(cache.size, 3);
  assert.equal(cache.get('b'), undefined, 'b was the least recently used');
  assert.deepEqual([cache.get('a'), cache.get('c'), cache.get('d')], [1, 3, 4]);
});

test('TokenBucket: a burst, then the refill rate', () => {
  const clock = fakeClock();
  const bucket = new TokenBucket(4, 2, clock.now);
  const burst = Array.from({ length: 6 }, () => bucket.tryTake());
  assert.deepEqual(burst, [true, true, true, true, false, false]);
  clock.advance(499);
  assert.equal(bucket.tryTake(), false, 'less than one token refilled after 499 ms at 2/s');
  clock.advance(1);
  assert.equal(bucket.tryTake(), true);
  assert.equal(bucket.tryTake(), false);
});

test('TokenBucket: refills up to the burst, not beyond', () => {
  const clock = fakeClock();
  const bucket = new TokenBucket(4, 2, clock.now);
  for (let i = 0; i < 4; i++) bucket.tryTake();
  clock.advance(60_000);
  let taken = 0;
  while (bucket.tryTake()) taken++;
  assert.equal(taken, 4);
});

test('TokenBucket: over 10 s of constant demand, at most burst + rate × time look-ups pass', () => {
  const clock = fakeClock();
  const bucket = new TokenBucket(4, 2, clock.now);
  let passed = 0;
  for (let ms = 0; ms < 10_000; ms += 50) {
    if (bucket.tryTake()) passed++;
    clock.advance(50);
  }
  assert.ok(passed <= 4 + 2 * 10, `${passed} passed`);
  assert.ok(passed >= 4 + 2 * 10 - 1, `${passed} passed: the bucket should not starve a steady caller`);
});

test('OnlineLookupCache: a second look-up of the same key is answered from the cache', async () => {
  const clock = fakeClock();
  const cache = new OnlineLookupCache<string>({ now: clock.now, ttlMs: 1000 });
  let calls = 0;
  const fetch = async () => `answer ${++calls}`;
  assert.deepEqual(await cache.lookup('k', fetch), { outcome: 'answer', value: 'answer 1', fromCache: false });
  assert.deepEqual(await cache.lookup('k', fetch), { outcome: 'answer', value: 'answer 1', fromCache: true });
  clock.advance(1000);
  assert.deepEqual(await cache.lookup('k', fetch), { outcome: 'answer', value: 'answer 2', fromCache: false });
  assert.equal(calls, 2);
});

test('OnlineLookupCache: misses beyond the burst are rate limited and cost no call; hits are not limited', async () => {
  const clock = fakeClock();
  const cache = new OnlineLookupCache<string>({ now: clock.now, burst: 2, perSecond: 1 });
  const calls: string[] = [];
  const fetchFor = (key: string) => async () => (calls.push(key), key.toUpperCase());
  const outcomes = [];
  for (const key of ['a', 'b', 'c', 'a', 'b']) outcomes.push((await cache.lookup(key, fetchFor(key))).outcome);
  assert.deepEqual(outcomes, ['answer', 'answer', 'rateLimited', 'answer', 'answer']);
  assert.deepEqual(calls, ['a', 'b']);
  clock.advance(1000);
  assert.deepEqual(await cache.lookup('c', fetchFor('c')), { outcome: 'answer', value: 'C', fromCache: false });
});

test('OnlineLookupCache: a failure is passed on and not cached', async () => {
  const cache = new OnlineLookupCache<string>({ now: fakeClock().now });
  await assert.rejects(
    cache.lookup('k', async () => {
      throw new Error('offline');
    }),
    /offline/,
  );
  assert.deepEqual(await cache.lookup('k', async () => 'later'), { outcome: 'answer', value: 'later', fromCache: false });
});
