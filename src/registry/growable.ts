// Typed arrays that grow by copying: millions of numbers without a JS array's per-element overhead
// while the index is being built.

type NumberArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/** `array`'s contents in a new array `length` long (the elements past the old length are 0). */
export function grown<T extends NumberArray>(array: T, length: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(length);
  bigger.set(array);
  return bigger;
}

/** An append-only Float64Array that doubles its capacity. */
export class GrowableFloat64 {
  private data: Float64Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Float64Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) this.data = grown(this.data, this.data.length * 2);
    this.data[this.length++] = value;
  }
  /** The values so far (a view: valid until the next push). */
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}
