// The index build's growing arrays (src/registry/growable.ts): grown() keeps every value.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { grown, GrowableFloat64 } from '../../../src/registry/growable';

test('grown() keeps every value and zeroes the rest; GrowableFloat64 keeps every value pushed', () => {
  const small = Uint16Array.from({ length: 50_000 }, (_, i) => i);
  const bigger = grown(small, 120_000);
  assert.equal(bigger.length, 120_000);
  for (let i = 0; i < 50_000; i++) assert.equal(bigger[i], i);
  assert.ok(bigger.subarray(50_000).every((v) => v === 0));

  const values = new GrowableFloat64(4);
  for (let i = 0; i < 100_000; i++) values.push(i * 1.5);
  assert.equal(values.length, 100_000);
  assert.deepEqual([...values.view().subarray(99_998)], [99_998 * 1.5, 99_999 * 1.5]);
});
