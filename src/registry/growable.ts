// Append-only typed arrays that double their capacity: millions of numbers without a JS array's
// per-element overhead while the index is being built.

export class GrowableFloat64 {
  private data: Float64Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Float64Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
  get(i: number): number {
    return this.data[i];
  }
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

export class GrowableUint32 {
  private data: Uint32Array;
  length = 0;
  constructor(capacity = 4) {
    this.data = new Uint32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
  last(): number | undefined {
    return this.length > 0 ? this.data[this.length - 1] : undefined;
  }
  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}
