// The title-word half of the index build: each taxpayer's folded title words become (word, ordinal)
// pairs, sorted and spilled to disk in runs, merged at the end into delta-coded postings
// (words.post) and a front-coded dictionary (words.dict, words.idx). It runs in the index worker
// thread (indexWorker.ts), beside the record blocks, while the extension host's thread parses the
// list; or in the same thread where no worker can start (indexSink.ts).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { FileAppender } from './fileAppender';
import { foldedLatinBatch, foldedWordsOfOtherTitles } from './fold';
import { FILES, WORDS_PER_BLOCK } from './format';
import { ByteReader, ByteWriter } from './varint';
import { WordTable } from './wordTable';
import { discard, replaced } from './growable';

/** Pairs (word, ordinal) held before a run is spilled to disk: 8 MB (two Uint32Array). */
export const RUN_PAIRS = 1 << 20;

export class TitleWords {
  private readonly table = new WordTable();
  /** Filled by finish(): the words, indexed by number. */
  private words: string[] = [];
  /** The numbers of the words met before the last spilled run, in alphabetical order (orderNewWords). */
  private alphabetical = new Uint32Array(0);
  private pairWords: Uint32Array;
  private pairOrdinals: Uint32Array;
  private pairCount = 0;
  /** The last ordinal added: a build adds titles in list order, which the runs and the merge rely on. */
  private lastOrdinal = 0;
  private readonly runs: string[] = [];
  // Working arrays of spillRun, orderNewWords and addTitles, kept from one call to the next: the
  // batches give the worker's heap little to collect, so what a spill let go was freed only by a full
  // collection, tens of MB later.
  private groupEnd = new Uint32Array(0);
  private spilledOrdinals = new Uint32Array(0);
  private readonly runWriter = new ByteWriter(1 << 20);
  private readonly deltas = new ByteWriter(1 << 12);
  private spareOrder = new Uint32Array(0);
  private ids = new Int32Array(1 << 14);

  constructor(
    private readonly folder: string,
    pairsInMemory = RUN_PAIRS,
  ) {
    this.pairWords = new Uint32Array(Math.max(1, pairsInMemory));
    this.pairOrdinals = new Uint32Array(this.pairWords.length);
  }

  /** Distinct words so far. */
  get wordCount(): number {
    return this.table.count;
  }

  /**
   * Adds the words of a batch of titles joined by TITLE_SEPARATOR, the first of them taxpayer
   * `first`'s and the rest the taxpayers after it. A title goes whole into one run where it fits (so a
   * word twice in it is deduplicated within the run); only a title longer than the whole budget
   * (tests use tiny ones) is split, and the merge drops the repeat then.
   */
  async addTitles(joined: string, first: number): Promise<void> {
    const ids = this.wordIdsOfTitles(joined);
    let ordinal = first;
    let from = 0;
    for (let k = 0; k < ids.length; k++) {
      if (ids[k] >= 0) continue;
      const io = this.addIds(ids, from, k, ordinal++);
      if (io) await io;
      from = k + 1;
    }
  }

  /** The batch's word numbers, with a -1 after each title's. */
  private wordIdsOfTitles(joined: string): Int32Array {
    const batch = foldedLatinBatch(joined);
    if (!batch) {
      const titles = foldedWordsOfOtherTitles(joined);
      return Int32Array.from(titles.flatMap((words) => [...words.map((word) => this.table.idOf(word)), -1]));
    }
    // Numbered straight from the folded code units (the batch's arrays are reused by the next fold).
    const { codes, bounds, boundCount } = batch;
    if (this.ids.length < boundCount) this.ids = replaced(this.ids, 2 * boundCount);
    const ids = this.ids;
    let n = 0;
    for (let k = 0; k < boundCount; k++) {
      if (bounds[k] < 0) ids[n++] = -1;
      else ids[n++] = this.table.idOfCodes(codes, bounds[k], bounds[++k]);
    }
    return ids.subarray(0, n);
  }

  /** Adds ids[from, to) as the words of taxpayer `ordinal`. */
  private addIds(ids: ArrayLike<number>, from: number, to: number, ordinal: number): Promise<void> | undefined {
    if (this.pairCount + to - from > this.pairWords.length) return this.addAfterSpill(ids, from, to, ordinal);
    for (let k = from; k < to; k++) this.push(ids[k], ordinal);
    return undefined;
  }

  private async addAfterSpill(ids: ArrayLike<number>, from: number, to: number, ordinal: number): Promise<void> {
    if (this.pairCount > 0) await this.spillRun();
    for (let k = from; k < to; k++) {
      if (this.pairCount === this.pairWords.length) await this.spillRun();
      this.push(ids[k], ordinal);
    }
  }

  private push(id: number, ordinal: number): void {
    if (ordinal < this.lastOrdinal) throw new Error(`Title words are added in list order: ${ordinal} came after ${this.lastOrdinal}.`);
    this.lastOrdinal = ordinal;
    this.pairWords[this.pairCount] = id;
    this.pairOrdinals[this.pairCount++] = ordinal;
  }

  /** Writes words.post, words.dict and words.idx; returns the number of distinct words. */
  async finish(): Promise<number> {
    await this.spillRun();
    // What the merge no longer needs goes before it reads the runs back (the peak of the build).
    this.pairWords = replaced(this.pairWords, 0);
    this.pairOrdinals = replaced(this.pairOrdinals, 0);
    this.orderNewWords();
    this.dropSpillArrays();
    this.words = this.table.words();
    this.table.release();
    await this.writeWords();
    return this.words.length;
  }

  /** Removes the spilled runs (the folder itself belongs to the caller). */
  async abandon(): Promise<void> {
    for (const f of this.runs) await fs.promises.rm(f, { force: true });
  }

  /**
   * Groups the pairs gathered so far by word and writes them as one run file. A counting sort: it keeps
   * each word's ordinals in the order they came, which is ascending (push), and is faster than a sort
   * of the packed pairs.
   */
  private async spillRun(): Promise<void> {
    const n = this.pairCount;
    if (n === 0) return;
    const wordCount = this.table.count;
    if (this.groupEnd.length < wordCount + 1) this.groupEnd = replaced(this.groupEnd, Math.ceil(1.5 * (wordCount + 1)));
    const groupEnd = this.groupEnd.fill(0, 0, wordCount + 1);
    for (let i = 0; i < n; i++) groupEnd[this.pairWords[i] + 1]++;
    for (let w = 0; w < wordCount; w++) groupEnd[w + 1] += groupEnd[w];
    // groupEnd[w] is now where word w's group starts; placing each pair moves it to the group's end.
    if (this.spilledOrdinals.length < n) this.spilledOrdinals = replaced(this.spilledOrdinals, this.pairWords.length);
    const ordinals = this.spilledOrdinals;
    for (let i = 0; i < n; i++) ordinals[groupEnd[this.pairWords[i]]++] = this.pairOrdinals[i];
    const w = this.runWriter;
    const deltas = this.deltas;
    w.reset();
    let previousWord = 0;
    let start = 0;
    for (let word = 0; word < wordCount; word++) {
      const end = groupEnd[word];
      if (end === start) continue;
      let last = 0;
      let count = 0;
      deltas.reset();
      for (let i = start; i < end; i++) {
        // A word twice in one title ("… Ticaret Sanayi ve Ticaret …") is one posting.
        if (i > start && ordinals[i] === ordinals[i - 1]) continue;
        deltas.uvarint(ordinals[i] - last);
        last = ordinals[i];
        count++;
      }
      w.uvarint(word - previousWord);
      w.uvarint(count);
      w.uvarint(last);
      w.uvarint(deltas.length);
      w.bytes(deltas.view());
      previousWord = word;
      start = end;
    }
    const file = path.join(this.folder, `run-${this.runs.length}.tmp`);
    await fs.promises.writeFile(file, w.view());
    this.runs.push(file);
    this.pairCount = 0;
    this.orderNewWords();
  }

  /** The spill's working arrays go before the merge (the build's peak). */
  private dropSpillArrays(): void {
    this.groupEnd = replaced(this.groupEnd, 0);
    this.spilledOrdinals = replaced(this.spilledOrdinals, 0);
    this.runWriter.release();
    this.spareOrder = replaced(this.spareOrder, 0);
    this.ids = replaced(this.ids, 0);
  }

  /**
   * Brings the alphabetical order up to date with the words met since the last call: those are sorted
   * and merged in. Done at each spilled run, so the end of a build, which the user waits for after
   * the download, sorts only the newest words.
   */
  private orderNewWords(): void {
    const first = this.alphabetical.length;
    const table = this.table;
    if (table.count === first) return;
    // Compared in the table's code units: no string is made or kept for it.
    const added = Uint32Array.from({ length: table.count - first }, (_, i) => first + i).sort((a, b) => table.compare(a, b));
    const before = this.alphabetical;
    // Two arrays take turns (the one before last is reused), room to grow for the words still to come.
    if (this.spareOrder.length < table.count) this.spareOrder = replaced(this.spareOrder, Math.ceil(1.5 * table.count));
    const merged = this.spareOrder.subarray(0, table.count);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < before.length && j < added.length) merged[k++] = table.compare(added[j], before[i]) < 0 ? added[j++] : before[i++];
    while (i < before.length) merged[k++] = before[i++];
    while (j < added.length) merged[k++] = added[j++];
    this.spareOrder = new Uint32Array(before.buffer, 0, before.buffer.byteLength / 4);
    this.alphabetical = merged;
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
        if (run.word !== id) continue;
        // The run's first delta is from 0; continue the chain from the previous run's last ordinal.
        const deltas = new ByteReader(run.buffer, run.deltasStart, run.deltasEnd);
        const firstOrdinal = deltas.uvarint();
        if (count > 0 && firstOrdinal === last) {
          // The same title's word on both sides of a spill: one posting (the next delta is from it).
          count += run.count - 1;
        } else {
          postings.uvarint(firstOrdinal - last);
          count += run.count;
        }
        postings.bytes(run.buffer.subarray(deltas.pos, run.deltasEnd));
        last = run.last;
        run.advance();
      }
      postOffset[id] = post.offset;
      postBytes[id] = postings.length;
      postCount[id] = count;
      await post.append(postings.view());
    }
    for (const run of runs) run.close();
    await post.close();

    const order = this.alphabetical;
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
      entry.uvarint(prefix);
      entry.utf8(word, prefix);
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

/**
 * Reads one spilled run front to back through a buffer: its groups come in word-number order. The
 * current group is read in place (no copy, no object a group: 1.5 million groups in a 1.5 M build).
 */
class RunReader {
  private readonly fd: number;
  // Holds the current group (valid until advance()). One per run, all open during the merge (the
  // build's peak): kept small.
  buffer = Buffer.allocUnsafe(1 << 18);
  private start = 0;
  private end = 0;
  private filePos = 0;
  private eof = false;
  /** The current group's word number, -1 once the run is used up. */
  word = -1;
  /** Its postings: how many, the last ordinal, and the varint deltas at buffer[deltasStart, deltasEnd). */
  count = 0;
  last = 0;
  deltasStart = 0;
  deltasEnd = 0;

  constructor(file: string) {
    this.fd = fs.openSync(file, 'r');
    this.advance();
  }

  /** Moves to the next group. */
  advance(): void {
    this.start = this.deltasEnd;
    if (!this.fill(1)) {
      this.word = -1;
      return;
    }
    this.fill(40);
    const r = new ByteReader(this.buffer, this.start, this.end);
    const wordDelta = r.uvarint();
    this.count = r.uvarint();
    this.last = r.uvarint();
    const length = r.uvarint();
    const header = r.pos - this.start;
    if (!this.fill(header + length)) throw new Error('A spilled run of the index build ends early.');
    this.word = Math.max(this.word, 0) + wordDelta;
    this.deltasStart = this.start + header;
    this.deltasEnd = this.deltasStart + length;
  }

  close(): void {
    fs.closeSync(this.fd);
    discard(this.buffer);
  }

  /** At least n unread bytes in the buffer, unless the file ends first (then false). */
  private fill(n: number): boolean {
    if (this.end - this.start >= n) return true;
    if (n > this.buffer.length) {
      const bigger = Buffer.allocUnsafe(n);
      this.buffer.copy(bigger, 0, this.start, this.end);
      this.buffer = bigger;
    } else {
      this.buffer.copy(this.buffer, 0, this.start, this.end);
    }
    this.end -= this.start;
    this.start = 0;
    while (!this.eof && this.end < this.buffer.length) {
      const read = fs.readSync(this.fd, this.buffer, this.end, this.buffer.length - this.end, this.filePos);
      if (read === 0) this.eof = true;
      this.filePos += read;
      this.end += read;
    }
    return this.end - this.start >= n;
  }
}
