// The tax-number half of an index build (taxnums.z, taxnums.idx; format.ts). Keys come in list order;
// each slice of SORT_SLICE taxpayers is sorted as soon as it is full, while the list is still
// streaming in, and write() merges the slices straight into the file. Memory: 8 bytes a taxpayer,
// in slices of 65,536 (no array that doubles and copies), and nothing more for the merge: each
// taxpayer is one double that packs its key's rank among all possible keys with its place in the
// slice, so a slice sorts with the typed array's own numeric sort, equal keys in list order.
import * as path from 'node:path';
import { FileAppender, writeFloat64s } from './fileAppender';
import { FILES, RECORDS_PER_BLOCK, TAX_BLOCK } from './format';
import { discard } from './growable';
import { ByteWriter } from './varint';

/**
 * Taxpayers sorted at once (a few ms of the thread for a slice), and merged outputs between two
 * turns of the thread given back to the extension host.
 */
export const SORT_SLICE = 1 << 16;

/**
 * RANK_BASE[d]: how many keys have fewer than d digits. A key of d digits (taxNumberKey: d * 1e12 + n,
 * n < 10^d) has the rank RANK_BASE[d] + n; ranks keep the keys' order and stay below 1.12e11, so a
 * rank times SORT_SLICE plus a place in the slice is below 2^53: exact in a double.
 */
const POW10: readonly number[] = Array.from({ length: 12 }, (_, d) => 10 ** d);
const RANK_BASE: readonly number[] = POW10.reduce((base, p, d) => (d === 0 ? base : [...base, base[d] + p]), [0, 0]);

/** The rank of a well-formed key (taxNumberKey of 1 to 11 digits). */
function rankOf(key: number): number {
  const digits = Math.floor(key / 1e12);
  return RANK_BASE[digits] + (key - digits * 1e12);
}

/** The key of a rank (rankOf's inverse). */
function keyOf(rank: number): number {
  let digits = 1;
  while (digits < 11 && rank >= RANK_BASE[digits + 1]) digits++;
  return digits * 1e12 + (rank - RANK_BASE[digits]);
}

/** Whether `key` is what taxNumberKey gives for 1 to 11 digits. */
function wellFormed(key: number): boolean {
  if (!Number.isInteger(key)) return false;
  const digits = Math.floor(key / 1e12);
  return digits >= 1 && digits <= 11 && key - digits * 1e12 < POW10[digits];
}

/** A sorted slice: rank * SORT_SLICE + place, ascending; `first` is the ordinal of place 0. */
interface SortedSlice {
  readonly packed: Float64Array;
  readonly first: number;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class TaxNumberTable {
  private pending = new Float64Array(SORT_SLICE);
  private pendingCount = 0;
  private count = 0;
  /** The ordinal of the pending slice's first taxpayer. */
  private sliceFirst = 0;
  private readonly slices: SortedSlice[] = [];

  /**
   * The next taxpayer's key (taxNumberKey). Anything else (NaN for a malformed number) only
   * takes its ordinal: it is not in the table.
   */
  add(key: number): void {
    const place = this.count++ - this.sliceFirst;
    if (wellFormed(key)) this.pending[this.pendingCount++] = rankOf(key) * SORT_SLICE + place;
    if (place + 1 === SORT_SLICE) this.sortPending();
  }

  /**
   * The (key, ordinal) pairs in the table's order: by key, equal keys by ordinal (list order, so the
   * first entry of a duplicate wins). Call once, after the last add().
   */
  sorted(): SliceMerge {
    if (this.count > this.sliceFirst) this.sortPending();
    return new SliceMerge(this.slices);
  }

  /** Writes taxnums.z and taxnums.idx into `folder`: the table's last use (its memory is given back). */
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
    // 8 bytes a taxpayer (12 MB for 1.5 M), given back now rather than at the thread's next full collection.
    for (const slice of this.slices) discard(slice.packed);
    discard(this.pending);
  }

  private sortPending(): void {
    // Without a comparator: the engine's own numeric sort of the doubles, in place on the copy.
    this.slices.push({ packed: this.pending.slice(0, this.pendingCount).sort(), first: this.sliceFirst });
    this.pendingCount = 0;
    this.sliceFirst = this.count;
  }
}

/** The sorted slices merged: next() moves to the next pair, in key then ordinal order. */
export class SliceMerge {
  key = Number.NaN;
  ordinal = -1;
  private readonly heads: Uint32Array;
  /** A binary heap of the slices not yet used up, ordered by the rank at each one's head, then slice order. */
  private readonly heap: number[];

  constructor(private readonly slices: readonly SortedSlice[]) {
    this.heads = new Uint32Array(slices.length);
    this.heap = slices.map((_, i) => i).filter((i) => slices[i].packed.length > 0);
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  next(): boolean {
    const heap = this.heap;
    if (heap.length === 0) return false;
    const s = heap[0];
    const slice = this.slices[s];
    const h = this.heads[s]++;
    const packed = slice.packed[h];
    const rank = Math.floor(packed / SORT_SLICE);
    this.key = keyOf(rank);
    this.ordinal = slice.first + (packed - rank * SORT_SLICE);
    if (h + 1 === slice.packed.length) {
      heap[0] = heap[heap.length - 1];
      heap.pop();
    }
    if (heap.length > 1) this.down(0);
    return true;
  }

  /** Slice x's head before slice y's: a lower rank, or the same rank in an earlier slice (list order). */
  private before(x: number, y: number): boolean {
    const rx = Math.floor(this.slices[x].packed[this.heads[x]] / SORT_SLICE);
    const ry = Math.floor(this.slices[y].packed[this.heads[y]] / SORT_SLICE);
    return rx < ry || (rx === ry && x < y);
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
