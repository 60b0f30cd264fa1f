// The client's HTTP layer over real HTTP against a scripted loopback server: headers, encoding,
// error shapes, retries, time limits, cancellation and the API-key canary.

import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { inspect } from 'node:util';
import { createClient } from '../../../src/api';
import type { ClientOptions, NilveraClient, RequestLogEntry , NilveraApiError } from '../../../src/api';
import { closedPort, replyJson, startLoopbackServer, type LoopbackServer } from '../../support/loopbackServer';
import { apiRejection } from '../../support/apiRejection';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string, n: number) => void;

let server: LoopbackServer;
let baseUrl: string;
let handler: Handler;
let seen: Seen[] = [];
let closedEarly = 0;
const KEY = 'TEST-KEY-0123456789ABCDEF';

before(async () => {
  server = await startLoopbackServer(
    (req, res, body) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.on('close', () => {
        if (!res.writableFinished) closedEarly++;
      });
      handler(req, res, body, seen.length);
    },
    { keepAliveTimeout: 100 },
  );
  baseUrl = server.url;
});

after(() => server.close());

beforeEach(() => {
  seen = [];
  closedEarly = 0;
  handler = (_req, res) => replyJson(res, 200, true);
});

function client(extra: Partial<ClientOptions> = {}): NilveraClient {
  return createClient({ baseUrl, getApiKey: async () => KEY, retry: { baseDelayMs: 10, maxDelayMs: 50 }, ...extra });
}

test('sends the bearer key, JSON headers, PascalCase bodies and query names as the spec spells them', async () => {
  const c = client();
  await c.customers.create([{ TaxNumber: '1234567890', Name: 'Müşteri A.Ş.', IsExport: false }]);
  await c.identifications.create('MERSISNO', '0123 4567&89');
  await c.taxOffice.update('kullanıcı', 'p@ss word&=');
  await c.registry.infoBulk(['1234567890', '4540536920'], 'DespatchAdvice');
  await c.customers.deleteBulk([3, 4]);
  await c.customers.list({ Search: 'a b', Page: 2, PageSize: 50, SortColumn: 'Name', SortType: 'DESC' });
  await c.mailing.setChat(false);

  const [create, ident, tax, bulk, del, list, chat] = seen;
  assert.equal(create.headers.authorization, `Bearer ${KEY}`);
  assert.equal(create.headers.accept, 'application/json');
  assert.equal(create.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(create.body), [{ TaxNumber: '1234567890', Name: 'Müşteri A.Ş.', IsExport: false }]);
  assert.equal(create.method, 'POST');
  assert.equal(create.url, '/general/Customers');

  const identUrl = new URL(ident.url, baseUrl);
  assert.equal(identUrl.pathname, '/general/CompanyIdentification');
  assert.equal(identUrl.searchParams.get('Name'), 'MERSISNO');
  assert.equal(identUrl.searchParams.get('Value'), '0123 4567&89');
  assert.equal(ident.body, '');
  assert.equal(ident.headers['content-type'], undefined);

  const taxUrl = new URL(tax.url, baseUrl);
  assert.equal(tax.method, 'PUT');
  assert.equal(taxUrl.searchParams.get('UserName'), 'kullanıcı');
  assert.equal(taxUrl.searchParams.get('Password'), 'p@ss word&=');

  assert.equal(bulk.url, '/general/GlobalCompany/GetGlobalCustomerInfo?globalUserType=DespatchAdvice');
  assert.deepEqual(JSON.parse(bulk.body), ['1234567890', '4540536920']);
  assert.equal(del.method, 'DELETE');
  assert.deepEqual(JSON.parse(del.body), [3, 4]);
  assert.equal(list.url, '/general/Customers?Search=a%20b&PageSize=50&Page=2&SortColumn=Name&SortType=DESC');
  assert.equal(chat.url, '/general/Mailing/Whatsapp/Setting/false');
});

test('path parameters reach the server intact: Turkish letters, space, ?, #, % and dot segments; a search is cut at a slash', async () => {
  const c = client();
  handler = (_req, res) => replyJson(res, 200, []);
  const values = ['Şirket A Ş #1', 'İğüöç?x=1', '100%', '...', '.a', 'a+b&c'];
  for (const v of values) await c.customers.search(v);
  await c.registry.checkName('Ölçü / Ltd', 'Invoice');
  await c.customers.search('Şirket A/Ş #1');
  for (let i = 0; i < values.length; i++) {
    const raw = seen[i].url.slice('/general/Customers/Search/'.length);
    assert.ok(!raw.includes('/') && !raw.includes('?') && !raw.includes('#'), raw);
    assert.equal(decodeURIComponent(raw), values[i]);
  }
  assert.equal(seen[0].url, '/general/Customers/Search/%C5%9Eirket%20A%20%C5%9E%20%231');
  // Spec-silent (specSilent.ts): a slash may not survive a path, so the longest part is searched.
  assert.equal(seen[values.length].url, '/general/GlobalCompany/Check/Name/%C3%96l%C3%A7%C3%BC?globalUserType=Invoice');
  assert.equal(seen[values.length + 1].url, '/general/Customers/Search/%C5%9Eirket%20A');
  // "." and ".." cannot survive URL parsing: refused before sending, instead of hitting another route.
  seen = [];
  for (const v of ['.', '..']) assert.equal((await apiRejection(c.customers.search(v))).kind, 'badRequest');
  assert.equal(seen.length, 0);
});

test('maps statuses to error kinds and parses every error body shape', async () => {
  const c = client({ retry: { retries: 0 } });
  const cases: Array<[number, string, string, Array<{ code?: number | string; description: string; detail?: string }>]> = [
    [422, 'validation', JSON.stringify({ Errors: [{ Code: 2004, Description: 'Kayıt oluşturulamadı', Detail: 'index 3' }] }), [{ code: 2004, description: 'Kayıt oluşturulamadı', detail: 'index 3' }]],
    [409, 'conflict', JSON.stringify({ Message: 'Zaten var', Errors: [{ Code: 1015, Description: 'Kayıt daha önce eklenmiş', Detail: '' }] }), [{ description: 'Zaten var' }, { code: 1015, description: 'Kayıt daha önce eklenmiş' }]],
    [400, 'badRequest', JSON.stringify(['Quantity must be > 0', 'Name is required']), [{ description: 'Quantity must be > 0' }, { description: 'Name is required' }]],
    [404, 'notFound', JSON.stringify({ Message: 'Kayıt bulunamadı' }), [{ description: 'Kayıt bulunamadı' }]],
    [403, 'forbidden', '', []],
    [401, 'auth', 'Unauthorized', [{ description: 'Unauthorized' }]],
    [500, 'server', '<html>boom</html>', [{ description: '<html>boom</html>' }]],
    [418, 'badRequest', JSON.stringify('teapot'), [{ description: 'teapot' }]],
  ];
  for (const [status, kind, body, messages] of cases) {
    handler = (_req, res) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(body);
    };
    const err = await apiRejection(c.customers.get(7));
    assert.equal(err.kind, kind, `status ${status}`);
    assert.equal(err.status, status);
    assert.equal(err.operation, 'customers.get');
    assert.deepEqual(err.messages, messages, `status ${status}`);
    for (const m of messages) assert.ok(err.message.includes(m.description), err.message);
  }
});

test('GET, PUT and the read-only bulk look-up are retried on 429/502/503/504 honouring Retry-After; other POSTs and DELETE never', async () => {
  const logs: RequestLogEntry[] = [];
  const c = client({ logger: { request: (i) => logs.push(i) }, retry: { retries: 3, baseDelayMs: 10, maxDelayMs: 20 } });
  handler = (_req, res, _b, n) => (n === 1 ? replyJson(res, 503, { Message: 'busy' }, { 'Retry-After': '1' }) : replyJson(res, 200, { USDBuy: '38,1' }));
  const started = Date.now();
  assert.deepEqual(await c.account.exchangeRate(), { USDBuy: '38,1' });
  const waited = Date.now() - started;
  assert.equal(seen.length, 2);
  assert.ok(waited >= 950, `Retry-After 1 s honoured (waited ${waited} ms)`);
  assert.deepEqual(logs.map((l) => [l.attempt, l.status]), [[1, 503], [2, 200]]);

  for (const status of [429, 502, 504]) {
    seen = [];
    handler = (_req, res, _b, n) => (n < 3 ? replyJson(res, status, {}) : replyJson(res, 200, true));
    assert.equal(await c.company.modules().then(() => 'ok'), 'ok', `GET after ${status}`);
    assert.equal(seen.length, 3);
  }

  seen = [];
  handler = (_req, res, _b, n) => (n === 1 ? replyJson(res, 503, {}, { 'Retry-After': '0' }) : replyJson(res, 200, true));
  assert.equal(await c.evoucher.updateSeries({ ID: 1, IsActive: true }), true);
  assert.equal(seen.length, 2, 'PUT retried');

  // The bulk registry look-up is a POST that only reads: retried like a GET.
  seen = [];
  handler = (_req, res, _b, n) => (n === 1 ? replyJson(res, 503, {}, { 'Retry-After': '0' }) : replyJson(res, 200, []));
  assert.deepEqual(await c.registry.infoBulk(['1']), []);
  assert.equal(seen.length, 2, 'the read-only POST retried');

  for (const call of [() => c.certificates.create({ SerialNo: 'X', Type: 'EIMZA' }), () => c.customers.delete(5), () => c.mailing.setChat(true)]) {
    seen = [];
    handler = (_req, res) => replyJson(res, 503, {}, { 'Retry-After': '0' });
    const err = await apiRejection(call());
    assert.equal(err.kind, 'server');
    assert.equal(seen.length, 1, `${err.operation} must not be retried`);
  }

  seen = [];
  handler = (_req, res) => replyJson(res, 500, {});
  assert.equal((await apiRejection(c.account.alerts())).kind, 'server');
  assert.equal(seen.length, 1, '500 is not retried');

  seen = [];
  handler = (_req, res) => replyJson(res, 429, { Message: 'slow down' }, { 'Retry-After': '0' });
  const err = await apiRejection(c.account.alerts());
  assert.equal(err.kind, 'rateLimited');
  assert.equal(err.retryAfterSeconds, 0);
  assert.equal(seen.length, 4, 'the first attempt and at most 3 retries');
});

test('a Retry-After longer than the time left ends the call with the server error, not a wait', async () => {
  const c = client({ timeoutMs: 500 });
  handler = (_req, res) => replyJson(res, 503, {}, { 'Retry-After': '5' });
  const started = Date.now();
  const err = await apiRejection(c.account.alerts());
  assert.equal(err.kind, 'server');
  assert.equal(err.retryAfterSeconds, 5);
  assert.ok(Date.now() - started < 2500, 'did not wait 5 s');
  assert.equal(seen.length, 1);
});

test('a call that outlives its time limit rejects with timeout and closes the connection', async () => {
  handler = (_req, res) => {
    const t = setTimeout(() => replyJson(res, 200, []), 3000);
    res.on('close', () => clearTimeout(t));
  };
  const c = client({ timeoutMs: 5000 });
  const started = Date.now();
  const err = await apiRejection(c.account.campaigns({ timeoutMs: 200 }));
  assert.equal(err.kind, 'timeout');
  assert.ok(Date.now() - started < 2500, 'per-call timeoutMs wins over the client default');
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(closedEarly, 1, 'the server saw the request abandoned');
});

test('cancellation rejects promptly, and an already-aborted signal sends nothing', async () => {
  handler = (_req, res) => {
    const t = setTimeout(() => replyJson(res, 200, []), 3000);
    res.on('close', () => clearTimeout(t));
  };
  const c = client();
  const ac = new AbortController();
  const started = Date.now();
  setTimeout(() => ac.abort(), 100);
  const err = await apiRejection(c.customers.search('x', { signal: ac.signal }));
  assert.equal(err.kind, 'cancelled');
  assert.ok(Date.now() - started < 2500);

  seen = [];
  const err2 = await apiRejection(c.customers.search('x', { signal: AbortSignal.abort() }));
  assert.equal(err2.kind, 'cancelled');
  assert.equal(seen.length, 0);

  // Cancelling during a retry wait ends the wait at once.
  handler = (_req, res) => replyJson(res, 503, {}, { 'Retry-After': '3' });
  const ac3 = new AbortController();
  setTimeout(() => ac3.abort(), 150);
  const t0 = Date.now();
  const err3 = await apiRejection(c.account.credits({ signal: ac3.signal }));
  assert.equal(err3.kind, 'cancelled');
  assert.ok(Date.now() - t0 < 2500);
});

test('resets, truncated bodies and broken JSON give network/malformed, and idempotent calls recover', async () => {
  const c = client({ retry: { retries: 0 } });
  handler = (req) => req.socket.destroy();
  assert.equal((await apiRejection(c.account.alerts())).kind, 'network');

  handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
    res.write('[{"ID":1,');
    setTimeout(() => res.destroy(), 20);
  };
  assert.equal((await apiRejection(c.account.alerts())).kind, 'network');

  handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"ID": 1, "Name": ');
  };
  const bad = await apiRejection(c.account.exchangeRate());
  assert.equal(bad.kind, 'malformed');
  assert.equal(bad.status, 200);

  // With retries, a GET whose body broke off is asked again.
  seen = [];
  const r = client({ retry: { retries: 2, baseDelayMs: 5 } });
  handler = (req, res, _b, n) => {
    if (n === 1) return req.socket.destroy();
    if (n === 2) {
      res.writeHead(200, { 'Content-Length': '50' });
      res.write('[');
      return setTimeout(() => res.destroy(), 10);
    }
    replyJson(res, 200, [{ ID: 1, Type: 'Warning', Message: 'm', CreationDate: '2026-01-01T00:00:00' }]);
  };
  assert.equal((await r.account.alerts())[0].Type, 'Warning');
  assert.equal(seen.length, 3);

  // Malformed 200 bodies are not retried (the server answered).
  seen = [];
  handler = (_req, res) => {
    res.writeHead(200);
    res.end('not json');
  };
  assert.equal((await apiRejection(r.account.alerts())).kind, 'malformed');
  assert.equal(seen.length, 1);
});

test('connection refused is a network error, retried for GET', async () => {
  const logs: RequestLogEntry[] = [];
  const port = await closedPort();
  const c = createClient({ baseUrl: `http://127.0.0.1:${port}/`, getApiKey: async () => KEY, retry: { retries: 2, baseDelayMs: 5 }, logger: { request: (i) => logs.push(i) } });
  const err = await apiRejection(c.company.get());
  assert.equal(err.kind, 'network');
  assert.match(err.messages[0].description, /ECONNREFUSED/);
  assert.equal(logs.length, 3);
});

test('no key: auth error before any request', async () => {
  const c = createClient({ baseUrl, getApiKey: async () => undefined });
  const err = await apiRejection(c.company.get());
  assert.equal(err.kind, 'auth');
  assert.equal(seen.length, 0);
});

test('canary: the key and the tax-office password never appear in errors or logs', async () => {
  const canary = 'CANARY-7f3c9e1d5b2a4860ffee';
  const password = 'PW-CANARY-SECRET';
  const logs: string[] = [];
  const c = createClient({ baseUrl, getApiKey: async () => canary, retry: { retries: 1, baseDelayMs: 1 }, logger: { request: (i) => logs.push(JSON.stringify(i)) } });
  const errors: unknown[] = [];
  const attempt = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (e) {
      errors.push(e);
    }
  };
  // A server that echoes the request's Authorization header and URL back in every error shape.
  const echo = (req: http.IncomingMessage) => `${req.headers.authorization} ${req.url}`;
  handler = (req, res) => replyJson(res, 422, { Message: echo(req), Errors: [{ Code: echo(req), Description: echo(req), Detail: echo(req) }] });
  await attempt(c.taxOffice.update('user', password));
  handler = (req, res) => replyJson(res, 400, [echo(req)]);
  await attempt(c.customers.get(1));
  handler = (req, res) => {
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end(`failed for ${echo(req)}`);
  };
  await attempt(c.account.alerts());
  handler = (req) => req.socket.destroy();
  await attempt(c.taxOffice.update('user', password));
  handler = (_req, res) => {
    const t = setTimeout(() => replyJson(res, 200, true), 2000);
    res.on('close', () => clearTimeout(t));
  };
  await attempt(c.taxOffice.update('user', password, { timeoutMs: 100 }));
  const refused = createClient({ baseUrl: 'http://127.0.0.1:1', getApiKey: async () => canary, retry: { retries: 0 }, logger: { request: (i) => logs.push(JSON.stringify(i)) } });
  await attempt(refused.taxOffice.update('user', password));

  assert.equal(errors.length, 6);
  assert.ok(seen.some((s) => s.headers.authorization === `Bearer ${canary}`), 'the key did go to the server');
  const everything = [
    ...logs,
    ...errors.map((e) => {
      const err = e as NilveraApiError;
      return [err.message, err.stack, JSON.stringify(err), JSON.stringify(err.messages), String(err), inspect(err, { depth: 5 })].join('\n');
    }),
  ].join('\n');
  assert.ok(everything.includes('***'), 'echoed keys were redacted');
  assert.ok(!everything.includes(canary), 'the key leaked');
  assert.ok(!everything.includes(password), 'the password leaked');
  assert.ok(logs.every((l) => !l.includes('?')), 'log paths carry no query');
});
