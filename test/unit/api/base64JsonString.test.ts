import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Base64BodyError, Base64JsonStringDecoder } from '../../../src/api/base64JsonString';

/** Decodes `body` fed as the given pieces; throws what the decoder throws. */
function decodePieces(pieces: Buffer[]): Buffer {
  const d = new Base64JsonStringDecoder();
  const out: Buffer[] = [];
  for (const p of pieces) out.push(d.push(p));
  out.push(d.end());
  return Buffer.concat(out);
}

/** Every split of `body` into two pieces, plus one byte at a time, plus three pieces around the middle. */
function* splits(body: Buffer): Generator<Buffer[]> {
  for (let i = 0; i <= body.length; i++) yield [body.subarray(0, i), body.subarray(i)];
  yield [...body].map((b) => Buffer.from([b]));
  for (let i = 0; i <= body.length; i++) {
    for (let j = i; j <= Math.min(body.length, i + 5); j++) yield [body.subarray(0, i), body.subarray(i, j), body.subarray(j)];
  }
}

test('decodes a JSON base64 string identically at every chunk boundary, for every padding length', () => {
  for (const size of [0, 1, 2, 3, 4, 5, 6, 31, 32, 33, 100]) {
    const bytes = randomBytes(size);
    const body = Buffer.from(JSON.stringify(bytes.toString('base64')));
    for (const pieces of splits(body)) {
      assert.deepEqual(decodePieces(pieces), bytes, `size ${size}, pieces ${pieces.map((p) => p.length).join('+')}`);
    }
  }
});

test('accepts the JSON escapes serializers write for base64 characters, split anywhere', () => {
  // Bytes whose base64 is full of '+' and '/': 0xfb 0xef 0xbe -> "++++", 0xff 0xff 0xff -> "////".
  const bytes = Buffer.from([0xfb, 0xef, 0xbe, 0xff, 0xff, 0xff, 0x01]);
  const b64 = bytes.toString('base64');
  assert.match(b64, /\+/);
  assert.match(b64, /\//);
  // System.Text.Json style (+ as \u002B), lower-case hex, and an escaped solidus; padding as \u003D.
  const escaped = b64.replace(/\+/g, '\\u002B').replace(/\//g, (_m, i: number) => (i % 2 ? '\\/' : '\\u002f')).replace(/=/g, '\\u003D');
  const body = Buffer.from(` \r\n"${escaped}"\n `);
  for (const pieces of splits(body)) assert.deepEqual(decodePieces(pieces), bytes);
});

test('accepts an unpadded tail of 2 or 3 characters', () => {
  assert.deepEqual(decodePieces([Buffer.from('"QUJD"')]), Buffer.from('ABC'));
  assert.deepEqual(decodePieces([Buffer.from('"QUI"')]), Buffer.from('AB'));
  assert.deepEqual(decodePieces([Buffer.from('"QQ"')]), Buffer.from('A'));
});

test('rejects bodies that are not one complete JSON string of base64, at every chunk boundary', () => {
  const bad: Array<[string, RegExp]> = [
    ['', /empty or not a JSON string/],
    ['   ', /empty or not a JSON string/],
    ['{"Errors":[]}', /not a JSON string/],
    ['123', /not a JSON string/],
    ['"QUJD', /truncated/],
    ['"QUJDRA==', /truncated/],
    ['"QUJD"x', /after the JSON string/],
    ['"QUJD""', /after the JSON string/],
    ['"QU*D"', /invalid base64 character 0x2a/],
    ['"QU JD"', /invalid base64 character 0x20/],
    ['"QUJD\\nRA=="', /unexpected escape/],
    ['"QUJD\\u0041RA=="', /impossible length/], // \u0041 is "A": a valid character, but it leaves one stray '='
    ['"QQ==QUJD"', /after padding/],
    ['"QUJDR"', /impossible length/],
    ['"QUJDR==="', /too much base64 padding/],
    ['"QUJDRA="', /incomplete/],
    ['"QUJD\\u00e9"', /unexpected escape/],
  ];
  for (const [text, reason] of bad) {
    const body = Buffer.from(text);
    for (const pieces of splits(body)) {
      assert.throws(() => decodePieces(pieces), (e: unknown) => e instanceof Base64BodyError && reason.test(e.message), `${JSON.stringify(text)} split ${pieces.map((p) => p.length).join('+')}`);
    }
  }
});

test('an error names the byte where it is, also after long runs of base64 split anywhere', () => {
  const run = 'QUJD'.repeat(300);
  for (const [text, at] of [[`"${run}*"`, 1201], [`"${run}\\nQQ"`, 1202], [` "${run}QQ==QUJD"`, 1206]] as const) {
    const body = Buffer.from(text);
    for (const size of [1, 7, 64, 1000, body.length]) {
      const pieces: Buffer[] = [];
      for (let i = 0; i < body.length; i += size) pieces.push(body.subarray(i, i + size));
      assert.throws(() => decodePieces(pieces), (e: unknown) => e instanceof Base64BodyError && e.message.endsWith(` at byte ${at}`), `${text.slice(-8)} in pieces of ${size}`);
    }
  }
});

test('yields bytes as the body arrives, holding back less than one 4-character group', () => {
  const bytes = randomBytes(30_000);
  const body = Buffer.from(JSON.stringify(bytes.toString('base64')));
  for (const k of [1, 2, 5, 1001, 20_002, 39_999]) {
    const d = new Base64JsonStringDecoder();
    const first = d.push(body.subarray(0, k));
    const charsIn = k - 1; // after the opening quote
    assert.equal(first.length, Math.floor(charsIn / 4) * 3, `after ${k} body bytes`);
    assert.deepEqual(Buffer.concat([first, d.push(body.subarray(k)), d.end()]), bytes);
  }
});
