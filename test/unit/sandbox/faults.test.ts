// Fault injection: each kind observed over real HTTP, in queue order, limited by `match`,
// switchable through the handle and the control endpoint; plus the request log.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { api, startTestSandbox, type SandboxHandle } from '../../support/sandbox';

let sb: SandboxHandle;
before(async () => {
  sb = await startTestSandbox({ customers: 30, registry: 50 });
});
after(() => sb.close());
beforeEach(() => {
  sb.clearFaults();
  sb.resetRequestLog();
});

/** A raw GET that reports what arrived, including a socket error or an early end. */
function rawGet(path: string): Promise<{ status?: number; headers?: http.IncomingHttpHeaders; body: string; error?: string }> {
  return new Promise((resolve) => {
    const req = http.get(sb.url + path, { headers: { Authorization: `Bearer ${sb.keys.full}` }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
      res.on('error', (e) => resolve({ status: res.statusCode, headers: res.headers, body, error: (e as NodeJS.ErrnoException).code ?? e.message }));
      res.on('aborted', () => resolve({ status: res.statusCode, headers: res.headers, body, error: 'aborted' }));
    });
    req.on('error', (e) => resolve({ body: '', error: (e as NodeJS.ErrnoException).code ?? e.message }));
  });
}

describe('fault kinds', () => {
  test('500, 503 and 429 (the last two with Retry-After), then normal service', async () => {
    sb.setFaults({ queue: ['500', '503', '429'], retryAfterSeconds: 7 });
    const a = await rawGet('/general/Alerts');
    assert.equal(a.status, 500);
    assert.ok(Array.isArray(JSON.parse(a.body).Errors));
    const b = await rawGet('/general/Alerts');
    assert.equal(b.status, 503);
    assert.equal(b.headers?.['retry-after'], '7');
    const c = await rawGet('/general/Alerts');
    assert.equal(c.status, 429);
    assert.equal(c.headers?.['retry-after'], '7');
    assert.equal((await rawGet('/general/Alerts')).status, 200, 'the queue is used up');
  });

  test('reset closes the connection before any answer', async () => {
    sb.setFaults({ queue: ['reset'] });
    const r = await rawGet('/general/Alerts');
    assert.equal(r.status, undefined);
    assert.ok(r.error, 'a socket error');
    sb.setFaults({ queue: ['reset'] });
    await assert.rejects(fetch(`${sb.url}/general/Alerts`, { headers: { Authorization: `Bearer ${sb.keys.full}` } }));
  });

  test('truncate announces more bytes than it sends', async () => {
    sb.setFaults({ queue: ['truncate'] });
    const r = await rawGet('/general/Customers');
    assert.equal(r.status, 200);
    assert.ok(r.error, 'the body ends early');
    assert.ok(Number(r.headers?.['content-length']) > Buffer.byteLength(r.body));
  });

  test('malformed answers 200 with JSON that does not parse', async () => {
    sb.setFaults({ queue: ['malformed'] });
    const r = await rawGet('/general/Company');
    assert.equal(r.status, 200);
    assert.throws(() => JSON.parse(r.body));
  });

  test('latency delays the answer', async () => {
    sb.setFaults({ queue: [{ latencyMs: 250 }] });
    const started = Date.now();
    assert.equal((await rawGet('/general/Alerts')).status, 200);
    assert.ok(Date.now() - started >= 240);
  });

  test('rates: 1 always fails, 0 never', async () => {
    sb.setFaults({ rates: { '503': 1 } });
    for (let i = 0; i < 5; i++) assert.equal((await rawGet('/general/Credits')).status, 503);
    sb.setFaults({ rates: { '503': 0, '500': 0 } });
    for (let i = 0; i < 5; i++) assert.equal((await rawGet('/general/Credits')).status, 200);
  });
});

describe('fault targeting and switching', () => {
  test('match limits the plan to a method and path; other requests pass untouched', async () => {
    sb.setFaults({ queue: ['500', '500'], match: { method: 'GET', path: '^/general/customers$' } });
    assert.equal((await rawGet('/general/Alerts')).status, 200);
    assert.equal((await rawGet('/general/Customers/1')).status, 200);
    assert.equal((await rawGet('/GENERAL/Customers?Page=1')).status, 500);
    assert.equal((await rawGet('/general/Customers')).status, 500);
    assert.equal((await rawGet('/general/Customers')).status, 200);
  });

  test('the control endpoint sets and clears faults; a bad plan is refused', async () => {
    const set = await fetch(`${sb.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ rates: { '429': 1 } }) });
    assert.equal(set.status, 200);
    assert.equal((await rawGet('/general/Alerts')).status, 429);
    assert.equal((await fetch(`${sb.url}/__sandbox/faults`, { method: 'DELETE' })).status, 200);
    assert.equal((await rawGet('/general/Alerts')).status, 200);
    const bad = await fetch(`${sb.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ queue: ['explode'] }) });
    assert.equal(bad.status, 400);
    assert.throws(() => sb.setFaults({ rates: { '500': 2 } }));
  });

  test('a faulted write changes nothing', async () => {
    sb.setFaults({ queue: ['503'] });
    assert.equal((await api(sb, 'DELETE', '/general/Customers/2')).status, 503);
    assert.equal((await api(sb, 'GET', '/general/Customers/2')).status, 200);
  });
});

describe('request log', () => {
  test('records method, path and status of API requests (not control requests)', async () => {
    await api(sb, 'GET', '/general/Alerts');
    await api(sb, 'GET', '/general/Customers/999999');
    await api(sb, 'GET', '/general/Alerts', undefined, null);
    await fetch(`${sb.url}/__sandbox/state`);
    assert.deepEqual(sb.requestLog(), [
      { method: 'GET', path: '/general/Alerts', status: 200 },
      { method: 'GET', path: '/general/Customers/999999', status: 404 },
      { method: 'GET', path: '/general/Alerts', status: 401 },
    ]);
    const viaControl = (await fetch(`${sb.url}/__sandbox/requests`).then((r) => r.json())) as unknown[];
    assert.equal(viaControl.length, 3);
    sb.resetRequestLog();
    assert.deepEqual(sb.requestLog(), []);
  });
});

/** A raw request with a JSON body that reports what arrived, including a socket error. */
function rawSend(method: string, path: string, body: unknown): Promise<{ status?: number; body: string; error?: string }> {
  return new Promise((resolve) => {
    const text = JSON.stringify(body);
    const req = http.request(sb.url + path, { method, agent: false, headers: { Authorization: `Bearer ${sb.keys.full}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } }, (res) => {
      let got = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (got += c));
      res.on('end', () => resolve({ status: res.statusCode, body: got }));
      res.on('error', (e) => resolve({ status: res.statusCode, body: got, error: (e as NodeJS.ErrnoException).code ?? e.message }));
      res.on('aborted', () => resolve({ status: res.statusCode, body: got, error: 'aborted' }));
    });
    req.on('error', (e) => resolve({ body: '', error: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end(text);
  });
}

describe('fault phase', () => {
  let serial = 0;
  /** POSTs a new certificate under the planned fault; says whether it was stored afterwards. */
  async function postCertificate(): Promise<{ answer: Awaited<ReturnType<typeof rawSend>>; stored: boolean }> {
    const SerialNo = `PHASE-${++serial}`;
    const answer = await rawSend('POST', '/general/Company/Certificate', { SerialNo, Type: 'EIMZA' });
    sb.clearFaults();
    const stored = (await api(sb, 'GET', `/general/Company/Certificate/${SerialNo}`)).status === 200;
    return { answer, stored };
  }

  for (const fault of ['reset', 'truncate', 'malformed', '500', '503'] as const) {
    test(`after: the handler stores the POST, then the answer is lost (${fault})`, async () => {
      sb.setFaults({ queue: [fault], phase: 'after' });
      const { answer, stored } = await postCertificate();
      assert.ok(stored, 'the record IS stored');
      if (fault === 'reset' || fault === 'truncate') assert.ok(answer.error, `the connection dies (${JSON.stringify(answer)})`);
      else if (fault === 'malformed') assert.throws(() => JSON.parse(answer.body));
      else assert.equal(answer.status, Number(fault));
    });
  }

  test('after: latency past the client time limit comes after the change is stored', async () => {
    sb.setFaults({ queue: [{ latencyMs: 600 }], phase: 'after' });
    const SerialNo = `PHASE-LATE-${++serial}`;
    const controller = new AbortController();
    const pending = fetch(`${sb.url}/general/Company/Certificate`, {
      method: 'POST',
      signal: controller.signal,
      headers: { Authorization: `Bearer ${sb.keys.full}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ SerialNo, Type: 'EIMZA' }),
    });
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    await assert.rejects(pending, /abort/i);
    assert.equal((await api(sb, 'GET', `/general/Company/Certificate/${SerialNo}`)).status, 200, 'stored although the client gave up');
  });

  test('before (the default, and explicitly): the answer is lost and nothing is stored', async () => {
    sb.setFaults({ queue: ['reset'] });
    assert.equal((await postCertificate()).stored, false);
    sb.setFaults({ queue: ['500'], phase: 'before' });
    const { answer, stored } = await postCertificate();
    assert.deepEqual([answer.status, stored], [500, false]);
  });

  test('either: each fault picks its phase at random, so both outcomes happen', async () => {
    const outcomes = new Set<boolean>();
    for (let i = 0; i < 24 && outcomes.size < 2; i++) {
      sb.setFaults({ queue: ['503'], phase: 'either' });
      const { answer, stored } = await postCertificate();
      assert.equal(answer.status, 503);
      outcomes.add(stored);
    }
    assert.deepEqual([...outcomes].sort(), [false, true], 'stored and not stored both seen (chance of a false failure: 2^-23)');
  });

  test('the request log names the fault that answered a request and its phase; other requests carry none', async () => {
    sb.setFaults({ queue: ['500'], phase: 'after' });
    await postCertificate();
    sb.setFaults({ queue: ['reset'], phase: 'before' });
    await postCertificate();
    const posts = sb.requestLog().filter((r) => r.method === 'POST');
    assert.deepEqual(posts.map((r) => r.fault), [{ kind: '500', phase: 'after' }, { kind: 'reset', phase: 'before' }]);
    assert.deepEqual(sb.requestLog().filter((r) => r.method === 'GET').map((r) => r.fault), [undefined, undefined]);
  });

  test('a bad phase is refused by the handle and the control endpoint; GET faults shows the phase', async () => {
    assert.throws(() => sb.setFaults({ phase: 'during' as never }), /phase must be one of: before, after, either/);
    const bad = await fetch(`${sb.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ queue: ['500'], phase: 'later' }) });
    assert.equal(bad.status, 400);
    assert.equal((await fetch(`${sb.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ queue: ['500'], phase: 'after' }) })).status, 200);
    assert.equal(((await (await fetch(`${sb.url}/__sandbox/faults`)).json()) as { phase: string }).phase, 'after');
  });
});

describe('requests in flight', () => {
  test('GET /__sandbox/state counts API requests until their answer is finished', async () => {
    const state = async () => ((await (await fetch(`${sb.url}/__sandbox/state`)).json()) as { inFlight: number }).inFlight;
    assert.equal(await state(), 0);
    sb.setFaults({ latencyMs: 400, match: { path: '^/general/Alerts$' } });
    const slow = [rawGet('/general/Alerts'), rawGet('/general/Alerts')];
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await state(), 2);
    assert.equal(sb.inFlight(), 2);
    assert.equal(sb.requestLog().length, 0, 'not logged until finished');
    await Promise.all(slow);
    assert.equal(await state(), 0);
    assert.equal(sb.requestLog().length, 2);
  });
});
