// The one CRC-32 both ZIP readers use: the check value of the standard, chunked equals whole, and the
// portable table version equals zlib's on this Node.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { crc32, crc32Portable } from '../../../src/domain/crc32';

test('crc32: standard check value, chunking, and the portable version agree', () => {
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  assert.equal(crc32Portable(Buffer.from('123456789'), 0), 0xcbf43926);
  const data = randomBytes(100_003);
  const whole = crc32(data);
  let chunked = 0;
  for (let i = 0; i < data.length; i += 4096) chunked = crc32(data.subarray(i, i + 4096), chunked);
  assert.equal(chunked, whole);
  assert.equal(crc32Portable(data, 0), whole);
  assert.equal(crc32(Buffer.alloc(0)), 0);
});
