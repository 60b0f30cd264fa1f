// Where an index build sends each taxpayer's record and title: a worker thread (indexWorker.ts) when
// one can start, so deflating the record blocks and folding, splitting, sorting and merging the title
// words (most of the build's CPU time) run beside the list's parsing instead of on the extension
// host's thread; else the same code in this thread. Both write the same files.
import * as path from 'node:path';
import { findPackageFile } from '../files/packageFile';
import { TITLE_SEPARATOR, titleForBatch } from './fold';
import { RECORD_SEP, RECORDS_PER_BLOCK } from './format';
import { recycleBatchBuffer } from './batchBuffers';
import { RecordBlocks } from './recordBlocks';
import type { EncodedBatch } from './listEncoder';
import { TitleWords } from './titleWords';

/** Taxpayers first… as the list encoder wrote them (listEncoder.ts), without the keys. */
export type EncodedRecords = Omit<EncodedBatch, 'keys'>;

/** A batch: the titles of taxpayers first… joined by TITLE_SEPARATOR, and their record blocks; or the same encoded. */
export type ToIndexWorker =
  | { kind: 'taxpayers'; batch: number; first: number; titles: string; blocks: string[] }
  | ({ kind: 'encoded'; batch: number } & EncodedRecords)
  | { kind: 'finish' };
export type FromIndexWorker = { kind: 'took'; batch: number; spare?: ArrayBuffer } | { kind: 'finished'; words: number } | { kind: 'failed'; message: string };

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
      const worker = new Worker(file, { workerData: { folder, pairsInMemory }, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
      const stop = async () => {
        worker.removeAllListeners('exit');
        await worker.terminate();
      };
      const sink = new IndexSink('worker', (message, transfer) => worker.postMessage(message, transfer), stop);
      worker.on('message', (message: FromIndexWorker) => sink.received(message));
      worker.on('error', (error) => sink.fail(error));
      worker.on('exit', () => sink.fail(new Error('The registry index worker stopped before the build was finished.')));
      return sink;
    } catch {
      // No thread could be started (a host that limits them): the same work in this thread.
    }
  }
  const writer: IndexWriter = new IndexWriter(folder, pairsInMemory, (message) => sink.received(message));
  const sink = new IndexSink('thread', (message) => writer.receive(message), () => writer.abandon());
  return sink;
}

/**
 * The worker bundle sits next to the extension's bundles in dist/; tests and benchmarks run from
 * out/, so the package's dist/ is looked for further up. Not found (a build without it): this thread.
 */
function findWorkerFile(): string | undefined {
  return findPackageFile(import.meta.url, WORKER_FILE, path.join('dist', WORKER_FILE));
}

/**
 * The writing half of a build, its record blocks and title words (the worker's side of the messages,
 * or the same in this thread). Messages are handled strictly in order; after a failure, none is.
 */
export class IndexWriter {
  private readonly records: Promise<RecordBlocks>;
  private readonly words: TitleWords;
  private queue = Promise.resolve();
  private failed = false;

  constructor(
    folder: string,
    pairsInMemory: number,
    private readonly reply: (message: FromIndexWorker) => void,
  ) {
    this.records = RecordBlocks.create(folder);
    this.records.catch(() => undefined); // a failure to create records.z is reported by the first message
    this.words = new TitleWords(folder, pairsInMemory);
  }

  receive(message: ToIndexWorker): void {
    this.queue = this.queue.then(async () => {
      if (this.failed) return;
      try {
        this.reply(await this.handle(message));
      } catch (error) {
        this.failed = true;
        this.reply({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    });
  }

  /** Stops after the message in hand and closes the files (the caller removes the folder). */
  async abandon(): Promise<void> {
    this.failed = true;
    await this.queue;
    await (await this.records.catch(() => undefined))?.abandon();
    await this.words.abandon();
  }

  private async handle(message: ToIndexWorker): Promise<FromIndexWorker> {
    const blocks = await this.records;
    if (message.kind === 'finish') {
      await blocks.finish();
      return { kind: 'finished', words: await this.words.finish() };
    }
    if (message.kind === 'taxpayers') {
      for (const block of message.blocks) await blocks.add(block);
      await this.words.addTitles(message.titles, message.first);
      return { kind: 'took', batch: message.batch };
    }
    let start = 0;
    for (const end of message.blockEnds) {
      await blocks.add(message.records.subarray(start, end));
      start = end;
    }
    const titles = message.titles;
    await this.words.addTitles(Buffer.from(titles.buffer, titles.byteOffset, titles.byteLength).toString('utf8'), message.first);
    return { kind: 'took', batch: message.batch, spare: message.buffer };
  }
}

/**
 * Sends the taxpayers on in batches (to the worker, or to this thread's IndexWriter), waiting while it
 * is more than BATCHES_AHEAD batches behind.
 */
export class IndexSink {
  /** The taxpayers added one by one since the last batch: consecutive ordinals from batchFirst. */
  private records: string[] = [];
  private titles: string[] = [];
  private batchFirst = 0;
  private sent = 0;
  private taken = 0;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private finished: ((words: number) => void) | undefined;
  private readonly ended: Promise<never>;
  private rejectEnded: (error: Error) => void = () => undefined;

  constructor(
    /** Where the records and words are written. */
    readonly where: 'worker' | 'thread',
    private readonly send: (message: ToIndexWorker, transfer?: ArrayBuffer[]) => void,
    private readonly stop: () => Promise<void>,
  ) {
    this.ended = new Promise<never>((_, reject) => (this.rejectEnded = reject));
    this.ended.catch(() => undefined);
  }

  received(message: FromIndexWorker): void {
    if (message.kind === 'took') {
      if (message.spare) recycleBatchBuffer(message.spare);
      this.taken = message.batch + 1;
      this.wake?.();
    } else if (message.kind === 'finished') this.finished?.(message.words);
    else this.fail(new Error(message.message));
  }

  fail(error: Error): void {
    this.failure ??= error;
    this.rejectEnded(this.failure);
    this.wake?.();
  }

  /**
   * Taxpayer `ordinal`'s record (encodeRecord) and title; ordinals come in order from 0. A promise
   * only when the caller must wait.
   */
  add(record: string, title: string, ordinal: number): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.records.length === 0) this.batchFirst = ordinal;
    this.records.push(record);
    this.titles.push(titleForBatch(title));
    if (this.records.length < TAXPAYERS_PER_BATCH) return undefined;
    this.sendBatch();
    return this.sent - this.taken > BATCHES_AHEAD ? this.caughtUp() : undefined;
  }

  /**
   * Taxpayers the list encoder wrote, whole record blocks from the first (an encoded batch does not
   * follow taxpayers added one by one). A promise only when the caller must wait.
   */
  addEncoded(batch: EncodedRecords): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.records.length > 0 || batch.first % RECORDS_PER_BLOCK !== 0) {
      throw new Error('An encoded batch starts on a record block, after no taxpayers added one by one.');
    }
    const { buffer, first, records, blockEnds, titles } = batch;
    // Transferred, not copied; the worker sends the buffer back once the batch is written.
    this.send({ kind: 'encoded', batch: this.sent++, buffer, first, records, blockEnds, titles }, [buffer]);
    return this.sent - this.taken > BATCHES_AHEAD ? this.caughtUp() : undefined;
  }

  /** Writes the record and word files; resolves with the number of distinct words. */
  async finish(): Promise<number> {
    if (this.records.length > 0) this.sendBatch();
    const words = new Promise<number>((resolve) => (this.finished = resolve));
    this.send({ kind: 'finish' });
    try {
      return await Promise.race([words, this.ended]);
    } finally {
      await this.stop();
    }
  }

  /** Stops; the caller removes the folder. */
  async abandon(): Promise<void> {
    await this.stop();
  }

  /** Sends the batch: whole record blocks (the last one may be short) and the titles joined. */
  private sendBatch(): void {
    const blocks: string[] = [];
    for (let i = 0; i < this.records.length; i += RECORDS_PER_BLOCK) blocks.push(this.records.slice(i, i + RECORDS_PER_BLOCK).join(RECORD_SEP));
    this.send({ kind: 'taxpayers', batch: this.sent++, first: this.batchFirst, titles: this.titles.join(TITLE_SEPARATOR), blocks });
    this.records = [];
    this.titles = [];
  }

  private async caughtUp(): Promise<void> {
    while (!this.failure && this.sent - this.taken > BATCHES_AHEAD / 2) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    if (this.failure) throw this.failure;
  }
}
