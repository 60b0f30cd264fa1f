// The index build's growing arrays (src/registry/growable.ts): grown() keeps every value, and
// discard() gives an array's memory back at the next minor collection, but only for an array that is
// the whole of its own buffer: a slice of Buffer's shared pool or of a larger buffer must never be
// emptied under whoever else uses it.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { discard, grown } from '../../../src/registry/growable';

const PROBE = 'NILVERA_DISCARD_PROBE';

/**
 * Run in a child process with --expose-gc: an array old enough to be in the old generation, let go
 * with or without discard(), then one minor collection. Prints how much RSS that gave back, in MB.
 */
async function probe(mode: string): Promise<void> {
  const gc = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const before = await oldArrayLetGo(gc, mode === 'discard');
  gc({ type: 'minor' });
  // Young buffers are freed by a sweeper thread just after the collection.
  await new Promise((resolve) => setTimeout(resolve, 200));
  console.log(JSON.stringify({ freedMb: (before - process.memoryUsage.rss()) / 1048576 }));
}

/** 32 MB, every page touched, moved to the old generation (as the build's long-lived arrays are), then let go; the RSS before. */
async function oldArrayLetGo(gc: () => void, withDiscard: boolean): Promise<number> {
  const array = new Uint32Array(8 << 20).fill(7);
  gc();
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const before = process.memoryUsage.rss();
  if (withDiscard) discard(array);
  return before;
}

function freedAfterMinorCollection(mode: 'discard' | 'drop'): number {
  const r = spawnSync(process.execPath, ['--expose-gc', __filename], { env: { ...process.env, [PROBE]: mode }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout.trim().split('\n').pop() as string) as { freedMb: number }).freedMb;
}

if (process.env[PROBE]) {
  void probe(process.env[PROBE]);
} else {
  test('an old array that is discarded is freed by the next minor collection; one only let go is not', () => {
    const discarded = freedAfterMinorCollection('discard');
    const dropped = freedAfterMinorCollection('drop');
    assert.ok(discarded > 24, `discard(): ${discarded.toFixed(1)} MB of 32 MB given back`);
    assert.ok(dropped < 8, `only let go: ${dropped.toFixed(1)} MB given back (it waits for a full collection)`);
  });

  test('discard() empties an array that owns its whole buffer, and every view of that buffer', () => {
    const array = new Float64Array(1 << 14);
    const sameBuffer = new Uint8Array(array.buffer);
    discard(array);
    assert.equal(array.length, 0);
    assert.equal(array.buffer.byteLength, 0);
    assert.equal(sameBuffer.length, 0);
    const big = Buffer.allocUnsafe(1 << 20); // a buffer of its own, not from the pool
    discard(big);
    assert.equal(big.length, 0);
  });

  test('discard() leaves alone what it must not empty: pool slices, slices of larger buffers, small and shared arrays', () => {
    const pooled = Buffer.from('a Buffer from the shared pool');
    const neighbour = Buffer.from('its neighbour in the same pool');
    discard(pooled);
    assert.equal(pooled.toString(), 'a Buffer from the shared pool');
    assert.equal(neighbour.toString(), 'its neighbour in the same pool');

    const whole = new Uint32Array(1 << 16).fill(3);
    const head = whole.subarray(0, 1 << 15);
    discard(head);
    assert.equal(head.length, 1 << 15);
    assert.equal(whole[(1 << 16) - 1], 3);

    const small = new Uint32Array(100).fill(9);
    discard(small);
    assert.deepEqual([...small.subarray(0, 3)], [9, 9, 9]);

    const shared = new Int32Array(new SharedArrayBuffer(1 << 18));
    shared[5] = 5;
    discard(shared);
    assert.equal(shared[5], 5);
  });

  test('grown() keeps every value, zeroes the rest and discards the array it replaces', () => {
    const small = Uint16Array.from({ length: 50_000 }, (_, i) => i);
    const bigger = grown(small, 120_000);
    assert.equal(bigger.length, 120_000);
    for (let i = 0; i < 50_000; i++) assert.equal(bigger[i], i);
    assert.ok(bigger.subarray(50_000).every((v) => v === 0));
    assert.equal(small.length, 0, 'the old array is given back');
  });
}
