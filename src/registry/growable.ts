// Typed arrays that grow by copying: millions of numbers without a JS array's per-element overhead
// while the index is being built.

type NumberArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/** Arrays smaller than this are left to the collector (Buffer's pool slices are smaller still). */
const DISCARD_MIN_BYTES = 1 << 16;

/**
 * Gives an array's memory back at the next minor collection (its buffer transferred into a clone that
 * nothing keeps) instead of the next full one: the index build's large arrays reach the old generation,
 * and with little else allocated V8 starts a full collection only after tens of MB more. Only for an
 * array that views the whole of its own buffer, no other view of it still in use (every view becomes
 * empty); a slice of a larger buffer, a small array or an untransferable buffer is left as it is.
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
