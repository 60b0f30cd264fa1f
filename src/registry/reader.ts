// Reads an offline registry index (format.ts) with little memory: the block tables stay in memory
// (a few hundred KB for 1.5 million taxpayers); records, tax-number blocks, dictionary blocks and
// postings are read from disk as needed with synchronous positioned reads. Anything that does not add
// up (sizes, checksums, varints, ordinals) is refused with a RegistryIndexError, never returned.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type { Taxpayer } from '../domain/registryXml';
import { foldedWords, foldTurkish } from './fold';
import { decodeRecord, FIELD_SEP, FILES, INDEX_FORMAT, RECORD_SEP, RECORDS_PER_BLOCK, RegistryIndexError, taxNumberKey, type IndexMeta } from './format';
import { ByteReader } from './varint';

/** A prefix matching more words than this only uses the first ones (alphabetically). */
const MAX_PREFIX_WORDS = 2000;
/** Inflated record blocks kept for the next lookups (a search's hits often share blocks). */
const CACHED_BLOCKS = 16;

export interface WordSearchResult {
  /** Taxpayers whose title has every word (the last one as a prefix), in list order, at most `limit`. */
  taxpayers: Taxpayer[];
  /** How many taxpayers match in all. */
  total: number;
}

/** meta.json of an index folder, whatever its format; RegistryIndexError when unreadable. */
export function readIndexMeta(folder: string): IndexMeta {
  let meta: IndexMeta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(folder, FILES.meta), 'utf8')) as IndexMeta;
  } catch (e) {
    throw new RegistryIndexError('corrupt', `The registry index's description could not be read: ${(e as Error).message}`);
  }
  if (typeof meta !== 'object' || meta === null || typeof meta.format !== 'number') throw new RegistryIndexError('corrupt', "The registry index's description is damaged.");
  return meta;
}

interface WordEntry {
  word: string;
  postOffset: number;
  postBytes: number;
  count: number;
}

type DictBlock = [firstWord: string, dictOffset: number, crc: number];

/** One search term's matches: a sorted list (one word) or a bitmap (a prefix's several words). */
type Term = { kind: 'list'; ordinals: Uint32Array; cursor: number; size: number } | { kind: 'bits'; bits: Uint32Array; size: number };

function corrupt(what: string): RegistryIndexError {
  return new RegistryIndexError('corrupt', `The registry index is damaged (${what}); download the list again.`);
}

export class RegistryIndexReader {
  private readonly blockCache = new Map<number, string>();

  private constructor(
    readonly folder: string,
    readonly meta: IndexMeta,
    private readonly fds: { records: number; taxNumbers: number; dict: number; postings: number },
    private readonly recordBlocks: Float64Array,
    private readonly taxKeys: Float64Array,
    private readonly taxOffsets: Float64Array,
    private readonly dictBlocks: DictBlock[],
    private readonly dictEnd: number,
    private readonly dictionary: Buffer,
  ) {}

  /** Opens an index folder; RegistryIndexError 'outdated' for another format, 'corrupt' when damaged. */
  static openFolder(folder: string): RegistryIndexReader {
    const meta = readIndexMeta(folder);
    if (meta.format !== INDEX_FORMAT) throw new RegistryIndexError('outdated', `The registry index has format ${meta.format}; this version reads format ${INDEX_FORMAT}.`);
    const sizes = meta.files ?? {};
    for (const name of Object.values(FILES)) {
      if (name === FILES.meta) continue;
      const size = fs.statSync(path.join(folder, name), { throwIfNoEntry: false })?.size;
      if (size === undefined || size !== sizes[name]) throw corrupt(`${name} is missing or has the wrong size`);
    }
    const floats = (name: string) => {
      const b = fs.readFileSync(path.join(folder, name));
      if (b.length % 8 !== 0) throw corrupt(name);
      return new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    };
    const recordBlocks = floats(FILES.recordIndex);
    if (recordBlocks.length !== Math.ceil(meta.taxpayers / RECORDS_PER_BLOCK) + 1 || recordBlocks[recordBlocks.length - 1] !== sizes[FILES.records] || !ascending(recordBlocks)) throw corrupt(FILES.recordIndex);
    const tax = floats(FILES.taxIndex);
    const taxBlocks = (tax.length - 1) / 2;
    const taxKeys = tax.subarray(0, taxBlocks);
    const taxOffsets = tax.subarray(taxBlocks);
    if (!Number.isInteger(taxBlocks) || taxOffsets[taxBlocks] !== sizes[FILES.taxNumbers] || !ascending(taxKeys) || !ascending(taxOffsets)) throw corrupt(FILES.taxIndex);
    let words: { blocks: DictBlock[]; dictEnd: number; postEnd: number };
    try {
      words = JSON.parse(fs.readFileSync(path.join(folder, FILES.wordIndex), 'utf8')) as typeof words;
    } catch {
      throw corrupt(FILES.wordIndex);
    }
    if (!Array.isArray(words.blocks) || words.dictEnd !== sizes[FILES.wordDict] || words.postEnd !== sizes[FILES.wordPostings]) throw corrupt(FILES.wordIndex);
    const open = (file: string) => fs.openSync(path.join(folder, file), 'r');
    const fds = { records: open(FILES.records), taxNumbers: open(FILES.taxNumbers), dict: open(FILES.wordDict), postings: open(FILES.wordPostings) };
    const dictionary = fs.readFileSync(path.join(folder, FILES.recordDict));
    return new RegistryIndexReader(folder, meta, fds, recordBlocks, taxKeys, taxOffsets, words.blocks, words.dictEnd, dictionary);
  }

  close(): void {
    for (const fd of Object.values(this.fds)) fs.closeSync(fd);
    this.blockCache.clear();
  }

  /** The taxpayer with this VKN/TCKN: one tax-number block, then one record block. */
  byTaxNumber(taxNumber: string): Taxpayer | undefined {
    const wanted = taxNumber.trim();
    const key = taxNumberKey(wanted);
    if (Number.isNaN(key) || this.taxKeys.length === 0 || key < this.taxKeys[0]) return undefined;
    const lo = lastAtMost(this.taxKeys.length, (i) => this.taxKeys[i], key);
    const block = this.read(this.fds.taxNumbers, this.taxOffsets[lo], this.taxOffsets[lo + 1]);
    const r = new ByteReader(block);
    let k = this.taxKeys[lo];
    let recordBlock = -1;
    try {
      while (r.pos < block.length) {
        k += r.uvarint();
        const b = r.uvarint();
        if (k === key) {
          recordBlock = b;
          break;
        }
        if (k > key) return undefined;
      }
    } catch {
      throw corrupt('tax-number table');
    }
    if (recordBlock < 0) return undefined;
    // The first record of that block with this tax number (the table keeps a duplicate's first).
    const text = this.recordBlock(recordBlock);
    const head = wanted + FIELD_SEP;
    let at = text.startsWith(head) ? 0 : text.indexOf(RECORD_SEP + head);
    if (at < 0) throw corrupt('tax-number table');
    if (at > 0) at++;
    const end = text.indexOf(RECORD_SEP, at);
    return decodeRecord(text.slice(at, end < 0 ? text.length : end));
  }

  /**
   * Taxpayers whose title holds every word of `query` (Turkish-aware, case-insensitive); the last
   * word matches as a prefix unless the query ends with a space.
   */
  searchWords(query: string, limit = 50): WordSearchResult {
    const words = foldedWords(query);
    if (words.length === 0) return { taxpayers: [], total: 0 };
    const lastIsPrefix = !/[^\p{L}\p{N}]$/u.test(foldTurkish(query));
    const terms: Term[] = [];
    for (let i = 0; i < words.length; i++) {
      const entries = i === words.length - 1 && lastIsPrefix ? this.prefixEntries(words[i]) : this.exactEntries(words[i]);
      if (entries.length === 0) return { taxpayers: [], total: 0 };
      terms.push(this.term(entries));
    }
    terms.sort((x, y) => x.size - y.size);
    const [driver, ...others] = terms;
    const hits: number[] = [];
    let total = 0;
    const visit = (ordinal: number): void => {
      for (const t of others) if (!contains(t, ordinal)) return;
      total++;
      if (hits.length < limit) hits.push(ordinal);
    };
    if (driver.kind === 'list') for (const o of driver.ordinals) visit(o);
    else forEachBit(driver.bits, visit);
    return { taxpayers: hits.map((o) => this.record(o)), total };
  }

  private term(entries: WordEntry[]): Term {
    if (entries.length === 1) {
      const ordinals = this.postings(entries[0]);
      return { kind: 'list', ordinals, cursor: 0, size: ordinals.length };
    }
    const bits = new Uint32Array(Math.ceil(this.meta.taxpayers / 32));
    let size = 0;
    for (const e of entries) {
      for (const o of this.postings(e)) bits[o >>> 5] |= 1 << (o & 31);
      size += e.count;
    }
    return { kind: 'bits', bits, size };
  }

  private exactEntries(word: string): WordEntry[] {
    for (const e of this.entriesFrom(word)) return e.word === word ? [e] : [];
    return [];
  }

  private prefixEntries(prefix: string): WordEntry[] {
    const out: WordEntry[] = [];
    for (const e of this.entriesFrom(prefix)) {
      if (!e.word.startsWith(prefix) || out.length >= MAX_PREFIX_WORDS) break;
      out.push(e);
    }
    return out;
  }

  /** Dictionary entries in order, from the first word >= `word`. */
  private *entriesFrom(word: string): Generator<WordEntry> {
    const blocks = this.dictBlocks;
    if (blocks.length === 0) return;
    for (let b = lastAtMost(blocks.length, (i) => blocks[i][0], word); b < blocks.length; b++) {
      for (const e of this.dictBlock(b)) if (e.word >= word) yield e;
    }
  }

  private dictBlock(b: number): WordEntry[] {
    const [, start, crc] = this.dictBlocks[b];
    const end = b + 1 < this.dictBlocks.length ? this.dictBlocks[b + 1][1] : this.dictEnd;
    const bytes = this.read(this.fds.dict, start, end);
    if (zlib.crc32(bytes) !== crc) throw corrupt('word dictionary');
    const out: WordEntry[] = [];
    const r = new ByteReader(bytes);
    let previous = '';
    try {
      while (r.pos < bytes.length) {
        const prefix = r.uvarint();
        const suffix = Buffer.from(r.bytes(r.uvarint())).toString('utf8');
        const word = previous.slice(0, prefix) + suffix;
        out.push({ word, postOffset: r.uvarint(), postBytes: r.uvarint(), count: r.uvarint() });
        previous = word;
      }
    } catch {
      throw corrupt('word dictionary');
    }
    return out;
  }

  /** A word's record ordinals; checked to be exactly `count` ascending ordinals of this list. */
  private postings(e: WordEntry): Uint32Array {
    const bytes = this.read(this.fds.postings, e.postOffset, e.postOffset + e.postBytes);
    const out = new Uint32Array(e.count);
    const r = new ByteReader(bytes);
    let value = 0;
    try {
      for (let i = 0; i < e.count; i++) {
        const delta = r.uvarint();
        if (i > 0 && delta === 0) throw corrupt('postings');
        value += delta;
        out[i] = value;
      }
    } catch {
      throw corrupt('postings');
    }
    if (r.pos !== bytes.length || value >= this.meta.taxpayers) throw corrupt('postings');
    return out;
  }

  private record(ordinal: number): Taxpayer {
    if (!(ordinal >= 0 && ordinal < this.meta.taxpayers)) throw corrupt('record number');
    const b = Math.floor(ordinal / RECORDS_PER_BLOCK);
    const text = this.recordBlock(b);
    let start = 0;
    for (let n = ordinal - b * RECORDS_PER_BLOCK; n > 0; n--) {
      start = text.indexOf(RECORD_SEP, start) + 1;
      if (start === 0) throw corrupt('record block');
    }
    const end = text.indexOf(RECORD_SEP, start);
    return decodeRecord(text.slice(start, end < 0 ? text.length : end));
  }

  /** One block's records as text (joined by RECORD_SEP), inflated or from the cache. */
  private recordBlock(b: number): string {
    let text = this.blockCache.get(b);
    if (text !== undefined) {
      this.blockCache.delete(b);
    } else {
      if (!(b >= 0 && b + 1 < this.recordBlocks.length)) throw corrupt('record block number');
      try {
        const bytes = this.read(this.fds.records, this.recordBlocks[b], this.recordBlocks[b + 1]);
        text = zlib.inflateSync(bytes, this.dictionary.length > 0 ? { dictionary: this.dictionary } : {}).toString('utf8');
      } catch {
        throw corrupt('record block');
      }
      if (this.blockCache.size >= CACHED_BLOCKS) this.blockCache.delete(this.blockCache.keys().next().value as number);
    }
    this.blockCache.set(b, text);
    return text;
  }

  private read(fd: number, start: number, end: number): Buffer {
    const bytes = Buffer.allocUnsafe(end - start);
    if (fs.readSync(fd, bytes, 0, bytes.length, start) !== bytes.length) throw corrupt('short read');
    return bytes;
  }
}

/** The last index below `length` whose ascending value is <= x (0 when none is). */
function lastAtMost<T>(length: number, valueAt: (i: number) => T, x: T): number {
  let lo = 0;
  let hi = length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (valueAt(mid) <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function ascending(a: Float64Array): boolean {
  for (let i = 1; i < a.length; i++) if (!(a[i] >= a[i - 1])) return false;
  return true;
}

function contains(t: Term, ordinal: number): boolean {
  if (t.kind === 'bits') return (t.bits[ordinal >>> 5] & (1 << (ordinal & 31))) !== 0;
  // Galloping from the cursor: the driver's ordinals arrive ascending.
  const a = t.ordinals;
  let lo = t.cursor;
  if (lo >= a.length) return false;
  if (a[lo] >= ordinal) return a[lo] === ordinal;
  let step = 1;
  let hi = lo + step;
  while (hi < a.length && a[hi] < ordinal) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  hi = Math.min(hi, a.length);
  // a[lo] < ordinal; find the first index in (lo, hi] with a[i] >= ordinal.
  while (lo + 1 < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < ordinal) lo = mid;
    else hi = mid;
  }
  t.cursor = hi;
  return hi < a.length && a[hi] === ordinal;
}

function forEachBit(bits: Uint32Array, visit: (ordinal: number) => void): void {
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w];
    while (word !== 0) {
      const low = word & -word;
      visit(w * 32 + 31 - Math.clz32(low));
      word ^= low;
    }
  }
}
