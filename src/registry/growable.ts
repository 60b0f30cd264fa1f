// Typed arrays that grow by copying: millions of numbers without a JS array's per-element overhead
// while the index is being built.

type NumberArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/** Arrays smaller than this are left to the collector (Buffer's pool slices are smaller still). */
const DISCARD_MIN_BYTES = 1 << 16;

/**
 * Gives an array's memory back at the next minor collection instead of the next full one. The index
 * build's large arrays live long enough to reach the old generation, and the threads that build an
 * index allocate little else, so an array replaced or no longer needed stayed in memory until a full
 * collection, which V8 starts only after external memory has grown by tens of MB.
 * Its buffer is transferred into a clone that nothing keeps, which dies young.
 *
 * Only for an array that views the whole of its own buffer, with no other view of that buffer still
 * in use: every view of it becomes empty. Anything else (a slice of a larger buffer such as Buffer's
 * pool, a small array, a buffer that cannot be transferred) is left as it is.
 */
export function discard(array: NumberArray): void {
  const buffer = array.buffer;
  if (!(buffer instanceof ArrayBuffer) || array.byteOffset !== 0 || array.byteLength !== buffer.byteLength || buffer.byteLength < DISCARD_MIN_BYTES) return;
  try {
    structuredClone(buffer, { transfer: [buffer] });
  } catch {
    // Not transferable (marked so by its owner): the collector frees it in its own time.
  }
}

function zeroedLike<T extends NumberArray>(array: T, length: number): T {
  return new (array.constructor as new (length: number) => T)(length);
}

/** A new zeroed array of `array`'s type, `length` long, in place of `array`, which is discarded (nothing else views it). */
export function replaced<T extends NumberArray>(array: T, length: number): T {
  const fresh = zeroedLike(array, length);
  discard(array);
  return fresh;
}

/** `array`'s contents in a new array `length` long (the elements past the old length are 0); `array` is discarded. */
export function grown<T extends NumberArray>(array: T, length: number): T {
  const bigger = zeroedLike(array, length);
  bigger.set(array);
  discard(array);
  return bigger;
}
