// Builds the offline registry index (format.ts) from a downloaded registry ZIP in one streaming pass
// with bounded memory. The index is built in a temporary folder and swapped in by a rename.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Taxpayer } from '../domain/registryXml';
import { FileAppender, writeFloat64s } from './fileAppender';
import { CURRENT_POINTER, encodeRecord, FILES, INDEX_FORMAT, RECORDS_PER_BLOCK, TAX_BLOCK, taxNumberKey, type IndexMeta } from './format';
import { GrowableFloat64 } from './growable';
import { openIndexSink, type IndexSink } from './indexSink';
import { RUN_PAIRS } from './titleWords';
import { ByteWriter } from './varint';


export interface IndexSource {
  aliasType: string;
  userType: string;
  zipBytes: number;
  downloadedAt?: Date;
  /** The list ZIP, recorded so an index of an older format can be rebuilt from it. */
  zipPath?: string;
}

export interface BuildOptions {
  signal?: AbortSignal;
  /** Called every few thousand taxpayers with the count so far. */
  onProgress?: (taxpayers: number) => void;
  /** (word, taxpayer) pairs held in memory before a sorted run goes to disk (tests use few). */
  wordPairsInMemory?: number;
  /** false: the records and title words written in this thread, not a worker thread (tests compare the two). */
  inWorker?: boolean;
}

export class IndexBuildCancelledError extends Error {
  constructor() {
    super('The registry index build was cancelled');
    this.name = 'IndexBuildCancelledError';
  }
}

/**
 * Writes the index in one streaming pass. The tax-number keys (8 bytes a taxpayer) stay in memory to
 * be sorted at the end; each taxpayer's record and title go to the index sink (indexSink.ts: a worker
 * thread), which writes the record blocks, the word dictionary and the postings.
 */
export class IndexBuilder {
  private keys = new GrowableFloat64(1 << 16);
  private count = 0;

  private constructor(
    readonly folder: string,
    private readonly sink: IndexSink,
  ) {}

  static async create(folder: string, options: Pick<BuildOptions, 'wordPairsInMemory' | 'inWorker'> = {}): Promise<IndexBuilder> {
    await fs.promises.mkdir(folder, { recursive: true });
    return new IndexBuilder(folder, await openIndexSink(folder, options.wordPairsInMemory ?? RUN_PAIRS, { worker: options.inWorker }));
  }

  get taxpayers(): number {
    return this.count;
  }

  /** Where the records and title words are written (a worker thread unless none can start). */
  get writtenIn(): 'worker' | 'thread' {
    return this.sink.where;
  }

  /**
   * Adds one taxpayer. Returns a promise only when the sink makes the caller wait (a block or a run
   * went to disk in this thread, or the worker is too far behind): awaiting every call cost a promise
   * and a microtask hop per taxpayer.
   */
  add(t: Taxpayer): Promise<void> | undefined {
    const ordinal = this.count++;
    // A malformed number (no key: NaN) sorts last and is left out of the table; NaN itself would
    // make the sort's comparison inconsistent and could leave valid keys out of order.
    const key = taxNumberKey(t.Identifier);
    this.keys.push(Number.isNaN(key) ? Number.POSITIVE_INFINITY : key);
    return this.sink.add(encodeRecord(t), t.Title, ordinal);
  }

  /** Writes the lookup files and meta.json; the folder is then a complete index. */
  async finish(source: IndexSource): Promise<IndexMeta> {
    // The records and word files are finished (in the worker) while the tax numbers are sorted and written here.
    const written = this.sink.finish();
    written.catch(() => undefined); // awaited below; a failure meanwhile is not "unhandled"
    await this.writeTaxNumbers();
    this.keys = new GrowableFloat64(1);
    const words = await written;
    const files: Record<string, number> = {};
    for (const name of Object.values(FILES)) if (name !== FILES.meta) files[name] = (await fs.promises.stat(path.join(this.folder, name))).size;
    const meta: IndexMeta = {
      format: INDEX_FORMAT,
      aliasType: source.aliasType,
      userType: source.userType,
      downloadedAt: (source.downloadedAt ?? new Date()).toISOString(),
      taxpayers: this.count,
      zipBytes: source.zipBytes,
      words,
      ...(source.zipPath ? { zipPath: source.zipPath } : {}),
      files,
    };
    await fs.promises.writeFile(path.join(this.folder, FILES.meta), JSON.stringify(meta, null, 2) + '\n');
    return meta;
  }

  async abandon(): Promise<void> {
    await this.sink.abandon().catch(() => undefined);
    await fs.promises.rm(this.folder, { recursive: true, force: true });
  }

  private async writeTaxNumbers(): Promise<void> {
    const keys = this.keys.view();
    const unsorted = new Uint32Array(keys.length);
    for (let i = 0; i < unsorted.length; i++) unsorted[i] = i;
    // Equal keys keep list order (ties go by ordinal), so the first entry of a duplicate wins.
    const order = await sortByKeyInSlices(unsorted, keys);
    const out = await FileAppender.create(path.join(this.folder, FILES.taxNumbers));
    const firstKeys: number[] = [];
    const offsets: number[] = [];
    const w = new ByteWriter();
    let n = 0;
    let previous = Number.NaN;
    for (const ordinal of order) {
      const key = keys[ordinal];
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
      w.uvarint(Math.floor(ordinal / RECORDS_PER_BLOCK));
      previous = key;
      n++;
    }
    await out.append(w.view());
    offsets.push(out.offset);
    await out.close();
    await writeFloat64s(path.join(this.folder, FILES.taxIndex), Float64Array.from([...firstKeys, ...offsets]));
  }
}

/** The order of the tax-number table: by key, equal keys by ordinal (list order). */
function keyThenOrdinal(keys: Float64Array): (a: number, b: number) => boolean {
  return (a, b) => keys[a] < keys[b] || (keys[a] === keys[b] && a < b);
}

/** Ordinals sorted at once, then merged, before the thread is given back to the extension host. */
const SORT_SLICE = 1 << 16;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * sortByKey's order, without holding the thread for the whole sort (about 0.4 s for 1.5 million
 * taxpayers, during which no other extension is answered): slices of 65,536 are sorted one turn
 * each, then merged, giving the thread back every 65,536 outputs. Returns a new array.
 */
export async function sortByKeyInSlices(order: Uint32Array, keys: Float64Array): Promise<Uint32Array> {
  // Each slice's next position and its end.
  const heads: number[] = [];
  const ends: number[] = [];
  for (let start = 0; start < order.length; start += SORT_SLICE) {
    const end = Math.min(order.length, start + SORT_SLICE);
    sortByKey(order.subarray(start, end), keys);
    heads.push(start);
    ends.push(end);
    if (end < order.length) await nextTurn();
  }
  if (heads.length <= 1) return order;
  const less = keyThenOrdinal(keys);
  // A binary heap of the slices, ordered by the ordinal each one's next position holds.
  const heap = heads.map((_, i) => i);
  const before = (x: number, y: number) => less(order[heads[x]], order[heads[y]]);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l], heap[m])) m = l;
      if (r < heap.length && before(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  const out = new Uint32Array(order.length);
  for (let n = 0; n < out.length; n++) {
    const slice = heap[0];
    out[n] = order[heads[slice]++];
    if (heads[slice] === ends[slice]) {
      heap[0] = heap[heap.length - 1];
      heap.pop();
    }
    if (heap.length > 0) down(0);
    if (n % SORT_SLICE === SORT_SLICE - 1) await nextTurn();
  }
  return out;
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

/**
 * An index being built in a temporary folder of `storageDir`. Readers see nothing of it until
 * install(); abandon() removes it. buildIndex runs the whole sequence; a download that indexes while
 * it arrives (streamingIndex.ts) installs only once the finished ZIP has been checked.
 */
export class PendingIndex {
  private reported = 0;

  private constructor(
    private readonly storageDir: string,
    private readonly name: string,
    private readonly builder: IndexBuilder,
    private readonly options: BuildOptions,
  ) {}

  static async start(storageDir: string, options: BuildOptions = {}): Promise<PendingIndex> {
    await fs.promises.mkdir(storageDir, { recursive: true });
    await removeStaleBuilds(storageDir);
    const name = `index-${Date.now()}-${randomBytes(4).toString('hex')}`;
    const builder = await IndexBuilder.create(path.join(storageDir, `tmp-${name}`), options);
    return new PendingIndex(storageDir, name, builder, options);
  }

  /** Adds taxpayers or batches of them (iterateRegistryZipBatches); resolves with what the iterator returns. */
  async addFrom<R>(taxpayers: AsyncIterable<Taxpayer | readonly Taxpayer[]> | AsyncIterator<Taxpayer | readonly Taxpayer[], R>): Promise<R | undefined> {
    const it = Symbol.asyncIterator in taxpayers ? taxpayers[Symbol.asyncIterator]() : taxpayers;
    for (let r = await it.next(); ; r = await it.next()) {
      if (r.done) return r.value as R | undefined;
      if (this.options.signal?.aborted) {
        await it.return?.();
        throw new IndexBuildCancelledError();
      }
      const item = r.value;
      for (const t of Array.isArray(item) ? (item as readonly Taxpayer[]) : [item as Taxpayer]) {
        const io = this.builder.add(t);
        if (io) await io;
      }
      const count = this.builder.taxpayers;
      if (count - this.reported >= 5000) {
        this.reported = count - (count % 5000);
        this.options.onProgress?.(this.reported);
      }
    }
  }

  get writtenIn(): 'worker' | 'thread' {
    return this.builder.writtenIn;
  }

  /** Writes the lookup files and meta.json. */
  finish(source: IndexSource): Promise<IndexMeta> {
    return this.builder.finish(source);
  }

  /** Makes the finished index the current one (the older ones are removed). */
  async install(): Promise<void> {
    await fs.promises.rename(this.builder.folder, path.join(this.storageDir, this.name));
    await installIndex(this.storageDir, this.name);
  }

  abandon(): Promise<void> {
    return this.builder.abandon();
  }
}

/**
 * Builds an index from a stream of taxpayers into `storageDir` and makes it the current one.
 * A cancelled or failed build leaves the previous index untouched and no partial folder behind.
 */
export async function buildIndex(storageDir: string, taxpayers: AsyncIterable<Taxpayer | readonly Taxpayer[]>, source: IndexSource, options: BuildOptions = {}): Promise<IndexMeta> {
  const pending = await PendingIndex.start(storageDir, options);
  try {
    await pending.addFrom(taxpayers);
    const meta = await pending.finish(source);
    await pending.install();
    return meta;
  } catch (error) {
    await pending.abandon();
    throw error;
  }
}

/** Temporary folders of builds that died with their process (a day old), never a running build's. */
async function removeStaleBuilds(storageDir: string): Promise<void> {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const entry of await fs.promises.readdir(storageDir)) {
    if (!entry.startsWith('tmp-index-')) continue;
    const folder = path.join(storageDir, entry);
    const stat = await fs.promises.stat(folder).catch(() => undefined);
    if (stat && stat.mtimeMs < dayAgo) await fs.promises.rm(folder, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Points `current` at a finished index folder (rename: atomic), then removes the older ones. */
export async function installIndex(storageDir: string, folderName: string): Promise<void> {
  const pointer = path.join(storageDir, CURRENT_POINTER);
  const temp = `${pointer}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.promises.writeFile(temp, folderName + '\n');
  await fs.promises.rename(temp, pointer);
  for (const entry of await fs.promises.readdir(storageDir)) {
    if (entry.startsWith('index-') && entry !== folderName) {
      // An open reader on Windows may keep files busy; the next install removes what is left.
      await fs.promises.rm(path.join(storageDir, entry), { recursive: true, force: true }).catch(() => undefined);
    }
  }
}
