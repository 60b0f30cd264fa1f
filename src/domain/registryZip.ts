// Opens the registry ZIP that GET /general/GlobalCompany/{AliasType}/{GlobalUserType} returns (base64
// inside a JSON string) and streams its list into the XML parser. What the ZIP holds is undocumented,
// so entry names are not trusted: the entry is chosen by its first bytes, and nothing is written to disk.

import { PassThrough, type Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { RegistryXmlParser, type Taxpayer } from './registryXml';
import { isXmlSpace } from './xmlChars';
import { checkInflation, ENTRY_LIMITS, readBytes, readLocalHeader, ZipArchive, ZipError, ZipLimitError, type InflateLimits, type ZipEntry } from './zip';

export type RegistryZipErrorCode =
  | 'corrupt' // not a ZIP, truncated, or an entry that does not inflate
  | 'unsafeEntryName'
  | 'noUsableEntry'
  | 'multipleLists'
  | 'unsupportedFormat'
  | 'entryTooLarge'
  | 'compressionRatio'; // inflates to far more than its compressed size: a ZIP bomb

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
  /** Largest inflated entry accepted, counted while streaming (default ENTRY_LIMITS.maxBytes, 2 GiB; the full list is ≈ 1 GB). */
  maxEntryBytes?: number;
}

/** zip.ts's limits with the caller's size cap. */
function limitsOf(options: RegistryZipOptions): InflateLimits {
  return { ...ENTRY_LIMITS, maxBytes: options.maxEntryBytes ?? ENTRY_LIMITS.maxBytes };
}

/** Classifies an entry by its first bytes (BOM and leading white space ignored). */
export function sniffFormat(head: Buffer): EntryFormat {
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  while (i < head.length && isXmlSpace(head[i])) i++;
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

/** Inflated bytes buffered ahead of the parser (unless its ListReader asks for another amount). */
const READ_AHEAD_BYTES = 2 * 1024 * 1024;

/** Bytes looked at to tell XML from CSV/JSON/binary. */
const SNIFF_BYTES = 512;

/** The first SNIFF_BYTES of an entry (fewer if it is shorter; undefined if empty), the stream paused after them. */
async function readHead(stream: Readable, entryName: string): Promise<Buffer | undefined> {
  const head = await readBytes(stream, SNIFF_BYTES).catch((e: unknown) => {
    throw corruptEntry(entryName, e);
  });
  return head.length > 0 ? head : undefined;
}

function corruptEntry(entryName: string, e: unknown): RegistryZipError {
  if (e instanceof RegistryZipError) return e;
  if (e instanceof ZipLimitError) return overLimit(e);
  return new RegistryZipError('corrupt', `The ZIP entry "${entryName}" could not be inflated (corrupt data): ${(e as Error)?.message ?? String(e)}`, entryName);
}

function unreadable(e: unknown): unknown {
  if (e instanceof ZipLimitError) return overLimit(e);
  return e instanceof ZipError ? new RegistryZipError('corrupt', `The registry file is not a readable ZIP (corrupt or truncated): ${e.message}`) : e;
}

/** An entry over zip.ts's limits: too large, or a bomb by its ratio (each has its own message for the user). */
export function overLimit(e: ZipLimitError): RegistryZipError {
  const message = `${e.message.charAt(0).toUpperCase()}${e.message.slice(1)}; stopped.`;
  return new RegistryZipError(e.limit === 'size' ? 'entryTooLarge' : 'compressionRatio', message, e.entryName);
}

function unsafeName(name: string): RegistryZipError {
  return new RegistryZipError('unsafeEntryName', `The ZIP holds an entry with an unsafe name ("${name}"); it was not opened.`, name);
}

/**
 * Taxpayers of a registry ZIP (a Buffer or a file path) from its one XML entry, inflated only as fast
 * as the consumer iterates. In batches (one per inflated chunk): an async generator pays a promise and
 * microtask hops per `yield`, a tenth of a full list's parse time per taxpayer. Two XML entries are
 * refused rather than guessed at (reading one would silently leave taxpayers out of the index); CSV or
 * JSON lists give an "unsupported format" error.
 */
export async function* iterateRegistryZipBatches(source: Buffer | string, options: RegistryZipOptions = {}): AsyncGenerator<Taxpayer[], RegistryZipSummary> {
  const zip = await ZipArchive.open(source).catch((e: unknown) => {
    throw unreadable(e);
  });
  try {
    const unsafe = zip.entries.find((e) => isUnsafeEntryName(e.name));
    if (unsafe) throw unsafeName(unsafe.name);
    const files = zip.files();
    const limits = limitsOf(options);
    const list = await findList(zip, files, limits);
    if (list) return yield* parseEntry(list, limits, new RegistryXmlParser());
    throw new RegistryZipError('noUsableEntry', files.length === 0 ? 'The ZIP is empty.' : `None of the ZIP's ${files.length} entries holds a registry list.`);
  } finally {
    await zip.close();
  }
}

/** The one entry whose content is XML, paused after its first bytes; undefined if none is. */
async function findList(zip: ZipArchive, files: readonly ZipEntry[], limits: InflateLimits): Promise<ListEntry | undefined> {
  const otherFormats: Array<{ name: string; format: EntryFormat }> = [];
  let list: ListEntry | undefined;
  try {
    for (const entry of files) {
      const stream = await zip.open(entry, limits).catch((e: unknown) => {
        throw unreadable(e);
      });
      const head = await readHead(stream, entry.name);
      const format = head ? sniffFormat(head) : 'unknown';
      if (format !== 'xml' || !head) {
        stream.destroy();
        if (format !== 'unknown') otherFormats.push({ name: entry.name, format });
        continue;
      }
      if (list) {
        stream.destroy();
        throw new RegistryZipError('multipleLists', `The ZIP holds more than one XML list ("${list.name}" and "${entry.name}"); it is not clear which one to use, so none was read.`, entry.name);
      }
      list = { name: entry.name, stream, head, crc32: entry.crc32, size: entry.size, compressedBytes: () => entry.compressedSize };
    }
  } catch (e) {
    list?.stream.destroy();
    throw e;
  }
  if (!list && otherFormats.length > 0) {
    const f = otherFormats[0];
    throw new RegistryZipError('unsupportedFormat', `The ZIP entry "${f.name}" holds ${f.format.toUpperCase()}, which is not supported yet (only the XML list is).`, f.name);
  }
  return list;
}

export interface RegistryZipSummary {
  entryName: string;
  taxpayers: number;
  /** Inflated size of the entry in bytes. */
  bytes: number;
}

interface ListEntry {
  name: string;
  stream: Readable;
  /** The first bytes, already read from `stream`. */
  head: Buffer;
  /** Checksum from the central directory (unknown while the ZIP is still arriving). */
  crc32?: number;
  /** Inflated size from the central directory (unknown while the ZIP is still arriving). */
  size?: number;
  /** The compressed bytes the inflated ones came from: the directory's size, or those read so far. */
  compressedBytes: () => number;
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

/**
 * Streams one entry into a list reader, taking the CRC-32 of what inflates. It is matched against the
 * directory's at the end when that is known; the taxpayers already handed out are then to be thrown
 * away (the index build does).
 */
async function* parseEntry<B>(entry: ListEntry, limits: InflateLimits, reader: ListReader<B>, checksum?: { crc32?: number }): AsyncGenerator<B, RegistryZipSummary> {
  const { name: entryName, stream: entryStream, head } = entry;
  let crc = 0;
  // The read-ahead lets zlib inflate the next chunks on the thread pool while this thread parses.
  const pass = new PassThrough({ highWaterMark: reader.readAheadBytes ?? READ_AHEAD_BYTES });
  entryStream.on('error', (e) => pass.destroy(corruptEntry(entryName, e)));
  let bytes = 0;
  const feed = (chunk: Buffer): void => {
    bytes += chunk.length;
    crc = zlib.crc32(chunk, crc);
    try {
      checkInflation(entryName, bytes, entry.compressedBytes(), limits);
    } catch (e) {
      throw e instanceof ZipLimitError ? overLimit(e) : e;
    }
    if (entry.size !== undefined && bytes > entry.size) {
      throw new RegistryZipError('corrupt', `The ZIP entry "${entryName}" inflates to more than the ${entry.size} bytes its directory entry declares; stopped.`, entryName);
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

/** The download cannot be read as it arrives (the caller reads the whole file afterwards instead). */
function notStreamable(reason: string): Error {
  return new Error(`The registry ZIP cannot be read while it downloads: ${reason}.`);
}

export interface StreamedEntrySummary extends RegistryZipSummary {
  /** CRC-32 of the inflated entry, to be matched against the central directory once it arrives. */
  crc32: number;
  /** Bytes of deflate data the entry took (zlib stops at the stream's end). */
  compressedBytes: number;
}

/**
 * What `reader` reads of the first entry of a ZIP read front to back as it downloads (local header,
 * then deflate data, which ends by itself). Only a deflated, unencrypted XML entry with a safe name
 * streams; anything else is a notStreamable error, and the caller reads the finished file with
 * iterateRegistryZipBatches. Whether the ZIP holds only this entry, with this CRC-32, only the central
 * directory at the end tells: the caller checks that (ZipArchive) before using what was read.
 */
export async function* streamFirstEntry<B>(zip: Readable, reader: ListReader<B>, options: RegistryZipOptions = {}): AsyncGenerator<B, StreamedEntrySummary> {
  const header = await readLocalHeader(zip);
  if (!header) throw notStreamable('it does not start with a file entry');
  if (header.encrypted) throw notStreamable('the entry is encrypted');
  if (header.method !== 8) throw notStreamable(`the entry is not deflated (method ${header.method})`);
  const { name } = header;
  if (isUnsafeEntryName(name) || name.endsWith('/')) throw notStreamable('the first entry is not a plain file');
  const inflate = zlib.createInflateRaw({ chunkSize: 1 << 16 });
  // The bytes after the deflate data (descriptor, directory) make zlib end the entry; the rest flows on.
  const forwardError = (e: Error): void => void inflate.destroy(e);
  zip.on('error', forwardError);
  zip.pipe(inflate);
  try {
    const head = await readHead(inflate, name);
    if (!head || sniffFormat(head) !== 'xml') throw notStreamable('the first entry is not an XML list');
    const checksum: { crc32?: number } = {};
    // No directory yet: the ratio is judged on the deflate bytes zlib has taken so far.
    const summary = yield* parseEntry({ name, stream: inflate, head, compressedBytes: () => inflate.bytesWritten }, limitsOf(options), reader, checksum);
    return { ...summary, crc32: checksum.crc32 ?? 0, compressedBytes: inflate.bytesWritten };
  } finally {
    zip.off('error', forwardError);
    zip.unpipe(inflate);
    inflate.destroy();
  }
}
