// The downloaded-ZIP check (checkZip, src/domain/zip.ts) and the sandbox's ZIP faults that exercise
// it, over HTTP (so the Prism run, scripts/test-prism.js, takes it too): a whole ZIP passes, every cut
// and every flipped byte of the compressed data is caught.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkZip, ZipError, zipOfOneEntry } from '../../../src/domain/zip';
import { api, startTestSandbox, type SandboxHandle } from '../../support/sandbox';

async function makeZip(text: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      parts.push(chunk);
      cb();
    },
  });
  await pipeline([zipOfOneEntry('liste.xml', Readable.from([Buffer.from(text)]), 6, new Date(2026, 0, 2)), sink]);
  return Buffer.concat(parts);
}

const TEXT = Array.from({ length: 200 }, (_, i) => `<Kullanici><Identifier>${1000000000 + i * 7919}</Identifier><Title>Firma ${i} Ltd. Şti.</Title></Kullanici>`).join('\n');

async function rejects(zip: Buffer, pattern: RegExp): Promise<void> {
  await assert.rejects(checkZip(zip), (e: unknown) => e instanceof ZipError && pattern.test(e.message));
}

describe('checkZip', () => {
  let zip: Buffer;
  let dir: string;
  before(async () => {
    zip = await makeZip(TEXT);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-zipcheck-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a whole ZIP passes, from a Buffer and from a file', async () => {
    await checkZip(zip);
    const file = path.join(dir, 'ok.zip');
    fs.writeFileSync(file, zip);
    await checkZip(file);
  });

  test('every cut-off length is caught', async () => {
    for (let length = 0; length < zip.length; length++) {
      await assert.rejects(checkZip(zip.subarray(0, length)), ZipError, `cut at ${length} of ${zip.length}`);
    }
  });

  test('every flipped byte of the compressed data, the CRC or the sizes is caught', async () => {
    const dataStart = 30 + zip.readUInt16LE(26) + zip.readUInt16LE(28);
    const centralAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    // The data descriptor (16 bytes) sits between the data and the central directory.
    const dataEnd = centralAt - 16;
    const positions = [...Array(dataEnd - 1 - dataStart).keys()].map((i) => dataStart + i);
    // Central directory: CRC-32 (16..19), compressed size (20..23), size (24..27).
    for (let i = 16; i < 28; i++) positions.push(centralAt + i);
    for (const at of positions) {
      const bad = Buffer.from(zip);
      bad[at] ^= 0xff;
      await assert.rejects(checkZip(bad), ZipError, `flip at ${at}`);
    }
  });

  test('a file that is not a ZIP, and a directory pointing past the data, are named as such', async () => {
    await rejects(Buffer.from('{"Errors":[]} and some more text to pass 22 bytes'), /no end record/);
    const bad = Buffer.from(zip);
    const eocd = bad.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    bad.writeUInt32LE(bad.readUInt32LE(eocd + 16) + 40, eocd + 16);
    await rejects(bad, /central directory lies beyond/);
    const file = path.join(dir, 'cut.zip');
    fs.writeFileSync(file, zip.subarray(0, zip.length - 30));
    await assert.rejects(checkZip(file), ZipError);
  });
});

describe('sandbox ZIP faults', () => {
  let sb: SandboxHandle;
  before(async () => {
    sb = await startTestSandbox({ registry: 300, seed: 3 });
  });
  after(() => sb.close());

  for (const fault of ['corruptZip', 'truncatedZip'] as const) {
    test(`${fault}: valid JSON and base64 around a damaged ZIP, set through the control endpoint`, async () => {
      const good = await api(sb, 'GET', '/general/GlobalCompany/PK/Invoice');
      await checkZip(Buffer.from(good.json as string, 'base64'));
      const set = await api(sb, 'POST', '/__sandbox/faults', { queue: [fault], match: { path: '^/general/GlobalCompany/PK/Invoice$' } });
      assert.equal(set.status, 200);
      const res = await api(sb, 'GET', '/general/GlobalCompany/PK/Invoice');
      assert.equal(res.status, 200);
      assert.equal(typeof res.json, 'string', 'the body is still one JSON string');
      const bytes = Buffer.from(res.json as string, 'base64');
      assert.equal(bytes.toString('base64'), res.json, 'the base64 is still canonical');
      await assert.rejects(checkZip(bytes), ZipError);
      if (fault === 'truncatedZip') assert.ok(bytes.length < Buffer.from(good.json as string, 'base64').length);
      else assert.equal(bytes.length, Buffer.from(good.json as string, 'base64').length);
      // One request used the queued fault; the next is whole again.
      await checkZip(Buffer.from((await api(sb, 'GET', '/general/GlobalCompany/PK/Invoice')).json as string, 'base64'));
    });
  }

  test('ZIP faults leave other routes alone', async () => {
    sb.setFaults({ queue: ['corruptZip'] });
    const res = await api(sb, 'GET', '/general/Company');
    assert.equal(res.status, 200);
    assert.match(String((res.json as { TaxNumber?: string }).TaxNumber), /^\d{10,11}$/);
    sb.clearFaults();
  });

  test('an unknown fault kind is still refused', async () => {
    const res = await api(sb, 'POST', '/__sandbox/faults', { queue: ['flipZip'] });
    assert.equal(res.status, 400);
  });
});
