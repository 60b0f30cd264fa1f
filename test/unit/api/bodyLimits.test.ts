// Body size caps over real HTTP against a loopback server that sends too much: JSON answers, error
// answers and the registry ZIP download stop at their cap with a 'tooLarge' error naming it, and the
// server sees its answer cut off (nothing past the cap is downloaded). Issue 37 row 9.

import { test, before, after, beforeEach, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as http from 'node:http';
import { createClient } from '../../../src/api';
import type { ClientOptions } from '../../../src/api';
import { MAX_JSON_BODY_BYTES } from '../../../src/api/bodyLimits';
import { formatByteSize } from '../../../src/domain/byteSize';
import { startLoopbackServer, type LoopbackServer } from '../../support/loopbackServer';
import { apiRejection } from '../../support/apiRejection';

const MB = 1024 * 1024;
let server: LoopbackServer;
let baseUrl = '';
let handler: (res: http.ServerResponse) => void;
/** Bytes the server managed to write, and whether its answer was complete, per request. */
let answers: Array<{ written: number; finished: boolean }> = [];

before(async () => {
  server = await startLoopbackServer((_req, res) => handler(res));
  baseUrl = server.url;
});

after(() => server.close());

beforeEach(() => {
  answers = [];
});

/**
 * Streams `total` bytes made by `piece(i)` (64 KB each) with backpressure, counting what was written,
 * so a client that stops reading leaves most of it unsent.
 */
function streamBody(res: http.ServerResponse, status: number, headers: Record<string, string>, total: number, piece: (i: number, size: number) => Buffer): void {
  const record = { written: 0, finished: false };
  answers.push(record);
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.on('finish', () => (record.finished = true));
  let i = 0;
  const pump = (): void => {
    while (record.written < total) {
      if (res.destroyed) return;
      const chunk = piece(i++, Math.min(64 * 1024, total - record.written));
      record.written += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  pump();
}

/** A valid JSON array of `total` bytes: `["xxx…","xxx…",…]`, so only the cap can refuse it. */
function jsonArrayPiece(total: number): (i: number, size: number) => Buffer {
  let sent = 0;
  return (_i, size) => {
    let s: string;
    if (sent === 0) s = '["' + 'x'.repeat(size - 2);
    else if (sent + size >= total) s = 'x'.repeat(size - 2) + '"]';
    else s = 'x'.repeat(size);
    sent += size;
    return Buffer.from(s);
  };
}

const client = (extra: Partial<ClientOptions> = {}) => createClient({ baseUrl, getApiKey: async () => 'KEY-123', retry: { retries: 0 }, ...extra });

describe('body caps', () => {
  test('a JSON answer larger than the default cap (64 MB) is stopped with a message naming the size', async () => {
    const total = MAX_JSON_BODY_BYTES + 8 * MB;
    handler = (res) => streamBody(res, 200, {}, total, jsonArrayPiece(total));
    const err = await apiRejection(client().customers.list({ PageSize: 10 }));
    assert.equal(err.kind, 'tooLarge');
    assert.equal(err.messages[0]?.detail, '64 MB');
    assert.match(err.message, /larger than 64 MB/);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(answers[0]?.finished, false, 'the answer was cut off');
  });

  test('a streamed JSON answer past a lower cap stops there: the rest is not downloaded', async () => {
    const total = 64 * MB;
    handler = (res) => streamBody(res, 200, {}, total, jsonArrayPiece(total));
    const err = await apiRejection(client({ limits: { jsonBytes: MB } }).customers.list({ PageSize: 10 }));
    assert.equal(err.kind, 'tooLarge');
    assert.equal(err.messages[0]?.detail, '1 MB');
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(answers[0].written < 16 * MB, `the server wrote ${formatByteSize(answers[0].written)}`);
  });

  test('a Content-Length past the cap is refused before the body is read', async () => {
    const total = 4 * MB;
    handler = (res) => streamBody(res, 200, { 'Content-Length': String(total) }, total, jsonArrayPiece(total));
    const err = await apiRejection(client({ limits: { jsonBytes: MB } }).company.get());
    assert.equal(err.kind, 'tooLarge');
    assert.match(err.messages[0].description, /4 MB announced/);
  });

  test('a write whose answer is too large may have been applied: its outcome is unknown', async () => {
    const total = 2 * MB;
    handler = (res) => streamBody(res, 200, {}, total, jsonArrayPiece(total));
    const err = await apiRejection(client({ limits: { jsonBytes: MB } }).customers.create([{ TaxNumber: '1234567890', Name: 'x' }]));
    assert.equal(err.kind, 'tooLarge');
    assert.equal(err.outcomeUnknown, true);
  });

  test('an endless error body is not read past its cap: the status still makes the error', async () => {
    const total = 256 * MB;
    handler = (res) => streamBody(res, 500, {}, total, (_i, size) => Buffer.alloc(size, 0x41));
    const err = await apiRejection(client().company.get());
    assert.equal(err.kind, 'server');
    assert.equal(err.status, 500);
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(answers.every((a) => a.written < 32 * MB), `the server wrote ${answers.map((a) => formatByteSize(a.written)).join(', ')}`);
  });

  test('the registry ZIP past its cap stops, and no file (or part file) is left', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-cap-'));
    try {
      const total = 8 * MB; // base64 of 6 MB
      const piece = (i: number, size: number) => Buffer.from(i === 0 ? '"' + 'A'.repeat(size - 1) : 'A'.repeat(size));
      handler = (res) => streamBody(res, 200, {}, total, piece);
      const target = path.join(dir, 'list.zip');
      const err = await apiRejection(client({ limits: { registryZipBytes: 2 * MB } }).registry.downloadList('PK', 'Invoice', { kind: 'file', path: target }));
      assert.equal(err.kind, 'tooLarge');
      assert.equal(err.messages[0]?.detail, '2 MB');
      assert.deepEqual(fs.readdirSync(dir), []);
      // Announced: refused before a byte is written, and no Buffer of the announced size is made.
      handler = (res) => streamBody(res, 200, { 'Content-Length': String(total) }, total, piece);
      const announced = await apiRejection(client({ limits: { registryZipBytes: 2 * MB } }).registry.downloadList('PK', 'Invoice', { kind: 'buffer' }));
      assert.equal(announced.kind, 'tooLarge');
      assert.match(announced.messages[0].description, /8 MB announced/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
