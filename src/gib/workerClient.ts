// The extension host's side of the GİB rules worker: starts dist/gibWorker.js (or, for tests, runs the
// engine they pass in this thread), loads the rules once, and validates documents one at a time, each
// at its latest text (validate()). Plain Node. It imports no engine module (types only): fontoxpath and
// slimdom ship once, inside dist/gibWorker.js (test/unit/project/bundles.test.ts).

import * as path from 'node:path';
import { findPackageFile } from '../files/packageFile';
import type { Worker } from 'node:worker_threads';
import type { GibEngine, GibValidation } from './engine';
import type { FromGibWorker, GibWorkerSource, ToGibWorker } from './workerProtocol';

export const GIB_WORKER_FILE = 'gibWorker.js';

export function findGibWorkerFile(): string | undefined {
  return findPackageFile(import.meta.url, GIB_WORKER_FILE, path.join('dist', GIB_WORKER_FILE));
}

export interface GibRulesInfo {
  readonly release: string | undefined;
  readonly hasRules: boolean;
  readonly hasSchemas: boolean;
}

interface Waiting {
  key: string;
  text: string;
  resolve: (v: GibValidation | undefined) => void;
  reject: (e: Error) => void;
}

export class GibWorkerClient {
  private queue: Waiting[] = [];
  private running = false;
  private disposed = false;
  private nextId = 1;
  private readonly answers = new Map<number, { resolve: (v: GibValidation | undefined) => void; reject: (e: Error) => void }>();
  /** The request the worker is checking now. */
  private inFlight: { key: string; id: number } | undefined;

  private constructor(
    readonly info: GibRulesInfo,
    private readonly worker: Worker | undefined,
    private readonly inThread: GibEngine | undefined,
    /** Shared with the worker: the id of the request it should stop (worker.ts). */
    private readonly stop: Int32Array | undefined,
  ) {
    worker?.on('message', (m: FromGibWorker) => {
      if (m.kind !== 'result' && m.kind !== 'failed' && m.kind !== 'stopped') return;
      const a = this.answers.get(m.id);
      this.answers.delete(m.id);
      if (m.kind === 'result') a?.resolve(m.validation);
      else if (m.kind === 'stopped') a?.resolve(undefined);
      else a?.reject(new Error(m.message));
    });
    worker?.on('error', (e) => {
      for (const a of this.answers.values()) a.reject(e);
      this.answers.clear();
    });
  }

  /**
   * Starts the worker and loads the rules. `inThread` (engineSource.ts's engineFrom, passed by tests)
   * runs the engine in this thread instead.
   */
  static async start(source: GibWorkerSource, options: { workerFile?: string; inThread?: (source: GibWorkerSource) => Promise<GibEngine | undefined> } = {}): Promise<GibWorkerClient> {
    if (options.inThread) {
      const engine = await options.inThread(source);
      return new GibWorkerClient({ release: engine?.release, hasRules: engine?.hasRules ?? false, hasSchemas: engine?.hasSchemas ?? false }, undefined, engine, undefined);
    }
    const file = options.workerFile ?? findGibWorkerFile();
    if (!file) throw new Error(`${GIB_WORKER_FILE} is missing beside the extension's bundles (npm run build)`);
    const { Worker } = await import('node:worker_threads');
    const worker = new Worker(file);
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const loaded = await new Promise<FromGibWorker>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage({ kind: 'load', source, stop: stop.buffer as SharedArrayBuffer } satisfies ToGibWorker);
    });
    if (loaded.kind === 'loadFailed') {
      await worker.terminate();
      throw new Error(loaded.message);
    }
    if (loaded.kind !== 'loaded') throw new Error(`the GİB rules worker answered ${loaded.kind}`);
    worker.unref();
    return new GibWorkerClient({ release: loaded.release, hasRules: loaded.hasRules, hasSchemas: loaded.hasSchemas }, worker, undefined, stop);
  }

  get inWorker(): boolean {
    return this.worker !== undefined;
  }

  /**
   * GİB's verdict on `text`; `key` names the document (e.g. its URI): a request of the same key still
   * waiting is superseded (answered undefined), and one being checked in the worker is stopped there
   * (answered undefined). Undefined also when there are no rules or schemas at all, and for every
   * request not answered when the client is disposed (the one in the worker included).
   */
  validate(key: string, text: string): Promise<GibValidation | undefined> {
    if (this.disposed || (!this.info.hasRules && !this.info.hasSchemas)) return Promise.resolve(undefined);
    if (this.stop && this.inFlight?.key === key) Atomics.store(this.stop, 0, this.inFlight.id);
    return new Promise((resolve, reject) => {
      for (const w of this.queue.filter((q) => q.key === key)) w.resolve(undefined);
      this.queue = this.queue.filter((q) => q.key !== key);
      this.queue.push({ key, text, resolve, reject });
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        try {
          next.resolve(await this.run(next.key, next.text));
        } catch (e) {
          // The one in the worker when the client was disposed (new rules): superseded, asked again of the next client.
          if (this.disposed) next.resolve(undefined);
          else next.reject(e as Error);
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async run(key: string, text: string): Promise<GibValidation | undefined> {
    if (!this.worker) return this.inThread!.validate(text);
    const id = this.nextId++;
    this.inFlight = { key, id };
    try {
      return await new Promise<GibValidation | undefined>((resolve, reject) => {
        this.answers.set(id, { resolve, reject });
        this.worker!.postMessage({ kind: 'validate', id, text } satisfies ToGibWorker);
      });
    } finally {
      this.inFlight = undefined;
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const w of this.queue) w.resolve(undefined);
    this.queue = [];
    // A terminated worker never answers: the request it holds must not wait forever.
    for (const a of this.answers.values()) a.reject(new Error('the GİB rules worker was stopped'));
    this.answers.clear();
    await this.worker?.terminate();
  }
}
