// Builds the offline registry index (format.ts) from a downloaded registry ZIP in one streaming pass
// with bounded memory. The index is built in a temporary folder and swapped in by a rename.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { crc32 } from '../domain/crc32';
import type { Taxpayer } from '../domain/registryXml';
import { foldedWords } from './fold';
import { CURRENT_POINTER, DICTIONARY_BYTES, encodeRecord, FILES, INDEX_FORMAT, RECORD_SEP, RECORDS_PER_BLOCK, TAX_BLOCK, taxNumberKey, WORDS_PER_BLOCK, type IndexMeta } from './format';
import { GrowableFloat64 } from './growable';
import { ByteReader, ByteWriter } from './varint';


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
}

export class IndexBuildCancelledError extends Error {
  constructor() {
    super('The registry index build was cancelled');
    this.name = 'IndexBuildCancelledError';
  }
}

/** Buffered appends to a file, waiting for the disk when the buffer is full. */
class FileAppender {
  private buf = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private position = 0;
  private constructor(private readonly handle: fs.promises.FileHandle) {}

  static async create(file: string): Promise<FileAppender> {
    return new FileAppender(await fs.promises.open(file, 'wx'));
  }

  /** Bytes appended so far. */
  get offset(): number {
    return this.position + this.used;
  }

  async append(bytes: Buffer): Promise<void> {
    if (this.used + bytes.length > this.buf.length) await this.flush();
    if (bytes.length > this.buf.length) {
      await this.handle.write(bytes, 0, bytes.length, this.position);
      this.position += bytes.length;
      return;
    }
    bytes.copy(this.buf, this.used);
    this.used += bytes.length;
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    await this.handle.write(this.buf, 0, this.used, this.position);
    this.position += this.used;
    this.used = 0;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.handle.close();
  }
}

/** Pairs (word, ordinal) held before a sorted run is spilled to disk: 8 MB of Float64. */
const RUN_PAIRS = 1 << 20;
/** zlib level for record blocks: with the preset dictionary, 4 is within 3 % of 6 at less CPU. */
const DEFLATE_LEVEL = 4;

/**
 * Writes the index in one streaming pass. Records are deflated in blocks as they arrive; tax-number
 * keys (8 bytes a taxpayer) stay in memory to be sorted at the end; title words become (word, ordinal)
 * pairs that are sorted and spilled to disk in runs, merged into delta-coded postings at the end. Only
 * the word dictionary and the compressed postings are ever whole in memory.
 */
export class IndexBuilder {
  private readonly blockOffsets = new GrowableFloat64(1 << 12);
  private keys = new GrowableFloat64(1 << 16);
  private readonly wordIds = new Map<string, number>();
  private readonly words: string[] = [];
  private pairs: Float64Array;
  private pairCount = 0;
  private readonly runs: string[] = [];
  private block: string[] = [];
  private dictionary: Buffer | undefined;
  private count = 0;

  private constructor(
    readonly folder: string,
    private readonly records: FileAppender,
    pairsInMemory: number,
  ) {
    this.pairs = new Float64Array(Math.max(1, pairsInMemory));
  }

  static async create(folder: string, pairsInMemory = RUN_PAIRS): Promise<IndexBuilder> {
    await fs.promises.mkdir(folder, { recursive: true });
    return new IndexBuilder(folder, await FileAppender.create(path.join(folder, FILES.records)), pairsInMemory);
  }

  get taxpayers(): number {
    return this.count;
  }

  /**
   * Adds one taxpayer. Returns a promise only when a block or a run went to disk (once in 64 calls or
   * fewer): awaiting every call cost a promise and a microtask hop per taxpayer.
   */
  add(t: Taxpayer): Promise<void> | undefined {
    const ordinal = this.count++;
    this.keys.push(taxNumberKey(t.Identifier));
    this.block.push(encodeRecord(t));
    const io = this.block.length === RECORDS_PER_BLOCK ? this.flushBlock() : undefined;
    const words = foldedWords(t.Title);
    if (io || this.pairCount + words.length > this.pairs.length) return this.addWordsAfter(io, words, ordinal);
    for (const word of words) this.pairs[this.pairCount++] = this.wordId(word) * 4294967296 + ordinal;
    return undefined;
  }

  /**
   * The words of a taxpayer once the block write is done. A title goes whole into one run where it
   * fits (so a word twice in it is deduplicated within the run); only a title longer than the whole
   * budget (tests use tiny ones) is split, and the merge drops the repeat then.
   */
  private async addWordsAfter(io: Promise<void> | undefined, words: string[], ordinal: number): Promise<void> {
    await io;
    if (this.pairCount > 0 && this.pairCount + words.length > this.pairs.length) await this.spillRun();
    for (const word of words) {
      if (this.pairCount === this.pairs.length) await this.spillRun();
      this.pairs[this.pairCount++] = this.wordId(word) * 4294967296 + ordinal;
    }
  }

  private wordId(word: string): number {
    let id = this.wordIds.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.wordIds.set(word, id);
      this.words.push(word);
    }
    return id;
  }

  /** Writes the lookup files and meta.json; the folder is then a complete index. */
  async finish(source: IndexSource): Promise<IndexMeta> {
    await this.flushBlock();
    if (!this.dictionary) await fs.promises.writeFile(path.join(this.folder, FILES.recordDict), Buffer.alloc(0));
    this.blockOffsets.push(this.records.offset);
    await this.records.close();
    await writeFloat64s(path.join(this.folder, FILES.recordIndex), this.blockOffsets.view());
    await this.writeTaxNumbers();
    await this.spillRun();
    // What the merge no longer needs goes before it reads the runs back (the peak of the build).
    this.keys = new GrowableFloat64(1);
    this.pairs = new Float64Array(0);
    this.wordIds.clear();
    await this.writeWords();
    const files: Record<string, number> = {};
    for (const name of Object.values(FILES)) if (name !== FILES.meta) files[name] = (await fs.promises.stat(path.join(this.folder, name))).size;
    const meta: IndexMeta = {
      format: INDEX_FORMAT,
      aliasType: source.aliasType,
      userType: source.userType,
      downloadedAt: (source.downloadedAt ?? new Date()).toISOString(),
      taxpayers: this.count,
      zipBytes: source.zipBytes,
      words: this.words.length,
      ...(source.zipPath ? { zipPath: source.zipPath } : {}),
      files,
    };
    await fs.promises.writeFile(path.join(this.folder, FILES.meta), JSON.stringify(meta, null, 2) + '\n');
    return meta;
  }

  async abandon(): Promise<void> {
    await this.records.close().catch(() => undefined);
    await fs.promises.rm(this.folder, { recursive: true, force: true });
  }

  /**
   * Deflates the current block and appends it. Synchronously: for blocks this small, zlib's thread
   * pool costs more CPU in hand-offs than it saves (measured: about 3× the CPU time).
   */
  private async flushBlock(): Promise<void> {
    if (this.block.length === 0) return;
    const raw = Buffer.from(this.block.join(RECORD_SEP), 'utf8');
    this.block = [];
    if (!this.dictionary) {
      this.dictionary = Buffer.from(raw.subarray(0, DICTIONARY_BYTES));
      await fs.promises.writeFile(path.join(this.folder, FILES.recordDict), this.dictionary);
    }
    this.blockOffsets.push(this.records.offset);
    await this.records.append(zlib.deflateSync(raw, { level: DEFLATE_LEVEL, dictionary: this.dictionary }));
  }

  private async writeTaxNumbers(): Promise<void> {
    const keys = this.keys.view();
    const order = new Uint32Array(keys.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    // Equal keys keep list order (ties go by ordinal), so the first entry of a duplicate wins.
    sortByKey(order, keys);
    const out = await FileAppender.create(path.join(this.folder, FILES.taxNumbers));
    const firstKeys: number[] = [];
    const offsets: number[] = [];
    const w = new ByteWriter();
    let n = 0;
    let previous = Number.NaN;
    for (const ordinal of order) {
      const key = keys[ordinal];
      if (Number.isNaN(key) || key === previous) continue;
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

  /** Sorts the pairs gathered so far by (word, ordinal) and writes them as one run file. */
  private async spillRun(): Promise<void> {
    if (this.pairCount === 0) return;
    const sorted = this.pairs.subarray(0, this.pairCount).sort();
    const w = new ByteWriter(1 << 20);
    const deltas = new ByteWriter(1 << 12);
    let previousWord = 0;
    for (let i = 0; i < sorted.length; ) {
      const word = Math.floor(sorted[i] / 4294967296);
      let last = 0;
      let count = 0;
      deltas.reset();
      for (; i < sorted.length && Math.floor(sorted[i] / 4294967296) === word; i++) {
        // A word twice in one title ("… Ticaret Sanayi ve Ticaret …") is one posting.
        if (i > 0 && sorted[i] === sorted[i - 1]) continue;
        const ordinal = sorted[i] % 4294967296;
        deltas.uvarint(ordinal - last);
        last = ordinal;
        count++;
      }
      w.uvarint(word - previousWord);
      w.uvarint(count);
      w.uvarint(last);
      w.uvarint(deltas.length);
      w.bytes(deltas.view());
      previousWord = word;
    }
    const file = path.join(this.folder, `run-${this.runs.length}.tmp`);
    await fs.promises.writeFile(file, w.view());
    this.runs.push(file);
    this.pairCount = 0;
  }

  /**
   * Merges the runs into words.post (in word-number order, reading each run front to back) and then
   * writes the front-coded dictionary in alphabetical order, each entry pointing at its postings.
   * Memory: three numbers a word, and one run buffer each.
   */
  private async writeWords(): Promise<void> {
    const wordCount = this.words.length;
    const postOffset = new Float64Array(wordCount);
    const postBytes = new Uint32Array(wordCount);
    const postCount = new Uint32Array(wordCount);
    const runs = this.runs.map((f) => new RunReader(f));
    const post = await FileAppender.create(path.join(this.folder, FILES.wordPostings));
    const postings = new ByteWriter(1 << 16);
    for (let id = 0; id < wordCount; id++) {
      postings.reset();
      let count = 0;
      let last = 0;
      for (const run of runs) {
        const group = run.groupFor(id);
        if (!group) continue;
        // The run's first delta is from 0; continue the chain from the previous run's last ordinal.
        const first = new ByteReader(group.deltas);
        const firstOrdinal = first.uvarint();
        if (count > 0 && firstOrdinal === last) {
          // The same title's word on both sides of a spill: one posting (the next delta is from it).
          count += group.count - 1;
        } else {
          postings.uvarint(firstOrdinal - last);
          count += group.count;
        }
        postings.bytes(group.deltas.subarray(first.pos));
        last = group.last;
      }
      postOffset[id] = post.offset;
      postBytes[id] = postings.length;
      postCount[id] = count;
      await post.append(postings.view());
    }
    for (const run of runs) run.close();
    await post.close();

    const order = Array.from({ length: wordCount }, (_, i) => i).sort((a, b) => (this.words[a] < this.words[b] ? -1 : 1));
    const dict = await FileAppender.create(path.join(this.folder, FILES.wordDict));
    const blocks: Array<[string, number, number]> = [];
    const entry = new ByteWriter(1 << 16);
    let previousWord = '';
    const endBlock = async () => {
      if (blocks.length > 0) blocks[blocks.length - 1][2] = crc32(entry.view());
      await dict.append(entry.view());
      entry.reset();
    };
    for (let k = 0; k < order.length; k++) {
      const id = order[k];
      const word = this.words[id];
      if (k % WORDS_PER_BLOCK === 0) {
        await endBlock();
        blocks.push([word, dict.offset, 0]);
        previousWord = '';
      }
      let prefix = 0;
      const max = Math.min(word.length, previousWord.length);
      while (prefix < max && word.charCodeAt(prefix) === previousWord.charCodeAt(prefix)) prefix++;
      // Never split a surrogate pair between the shared prefix and the UTF-8 suffix.
      if (prefix > 0 && (word.charCodeAt(prefix - 1) & 0xfc00) === 0xd800) prefix--;
      const suffix = Buffer.from(word.slice(prefix), 'utf8');
      entry.uvarint(prefix);
      entry.uvarint(suffix.length);
      entry.bytes(suffix);
      entry.uvarint(postOffset[id]);
      entry.uvarint(postBytes[id]);
      entry.uvarint(postCount[id]);
      previousWord = word;
    }
    await endBlock();
    await dict.close();
    const index = { blocks, dictEnd: dict.offset, postEnd: post.offset };
    await fs.promises.writeFile(path.join(this.folder, FILES.wordIndex), JSON.stringify(index));
    for (const f of this.runs) await fs.promises.rm(f, { force: true });
  }
}

/** Reads one spilled run front to back through a buffer: its groups come in word-number order. */
class RunReader {
  private readonly fd: number;
  // One per run, all open during the merge (the build's peak): kept small.
  private buf = Buffer.allocUnsafe(1 << 18);
  private start = 0;
  private end = 0;
  private filePos = 0;
  private eof = false;
  private word = 0;
  private pending: { word: number; count: number; last: number; deltas: Buffer } | undefined;

  constructor(file: string) {
    this.fd = fs.openSync(file, 'r');
  }

  /** The next group if it is word `id`'s (groups of smaller ids were all taken before). */
  groupFor(id: number): { count: number; last: number; deltas: Buffer } | undefined {
    this.pending ??= this.next();
    if (!this.pending || this.pending.word !== id) return undefined;
    const g = this.pending;
    this.pending = undefined;
    return g;
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  private next(): { word: number; count: number; last: number; deltas: Buffer } | undefined {
    if (!this.fill(1)) return undefined;
    this.fill(40);
    const r = new ByteReader(this.buf, this.start, this.end);
    this.word += r.uvarint();
    const count = r.uvarint();
    const last = r.uvarint();
    const length = r.uvarint();
    const header = r.pos - this.start;
    if (!this.fill(header + length)) throw new Error('A spilled run of the index build ends early.');
    // A copy: the buffer is refilled under it.
    const deltas = Buffer.from(this.buf.subarray(this.start + header, this.start + header + length));
    this.start += header + length;
    return { word: this.word, count, last, deltas };
  }

  /** At least n unread bytes in the buffer, unless the file ends first (then false). */
  private fill(n: number): boolean {
    if (this.end - this.start >= n) return true;
    if (n > this.buf.length) {
      const bigger = Buffer.allocUnsafe(n);
      this.buf.copy(bigger, 0, this.start, this.end);
      this.buf = bigger;
    } else {
      this.buf.copy(this.buf, 0, this.start, this.end);
    }
    this.end -= this.start;
    this.start = 0;
    while (!this.eof && this.end < this.buf.length) {
      const read = fs.readSync(this.fd, this.buf, this.end, this.buf.length - this.end, this.filePos);
      if (read === 0) this.eof = true;
      this.filePos += read;
      this.end += read;
    }
    return this.end - this.start >= n;
  }
}

/**
 * Sorts record ordinals by their keys (ties by ordinal) in place. Hand-written: a comparator sort of
 * a typed array copies it into the JS heap twice over, tens of MB for a full list.
 */
export function sortByKey(order: Uint32Array, keys: Float64Array): void {
  const less = (a: number, b: number) => keys[a] < keys[b] || (keys[a] === keys[b] && a < b);
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

async function writeFloat64s(file: string, values: Float64Array): Promise<void> {
  // Typed arrays are little-endian on every platform VS Code runs on.
  await fs.promises.writeFile(file, Buffer.from(values.buffer, values.byteOffset, values.byteLength));
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
    const builder = await IndexBuilder.create(path.join(storageDir, `tmp-${name}`), options.wordPairsInMemory);
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
