// Opens the registry ZIP that GET /general/GlobalCompany/{AliasType}/{GlobalUserType} returns (base64
// inside a JSON string) and streams its list into the XML parser. What the ZIP holds is undocumented,
// so entry names are not trusted: the entry is chosen by its first bytes, and nothing is written to disk.

import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { crc32 } from './crc32';
import { RegistryXmlParser } from './registryXml';
import type { Taxpayer } from './registryXml';
import type JSZipModule from 'jszip';

export type RegistryZipErrorCode =
  | 'corrupt' // not a ZIP, truncated, or an entry that does not inflate
  | 'unsafeEntryName'
  | 'noUsableEntry'
  | 'multipleLists'
  | 'unsupportedFormat'
  | 'entryTooLarge';

export class RegistryZipError extends Error {
  constructor(
    readonly code: RegistryZipErrorCode,
    message: string,
    readonly entryName?: string,
  ) {
    super(message);
    this.name = 'RegistryZipError';
  }
}

export type EntryFormat = 'xml' | 'json' | 'csv' | 'unknown';

export interface RegistryZipOptions {
  /** Largest inflated entry accepted, counted while streaming (default 4 GiB; the full list is ≈ 1 GB). */
  maxEntryBytes?: number;
}

const DEFAULT_MAX_ENTRY_BYTES = 4 * 1024 ** 3;

/** Classifies an entry by its first bytes (BOM and leading white space ignored). */
export function sniffFormat(head: Buffer): EntryFormat {
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (i >= head.length) return 'unknown';
  const c = head[i];
  if (c === 0x3c) return 'xml';
  if (c === 0x7b || c === 0x5b) return 'json';
  // CSV: printable text (no NUL or other control bytes) with a delimiter on its first line.
  const sample = head.subarray(i, Math.min(head.length, i + 4096));
  for (const b of sample) if (b < 0x09 || (b > 0x0d && b < 0x20)) return 'unknown';
  const nl = sample.indexOf(0x0a);
  const firstLine = sample.subarray(0, nl < 0 ? sample.length : nl).toString('latin1');
  return /[,;\t]/.test(firstLine) ? 'csv' : 'unknown';
}

/** `..` segments, absolute paths, drive letters and backslashes are refused outright. */
export function isUnsafeEntryName(name: string): boolean {
  return name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.split('/').includes('..');
}

interface ZipEntryLike {
  name: string;
  dir: boolean;
  nodeStream(type?: 'nodebuffer'): NodeJS.ReadableStream;
  /** jszip's record of the entry as stored; `crc32` is the checksum from the ZIP's headers. */
  _data?: { crc32?: number; compressedSize?: number; uncompressedSize?: number; localOffset?: number };
}


export interface RegistryZipSummary {
  entryName: string;
  taxpayers: number;
  /** Inflated size of the entry in bytes. */
  bytes: number;
}

type JSZipClass = typeof JSZipModule;

/**
 * jszip, loaded on first use. The build bundles it apart (dist/vendor/jszip.js) and may leave a real
 * `import()` of that CommonJS file, whose namespace `default` is then the exports object holding
 * another `default`: unwrap until the constructor is reached.
 */
export async function loadJSZip(): Promise<JSZipClass> {
  let m: unknown = await import('jszip');
  for (let i = 0; i < 3 && typeof m !== 'function' && m && typeof m === 'object' && 'default' in m; i++) m = (m as { default: unknown }).default;
  if (typeof m !== 'function') throw new Error('jszip could not be loaded.');
  return m as JSZipClass;
}

/** Loads the archive's directory (the compressed data stays in the buffer until streamed). */
async function loadEntries(source: Buffer | string): Promise<ZipEntryLike[]> {
  const data = typeof source === 'string' ? await readFile(source) : source;
  const JSZip = await loadJSZip();
  let zip: InstanceType<JSZipClass>;
  try {
    zip = await JSZip.loadAsync(data);
  } catch (e) {
    throw new RegistryZipError('corrupt', `The registry file is not a readable ZIP (corrupt or truncated): ${(e as Error).message}`);
  }
  // jszip drops entries whose name resolves to nothing (".."): check the names as stored first.
  for (const stored of storedEntryNames(data)) {
    if (isUnsafeEntryName(stored)) {
      throw new RegistryZipError('unsafeEntryName', `The ZIP holds an entry with an unsafe name ("${stored}"); it was not opened.`, stored);
    }
  }
  const entries: ZipEntryLike[] = [];
  zip.forEach((_path, file) => {
    // jszip resolves "a/../b" on load and keeps the name as stored in unsafeOriginalName.
    const stored = file.unsafeOriginalName ?? file.name;
    if (isUnsafeEntryName(stored)) {
      throw new RegistryZipError('unsafeEntryName', `The ZIP holds an entry with an unsafe name ("${stored}"); it was not opened.`, stored);
    }
    if (!file.dir) entries.push(file as unknown as ZipEntryLike);
  });
  return entries;
}

/**
 * Entry names exactly as the central directory stores them (UTF-8 when flagged, else read as
 * Latin-1, enough to see separators and dots). Stops quietly at anything unexpected; ZIP64 archives
 * (over 65,535 entries) are left to jszip's own check.
 */
export function storedEntryNames(zip: Buffer): string[] {
  const names: string[] = [];
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > zip.length) return names;
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < count && at + 46 <= zip.length && zip.readUInt32LE(at) === 0x02014b50; i++) {
    const utf8 = (zip.readUInt16LE(at + 8) & 0x800) !== 0;
    const nameLength = zip.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (next > zip.length) break;
    names.push(zip.toString(utf8 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength));
    at = next;
  }
  return names;
}

/** Inflated bytes buffered ahead of the parser (unless its ListReader asks for another amount). */
const READ_AHEAD_BYTES = 2 * 1024 * 1024;

/** Bytes looked at to tell XML from CSV/JSON/binary. */
const SNIFF_BYTES = 512;

/**
 * Reads the first SNIFF_BYTES (or the whole entry if shorter) and pauses the stream there; the bytes
 * read are returned so parsing can start with them.
 */
async function readHead(stream: Readable, entryName: string): Promise<Buffer | undefined> {
  return new Promise<Buffer | undefined>((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      cleanup();
      resolve(size > 0 ? Buffer.concat(parts) : undefined);
    };
    const onData = (chunk: Buffer): void => {
      parts.push(chunk);
      size += chunk.length;
      if (size >= SNIFF_BYTES) {
        stream.pause();
        done();
      }
    };
    const onError = (e: Error): void => {
      cleanup();
      reject(corruptEntry(entryName, e));
    };
    const cleanup = (): void => {
      stream.off('data', onData);
      stream.off('end', done);
      stream.off('error', onError);
    };
    stream.on('data', onData);
    stream.on('end', done);
    stream.on('error', onError);
  });
}

function corruptEntry(entryName: string, e: unknown): RegistryZipError {
  if (e instanceof RegistryZipError) return e;
  return new RegistryZipError('corrupt', `The ZIP entry "${entryName}" could not be inflated (corrupt data): ${(e as Error)?.message ?? String(e)}`, entryName);
}

/**
 * Taxpayers of a registry ZIP (a Buffer or a file path), in batches as the entry inflates (one batch
 * per inflated chunk, a few hundred taxpayers), from its one entry whose content is XML. Batches
 * because an async generator pays a promise and microtask hops per `yield`: per taxpayer that was a
 * tenth of the parse time of a full list. Two XML entries are refused rather than guessed at: reading
 * only one of them would leave taxpayers out of the offline index without a word. CSV or JSON lists
 * give an "unsupported format" error for now. The entry is inflated only as fast as the consumer
 * iterates, so memory does not grow with the list.
 */
export async function* iterateRegistryZipBatches(source: Buffer | string, options: RegistryZipOptions = {}): AsyncGenerator<Taxpayer[], RegistryZipSummary> {
  const max = options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES;
  // zlib inflates natively (and a file is read as a stream); unusual archives (ZIP64, encryption,
  // other methods, anything that does not add up) go to jszip, which reads or refuses them.
  const entries = (await zlibEntries(source)) ?? (await loadEntries(source));
  const otherFormats: Array<{ name: string; format: EntryFormat }> = [];
  let list: ListEntry | undefined;
  for (const entry of entries) {
    const stream = entry.nodeStream('nodebuffer') as unknown as Readable;
    const head = await readHead(stream, entry.name).catch((e: unknown) => {
      list?.stream.destroy();
      throw e;
    });
    const format = head ? sniffFormat(head) : 'unknown';
    if (format !== 'xml' || !head) {
      stream.destroy();
      if (format !== 'unknown') otherFormats.push({ name: entry.name, format });
      continue;
    }
    if (list) {
      stream.destroy();
      list.stream.destroy();
      throw new RegistryZipError('multipleLists', `The ZIP holds more than one XML list ("${list.name}" and "${entry.name}"); it is not clear which one to use, so none was read.`, entry.name);
    }
    list = { name: entry.name, stream, head, crc32: entry._data?.crc32 };
  }
  if (list) return yield* parseEntry(list, max, new TaxpayerReader());
  if (otherFormats.length > 0) {
    const f = otherFormats[0];
    throw new RegistryZipError('unsupportedFormat', `The ZIP entry "${f.name}" holds ${f.format.toUpperCase()}, which is not supported yet (only the XML list is).`, f.name);
  }
  throw new RegistryZipError('noUsableEntry', entries.length === 0 ? 'The ZIP is empty.' : `None of the ZIP's ${entries.length} entries holds a registry list.`);
}

/** iterateRegistryZipBatches one taxpayer at a time (for callers that want single items). */
export async function* iterateRegistryZip(source: Buffer | string, options: RegistryZipOptions = {}): AsyncGenerator<Taxpayer, RegistryZipSummary> {
  const batches = iterateRegistryZipBatches(source, options);
  for (let r = await batches.next(); ; r = await batches.next()) {
    if (r.done) return r.value;
    yield* r.value;
  }
}

/** Callback form; resolves with the entry name, count and inflated size. */
export async function readRegistryZip(
  source: Buffer | string,
  onTaxpayer: (t: Taxpayer) => void,
  options: RegistryZipOptions = {},
): Promise<RegistryZipSummary> {
  const batches = iterateRegistryZipBatches(source, options);
  for (let r = await batches.next(); ; r = await batches.next()) {
    if (r.done) return r.value;
    for (const t of r.value) onTaxpayer(t);
  }
}

interface ListEntry {
  name: string;
  stream: Readable;
  /** The first bytes, already read from `stream`. */
  head: Buffer;
  /** Checksum from the ZIP's headers, when jszip exposes it. */
  crc32?: number;
}

/**
 * What reads an entry's inflated bytes: chunks in order, then end(); take() hands out what is ready.
 * The general one is the XML parser (taxpayers in batches); the index build has a faster one of its
 * own for the list's usual shape (src/registry/listEncoder.ts).
 */
export interface ListReader<B> {
  write(chunk: Buffer): void;
  end(): void;
  take(): B | undefined;
  readonly taxpayerCount: number;
  /** Inflated bytes to buffer ahead of it (default READ_AHEAD_BYTES). */
  readonly readAheadBytes?: number;
}

/** The XML parser as a ListReader: the taxpayers of each chunk as one batch. */
class TaxpayerReader implements ListReader<Taxpayer[]> {
  private batch: Taxpayer[] = [];
  private readonly parser = new RegistryXmlParser((t) => this.batch.push(t));

  write(chunk: Buffer): void {
    this.parser.write(chunk);
  }

  end(): void {
    this.parser.end();
  }

  take(): Taxpayer[] | undefined {
    if (this.batch.length === 0) return undefined;
    const ready = this.batch;
    this.batch = [];
    return ready;
  }

  get taxpayerCount(): number {
    return this.parser.taxpayerCount;
  }
}

/**
 * Streams one entry into a list reader. The inflated bytes are checked against the entry's CRC-32 at
 * the end: deflate itself has no integrity check, so a damaged byte can inflate "fine" into a wrong tax
 * number. The taxpayers already handed out are then to be thrown away (the index build does).
 */
async function* parseEntry<B>(entry: ListEntry, maxBytes: number, reader: ListReader<B>, checksum?: { crc32?: number }): AsyncGenerator<B, RegistryZipSummary> {
  const { name: entryName, stream: entryStream, head } = entry;
  let crc = 0;
  // jszip's stream is a readable-stream v2 object without async iteration: pipe it into a core
  // PassThrough, which keeps back-pressure and can be iterated. Its 2 MiB of read-ahead lets zlib
  // inflate the next chunks on the thread pool while this thread parses (with the default 16 KiB,
  // parsing waited for every chunk's inflate).
  const pass = new PassThrough({ highWaterMark: reader.readAheadBytes ?? READ_AHEAD_BYTES });
  entryStream.on('error', (e) => pass.destroy(corruptEntry(entryName, e)));
  let bytes = 0;
  const feed = (chunk: Buffer): void => {
    bytes += chunk.length;
    crc = crc32(chunk, crc);
    if (bytes > maxBytes) {
      throw new RegistryZipError('entryTooLarge', `The ZIP entry "${entryName}" inflates to more than ${maxBytes} bytes; stopped.`, entryName);
    }
    reader.write(chunk);
  };
  try {
    feed(head);
    entryStream.pipe(pass);
    for (let b = reader.take(); b !== undefined; b = reader.take()) yield b;
    for await (const chunk of pass) {
      feed(chunk as Buffer);
      for (let b = reader.take(); b !== undefined; b = reader.take()) yield b;
    }
    if (entry.crc32 !== undefined && crc >>> 0 !== entry.crc32 >>> 0) {
      throw new RegistryZipError('corrupt', `The ZIP entry "${entryName}" is damaged: its content does not match its checksum (CRC-32). Download the list again.`, entryName);
    }
    reader.end();
    if (checksum) checksum.crc32 = crc >>> 0;
    for (let b = reader.take(); b !== undefined; b = reader.take()) yield b;
  } finally {
    entryStream.unpipe(pass);
    entryStream.destroy();
    pass.destroy();
  }
  return { entryName, taxpayers: reader.taxpayerCount, bytes };
}

/** Random access to the archive: a Buffer in memory or a file read in pieces. */
interface ZipBytes {
  size: number;
  read(position: number, length: number): Promise<Buffer>;
  /** The bytes [start, end) as a stream. */
  stream(start: number, end: number): Readable;
  close(): Promise<void>;
}

async function zipBytes(source: Buffer | string): Promise<ZipBytes | undefined> {
  if (typeof source !== 'string') {
    return { size: source.length, read: async (p, n) => source.subarray(p, p + n), stream: (a, b) => Readable.from([source.subarray(a, b)]), close: async () => undefined };
  }
  const handle = await open(source, 'r').catch(() => undefined);
  if (!handle) return undefined;
  const { size } = await handle.stat();
  return {
    size,
    read: async (p, n) => {
      const b = Buffer.alloc(Math.max(0, Math.min(n, size - p)));
      await handle.read(b, 0, b.length, p);
      return b;
    },
    stream: (a, b) => createReadStream(source, { start: a, end: b - 1, highWaterMark: 1 << 16 }),
    close: () => handle.close(),
  };
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * The archive's entries with node:zlib streams, or undefined when the archive is not a plain
 * single-disk ZIP this reader handles (jszip then decides). Entry names are checked as stored.
 */
async function zlibEntries(source: Buffer | string): Promise<ZipEntryLike[] | undefined> {
  const zip = await zipBytes(source);
  if (!zip) return undefined;
  try {
    const tailStart = Math.max(0, zip.size - 65_557);
    const tail = await zip.read(tailStart, zip.size - tailStart);
    const at = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (at < 0 || at + 22 > tail.length || tail.readUInt32LE(at) !== EOCD || at + 22 + tail.readUInt16LE(at + 20) !== tail.length) return undefined;
    const count = tail.readUInt16LE(at + 10);
    const cdSize = tail.readUInt32LE(at + 12);
    const cdOffset = tail.readUInt32LE(at + 16);
    if (tail.readUInt16LE(at + 4) !== 0 || count === 0xffff || cdOffset === 0xffffffff || cdOffset + cdSize > tailStart + at) return undefined;
    const cd = await zip.read(cdOffset, cdSize);
    const entries: ZipEntryLike[] = [];
    let p = 0;
    for (let i = 0; i < count; i++) {
      if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL) return undefined;
      const flags = cd.readUInt16LE(p + 8);
      const method = cd.readUInt16LE(p + 10);
      const crc = cd.readUInt32LE(p + 16);
      const compressed = cd.readUInt32LE(p + 20);
      const uncompressed = cd.readUInt32LE(p + 24);
      const nameLength = cd.readUInt16LE(p + 28);
      const local = cd.readUInt32LE(p + 42);
      const next = p + 46 + nameLength + cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32);
      if (next > cd.length || (flags & 1) !== 0 || (method !== 0 && method !== 8) || compressed === 0xffffffff || uncompressed === 0xffffffff || local === 0xffffffff) return undefined;
      const name = cd.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength);
      if (isUnsafeEntryName(name)) throw new RegistryZipError('unsafeEntryName', `The ZIP holds an entry with an unsafe name ("${name}"); it was not opened.`, name);
      p = next;
      if (name.endsWith('/')) continue;
      const header = await zip.read(local, 30);
      if (header.length < 30 || header.readUInt32LE(0) !== LOCAL) return undefined;
      const start = local + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
      if (start + compressed > zip.size) return undefined;
      entries.push({
        name,
        dir: false,
        _data: { crc32: crc, compressedSize: compressed, uncompressedSize: uncompressed, localOffset: local },
        nodeStream: () => {
          const raw = zip.stream(start, start + compressed);
          if (method === 0) return raw;
          const inflate = zlib.createInflateRaw({ chunkSize: 1 << 16 });
          raw.on('error', (e) => inflate.destroy(e));
          return raw.pipe(inflate);
        },
      });
    }
    return entries;
  } finally {
    // A file's streams open the file themselves; the handle was for the directory only.
    await zip.close();
  }
}

/** The API returns the ZIP as base64 inside a JSON string; this turns that string into bytes. */
export function registryZipFromBase64(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}

/** The download cannot be read as it arrives (the caller reads the whole file afterwards instead). */
export class NotStreamableError extends Error {
  constructor(reason: string) {
    super(`The registry ZIP cannot be read while it downloads: ${reason}.`);
    this.name = 'NotStreamableError';
  }
}

export interface StreamedEntrySummary extends RegistryZipSummary {
  /** CRC-32 of the inflated entry, to be matched against the central directory once it arrives. */
  crc32: number;
  /** Bytes of deflate data the entry took (zlib stops at the stream's end). */
  compressedBytes: number;
}

/** The next `n` bytes of a paused stream (fewer only if it ends first). */
async function readBytes(stream: Readable, n: number): Promise<Buffer> {
  for (;;) {
    const chunk = stream.read(n) as Buffer | null;
    if (chunk) return chunk;
    if (stream.readableEnded) return (stream.read() as Buffer | null) ?? Buffer.alloc(0);
    await new Promise<void>((resolve, reject) => {
      const done = (): void => {
        stream.off('readable', done);
        stream.off('end', done);
        stream.off('error', fail);
        resolve();
      };
      const fail = (e: Error): void => {
        stream.off('readable', done);
        stream.off('end', done);
        reject(e);
      };
      stream.once('readable', done);
      stream.once('end', done);
      stream.once('error', fail);
    });
  }
}

/**
 * Taxpayers of the first entry of a ZIP read front to back as it downloads (local header, then its
 * deflate data, which ends by itself). Only the plain case streams: a deflated, unencrypted entry with
 * a safe name whose content is XML. Anything else is a NotStreamableError, and the caller reads the
 * finished file with iterateRegistryZipBatches, which decides about the other cases as it always has.
 * Whether the ZIP holds only this entry, and with this CRC-32, is known only from the central
 * directory at the end: the caller checks that (zipFileEntries) before using what was read.
 */
export function streamFirstEntryBatches(zip: Readable, options: RegistryZipOptions = {}): AsyncGenerator<Taxpayer[], StreamedEntrySummary> {
  return streamFirstEntry(zip, new TaxpayerReader(), options);
}

/** streamFirstEntryBatches with another reader of the entry's bytes (the index build's own). */
export async function* streamFirstEntry<B>(zip: Readable, reader: ListReader<B>, options: RegistryZipOptions = {}): AsyncGenerator<B, StreamedEntrySummary> {
  const header = await readBytes(zip, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL) throw new NotStreamableError('it does not start with a file entry');
  const flags = header.readUInt16LE(6);
  const method = header.readUInt16LE(8);
  if (flags & 0x0001) throw new NotStreamableError('the entry is encrypted');
  if (method !== 8) throw new NotStreamableError(`the entry is not deflated (method ${method})`);
  const nameLength = header.readUInt16LE(26);
  const headerRest = nameLength + header.readUInt16LE(28);
  const rest = await readBytes(zip, headerRest);
  if (rest.length < headerRest) throw new NotStreamableError('the ZIP ends inside its first header');
  const name = rest.toString(flags & 0x0800 ? 'utf8' : 'latin1', 0, nameLength);
  if (isUnsafeEntryName(name) || name.endsWith('/')) throw new NotStreamableError('the first entry is not a plain file');
  const inflate = zlib.createInflateRaw({ chunkSize: 1 << 16 });
  // The bytes after the deflate data (descriptor, directory) make zlib end the entry; the rest flows on.
  const forwardError = (e: Error): void => void inflate.destroy(e);
  zip.on('error', forwardError);
  zip.pipe(inflate);
  try {
    const head = await readHead(inflate, name);
    if (!head || sniffFormat(head) !== 'xml') throw new NotStreamableError('the first entry is not an XML list');
    const checksum: { crc32?: number } = {};
    const summary = yield* parseEntry({ name, stream: inflate, head }, options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES, reader, checksum);
    return { ...summary, crc32: checksum.crc32 ?? 0, compressedBytes: inflate.bytesWritten };
  } finally {
    zip.off('error', forwardError);
    zip.unpipe(inflate);
    inflate.destroy();
  }
}

export interface ZipFileEntry {
  name: string;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Where the entry's local header starts. */
  localOffset: number;
}

/** The file entries of a plain ZIP file as its central directory gives them (undefined for anything unusual). */
export async function zipFileEntries(file: string): Promise<ZipFileEntry[] | undefined> {
  const entries = await zlibEntries(file);
  return entries?.map((e) => ({
    name: e.name,
    crc32: (e._data?.crc32 ?? 0) >>> 0,
    compressedSize: e._data?.compressedSize ?? -1,
    uncompressedSize: e._data?.uncompressedSize ?? -1,
    localOffset: e._data?.localOffset ?? -1,
  }));
}
