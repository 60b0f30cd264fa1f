// The sandbox's ZIP of one entry (streaming, src/domain/zip.ts) and its aligned base64 encoder: the extension's own
// ZIP reader (src/domain/zip.ts) reads the entry back byte for byte with odd chunk sizes, an empty
// entry and a non-ASCII entry name; the ZIP comes out while its entry is still being read.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import { ZipArchive, zipOfOneEntry } from '../../../src/domain/zip';
import { Base64Encoder } from '../../../src/sandbox/registryDownload';
import { Prng } from '../../../src/sandbox/seed/prng';

/** Text-like data (compressible) cut into chunks of random sizes, some of them tiny. */
function chunked(total: number, seed: number): { data: Buffer; chunks: Buffer[] } {
  const rng = new Prng(seed);
  const words = ['<User>', 'Şirket', ' & ', 'ğüşıöç', '2026-01-01T00:00:00', '\n', 'urn:mail:defaultpk@'];
  const pieces: Buffer[] = [];
  for (let bytes = 0; bytes < total; ) {
    const piece = Buffer.from(rng.pick(words) + rng.digits(rng.int(0, 4)));
    pieces.push(piece);
    bytes += piece.length;
  }
  const data = Buffer.concat(pieces);
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; ) {
    const n = rng.chance(0.3) ? rng.int(1, 4) : rng.int(5, 70_000);
    chunks.push(data.subarray(at, at + n));
    at += n;
  }
  return { data, chunks };
}

/** Runs chunks through the ZIP writer and the base64 encoder; returns the JSON text produced. */
async function zipToJsonString(name: string, chunks: Buffer[]): Promise<string> {
  const pieces: string[] = [];
  await pipeline(
    zipOfOneEntry(name, Readable.from(chunks), 1, new Date(2026, 0, 2, 3, 4, 6)),
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

/** The one entry of a ZIP as its directory describes it, and its content as the reader inflates it. */
async function readBack(zip: Buffer): Promise<{ name: string; crc32: number; size: number; content: Buffer }> {
  const archive = await ZipArchive.open(zip);
  try {
    assert.equal(archive.entries.length, 1);
    const [entry] = archive.entries;
    await archive.check(entry);
    const parts: Buffer[] = [];
    for await (const c of await archive.open(entry)) parts.push(c as Buffer);
    return { name: entry.name, crc32: entry.crc32, size: entry.size, content: Buffer.concat(parts) };
  } finally {
    await archive.close();
  }
}

describe('sandbox ZIP writer', () => {
  for (const [label, size, seed] of [['small', 10_000, 1], ['1 MB in odd chunks', 1_000_000, 2]] as const) {
    test(`${label}: the reader gets the entry back byte for byte; CRC and sizes are right`, async () => {
      const { data, chunks } = chunked(size, seed);
      const json = await zipToJsonString('KullaniciListesi_PK_Invoice_20260102.xml', chunks);
      const base64 = JSON.parse(json) as string;
      assert.match(base64, /^[A-Za-z0-9+/]*={0,2}$/);
      const entry = await readBack(Buffer.from(base64, 'base64'));
      assert.equal(entry.name, 'KullaniciListesi_PK_Invoice_20260102.xml');
      assert.ok(entry.content.equals(data));
      assert.equal(entry.crc32, zlib.crc32(data));
      assert.equal(entry.size, data.length);
    });
  }

  test('an empty entry and a Turkish entry name', async () => {
    const json = await zipToJsonString('Mükellef_Listesi_ş.xml', []);
    const entry = await readBack(Buffer.from(JSON.parse(json) as string, 'base64'));
    assert.equal(entry.name, 'Mükellef_Listesi_ş.xml');
    assert.equal(entry.content.length, 0);
  });

  test('the ZIP streams: its first bytes come out before the entry has been read to the end', async () => {
    // 64 pieces of 256 KiB that do not compress: the deflated data is about as large as the entry.
    const total = 64;
    const rng = new Prng(4);
    let pulled = 0;
    const source = Readable.from((function* () {
      for (; pulled < total; pulled++) yield Buffer.from(Array.from({ length: 256 * 1024 }, () => rng.int(0, 255)));
    })());
    let written = 0;
    let pulledAtOneMegabyte = -1;
    await pipeline(
      zipOfOneEntry('big.xml', source, 1),
      new Writable({
        write(c: Buffer, _e, cb) {
          written += c.length;
          if (written >= 1 << 20 && pulledAtOneMegabyte < 0) pulledAtOneMegabyte = pulled;
          cb();
        },
      }),
    );
    assert.equal(pulled, total);
    assert.ok(pulledAtOneMegabyte > 0 && pulledAtOneMegabyte < total / 2, `1 MB of ZIP came out after ${pulledAtOneMegabyte} of ${total} pieces were read`);
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
