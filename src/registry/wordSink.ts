// Where an index build sends its titles: a worker thread (titleWordsWorker.ts) when one can start,
// so folding, splitting, sorting and merging the title words (about half of the build's CPU time)
// run beside the list's parsing instead of on the extension host's thread; else the same code in
// this thread. Both write the same files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { TITLE_SEPARATOR } from './fold';
import { TitleWords } from './titleWords';

export type ToWordsWorker = { kind: 'titles'; batch: number; first: number; titles: string } | { kind: 'finish' };
export type FromWordsWorker = { kind: 'took'; batch: number } | { kind: 'finished'; words: number } | { kind: 'failed'; message: string };

export interface WordSink {
  /** Where the words are indexed. */
  readonly where: 'worker' | 'thread';
  /** The title of taxpayer `ordinal` (ordinals come in order); a promise only when the caller must wait. */
  add(title: string, ordinal: number): Promise<void> | undefined;
  /** Writes the word files; resolves with the number of distinct words. */
  finish(): Promise<number>;
  /** Stops; the caller removes the folder. */
  abandon(): Promise<void>;
}

/** Titles sent to the worker in one message, and batches it may be behind before add() waits. */
const TITLES_PER_BATCH = 2048;
const BATCHES_AHEAD = 8;
const WORKER_FILE = 'registryWords.js';

export async function openWordSink(folder: string, pairsInMemory: number, options: { worker?: boolean } = {}): Promise<WordSink> {
  const file = options.worker === false ? undefined : findWorkerFile();
  if (file) {
    const { Worker } = await import('node:worker_threads');
    try {
      // A young generation of 8 MB instead of the default (about 34 MB in use in this worker): as
      // fast on a 1.5 M list; the process's peak RSS moved within its run-to-run noise (248-281 MB
      // against 255-271 MB), so this only keeps the worker's own heap smaller.
      return new WorkerWordSink(new Worker(file, { workerData: { folder, pairsInMemory }, resourceLimits: { maxYoungGenerationSizeMb: 8 } }));
    } catch {
      // No thread could be started (a host that limits them): the same work in this thread.
    }
  }
  const words = new TitleWords(folder, pairsInMemory);
  return { where: 'thread', add: (title, ordinal) => words.add(title, ordinal), finish: () => words.finish(), abandon: () => words.abandon() };
}

/**
 * The worker bundle sits next to the extension's bundles in dist/; tests and benchmarks run from
 * out/, so the package's dist/ is looked for further up. Not found (a build without it): this thread.
 */
function findWorkerFile(): string | undefined {
  const beside = path.join(__dirname, WORKER_FILE);
  if (fs.existsSync(beside)) return beside;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'dist', WORKER_FILE);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

class WorkerWordSink implements WordSink {
  readonly where = 'worker';
  private titles: string[] = [];
  private first = 0;
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
    worker.on('message', (message: FromWordsWorker) => {
      if (message.kind === 'took') {
        this.taken = message.batch + 1;
        this.wake?.();
      } else if (message.kind === 'finished') this.finished?.(message.words);
      else stop(new Error(message.message));
    });
    worker.on('error', stop);
    worker.on('exit', () => stop(new Error('The registry index worker stopped before the build was finished.')));
  }

  add(title: string, ordinal: number): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.titles.length === 0) this.first = ordinal;
    // A list's XML cannot hold NUL (the titles' separator), and it separates words as a space would.
    this.titles.push(title.includes(TITLE_SEPARATOR) ? title.replaceAll(TITLE_SEPARATOR, ' ') : title);
    if (this.titles.length < TITLES_PER_BATCH) return undefined;
    this.send();
    return this.sent - this.taken > BATCHES_AHEAD ? this.caughtUp() : undefined;
  }

  async finish(): Promise<number> {
    if (this.titles.length > 0) this.send();
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

  private send(): void {
    this.post({ kind: 'titles', batch: this.sent++, first: this.first, titles: this.titles.join(TITLE_SEPARATOR) });
    this.titles = [];
  }

  private post(message: ToWordsWorker): void {
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
