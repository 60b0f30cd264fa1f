// The hover's online look-up guard rails, on a fake clock: LRU + time-to-live and token bucket
// (answers cached, failures and rate-limited misses not).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { OnlineLookupCache, type OnlineLookupOptions } from '../../../../src/editor/hover/onlineCache';

function fakeClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

/** A cache that answers every miss with `value`, and the keys it had to fetch. */
function cacheOf(options: OnlineLookupOptions, value = 1): { cache: OnlineLookupCache<number>; get: (key: string) => Promise<number | undefined>; fetched: string[] } {
  const cache = new OnlineLookupCache<number>(options);
  const fetched: string[] = [];
  const get = async (key: string) => {
    const found = await cache.lookup(key, async () => (fetched.push(key), value));
    return found.outcome === 'answer' ? found.value : undefined;
  };
  return { cache, get, fetched };
}

test('OnlineLookupCache: an answer expires exactly ttl after it was stored', async () => {
  const clock = fakeClock();
  const { get, fetched } = cacheOf({ now: clock.now, ttlMs: 1000 });
  await get('a');
  clock.advance(999);
  await get('a');
  assert.deepEqual(fetched, ['a'], 'still cached after 999 ms');
  clock.advance(1);
  await get('a');
  assert.deepEqual(fetched, ['a', 'a'], 'fetched again at 1000 ms');
});

test('OnlineLookupCache: beyond maxEntries the least recently used goes first', async () => {
  const { get, fetched } = cacheOf({ now: fakeClock().now, maxEntries: 3, burst: 100 });
  for (const key of ['a', 'b', 'c', 'a', 'd']) await get(key); // a is used again before d comes in
  fetched.length = 0;
  for (const key of ['a', 'c', 'd']) await get(key);
  assert.deepEqual(fetched, [], 'a, c and d are kept');
  await get('b');
  assert.deepEqual(fetched, ['b'], 'b was the least recently used');
});

test('OnlineLookupCache: a burst of misses, then the refill rate', async () => {
  const clock = fakeClock();
  const { get } = cacheOf({ now: clock.now, burst: 4, perSecond: 2 });
  const burst = [];
  for (let i = 0; i < 6; i++) burst.push(await get(`k${i}`));
  assert.deepEqual(burst, [1, 1, 1, 1, undefined, undefined]);
  clock.advance(499);
  assert.equal(await get('x'), undefined, 'less than one token refilled after 499 ms at 2/s');
  clock.advance(1);
  assert.equal(await get('y'), 1);
  assert.equal(await get('z'), undefined);
});

test('OnlineLookupCache: the rate limit refills up to the burst, not beyond', async () => {
  const clock = fakeClock();
  const { get } = cacheOf({ now: clock.now, burst: 4, perSecond: 2 });
  for (let i = 0; i < 4; i++) await get(`k${i}`);
  clock.advance(60_000);
  let taken = 0;
  while ((await get(`m${taken}`)) !== undefined) taken++;
  assert.equal(taken, 4);
});

test('OnlineLookupCache: over 10 s of constant demand, at most burst + rate × time look-ups pass', async () => {
  const clock = fakeClock();
  const { get, fetched } = cacheOf({ now: clock.now, burst: 4, perSecond: 2 });
  for (let ms = 0; ms < 10_000; ms += 50) {
    await get(`k${ms}`);
    clock.advance(50);
  }
  const passed = fetched.length;
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
