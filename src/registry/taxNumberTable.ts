// The tax-number half of an index build (taxnums.z, taxnums.idx; format.ts). Keys come in list order;
// each slice of SORT_SLICE taxpayers is sorted as soon as it is full, while the list is still
// streaming in, and write() merges the slices straight into the file. Memory: 12 bytes a taxpayer
// in slices of 65,536 (no array that doubles and copies), and nothing more for the merge. Before,
// the keys were one growing array sorted at the end: 8 + 8 bytes a taxpayer at the end (plus a
// transient copy at each doubling), and the slices' sort was part of the wait after the download.
import * as path from 'node:path';
import { FileAppender, writeFloat64s } from './fileAppender';
import { FILES, RECORDS_PER_BLOCK, TAX_BLOCK } from './format';
import { ByteWriter } from './varint';

/**
 * Taxpayers sorted at once (about 20 ms of the thread for a slice), and merged outputs between two
 * turns of the thread given back to the extension host.
 */
export const SORT_SLICE = 1 << 16;

interface SortedSlice {
  readonly keys: Float64Array;
  readonly ordinals: Uint32Array;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class TaxNumberTable {
  private pending = new Float64Array(SORT_SLICE);
  private pendingCount = 0;
  private count = 0;
  private readonly slices: SortedSlice[] = [];

  /** The next taxpayer's key (taxNumberKey; +Infinity for a malformed number: sorted last, not written). */
  add(key: number): void {
    this.pending[this.pendingCount++] = key;
    this.count++;
    if (this.pendingCount === SORT_SLICE) this.sortPending();
  }

  /**
   * The (key, ordinal) pairs in the table's order: by key, equal keys by ordinal (list order, so the
   * first entry of a duplicate wins). Call once, after the last add().
   */
  sorted(): SliceMerge {
    if (this.pendingCount > 0) this.sortPending();
    return new SliceMerge(this.slices);
  }

  /** Writes taxnums.z and taxnums.idx into `folder`. */
  async write(folder: string): Promise<void> {
    const merged = this.sorted();
    const out = await FileAppender.create(path.join(folder, FILES.taxNumbers));
    const firstKeys: number[] = [];
    const offsets: number[] = [];
    const w = new ByteWriter();
    let n = 0;
    let taken = 0;
    let previous = Number.NaN;
    while (merged.next()) {
      if (++taken % SORT_SLICE === 0) await nextTurn();
      const key = merged.key;
      if (key === Number.POSITIVE_INFINITY) break; // only malformed numbers from here on
      if (key === previous) continue;
      if (n % TAX_BLOCK === 0) {
        await out.append(w.view());
        w.reset();
        firstKeys.push(key);
        offsets.push(out.offset);
        w.uvarint(0);
      } else {
        w.uvarint(key - previous);
      }
      w.uvarint(Math.floor(merged.ordinal / RECORDS_PER_BLOCK));
      previous = key;
      n++;
    }
    await out.append(w.view());
    offsets.push(out.offset);
    await out.close();
    await writeFloat64s(path.join(folder, FILES.taxIndex), Float64Array.from([...firstKeys, ...offsets]));
  }

  private sortPending(): void {
    const n = this.pendingCount;
    const first = this.count - n;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    sortByKey(order, this.pending.subarray(0, n));
    const keys = new Float64Array(n);
    const ordinals = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      keys[i] = this.pending[order[i]];
      ordinals[i] = first + order[i];
    }
    this.slices.push({ keys, ordinals });
    this.pendingCount = 0;
  }
}

/** The sorted slices merged: next() moves to the next pair, in key then ordinal order. */
export class SliceMerge {
  key = Number.NaN;
  ordinal = -1;
  private readonly heads: Uint32Array;
  /** A binary heap of the slices not yet used up, ordered by the pair each one's head holds. */
  private readonly heap: number[];

  constructor(private readonly slices: readonly SortedSlice[]) {
    this.heads = new Uint32Array(slices.length);
    this.heap = slices.map((_, i) => i).filter((i) => slices[i].keys.length > 0);
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  next(): boolean {
    const heap = this.heap;
    if (heap.length === 0) return false;
    const s = heap[0];
    const slice = this.slices[s];
    const h = this.heads[s]++;
    this.key = slice.keys[h];
    this.ordinal = slice.ordinals[h];
    if (h + 1 === slice.keys.length) {
      heap[0] = heap[heap.length - 1];
      heap.pop();
    }
    if (heap.length > 1) this.down(0);
    return true;
  }

  private before(x: number, y: number): boolean {
    const kx = this.slices[x].keys[this.heads[x]];
    const ky = this.slices[y].keys[this.heads[y]];
    return kx < ky || (kx === ky && this.slices[x].ordinals[this.heads[x]] < this.slices[y].ordinals[this.heads[y]]);
  }

  private down(i: number): void {
    const heap = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && this.before(heap[l], heap[m])) m = l;
      if (r < heap.length && this.before(heap[r], heap[m])) m = r;
      if (m === i) return;
      const t = heap[i];
      heap[i] = heap[m];
      heap[m] = t;
      i = m;
    }
  }
}

/** The order of the tax-number table: by key, equal keys by ordinal (list order). */
function keyThenOrdinal(keys: Float64Array): (a: number, b: number) => boolean {
  return (a, b) => keys[a] < keys[b] || (keys[a] === keys[b] && a < b);
}


/**
 * Sorts record ordinals by their keys (ties by ordinal) in place. Hand-written: a comparator sort of
 * a typed array copies it into the JS heap twice over, tens of MB for a full list.
 */
export function sortByKey(order: Uint32Array, keys: Float64Array): void {
  const less = keyThenOrdinal(keys);
  const stack: number[] = [0, order.length - 1];
  while (stack.length > 0) {
    const hi = stack.pop() as number;
    const lo = stack.pop() as number;
    if (hi - lo < 16) {
      for (let i = lo + 1; i <= hi; i++) {
        const v = order[i];
        let j = i - 1;
        while (j >= lo && less(v, order[j])) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = v;
      }
      continue;
    }
    // Median of three as the pivot, then Hoare partitioning.
    const mid = (lo + hi) >>> 1;
    if (less(order[mid], order[lo])) swap(order, mid, lo);
    if (less(order[hi], order[lo])) swap(order, hi, lo);
    if (less(order[hi], order[mid])) swap(order, hi, mid);
    const pivot = order[mid];
    let i = lo - 1;
    let j = hi + 1;
    for (;;) {
      do i++;
      while (less(order[i], pivot));
      do j--;
      while (less(pivot, order[j]));
      if (i >= j) break;
      swap(order, i, j);
    }
    // The smaller side first keeps the stack short.
    if (j - lo < hi - j - 1) stack.push(j + 1, hi, lo, j);
    else stack.push(lo, j, j + 1, hi);
  }
}

function swap(a: Uint32Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

