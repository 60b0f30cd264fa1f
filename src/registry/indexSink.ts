// Where an index build sends each taxpayer's record and title: a worker thread (indexWorker.ts) when
// one can start, so deflating the record blocks and folding, splitting, sorting and merging the title
// words (most of the build's CPU time) run beside the list's parsing instead of on the extension
// host's thread; else the same code in this thread. Both write the same files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { TITLE_SEPARATOR, titleForBatch } from './fold';
import { RECORD_SEP, RECORDS_PER_BLOCK } from './format';
import { recycleBatchBuffer } from './batchBuffers';
import { RecordBlocks } from './recordBlocks';
import { TitleWords } from './titleWords';

/** Taxpayers first… as the list encoder wrote them (EncodedBatch, listEncoder.ts), without the keys. */
export interface EncodedRecords {
  /** The one buffer the arrays below view (transferred to the worker and back). */
  buffer: ArrayBuffer;
  first: number;
  records: Uint8Array;
  blockEnds: Uint32Array;
  titles: Uint8Array;
}

/** A batch: the titles of taxpayers first… joined by TITLE_SEPARATOR, and their record blocks; or the same encoded. */
export type ToIndexWorker =
  | { kind: 'taxpayers'; batch: number; first: number; titles: string; blocks: string[] }
  | ({ kind: 'encoded'; batch: number } & EncodedRecords)
  | { kind: 'finish' };
export type FromIndexWorker = { kind: 'took'; batch: number; spare?: ArrayBuffer } | { kind: 'finished'; words: number } | { kind: 'failed'; message: string };

export interface IndexSink {
  /** Where the records and words are written. */
  readonly where: 'worker' | 'thread';
  /**
   * Taxpayer `ordinal`'s record (encodeRecord) and title; ordinals come in order from 0. A promise
   * only when the caller must wait.
   */
  add(record: string, title: string, ordinal: number): Promise<void> | undefined;
  /**
   * Taxpayers the list encoder wrote, whole record blocks from the first (an encoded batch does not
   * follow taxpayers added one by one). A promise only when the caller must wait.
   */
  addEncoded(batch: EncodedRecords): Promise<void> | undefined;
  /** Writes the record and word files; resolves with the number of distinct words. */
  finish(): Promise<number>;
  /** Stops; the caller removes the folder. */
  abandon(): Promise<void>;
}

/**
 * Taxpayers sent to the worker in one message (whole record blocks), and batches it may be behind
 * before add() waits. 4 rather than 8 ahead: as fast, with a lower peak RSS.
 */
export const TAXPAYERS_PER_BATCH = 32 * RECORDS_PER_BLOCK;
const BATCHES_AHEAD = 4;
const WORKER_FILE = 'registryIndexWorker.js';

export async function openIndexSink(folder: string, pairsInMemory: number, options: { worker?: boolean } = {}): Promise<IndexSink> {
  const file = options.worker === false ? undefined : findWorkerFile();
  if (file) {
    const { Worker } = await import('node:worker_threads');
    try {
      // A young generation of 8 MB instead of the default: the same CPU time, a lower peak RSS. Index
      // from a 1.5 M list's ZIP, 3 interleaved rounds (`npm run bench -- registryIndex --feeds 3` at
      // ff1e439): peak RSS 174/248/239 MB with it, 250/287/265 MB without; all threads' CPU 10.9 s vs 11.3 s.
      return new WorkerIndexSink(new Worker(file, { workerData: { folder, pairsInMemory }, resourceLimits: { maxYoungGenerationSizeMb: 8 } }));
    } catch {
      // No thread could be started (a host that limits them): the same work in this thread.
    }
  }
  return new ThreadIndexSink(await RecordBlocks.create(folder), new TitleWords(folder, pairsInMemory));
}

/**
 * The worker bundle sits next to the extension's bundles in dist/; tests and benchmarks run from
 * out/, so the package's dist/ is looked for further up. Not found (a build without it): this thread.
 */
function findWorkerFile(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.join(here, WORKER_FILE);
  if (fs.existsSync(beside)) return beside;
  for (let dir = here; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'dist', WORKER_FILE);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Writes an encoded batch's record blocks and title words (in the worker, or in this thread). */
export async function writeEncoded(blocks: RecordBlocks, words: TitleWords, batch: EncodedRecords): Promise<void> {
  let start = 0;
  for (const end of batch.blockEnds) {
    await blocks.add(batch.records.subarray(start, end));
    start = end;
  }
  await words.addTitles(Buffer.from(batch.titles.buffer, batch.titles.byteOffset, batch.titles.byteLength).toString('utf8'), batch.first);
}

/** An encoded batch may only start a build or follow whole blocks of the same kind. */
function checkEncodedFollows(pending: number, first: number): void {
  if (pending > 0 || first % RECORDS_PER_BLOCK !== 0) throw new Error('An encoded batch starts on a record block, after no taxpayers added one by one.');
}

/** Taxpayers gathered for the record blocks and TitleWords.addTitles: consecutive ordinals from `first`. */
class TaxpayerBatch {
  private readonly records: string[] = [];
  private readonly titles: string[] = [];
  first = 0;

  get size(): number {
    return this.records.length;
  }

  add(record: string, title: string, ordinal: number): void {
    if (this.records.length === 0) this.first = ordinal;
    this.records.push(record);
    this.titles.push(titleForBatch(title));
  }

  /** The records as RecordBlocks.add takes them: whole blocks of RECORDS_PER_BLOCK, the last one maybe short. */
  recordBlocks(): string[] {
    const blocks: string[] = [];
    for (let i = 0; i < this.records.length; i += RECORDS_PER_BLOCK) blocks.push(this.records.slice(i, i + RECORDS_PER_BLOCK).join(RECORD_SEP));
    return blocks;
  }

  /** The titles as addTitles takes them. */
  joinedTitles(): string {
    return this.titles.join(TITLE_SEPARATOR);
  }
}

class ThreadIndexSink implements IndexSink {
  readonly where = 'thread';
  /** The current record block; its titles go to TitleWords a block at a time, as the worker's do. */
  private batch = new TaxpayerBatch();

  constructor(
    private readonly blocks: RecordBlocks,
    private readonly words: TitleWords,
  ) {}

  add(record: string, title: string, ordinal: number): Promise<void> | undefined {
    this.batch.add(record, title, ordinal);
    return this.batch.size === RECORDS_PER_BLOCK ? this.flushBlock() : undefined;
  }

  async addEncoded(batch: EncodedRecords): Promise<void> {
    checkEncodedFollows(this.batch.size, batch.first);
    await writeEncoded(this.blocks, this.words, batch);
    recycleBatchBuffer(batch.buffer);
  }

  async finish(): Promise<number> {
    await this.flushBlock();
    await this.blocks.finish();
    return this.words.finish();
  }

  async abandon(): Promise<void> {
    await this.blocks.abandon();
    await this.words.abandon();
  }

  private async flushBlock(): Promise<void> {
    const batch = this.batch;
    if (batch.size === 0) return;
    this.batch = new TaxpayerBatch();
    for (const block of batch.recordBlocks()) await this.blocks.add(block);
    await this.words.addTitles(batch.joinedTitles(), batch.first);
  }
}

class WorkerIndexSink implements IndexSink {
  readonly where = 'worker';
  private batch = new TaxpayerBatch();
  private sent = 0;
  private taken = 0;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private finished: ((words: number) => void) | undefined;
  private readonly ended: Promise<never>;

  constructor(private readonly worker: Worker) {
    let fail: (error: Error) => void = () => undefined;
    this.ended = new Promise<never>((_, reject) => (fail = reject));
    this.ended.catch(() => undefined);
    const stop = (error: Error) => {
      this.failure ??= error;
      fail(this.failure);
      this.wake?.();
    };
    worker.on('message', (message: FromIndexWorker) => {
      if (message.kind === 'took') {
        if (message.spare) recycleBatchBuffer(message.spare);
        this.taken = message.batch + 1;
        this.wake?.();
      } else if (message.kind === 'finished') this.finished?.(message.words);
      else stop(new Error(message.message));
    });
    worker.on('error', stop);
    worker.on('exit', () => stop(new Error('The registry index worker stopped before the build was finished.')));
  }

  add(record: string, title: string, ordinal: number): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    this.batch.add(record, title, ordinal);
    if (this.batch.size < TAXPAYERS_PER_BATCH) return undefined;
    this.send();
    return this.sent - this.taken > BATCHES_AHEAD ? this.caughtUp() : undefined;
  }

  addEncoded(batch: EncodedRecords): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    checkEncodedFollows(this.batch.size, batch.first);
    const { buffer, first, records, blockEnds, titles } = batch;
    // Transferred, not copied; the worker sends the buffer back once the batch is written.
    this.worker.postMessage({ kind: 'encoded', batch: this.sent++, buffer, first, records, blockEnds, titles } satisfies ToIndexWorker, [buffer]);
    return this.sent - this.taken > BATCHES_AHEAD ? this.caughtUp() : undefined;
  }

  async finish(): Promise<number> {
    if (this.batch.size > 0) this.send();
    const words = new Promise<number>((resolve) => (this.finished = resolve));
    this.post({ kind: 'finish' });
    try {
      return await Promise.race([words, this.ended]);
    } finally {
      await this.stop();
    }
  }

  async abandon(): Promise<void> {
    await this.stop();
  }

  /** Sends the batch; a batch is whole blocks (the last one may end in a short block). */
  private send(): void {
    const batch = this.batch;
    this.post({ kind: 'taxpayers', batch: this.sent++, first: batch.first, titles: batch.joinedTitles(), blocks: batch.recordBlocks() });
    this.batch = new TaxpayerBatch();
  }

  private post(message: ToIndexWorker): void {
    this.worker.postMessage(message);
  }

  private async caughtUp(): Promise<void> {
    while (!this.failure && this.sent - this.taken > BATCHES_AHEAD / 2) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    if (this.failure) throw this.failure;
  }

  private async stop(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}
