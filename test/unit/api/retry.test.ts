import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RETRY, backoffDelay, isIdempotent, isRetriable, parseRetryAfter } from '../../../src/api/retry';
import { retrying } from '../../../src/api/retrying';
import { parseErrorMessages, redactMessages } from '../../../src/api/errors';

test('backoff doubles per attempt within [step/2, step], is capped, and Retry-After wins', () => {
  const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
  assert.equal(backoffDelay(policy, 1, undefined, () => 0), 50);
  assert.equal(backoffDelay(policy, 1, undefined, () => 1), 100);
  assert.equal(backoffDelay(policy, 3, undefined, () => 0.5), 300);
  assert.equal(backoffDelay(policy, 10, undefined, () => 1), 1000);
  assert.equal(backoffDelay(policy, 10, undefined, () => 0), 500);
  assert.equal(backoffDelay(policy, 1, 7000, () => 0), 7000);
});

test('Retry-After as seconds or an HTTP date; junk is ignored', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  assert.equal(parseRetryAfter('3', now), 3000);
  assert.equal(parseRetryAfter(' 0 ', now), 0);
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 10:00:05 GMT', now), 5000);
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter('soon', now), undefined);
  assert.equal(parseRetryAfter(null, now), undefined);
});

test('only GET and PUT are idempotent; network, 429, 502, 503, 504 are retriable', () => {
  assert.deepEqual(['GET', 'PUT', 'POST', 'DELETE'].map(isIdempotent), [true, true, false, false]);
  assert.equal(isRetriable('network', undefined), true);
  for (const s of [429, 502, 503, 504]) assert.equal(isRetriable(s === 429 ? 'rateLimited' : 'server', s), true, String(s));
  for (const s of [400, 404, 409, 422, 500, 501]) assert.equal(isRetriable('server', s), false, String(s));
  assert.equal(isRetriable('timeout', undefined), false);
});

test('ProblemDetails bodies and nested shapes give readable messages; secrets are blanked', () => {
  assert.deepEqual(parseErrorMessages(JSON.stringify({ title: 'One or more validation errors occurred.', errors: { Name: ['Name is required'], 'Customers[2].TaxNumber': ['bad'] } })), [
    { description: 'One or more validation errors occurred.' },
    { description: 'Name is required', detail: 'Name' },
    { description: 'bad', detail: 'Customers[2].TaxNumber' },
  ]);
  assert.deepEqual(parseErrorMessages('   '), []);
  assert.equal(parseErrorMessages('x'.repeat(2000))[0].description.length, 501);
  assert.deepEqual(redactMessages([{ code: 'KEY123', description: 'bad key KEY123', detail: 'KEY123!' }], ['KEY123', undefined, '']), [
    { code: '***', description: 'bad key ***', detail: '***!' },
  ]);
});

test('retrying: a retriable failure is tried again after the rule\'s wait, others pass at once, giving up throws what the rule says, a cancel ends the wait', async () => {
  const transient = new Error('transient');
  const lasting = new Error('lasting');
  const waits: number[] = [];
  const rule = {
    retriable: (e: unknown) => e === transient,
    waitMs: (attempt: number) => (attempt < 3 ? (waits.push(attempt * 5), attempt * 5) : undefined),
    givenUp: (e: unknown) => new Error(`gave up after ${(e as Error).message}`),
  };
  const attempts: number[] = [];
  assert.equal(await retrying(async (attempt) => (attempts.push(attempt), attempt < 3 ? Promise.reject(transient) : 'done'), rule), 'done');
  assert.deepEqual([attempts, waits], [[1, 2, 3], [5, 10]]);

  let tries = 0;
  await assert.rejects(retrying(async () => (tries++, Promise.reject(lasting)), rule), (e) => e === lasting);
  assert.equal(tries, 1);
  await assert.rejects(retrying(async () => Promise.reject(transient), rule), /gave up after transient/);

  const controller = new AbortController();
  const cancelled = new Error('cancelled here');
  setTimeout(() => controller.abort(), 20);
  const started = Date.now();
  await assert.rejects(retrying(async () => Promise.reject(transient), { retriable: () => true, waitMs: () => 60_000, signal: controller.signal, aborted: () => cancelled }), (e) => e === cancelled);
  assert.ok(Date.now() - started < 5_000);
});
