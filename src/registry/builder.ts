// Builds the offline registry index (format.ts) from a downloaded registry ZIP in one streaming pass
// with bounded memory. The index is built in a temporary folder and put in place under the list's
// lock, which several windows share (listStorage.ts).

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Taxpayer } from '../domain/registryXml';
import { iterateRegistryZipBatches, type RegistryZipOptions } from '../domain/registryZip';
import { removeRetrying } from '../files/lockedFiles';
import { encodeRecord, FILES, INDEX_FORMAT, taxNumberKey, type IndexMeta } from './format';
import { openIndexSink, type IndexSink } from './indexSink';
import type { EncodedBatch } from './listEncoder';
import { buildFolderName, installIndexFolder } from './listStorage';
import { TaxNumberTable } from './taxNumberTable';
import { RUN_PAIRS } from './titleWords';

/** What meta.json records of the list (its ZIP's path, so an index of an older format can be rebuilt from it); downloaded now unless said. */
export type IndexSource = Pick<IndexMeta, 'aliasType' | 'userType' | 'zipBytes' | 'zipPath'> & { downloadedAt?: Date };

export interface BuildOptions extends RegistryZipOptions {
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
 * An index being built in a temporary folder of `storageDir`, in one streaming pass: the tax-number keys
 * in memory (taxNumberTable.ts), each taxpayer's record and title to the index sink (indexSink.ts: a
 * worker thread, which writes the record blocks and the words). Readers see nothing of it until
 * install(); abandon() removes it. A download that indexes while it arrives (streamingIndex.ts) installs
 * only once the finished ZIP has been checked.
 */
export class PendingIndex {
  private taxNumbers = new TaxNumberTable();
  private count = 0;
  private reported = 0;

  private constructor(
    private readonly storageDir: string,
    private readonly name: string,
    private readonly folder: string,
    private readonly sink: IndexSink,
    private readonly options: BuildOptions,
  ) {}

  static async start(storageDir: string, options: BuildOptions = {}): Promise<PendingIndex> {
    const name = `index-${Date.now()}-${randomBytes(4).toString('hex')}`;
    const folder = path.join(storageDir, buildFolderName(name));
    await fs.promises.mkdir(folder, { recursive: true });
    const sink = await openIndexSink(folder, options.wordPairsInMemory ?? RUN_PAIRS, { worker: options.inWorker });
    return new PendingIndex(storageDir, name, folder, sink, options);
  }

  /** Adds taxpayers, batches of them (iterateRegistryZipBatches) or encoded batches (listEncoder.ts); resolves with what the iterator returns. */
  async addFrom<R>(taxpayers: AsyncIterable<Taxpayer | readonly Taxpayer[] | EncodedBatch> | AsyncIterator<Taxpayer | readonly Taxpayer[] | EncodedBatch, R>): Promise<R | undefined> {
    const it = Symbol.asyncIterator in taxpayers ? taxpayers[Symbol.asyncIterator]() : taxpayers;
    for (let r = await it.next(); ; r = await it.next()) {
      if (r.done) return r.value as R | undefined;
      if (this.options.signal?.aborted) {
        await it.return?.();
        throw new IndexBuildCancelledError();
      }
      const item = r.value;
      if ('blockEnds' in item) {
        const io = this.addEncoded(item);
        if (io) await io;
      } else {
        for (const t of Array.isArray(item) ? (item as readonly Taxpayer[]) : [item as Taxpayer]) {
          const io = this.add(t);
          if (io) await io;
        }
      }
      if (this.count - this.reported >= 5000) {
        this.reported = this.count - (this.count % 5000);
        this.options.onProgress?.(this.reported);
      }
    }
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
  private add(t: Taxpayer): Promise<void> | undefined {
    const ordinal = this.count++;
    // A malformed number has no key (NaN): the table counts its ordinal and leaves it out.
    this.taxNumbers.add(taxNumberKey(t.Identifier));
    return this.sink.add(encodeRecord(t), t.Title, ordinal);
  }

  /** Adds a batch the list encoder wrote (listEncoder.ts): the same as adding its taxpayers one by one. */
  private addEncoded(batch: EncodedBatch): Promise<void> | undefined {
    if (batch.first !== this.count) throw new Error(`Encoded taxpayers come in order: ${batch.first} came after ${this.count - 1}.`);
    for (let i = 0; i < batch.keys.length; i++) this.taxNumbers.add(batch.keys[i]);
    this.count += batch.keys.length;
    return this.sink.addEncoded(batch);
  }

  /** Writes the lookup files and meta.json; the folder is then a complete index. */
  async finish(source: IndexSource): Promise<IndexMeta> {
    // The records and word files are finished (in the worker) while the tax numbers are sorted and written here.
    const written = this.sink.finish();
    written.catch(() => undefined); // awaited below; a failure meanwhile is not "unhandled"
    await this.taxNumbers.write(this.folder);
    this.taxNumbers = new TaxNumberTable();
    const words = await written;
    const files: Record<string, number> = {};
    for (const name of Object.values(FILES)) if (name !== FILES.meta) files[name] = (await fs.promises.stat(path.join(this.folder, name))).size;
    const zipMtimeMs = source.zipPath ? (await fs.promises.stat(source.zipPath).catch(() => undefined))?.mtimeMs : undefined;
    const meta: IndexMeta = {
      format: INDEX_FORMAT,
      aliasType: source.aliasType,
      userType: source.userType,
      downloadedAt: (source.downloadedAt ?? new Date()).toISOString(),
      taxpayers: this.count,
      zipBytes: source.zipBytes,
      words,
      ...(source.zipPath ? { zipPath: source.zipPath } : {}),
      ...(zipMtimeMs !== undefined ? { zipMtimeMs } : {}),
      files,
    };
    await fs.promises.writeFile(path.join(this.folder, FILES.meta), JSON.stringify(meta, null, 2) + '\n');
    return meta;
  }

  /** Makes the finished index the current one; the one it replaces goes once no window reads it. */
  install(): Promise<void> {
    return installIndexFolder(this.storageDir, this.folder, this.name, this.options.signal);
  }

  async abandon(): Promise<void> {
    await this.sink.abandon().catch(() => undefined);
    // A folder another program holds for longer is swept at the next start (its build's process is gone then).
    await removeRetrying(this.folder).catch(() => undefined);
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

/** An index built from a registry ZIP file on disk (after a download, or to upgrade an index of an older format). */
export function buildIndexFromZip(zipPath: string, storageDir: string, source: IndexSource, options: BuildOptions = {}) {
  const taxpayers = iterateRegistryZipBatches(zipPath, { maxEntryBytes: options.maxEntryBytes });
  return buildIndex(storageDir, taxpayers, { zipPath: path.resolve(zipPath), ...source }, options);
}
