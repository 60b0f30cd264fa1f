import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatByteSize } from '../../../src/domain/byteSize';

const KB = 1024;
const MB = 1024 * KB;

test('sizes in binary units as Windows Explorer and VS Code write them; limits whole', () => {
  const sizes = [0, 512, 1023, 1024, 1536, 68.3 * KB, 64 * MB, 1024 * MB, 1.25 * 1024 * MB];
  assert.deepEqual(sizes.map((n) => formatByteSize(n)), ['0 B', '512 B', '1,023 B', '1 KB', '1.5 KB', '68.3 KB', '64 MB', '1 GB', '1.3 GB']);
});

test('the decimal mark and grouping are the locale\'s', () => {
  assert.deepEqual([1536, 1023, 68.3 * MB].map((n) => formatByteSize(n, 'tr')), ['1,5 KB', '1.023 B', '68,3 MB']);
});

test('one byte over a limit does not read as the limit', () => {
  assert.deepEqual([64 * MB + 1, 64 * MB].map((n) => formatByteSize(n)), ['64.0 MB', '64 MB']);
});

test('a value that would round up to 1,024 of a unit is written as the next unit', () => {
  assert.deepEqual([MB - 10, MB - 60].map((n) => formatByteSize(n)), ['1.0 MB', '1,023.9 KB']);
});
