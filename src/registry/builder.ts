// Builds the offline registry index from a downloaded registry ZIP, streaming: taxpayers are
// written to the record file as they are parsed; only the numbers (offsets, keys, postings) stay in
// memory until the end. The index is built in a temporary folder and swapped in by a rename.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Taxpayer } from '../domain/registryXml';
import { foldedWords } from './fold';
import { CURRENT_POINTER, FILES, INDEX_FORMAT, TAX_BLOCK, TAX_ENTRY_BYTES, taxNumberKey, toCompact, type IndexMeta } from './format';
import { GrowableFloat64, GrowableUint32 } from './growable';

export interface IndexSource {
  aliasType: string;
  userType: string;
  zipBytes: number;
  downloadedAt?: Date;
}

export interface BuildOptions {
  signal?: AbortSignal;
  /** Called every few thousand taxpayers with the count so far. */
  onProgress?: (taxpayers: number) => void;
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

  async appendText(text: string): Promise<void> {
    // Most records fit the buffer's free space: encode straight into it.
    const free = this.buf.length - this.used;
    if (text.length * 3 <= free) {
      this.used += this.buf.write(text, this.used, 'utf8');
      return;
    }
    await this.append(Buffer.from(text, 'utf8'));
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

/** Collects the index's numbers while the records stream to disk. */
export class IndexBuilder {
  private readonly offsets = new GrowableFloat64(1 << 16);
  private readonly keys = new GrowableFloat64(1 << 16);
  private readonly postings = new Map<string, GrowableUint32>();
  private count = 0;

  private constructor(
    readonly folder: string,
    private readonly records: FileAppender,
  ) {}

  static async create(folder: string): Promise<IndexBuilder> {
    await fs.promises.mkdir(folder, { recursive: true });
    return new IndexBuilder(folder, await FileAppender.create(path.join(folder, FILES.records)));
  }

  get taxpayers(): number {
    return this.count;
  }

  async add(t: Taxpayer): Promise<void> {
    const ordinal = this.count++;
    this.offsets.push(this.records.offset);
    this.keys.push(taxNumberKey(t.Identifier));
    await this.records.appendText(JSON.stringify(toCompact(t)));
    for (const word of new Set(foldedWords(t.Title))) {
      let list = this.postings.get(word);
      if (!list) this.postings.set(word, (list = new GrowableUint32()));
      list.push(ordinal);
    }
  }

  /** Writes the lookup files and meta.json; the folder is then a complete index. */
  async finish(source: IndexSource): Promise<IndexMeta> {
    this.offsets.push(this.records.offset);
    await this.records.close();
    await writeFloat64s(path.join(this.folder, FILES.offsets), this.offsets.view());
    await this.writeTaxNumbers();
    const words = await this.writeWords();
    const meta: IndexMeta = {
      format: INDEX_FORMAT,
      aliasType: source.aliasType,
      userType: source.userType,
      downloadedAt: (source.downloadedAt ?? new Date()).toISOString(),
      taxpayers: this.count,
      zipBytes: source.zipBytes,
      words,
    };
    await fs.promises.writeFile(path.join(this.folder, FILES.meta), JSON.stringify(meta, null, 2) + '\n');
    return meta;
  }

  async abandon(): Promise<void> {
    await this.records.close().catch(() => undefined);
    await fs.promises.rm(this.folder, { recursive: true, force: true });
  }

  private async writeTaxNumbers(): Promise<void> {
    const keys = this.keys.view();
    const order = new Uint32Array(keys.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    // Equal keys keep list order (the sort is stable), so the first entry of a duplicate wins.
    order.sort((a, b) => keys[a] - keys[b]);
    const table = Buffer.allocUnsafe(order.length * TAX_ENTRY_BYTES);
    const sparse: number[] = [];
    let n = 0;
    let previous = Number.NaN;
    for (const ordinal of order) {
      const key = keys[ordinal];
      if (Number.isNaN(key) || key === previous) continue;
      previous = key;
      if (n % TAX_BLOCK === 0) sparse.push(key);
      table.writeDoubleLE(key, n * TAX_ENTRY_BYTES);
      table.writeUInt32LE(ordinal, n * TAX_ENTRY_BYTES + 8);
      n++;
    }
    await fs.promises.writeFile(path.join(this.folder, FILES.taxNumbers), table.subarray(0, n * TAX_ENTRY_BYTES));
    await writeFloat64s(path.join(this.folder, FILES.taxSparse), Float64Array.from(sparse));
  }

  private async writeWords(): Promise<number> {
    const words = [...this.postings.keys()].sort();
    const post = await FileAppender.create(path.join(this.folder, FILES.wordPostings));
    const dict: string[] = [];
    let start = 0;
    for (const word of words) {
      const list = (this.postings.get(word) as GrowableUint32).view();
      await post.append(Buffer.from(list.buffer, list.byteOffset, list.byteLength));
      dict.push(`${word}\t${start}\t${list.length}`);
      start += list.length;
    }
    await post.close();
    await fs.promises.writeFile(path.join(this.folder, FILES.wordDict), dict.join('\n') + '\n');
    this.postings.clear();
    return words.length;
  }
}

async function writeFloat64s(file: string, values: Float64Array): Promise<void> {
  // Typed arrays are little-endian on every platform VS Code runs on.
  await fs.promises.writeFile(file, Buffer.from(values.buffer, values.byteOffset, values.byteLength));
}

/**
 * Builds an index from a stream of taxpayers into `storageDir` and makes it the current one.
 * A cancelled or failed build leaves the previous index untouched and no partial folder behind.
 */
export async function buildIndex(storageDir: string, taxpayers: AsyncIterable<Taxpayer>, source: IndexSource, options: BuildOptions = {}): Promise<IndexMeta> {
  await fs.promises.mkdir(storageDir, { recursive: true });
  await removeStaleBuilds(storageDir);
  const name = `index-${Date.now()}-${randomBytes(4).toString('hex')}`;
  const builder = await IndexBuilder.create(path.join(storageDir, `tmp-${name}`));
  try {
    for await (const t of taxpayers) {
      if (options.signal?.aborted) throw new IndexBuildCancelledError();
      await builder.add(t);
      if (builder.taxpayers % 5000 === 0) options.onProgress?.(builder.taxpayers);
    }
    const meta = await builder.finish(source);
    await fs.promises.rename(builder.folder, path.join(storageDir, name));
    await installIndex(storageDir, name);
    return meta;
  } catch (error) {
    await builder.abandon();
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
