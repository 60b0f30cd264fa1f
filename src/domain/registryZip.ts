// Opens the registry ZIP that GET /general/GlobalCompany/{AliasType}/{GlobalUserType} returns (base64
// inside a JSON string) and streams its list into the XML parser. What the ZIP holds is undocumented,
// so entry names are not trusted: the entry is chosen by its first bytes, and nothing is written to disk.

import { readFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';
import { RegistryXmlParser } from './registryXml';
import type { Taxpayer } from './registryXml';
import type JSZipModule from 'jszip';

export type RegistryZipErrorCode =
  | 'corrupt' // not a ZIP, truncated, or an entry that does not inflate
  | 'unsafeEntryName'
  | 'noUsableEntry'
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
 * Taxpayers of a registry ZIP (a Buffer or a file path), one by one. Picks the first entry whose content
 * is XML; CSV or JSON lists give an "unsupported format" error for now. The entry is inflated only as
 * fast as the consumer iterates, so memory does not grow with the list.
 */
export async function* iterateRegistryZip(source: Buffer | string, options: RegistryZipOptions = {}): AsyncGenerator<Taxpayer, RegistryZipSummary> {
  const max = options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES;
  const entries = await loadEntries(source);
  const otherFormats: Array<{ name: string; format: EntryFormat }> = [];
  for (const entry of entries) {
    const stream = entry.nodeStream('nodebuffer') as unknown as Readable;
    const head = await readHead(stream, entry.name);
    const format = head ? sniffFormat(head) : 'unknown';
    if (format !== 'xml' || !head) {
      stream.destroy();
      if (format !== 'unknown') otherFormats.push({ name: entry.name, format });
      continue;
    }
    return yield* parseEntry(entry.name, stream, head, max);
  }
  if (otherFormats.length > 0) {
    const f = otherFormats[0];
    throw new RegistryZipError('unsupportedFormat', `The ZIP entry "${f.name}" holds ${f.format.toUpperCase()}, which is not supported yet (only the XML list is).`, f.name);
  }
  throw new RegistryZipError('noUsableEntry', entries.length === 0 ? 'The ZIP is empty.' : `None of the ZIP's ${entries.length} entries holds a registry list.`);
}

/** Callback form of iterateRegistryZip; resolves with the entry name, count and inflated size. */
export async function readRegistryZip(
  source: Buffer | string,
  onTaxpayer: (t: Taxpayer) => void,
  options: RegistryZipOptions = {},
): Promise<RegistryZipSummary> {
  const it = iterateRegistryZip(source, options);
  for (let r = await it.next(); ; r = await it.next()) {
    if (r.done) return r.value;
    onTaxpayer(r.value);
  }
}

async function* parseEntry(entryName: string, entryStream: Readable, head: Buffer, maxBytes: number): AsyncGenerator<Taxpayer, RegistryZipSummary> {
  // jszip's stream is a readable-stream v2 object without async iteration: pipe it into a core
  // PassThrough, which keeps back-pressure and can be iterated.
  const pass = new PassThrough();
  entryStream.on('error', (e) => pass.destroy(corruptEntry(entryName, e)));
  let batch: Taxpayer[] = [];
  const parser = new RegistryXmlParser((t) => batch.push(t));
  let bytes = 0;
  const feed = (chunk: Buffer): void => {
    bytes += chunk.length;
    if (bytes > maxBytes) {
      throw new RegistryZipError('entryTooLarge', `The ZIP entry "${entryName}" inflates to more than ${maxBytes} bytes; stopped.`, entryName);
    }
    parser.write(chunk);
  };
  try {
    feed(head);
    entryStream.pipe(pass);
    yield* takeBatch();
    for await (const chunk of pass) {
      feed(chunk as Buffer);
      if (batch.length > 0) yield* takeBatch();
    }
    parser.end();
    yield* takeBatch();
  } finally {
    entryStream.unpipe(pass);
    entryStream.destroy();
    pass.destroy();
  }
  return { entryName, taxpayers: parser.taxpayerCount, bytes };

  function takeBatch(): Taxpayer[] {
    const ready = batch;
    batch = [];
    return ready;
  }
}

/** The API returns the ZIP as base64 inside a JSON string; this turns that string into bytes. */
export function registryZipFromBase64(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}
