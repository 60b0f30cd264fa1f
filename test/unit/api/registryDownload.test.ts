// registry.downloadList over real HTTP against a scripted loopback server: the JSON-string/base64
// body decoded to a file or a Buffer, with progress, and every failure leaving no file behind.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createClient, NilveraApiError } from '../../../src/api';
import { startLoopbackServer, type LoopbackServer } from '../../support/loopbackServer';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let server: LoopbackServer;
let handler: Handler;
let dir: string;
const client = () => createClient({ baseUrl: server.url, getApiKey: async () => 'K-123', retry: { retries: 0 } });

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-dl-'));
  server = await startLoopbackServer((req, res) => handler(req, res));
});

after(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Sends `body` in pieces of `piece` bytes, with a pause between them. */
function sendSlowly(res: http.ServerResponse, body: Buffer, piece: number, pauseMs = 0, contentLength = body.length): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': contentLength });
  let at = 0;
  const next = () => {
    if (res.destroyed) return;
    if (at >= body.length) {
      if (contentLength > body.length) res.destroy();
      else res.end();
      return;
    }
    res.write(body.subarray(at, at + piece));
    at += piece;
    if (pauseMs) setTimeout(next, pauseMs);
    else setImmediate(next);
  };
  next();
}

const leftovers = () => fs.readdirSync(dir).filter((f) => f.endsWith('.part'));

test('decodes the body into a file (temp + rename) and into a Buffer, reporting progress in ZIP bytes', async () => {
  const zip = randomBytes(300_001);
  const body = Buffer.from(JSON.stringify(zip.toString('base64')));
  let url = '';
  handler = (req, res) => {
    url = req.url ?? '';
    sendSlowly(res, body, 7_777);
  };
  const progress: number[] = [];
  const target = path.join(dir, 'pk-invoice.zip');
  const result = await client().registry.downloadList('PK', 'Invoice', { kind: 'file', path: target, onProgress: (n) => progress.push(n) });
  assert.equal(url, '/general/GlobalCompany/PK/Invoice');
  assert.equal(result.bytes, zip.length);
  assert.equal(result.path, target);
  assert.deepEqual(fs.readFileSync(target), zip);
  assert.ok(progress.length > 3, `progress reported as data arrives (${progress.length} reports)`);
  assert.ok(progress.every((v, i) => i === 0 || v > progress[i - 1]));
  assert.equal(progress.at(-1), zip.length);
  assert.deepEqual(leftovers(), []);

  const inMemory = await client().registry.downloadList('GB', 'DespatchAdvice', { kind: 'buffer' });
  assert.equal(url, '/general/GlobalCompany/GB/DespatchAdvice');
  assert.deepEqual(inMemory.buffer, zip);
});

test('a body without Content-Length (chunked) decodes the same', async () => {
  const zip = randomBytes(50_000);
  handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    const body = Buffer.from(JSON.stringify(zip.toString('base64')));
    res.write(body.subarray(0, 1000));
    res.end(body.subarray(1000));
  };
  assert.deepEqual((await client().registry.downloadList('PK', 'Invoice', { kind: 'buffer' })).buffer, zip);
});

async function expectFailure(kind: string, target: string, opts?: { signal?: AbortSignal; timeoutMs?: number }): Promise<NilveraApiError> {
  try {
    await client().registry.downloadList('PK', 'Invoice', { kind: 'file', path: target }, opts);
  } catch (e) {
    assert.ok(e instanceof NilveraApiError, String(e));
    assert.equal(e.kind, kind, e.message);
    assert.equal(fs.existsSync(target), false, 'no final file after a failure');
    assert.deepEqual(leftovers(), [], 'temp file removed');
    return e;
  }
  assert.fail('expected a failure');
}

test('truncated, non-string and invalid-base64 bodies are malformed and leave no file', async () => {
  const good = Buffer.from(JSON.stringify(randomBytes(100_000).toString('base64')));
  const target = path.join(dir, 'bad.zip');

  handler = (_req, res) => sendSlowly(res, good.subarray(0, 50_000), 10_000, 0, good.length);
  await expectFailure('malformed', target);

  handler = (_req, res) => sendSlowly(res, good.subarray(0, 50_000), 10_000); // ends cleanly, string unclosed
  assert.match((await expectFailure('malformed', target)).message, /truncated/);

  handler = (_req, res) => sendSlowly(res, Buffer.from('{"Content":"UEsDBA=="}'), 5);
  assert.match((await expectFailure('malformed', target)).message, /neither a ZIP nor base64/);

  const broken = Buffer.from(good);
  broken[60_000] = '!'.charCodeAt(0);
  handler = (_req, res) => sendSlowly(res, broken, 8_192);
  assert.match((await expectFailure('malformed', target)).message, /invalid base64 character 0x21 at byte 60000/);
});

test('HTTP errors keep their kind; cancel and inactivity timeout stop the download and clean up', async () => {
  const target = path.join(dir, 'x.zip');
  handler = (_req, res) => {
    res.writeHead(403, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ Errors: [{ Code: 403, Description: 'Yetkisiz' }] }));
  };
  assert.equal((await expectFailure('forbidden', target)).messages[0].description, 'Yetkisiz');

  const body = Buffer.from(JSON.stringify(randomBytes(200_000).toString('base64')));
  let serverSawClose = false;
  handler = (_req, res) => {
    res.on('close', () => (serverSawClose = !res.writableFinished));
    sendSlowly(res, body, 4_096, 20);
  };
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 150);
  const started = Date.now();
  await expectFailure('cancelled', target, { signal: ac.signal });
  assert.ok(Date.now() - started < 3000);
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(serverSawClose, 'the connection was closed');

  // Slow but steady data is fine with a short limit: the limit is on inactivity once the body flows.
  handler = (_req, res) => {
    res.writeHead(200, { 'Content-Length': body.length });
    res.write(body.subarray(0, 10_000)); // then silence
  };
  await expectFailure('timeout', target, { timeoutMs: 300 });
  const steady = Buffer.from(JSON.stringify(randomBytes(30_000).toString('base64')));
  handler = (_req, res) => sendSlowly(res, steady, 4_000, 60);
  const ok = await client().registry.downloadList('PK', 'Invoice', { kind: 'buffer' }, { timeoutMs: 300 });
  assert.equal(ok.bytes, 30_000);
});
