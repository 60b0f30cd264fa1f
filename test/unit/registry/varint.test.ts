// The index's byte writer (src/registry/varint.ts): varints read back as written, and its UTF-8 encoder
// writes exactly what Buffer.from writes (the dictionary's words are encoded with it).
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { ByteReader, ByteWriter } from '../../../src/registry/varint';

test('varints read back as written, up to 2^53', () => {
  const values = [0, 1, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 32 + 5, 99_999_999_999, Number.MAX_SAFE_INTEGER];
  const w = new ByteWriter(4);
  for (const v of values) w.uvarint(v);
  const r = new ByteReader(w.view());
  assert.deepEqual(values.map(() => r.uvarint()), values);
  assert.equal(r.pos, w.length);
});

test('utf8() writes the byte length and the bytes Buffer.from gives, lone surrogates and astral letters included', () => {
  let seed = 20261125;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  const pieces = ['a', 'ş', 'İ', 'ı', '€', '\u{1d4d0}', '\ud800', '\udc00', '\u07ff', '\u0800', '\uffff', '0'];
  const w = new ByteWriter(8);
  const expected: Buffer[] = [];
  for (let k = 0; k < 5_000; k++) {
    let s = '';
    const length = Math.floor(next() * 60);
    for (let i = 0; i < length; i++) s += next() < 0.5 ? pieces[Math.floor(next() * pieces.length)] : String.fromCharCode(Math.floor(next() * 0x10000));
    const from = Math.floor(next() * (s.length + 1));
    w.utf8(s, from);
    const bytes = Buffer.from(s.slice(from), 'utf8');
    const length8 = new ByteWriter(8);
    length8.uvarint(bytes.length);
    expected.push(length8.view(), bytes);
  }
  assert.ok(w.view().equals(Buffer.concat(expected)));
});
