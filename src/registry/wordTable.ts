// The distinct title words of an index build, numbered in the order they are first met. An
// open-addressing hash table over the words' UTF-16 code units: the build's hot loop numbers a word
// straight from its folded characters (fold.ts's FoldedBatch) without making a string of it. With a
// Map<string, number>, every occurrence of a word (millions in a full list) would be a new sliced
// string to hash, compare and collect.

import { discard, grown } from './growable';

const FIRST_SLOTS = 1 << 14;

/** The arrays of an empty table (a new one, or one released). */
function emptyArrays() {
  return { chars: new Uint16Array(1 << 16), starts: new Uint32Array(FIRST_SLOTS / 2 + 1), hashes: new Int32Array(FIRST_SLOTS / 2), slots: new Int32Array(FIRST_SLOTS) };
}

export class WordTable {
  /** Every distinct word's code units, back to back; word `id` is chars[starts[id], starts[id + 1]). */
  private chars: Uint16Array<ArrayBuffer>;
  private starts: Uint32Array<ArrayBuffer>;
  private hashes: Int32Array<ArrayBuffer>;
  /** id + 1 of the word in each slot, 0 where empty; never more than half full. */
  private slots: Int32Array<ArrayBuffer>;
  private wordCount = 0;

  constructor() {
    ({ chars: this.chars, starts: this.starts, hashes: this.hashes, slots: this.slots } = emptyArrays());
  }

  /** Distinct words so far. */
  get count(): number {
    return this.wordCount;
  }

  /** The number of the word in codes[start, end), given it one if it is new. */
  idOfCodes(codes: Uint16Array, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ codes[i], 0x01000193);
    h = mix(h);
    const length = end - start;
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s] - 1;
      if (id < 0) return this.insert(s, h, codes, start, end);
      if (this.hashes[id] !== h) continue;
      const from = this.starts[id];
      if (this.starts[id + 1] - from !== length) continue;
      let k = 0;
      while (k < length && this.chars[from + k] === codes[start + k]) k++;
      if (k === length) return id;
    }
  }

  /** idOfCodes for a word given as a string (the paths that fold title by title). */
  idOf(word: string): number {
    const codes = scratchFor(word.length);
    for (let i = 0; i < word.length; i++) codes[i] = word.charCodeAt(i);
    return this.idOfCodes(codes, 0, word.length);
  }

  /** Every word, indexed by number: slices of one string decoded at once (faster than decoding each word). */
  words(): string[] {
    const all = new Array<string>(this.wordCount);
    const text = Buffer.from(this.chars.buffer, this.chars.byteOffset, 2 * this.starts[this.wordCount]).toString('utf16le');
    for (let id = 0; id < this.wordCount; id++) all[id] = text.slice(this.starts[id], this.starts[id + 1]);
    return all;
  }

  /** Gives the table's memory back at once (words() and compare() are done with); the table is empty after. */
  release(): void {
    for (const array of [this.chars, this.starts, this.hashes, this.slots]) discard(array);
    ({ chars: this.chars, starts: this.starts, hashes: this.hashes, slots: this.slots } = emptyArrays());
    this.wordCount = 0;
  }

  /** Word a against word b in code-unit order, as `<` compares strings: negative, 0 or positive. */
  compare(a: number, b: number): number {
    const chars = this.chars;
    let i = this.starts[a];
    let j = this.starts[b];
    const endA = this.starts[a + 1];
    const endB = this.starts[b + 1];
    for (; i < endA && j < endB; i++, j++) if (chars[i] !== chars[j]) return chars[i] - chars[j];
    return endA - i - (endB - j);
  }

  private insert(slot: number, hash: number, codes: Uint16Array, start: number, end: number): number {
    const id = this.wordCount++;
    if (id >= this.hashes.length) {
      this.hashes = grown(this.hashes, 2 * this.hashes.length);
      this.starts = grown(this.starts, this.hashes.length + 1);
    }
    const from = this.starts[id];
    const to = from + end - start;
    if (to > this.chars.length) this.chars = grown(this.chars, Math.max(2 * this.chars.length, to));
    this.chars.set(codes.subarray(start, end), from);
    this.starts[id + 1] = to;
    this.hashes[id] = hash;
    this.slots[slot] = id + 1;
    if (2 * this.wordCount > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const slots = new Int32Array(2 * this.slots.length);
    const mask = slots.length - 1;
    for (let id = 0; id < this.wordCount; id++) {
      let s = this.hashes[id] & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = id + 1;
    }
    discard(this.slots);
    this.slots = slots;
  }
}

/** Spreads FNV-1a's high bits into the low ones the slot mask keeps (murmur3's finaliser). */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

let scratch = new Uint16Array(256);
function scratchFor(length: number): Uint16Array {
  if (scratch.length < length) scratch = new Uint16Array(2 * length);
  return scratch;
}
