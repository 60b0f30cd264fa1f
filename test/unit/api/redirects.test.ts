// Redirects over real HTTP between loopback servers: the API key and request bodies reach only the
// profile's own origin (scheme, host, port). Two ports on 127.0.0.1 are two origins, and so are
// `localhost` and `127.0.0.1` on one port. Issue 37 row 7.

import { test, before, after, beforeEach, describe } from 'node:test';
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import * as https from 'node:https';
import nodeFetch from 'node-fetch';
import { createClient } from '../../../src/api';
import { sendProbe } from '../../../src/commands/connection/probes';
import { loopbackCa, replyJson, startLoopbackServer, type LoopbackServer } from '../../support/loopbackServer';
import { apiRejection } from '../../support/apiRejection';

const KEY = 'REDIRECT-CANARY-KEY-5f1e2d';
const SECRET = 'body-password-7c4a1b';

interface Seen {
  server: 'home' | 'other';
  method: string;
  host: string;
  url: string;
  authorization?: string;
  body: string;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

let seen: Seen[] = [];
const handlers: Record<'home' | 'other', Handler> = { home: () => undefined, other: () => undefined };
const servers: LoopbackServer[] = [];
let homePort = 0;
let otherPort = 0;

async function serve(name: 'home' | 'other', host: string): Promise<number> {
  const server = await startLoopbackServer(
    (req, res, body) => {
      seen.push({ server: name, method: req.method ?? '', host: req.headers.host ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
      handlers[name](req, res);
    },
    { host },
  );
  servers.push(server);
  return server.port;
}

function redirect(res: http.ServerResponse, status: number, location: string): void {
  res.writeHead(status, { Location: location, 'Content-Length': '0' });
  res.end();
}

before(async () => {
  // `home` listens on every address, so both `localhost` and `127.0.0.1` reach it on one port.
  homePort = await serve('home', '::');
  otherPort = await serve('other', '127.0.0.1');
});

after(async () => {
  for (const s of servers) await s.close();
});

beforeEach(() => {
  seen = [];
  handlers.home = (_req, res) => replyJson(res, 200, true);
  handlers.other = (_req, res) => replyJson(res, 200, { ID: 1, Name: 'elsewhere' });
});

const homeUrl = () => `http://127.0.0.1:${homePort}`;
const client = (baseUrl = homeUrl()) => createClient({ baseUrl, getApiKey: async () => KEY, retry: { retries: 0 } });

/** What reached anything but the profile's origin `http://127.0.0.1:<homePort>`. */
const elsewhere = () => seen.filter((s) => s.server === 'other' || s.host !== `127.0.0.1:${homePort}`);

describe('redirects: the key and the body stay with the profile\'s origin', () => {
  test('a GET redirected to another port of the same host is refused; the key never reaches it', async () => {
    handlers.home = (_req, res) => redirect(res, 302, `http://127.0.0.1:${otherPort}/general/Company`);
    const err = await apiRejection(client().company.get());
    assert.equal(err.kind, 'redirected');
    assert.equal(err.messages[0]?.detail, `http://127.0.0.1:${otherPort}`);
    assert.deepEqual(elsewhere(), [], 'nothing reached the other origin');
    assert.ok(!err.message.includes(KEY));
  });

  test('a POST answered 307 to another port: neither the key nor the body goes there', async () => {
    handlers.home = (_req, res) => redirect(res, 307, `http://127.0.0.1:${otherPort}/general/Customers`);
    const err = await apiRejection(client().customers.create([{ TaxNumber: '1234567890', Name: SECRET }]));
    assert.equal(err.kind, 'redirected');
    assert.deepEqual(elsewhere(), []);
    assert.equal(seen.filter((s) => s.body.includes(SECRET)).length, 1, 'the body went once, to the profile\'s origin');
  });

  test('`localhost` is another origin than `127.0.0.1` on the same port: a 308 there takes nothing along', async () => {
    handlers.home = (req, res) => {
      if (req.headers.host === `127.0.0.1:${homePort}`) redirect(res, 308, `http://localhost:${homePort}/general/Customers`);
      else replyJson(res, 200, true);
    };
    const err = await apiRejection(client().customers.create([{ TaxNumber: '1234567890', Name: SECRET }]));
    assert.equal(err.kind, 'redirected');
    assert.equal(err.messages[0]?.detail, `http://localhost:${homePort}`);
    assert.deepEqual(elsewhere(), []);
  });

  test('a redirect within the origin is followed, with the key', async () => {
    handlers.home = (req, res) => {
      if (req.url === '/general/Company') redirect(res, 302, '/general/Company/v2');
      else replyJson(res, 200, { Name: 'here', TaxNumber: '1234567890' });
    };
    assert.equal((await client().company.get()).Name, 'here');
    assert.deepEqual(seen.map((s) => [s.url, s.authorization]), [['/general/Company', `Bearer ${KEY}`], ['/general/Company/v2', `Bearer ${KEY}`]]);
  });

  test('a redirect loop stops after a few hops with its own error', async () => {
    handlers.home = (_req, res) => redirect(res, 307, `/general/Company?n=${seen.length}`);
    const err = await apiRejection(client().company.get());
    assert.equal(err.kind, 'redirected');
    assert.equal(err.messages[0]?.code, 'ERR_TOO_MANY_REDIRECTS');
    assert.ok(seen.length <= 6, `${seen.length} requests`);
  });

  test('the registry download may be handed to another origin (a file host): followed without the key', async () => {
    const zip = Buffer.from('PK\u0003\u0004 not really a zip, not verified here');
    handlers.home = (_req, res) => redirect(res, 302, `http://127.0.0.1:${otherPort}/files/list.zip`);
    handlers.other = (_req, res) => replyJson(res, 200, zip.toString('base64'));
    const result = await client().registry.downloadList('PK', 'Invoice', { kind: 'buffer' });
    assert.deepEqual(result.buffer, zip);
    const there = seen.filter((s) => s.server === 'other');
    assert.equal(there.length, 1);
    assert.equal(there[0].authorization, undefined, 'the key did not go to the file host');
  });

  test('a download from an https address is not handed to plain http, even where another origin is allowed', async () => {
    const tlsSeen: string[] = [];
    const secure = await startLoopbackServer((req, res) => {
      tlsSeen.push(req.url ?? '');
      redirect(res, 302, `http://127.0.0.1:${otherPort}/files/list.zip`);
    }, { tls: true });
    servers.push(secure);
    // node-fetch over TLS trusting only the loopback certificate: a real https call, nothing mocked.
    const agent = new https.Agent({ ca: loopbackCa() });
    const fetchTrusting = ((url: string, init: object) => nodeFetch(url, { ...init, agent: (u: URL) => (u.protocol === 'https:' ? agent : undefined) })) as never;
    const httpsClient = createClient({ baseUrl: secure.url, getApiKey: async () => KEY, retry: { retries: 0 }, fetch: fetchTrusting });
    const err = await apiRejection(httpsClient.registry.downloadList('PK', 'Invoice', { kind: 'buffer' }));
    assert.equal(err.kind, 'redirected');
    assert.equal(err.messages[0]?.code, 'ERR_INSECURE_REDIRECT');
    assert.equal(err.messages[0]?.detail, `http://127.0.0.1:${otherPort}`);
    assert.equal(tlsSeen.length, 1, 'the https server was asked once');
    assert.deepEqual(seen.filter((s) => s.server === 'other'), [], 'nothing went out over plain http');
    agent.destroy();
  });

  test('Check Connection\'s probe refuses a redirect to another port: the key stays home, the report says why', async () => {
    handlers.home = (_req, res) => redirect(res, 307, `http://127.0.0.1:${otherPort}/general/Company`);
    const answer = await sendProbe({ baseUrl: homeUrl(), apiKey: KEY, timeoutMs: 5000 }, { method: 'GET', path: '/general/Company', template: '/general/Company' }, new AbortController().signal);
    assert.equal(answer.status, undefined);
    assert.equal(answer.failure, 'ERR_CROSS_ORIGIN_REDIRECT');
    assert.deepEqual(elsewhere(), []);
  });
});
