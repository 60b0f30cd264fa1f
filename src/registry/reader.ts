// Reads an offline registry index (format.ts) with little memory: the sparse tax-number keys and
// the word dictionary stay in memory; records, the tax-number table and postings are read from disk
// as needed, with synchronous positioned reads (each lookup is a few small reads, well under 1 ms).

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Taxpayer } from '../domain/registryXml';
import { foldedWords, foldTurkish } from './fold';
import { CURRENT_POINTER, FILES, fromCompact, INDEX_FORMAT, TAX_BLOCK, TAX_ENTRY_BYTES, taxNumberKey, type CompactRecord, type IndexMeta } from './format';

/** A prefix matching more words than this only uses the first ones (alphabetically). */
const MAX_PREFIX_WORDS = 2000;

export interface WordSearchResult {
  /** Taxpayers whose title has every word (the last one as a prefix), in list order, at most `limit`. */
  taxpayers: Taxpayer[];
  /** How many taxpayers match in all. */
  total: number;
}

/** The folder of the current index under `storageDir`, or undefined when none was built. */
export function currentIndexFolder(storageDir: string): string | undefined {
  try {
    const name = fs.readFileSync(path.join(storageDir, CURRENT_POINTER), 'utf8').trim();
    if (!/^index-[\w-]+$/.test(name)) return undefined;
    const folder = path.join(storageDir, name);
    return fs.existsSync(path.join(folder, FILES.meta)) ? folder : undefined;
  } catch {
    return undefined;
  }
}

export class RegistryIndexReader {
  private constructor(
    readonly folder: string,
    readonly meta: IndexMeta,
    private readonly fds: { records: number; offsets: number; taxNumbers: number; postings: number },
    private readonly sparseKeys: Float64Array,
    private readonly taxEntries: number,
    private readonly words: string[],
    private readonly wordStarts: Float64Array,
    private readonly wordCounts: Uint32Array,
  ) {}

  /** Opens the current index under `storageDir`; undefined when there is none. */
  static open(storageDir: string): RegistryIndexReader | undefined {
    const folder = currentIndexFolder(storageDir);
    return folder ? RegistryIndexReader.openFolder(folder) : undefined;
  }

  static openFolder(folder: string): RegistryIndexReader {
    const meta = JSON.parse(fs.readFileSync(path.join(folder, FILES.meta), 'utf8')) as IndexMeta;
    if (meta.format !== INDEX_FORMAT) throw new Error(`Unsupported registry index format ${meta.format}`);
    const sparseBytes = fs.readFileSync(path.join(folder, FILES.taxSparse));
    const sparseKeys = new Float64Array(sparseBytes.buffer.slice(sparseBytes.byteOffset, sparseBytes.byteOffset + sparseBytes.byteLength));
    const taxEntries = fs.statSync(path.join(folder, FILES.taxNumbers)).size / TAX_ENTRY_BYTES;
    const lines = fs.readFileSync(path.join(folder, FILES.wordDict), 'utf8').split('\n');
    const words: string[] = [];
    const starts = new Float64Array(lines.length);
    const counts = new Uint32Array(lines.length);
    for (const line of lines) {
      if (!line) continue;
      const [word, start, count] = line.split('\t');
      starts[words.length] = Number(start);
      counts[words.length] = Number(count);
      words.push(word);
    }
    const open = (file: string) => fs.openSync(path.join(folder, file), 'r');
    const fds = { records: open(FILES.records), offsets: open(FILES.offsets), taxNumbers: open(FILES.taxNumbers), postings: open(FILES.wordPostings) };
    return new RegistryIndexReader(folder, meta, fds, sparseKeys, taxEntries, words, starts, counts);
  }

  close(): void {
    for (const fd of Object.values(this.fds)) fs.closeSync(fd);
  }

  /** The taxpayer with this VKN/TCKN, from disk: one block of the sorted table, then the record. */
  byTaxNumber(taxNumber: string): Taxpayer | undefined {
    const key = taxNumberKey(taxNumber.trim());
    if (Number.isNaN(key) || this.taxEntries === 0) return undefined;
    // The last block whose first key is <= key.
    let lo = 0;
    let hi = this.sparseKeys.length - 1;
    if (key < this.sparseKeys[0]) return undefined;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.sparseKeys[mid] <= key) lo = mid;
      else hi = mid - 1;
    }
    const first = lo * TAX_BLOCK;
    const entries = Math.min(TAX_BLOCK, this.taxEntries - first);
    const block = Buffer.allocUnsafe(entries * TAX_ENTRY_BYTES);
    fs.readSync(this.fds.taxNumbers, block, 0, block.length, first * TAX_ENTRY_BYTES);
    let a = 0;
    let b = entries - 1;
    while (a <= b) {
      const mid = (a + b) >> 1;
      const k = block.readDoubleLE(mid * TAX_ENTRY_BYTES);
      if (k === key) return this.record(block.readUInt32LE(mid * TAX_ENTRY_BYTES + 8));
      if (k < key) a = mid + 1;
      else b = mid - 1;
    }
    return undefined;
  }

  /**
   * Taxpayers whose title holds every word of `query` (Turkish-aware, case-insensitive); the last
   * word matches as a prefix unless the query ends with a space.
   */
  searchWords(query: string, limit = 50): WordSearchResult {
    const words = foldedWords(query);
    if (words.length === 0) return { taxpayers: [], total: 0 };
    const lastIsPrefix = !/[^\p{L}\p{N}]$/u.test(foldTurkish(query));
    const terms: Uint32Array[][] = [];
    for (let i = 0; i < words.length; i++) {
      const ids = i === words.length - 1 && lastIsPrefix ? this.prefixWordIds(words[i]) : this.exactWordIds(words[i]);
      if (ids.length === 0) return { taxpayers: [], total: 0 };
      terms.push(ids.map((id) => this.postings(id)));
    }
    const size = (t: Uint32Array[]) => t.reduce((s, a) => s + a.length, 0);
    terms.sort((x, y) => size(x) - size(y));
    const driver = mergeSorted(terms[0]);
    const others = terms.slice(1).map((arrays) => arrays.map((array) => ({ array, cursor: 0 })));
    const hits: number[] = [];
    let total = 0;
    for (const ordinal of driver) {
      if (others.every((term) => term.some((c) => advanceTo(c, ordinal)))) {
        total++;
        if (hits.length < limit) hits.push(ordinal);
      }
    }
    return { taxpayers: hits.map((o) => this.record(o)), total };
  }

  private exactWordIds(word: string): number[] {
    const i = lowerBound(this.words, word);
    return i < this.words.length && this.words[i] === word ? [i] : [];
  }

  private prefixWordIds(prefix: string): number[] {
    const ids: number[] = [];
    for (let i = lowerBound(this.words, prefix); i < this.words.length && this.words[i].startsWith(prefix) && ids.length < MAX_PREFIX_WORDS; i++) ids.push(i);
    return ids;
  }

  private postings(wordId: number): Uint32Array {
    const count = this.wordCounts[wordId];
    const out = new Uint32Array(count);
    fs.readSync(this.fds.postings, out, 0, count * 4, this.wordStarts[wordId] * 4);
    return out;
  }

  private record(ordinal: number): Taxpayer {
    const span = new Float64Array(2);
    fs.readSync(this.fds.offsets, span, 0, 16, ordinal * 8);
    const bytes = Buffer.allocUnsafe(span[1] - span[0]);
    fs.readSync(this.fds.records, bytes, 0, bytes.length, span[0]);
    return fromCompact(JSON.parse(bytes.toString('utf8')) as CompactRecord);
  }
}

/** First index whose word is >= `word` (plain code-unit order, as the builder sorted). */
function lowerBound(words: string[], word: string): number {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (words[mid] < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One ascending, duplicate-free list from several ascending lists. */
function mergeSorted(arrays: Uint32Array[]): Uint32Array {
  if (arrays.length === 1) return arrays[0];
  const all = new Uint32Array(arrays.reduce((s, a) => s + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    all.set(a, at);
    at += a.length;
  }
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i];
  return all.subarray(0, n);
}

/** Moves the cursor to the first element >= target (galloping); true when that element is the target. */
function advanceTo(c: { array: Uint32Array; cursor: number }, target: number): boolean {
  const a = c.array;
  let lo = c.cursor;
  if (lo >= a.length) return false;
  if (a[lo] >= target) return a[lo] === target;
  let step = 1;
  let hi = lo + step;
  while (hi < a.length && a[hi] < target) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  hi = Math.min(hi, a.length);
  // a[lo] < target; find the first index in (lo, hi] with a[i] >= target.
  while (lo + 1 < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < target) lo = mid;
    else hi = mid;
  }
  c.cursor = hi;
  return hi < a.length && a[hi] === target;
}
