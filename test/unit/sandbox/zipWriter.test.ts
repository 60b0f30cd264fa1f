// The streaming ZIP writer and the aligned base64 encoder, checked against jszip and zlib with
// odd chunk sizes, an empty entry and a non-ASCII entry name.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import type JSZipType from 'jszip';
import { Base64Encoder, zipEntryStages } from '../../../src/sandbox/zipWriter';
import { Prng } from '../../../src/sandbox/seed/prng';

async function loadJsZip(): Promise<typeof JSZipType> {
  let mod = (await import('jszip')) as unknown as { default?: unknown; loadAsync?: unknown };
  while (typeof mod.loadAsync !== 'function' && mod.default) mod = mod.default as typeof mod;
  return mod as unknown as typeof JSZipType;
}

/** Text-like data (compressible) cut into chunks of random sizes, some of them tiny. */
function chunked(total: number, seed: number): { data: Buffer; chunks: Buffer[] } {
  const rng = new Prng(seed);
  const words = ['<User>', 'Şirket', ' & ', 'ğüşıöç', '2026-01-01T00:00:00', '\n', 'urn:mail:defaultpk@'];
  let text = '';
  while (Buffer.byteLength(text) < total) text += rng.pick(words) + rng.digits(rng.int(0, 4));
  const data = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; ) {
    const n = rng.chance(0.3) ? rng.int(1, 4) : rng.int(5, 70_000);
    chunks.push(data.subarray(at, at + n));
    at += n;
  }
  return { data, chunks };
}

/** Runs chunks through the ZIP stages and the base64 encoder; returns the JSON text produced. */
async function zipToJsonString(name: string, chunks: Buffer[]): Promise<string> {
  const [counter, deflate, framer] = zipEntryStages(name, new Date(2026, 0, 2, 3, 4, 6));
  const pieces: string[] = [];
  await pipeline(
    Readable.from(chunks),
    counter,
    deflate,
    framer,
    new Base64Encoder('"', '"'),
    new Writable({
      write(c: Buffer, _e, cb) {
        pieces.push(c.toString('latin1'));
        cb();
      },
    }),
  );
  // Between the opening quote and the last piece, every piece is whole base64 quads (3-byte aligned).
  assert.equal(pieces[0], '"');
  for (const p of pieces.slice(1, -1)) assert.equal(p.length % 4, 0);
  return pieces.join('');
}

describe('streaming ZIP writer', () => {
  for (const [label, size, seed] of [['small', 10_000, 1], ['1 MB in odd chunks', 1_000_000, 2]] as const) {
    test(`${label}: jszip reads the entry back byte for byte; CRC and sizes are right`, async () => {
      const { data, chunks } = chunked(size, seed);
      const json = await zipToJsonString('KullaniciListesi_PK_Invoice_20260102.xml', chunks);
      const base64 = JSON.parse(json) as string;
      assert.match(base64, /^[A-Za-z0-9+/]*={0,2}$/);
      const zip = Buffer.from(base64, 'base64');
      const JSZip = await loadJsZip();
      const opened = await JSZip.loadAsync(zip, { checkCRC32: true });
      const entry = opened.file('KullaniciListesi_PK_Invoice_20260102.xml')!;
      assert.ok(entry);
      assert.ok((await entry.async('nodebuffer')).equals(data));
      // Descriptor (after the data): signature, CRC-32, compressed size, uncompressed size.
      const eocd = zip.length - 22;
      const centralOffset = zip.readUInt32LE(eocd + 16);
      const descriptor = centralOffset - 16;
      assert.equal(zip.readUInt32LE(descriptor), 0x08074b50);
      assert.equal(zip.readUInt32LE(descriptor + 4), zlib.crc32(data));
      assert.equal(zip.readUInt32LE(descriptor + 12), data.length);
      const nameLength = zip.readUInt16LE(26);
      const compressed = zip.subarray(30 + nameLength, descriptor);
      assert.equal(zip.readUInt32LE(descriptor + 8), compressed.length);
      assert.ok(zlib.inflateRawSync(compressed).equals(data));
    });
  }

  test('an empty entry and a Turkish entry name', async () => {
    const json = await zipToJsonString('Mükellef_Listesi_ş.xml', []);
    const JSZip = await loadJsZip();
    const opened = await JSZip.loadAsync(Buffer.from(JSON.parse(json) as string, 'base64'));
    assert.deepEqual(Object.keys(opened.files), ['Mükellef_Listesi_ş.xml']);
    assert.equal(await opened.files['Mükellef_Listesi_ş.xml'].async('string'), '');
  });
});

describe('base64 encoder', () => {
  test('any chunking gives the same text as encoding the whole buffer at once', async () => {
    const rng = new Prng(9);
    const data = Buffer.from(Array.from({ length: 5000 }, () => rng.int(0, 255)));
    for (let trial = 0; trial < 20; trial++) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < data.length; ) {
        const n = rng.int(1, 300);
        chunks.push(data.subarray(at, at + n));
        at += n;
      }
      let out = '';
      await pipeline(Readable.from(chunks), new Base64Encoder(), new Writable({ write(c: Buffer, _e, cb) { out += c.toString(); cb(); } }));
      assert.equal(out, data.toString('base64'));
    }
  });
});
