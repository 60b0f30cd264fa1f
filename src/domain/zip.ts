// Reading ZIP archives (the registry list arrives as one): the central directory listed, ZIP64
// included; an entry streamed, inflated by node:zlib; an entry checked whole against its size and
// CRC-32 (deflate has no check of its own, so a damaged byte can inflate "fine" into a wrong tax
// number); and the local header that starts a ZIP still arriving. Written: a ZIP of one entry as
// its content streams in (the sandbox's registry list, hundreds of MB), deflated by node:zlib.

import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';

/** The archive is not a readable ZIP: the message says what is wrong, in lower case, to follow a colon. */
export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipError';
  }
}

/**
 * What one entry may inflate to. Sized for the registry list, the largest thing read from a ZIP:
 *   - maxBytes, 2 GiB: the full GİB list is estimated at 0.5-1 GB of XML and the sandbox streams about
 *     600 MB, so the real list fits twice over; past that only a bomb's CPU and disk time would grow.
 *   - maxRatio, 100 (inflated bytes per compressed byte): the list compresses about 8:1 (the sandbox's,
 *     at any deflate level) to 15:1 (a GİB-shaped 200 MiB list in 14 MB), so 100 leaves it more than six
 *     times the room; deflate reaches about 1,000:1 on runs of one byte, which is what a bomb is made of.
 *   - ratioFloorBytes, 16 MiB: entries that inflate to less are never judged by their ratio (a small,
 *     repetitive list compresses far better, and 16 MiB costs a tenth of a second to inflate).
 */
export interface InflateLimits {
  maxBytes: number;
  maxRatio: number;
  ratioFloorBytes: number;
}

export const ENTRY_LIMITS: Readonly<InflateLimits> = { maxBytes: 2 * 1024 ** 3, maxRatio: 100, ratioFloorBytes: 16 * 1024 ** 2 };

/** An entry that inflates, or says it inflates, beyond ENTRY_LIMITS: refused before or while inflating. */
export class ZipLimitError extends ZipError {
  constructor(
    /** 'size': more than maxBytes; 'ratio': more than maxRatio times its compressed size. */
    readonly limit: 'size' | 'ratio',
    readonly entryName: string,
    message: string,
  ) {
    super(message);
    this.name = 'ZipLimitError';
  }
}

/**
 * Throws ZipLimitError when `inflated` bytes out of `compressed` bytes of deflate data break a limit;
 * called with the sizes a directory declares before inflating, and with the running counts while
 * inflating a stream whose sizes are not known yet.
 */
export function checkInflation(entryName: string, inflated: number, compressed: number, limits: Readonly<InflateLimits> = ENTRY_LIMITS): void {
  if (inflated > limits.maxBytes) {
    throw new ZipLimitError('size', entryName, `the ZIP entry "${entryName}" inflates to more than ${limits.maxBytes} bytes, the most an entry may`);
  }
  if (inflated > limits.ratioFloorBytes && inflated > limits.maxRatio * compressed) {
    throw new ZipLimitError('ratio', entryName, `the ZIP entry "${entryName}" inflates to more than ${limits.maxRatio} times its compressed size (${compressed} bytes), which no list does (a ZIP bomb?)`);
  }
}

export interface ZipEntry {
  /** As stored: UTF-8 when the entry says so, else Latin-1 (enough to see separators and dots). */
  name: string;
  encrypted: boolean;
  /** 0 stored, 8 deflated; other methods cannot be read here. */
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  /** Where the entry's local header starts. */
  localOffset: number;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const END_BYTES = 22;
/** The end record may be followed by a comment of up to 65,535 bytes. */
const END_SEARCH = END_BYTES + 0xffff;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_UTF8 = 0x0800;
const FLAG_DESCRIPTOR = 0x0008;
const DESCRIPTOR = 0x08074b50;

/** Random access to the archive's bytes, in memory or in a file. */
interface ZipBytes {
  readonly size: number;
  read(offset: number, length: number): Promise<Buffer>;
  /** The bytes [start, end) as a stream. */
  stream(start: number, end: number): Readable;
  close(): Promise<void>;
}

async function zipBytes(source: Buffer | string): Promise<ZipBytes> {
  if (typeof source !== 'string') {
    const chunk = 1 << 18;
    return {
      size: source.length,
      read: async (offset, length) => source.subarray(offset, offset + length),
      stream: (start, end) => Readable.from((function* () {
        for (let at = start; at < end; at += chunk) yield source.subarray(at, Math.min(end, at + chunk));
      })()),
      close: async () => undefined,
    };
  }
  const handle = await open(source, 'r');
  const { size } = await handle.stat();
  return {
    size,
    read: async (offset, length) => {
      const buf = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      const { bytesRead } = await handle.read(buf, 0, buf.length, offset);
      return buf.subarray(0, bytesRead);
    },
    stream: (start, end) => createReadStream(source, { start, end: end - 1, highWaterMark: 1 << 16 }),
    close: () => handle.close(),
  };
}

/** An open archive: its entries as the central directory lists them, each readable and checkable. */
export class ZipArchive {
  private constructor(
    private readonly bytes: ZipBytes,
    /** Every entry, directories (a name ending in '/') included. */
    readonly entries: readonly ZipEntry[],
    /** Where the central directory starts: no entry's data may run past it. */
    private readonly directoryOffset: number,
  ) {}

  /** Reads the end record and the central directory of a ZIP in memory or in a file. */
  static async open(source: Buffer | string): Promise<ZipArchive> {
    const bytes = await zipBytes(source);
    try {
      const { count, directoryOffset, directorySize } = await readEnd(bytes);
      const entries = parseDirectory(await bytes.read(directoryOffset, directorySize), count);
      return new ZipArchive(bytes, entries, directoryOffset);
    } catch (e) {
      await bytes.close();
      throw e;
    }
  }

  files(): ZipEntry[] {
    return this.entries.filter((e) => !e.name.endsWith('/'));
  }

  /**
   * The entry's content as it inflates; a damaged entry errors the stream. An entry whose declared size
   * breaks `limits` is refused here (ZipLimitError); one that inflates past its declared size is
   * damaged, which its reader finds by counting (check(), and registryZip.ts's reader, stop there).
   */
  async open(entry: ZipEntry, limits: Readonly<InflateLimits> = ENTRY_LIMITS): Promise<Readable> {
    if (entry.encrypted) throw new ZipError(`the ZIP entry "${entry.name}" is encrypted`);
    if (entry.method !== 0 && entry.method !== 8) throw new ZipError(`the ZIP entry "${entry.name}" is compressed with method ${entry.method}, which cannot be read`);
    checkInflation(entry.name, entry.size, entry.compressedSize, limits);
    const local = await this.bytes.read(entry.localOffset, 30);
    if (local.length < 30 || local.readUInt32LE(0) !== LOCAL) throw new ZipError(`the ZIP entry "${entry.name}" has no local header`);
    const start = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    if (start + entry.compressedSize > this.directoryOffset) throw new ZipError(`the ZIP entry "${entry.name}" runs past the end of its data (truncated)`);
    const raw = this.bytes.stream(start, start + entry.compressedSize);
    if (entry.method === 0) return raw;
    const inflate = zlib.createInflateRaw({ chunkSize: 1 << 16 });
    raw.on('error', (e) => inflate.destroy(e));
    return raw.pipe(inflate);
  }

  /** Inflates the entry and matches its size and CRC-32 with the directory's; throws ZipError if they differ. */
  async check(entry: ZipEntry, signal?: AbortSignal): Promise<void> {
    const content = await this.open(entry);
    let crc = 0;
    let size = 0;
    try {
      for await (const chunk of content) {
        if (signal?.aborted) throw new ZipError('the ZIP check was cancelled');
        crc = zlib.crc32(chunk as Buffer, crc);
        size += (chunk as Buffer).length;
        // Past its declared size it is damaged (or a bomb that lies): no need to inflate the rest.
        if (size > entry.size) throw new ZipError(`the ZIP entry "${entry.name}" inflates to more than the ${entry.size} bytes its directory entry declares`);
      }
    } catch (e) {
      content.destroy();
      if (e instanceof ZipError) throw e;
      throw new ZipError(`the ZIP entry "${entry.name}" does not inflate (${(e as Error)?.message ?? 'corrupt data'})`);
    }
    if (size !== entry.size) throw new ZipError(`the ZIP entry "${entry.name}" inflates to ${size} bytes, not ${entry.size}`);
    if (crc >>> 0 !== entry.crc32 >>> 0) throw new ZipError(`the ZIP entry "${entry.name}" fails its CRC-32 check (corrupt data)`);
  }

  close(): Promise<void> {
    return this.bytes.close();
  }
}

/**
 * Checks that a ZIP is whole: the end record and directory are there, every entry's local header is
 * where the directory says, and every entry inflates to its size and CRC-32. Encrypted entries and
 * unknown methods are left to whoever reads them (and cannot).
 */
export async function checkZip(source: Buffer | string, signal?: AbortSignal): Promise<void> {
  const zip = await ZipArchive.open(source);
  try {
    for (const entry of zip.entries) {
      if (signal?.aborted) throw new ZipError('the ZIP check was cancelled');
      if (!entry.encrypted && (entry.method === 0 || entry.method === 8)) await zip.check(entry, signal);
    }
  } finally {
    await zip.close();
  }
}

async function readEnd(bytes: ZipBytes): Promise<{ count: number; directoryOffset: number; directorySize: number }> {
  if (bytes.size < END_BYTES) throw new ZipError(`the ZIP is too short (${bytes.size} bytes)`);
  const tailStart = Math.max(0, bytes.size - END_SEARCH);
  const tail = await bytes.read(tailStart, bytes.size - tailStart);
  let at = tail.length - END_BYTES;
  while (at >= 0 && tail.readUInt32LE(at) !== END) at--;
  if (at < 0) throw new ZipError('the ZIP has no end record (it is truncated or not a ZIP)');
  const endOffset = tailStart + at;
  if (tail.readUInt16LE(at + 4) !== 0 || tail.readUInt16LE(at + 6) !== 0) throw new ZipError('the ZIP spans several disks');
  let count = tail.readUInt16LE(at + 10);
  let directorySize = tail.readUInt32LE(at + 12);
  let directoryOffset = tail.readUInt32LE(at + 16);
  let directoryEnd = endOffset;
  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    // ZIP64: a locator just before the end record points at the 64-bit end record.
    const locator = endOffset >= 20 ? await bytes.read(endOffset - 20, 20) : Buffer.alloc(0);
    if (locator.length < 20 || locator.readUInt32LE(0) !== ZIP64_LOCATOR) throw new ZipError('the ZIP64 end locator is missing');
    directoryEnd = Number(locator.readBigUInt64LE(8));
    const record = await bytes.read(directoryEnd, 56);
    if (record.length < 56 || record.readUInt32LE(0) !== ZIP64_END) throw new ZipError('the ZIP64 end record is missing');
    count = Number(record.readBigUInt64LE(32));
    directorySize = Number(record.readBigUInt64LE(40));
    directoryOffset = Number(record.readBigUInt64LE(48));
  }
  if (directoryOffset + directorySize > directoryEnd) throw new ZipError('the ZIP central directory lies beyond the data (truncated)');
  return { count, directoryOffset, directorySize };
}

function parseDirectory(dir: Buffer, count: number): ZipEntry[] {
  const entries: ZipEntry[] = [];
  for (let p = 0, i = 0; i < count; i++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== CENTRAL) throw new ZipError(`the ZIP central directory is damaged at entry ${i + 1}`);
    const flags = dir.readUInt16LE(p + 8);
    const nameLength = dir.readUInt16LE(p + 28);
    const extraLength = dir.readUInt16LE(p + 30);
    const next = p + 46 + nameLength + extraLength + dir.readUInt16LE(p + 32);
    if (next > dir.length) throw new ZipError(`the ZIP central directory is damaged at entry ${i + 1}`);
    const entry: ZipEntry = {
      name: dir.toString(flags & FLAG_UTF8 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength),
      encrypted: (flags & FLAG_ENCRYPTED) !== 0,
      method: dir.readUInt16LE(p + 10),
      crc32: dir.readUInt32LE(p + 16),
      compressedSize: dir.readUInt32LE(p + 20),
      size: dir.readUInt32LE(p + 24),
      localOffset: dir.readUInt32LE(p + 42),
    };
    applyZip64Extra(entry, dir.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength));
    entries.push(entry);
    p = next;
  }
  return entries;
}

/** ZIP64 extra field (id 1): the 64-bit values of the fields set to 0xFFFFFFFF, in this order. */
function applyZip64Extra(entry: ZipEntry, extra: Buffer): void {
  for (let p = 0; p + 4 <= extra.length; p += 4 + extra.readUInt16LE(p + 2)) {
    if (extra.readUInt16LE(p) !== 1) continue;
    const end = p + 4 + extra.readUInt16LE(p + 2);
    let q = p + 4;
    const next = (value: number): number => {
      if (value !== 0xffffffff || q + 8 > end) return value;
      q += 8;
      return Number(extra.readBigUInt64LE(q - 8));
    };
    entry.size = next(entry.size);
    entry.compressedSize = next(entry.compressedSize);
    entry.localOffset = next(entry.localOffset);
    return;
  }
}

export interface LocalHeader {
  name: string;
  encrypted: boolean;
  method: number;
}

/**
 * The local header a ZIP starts with, read from a stream that is paused there; the entry's data
 * follows it in the stream. Undefined when the stream does not start with one.
 */
export async function readLocalHeader(zip: Readable): Promise<LocalHeader | undefined> {
  const fixed = await readBytes(zip, 30);
  if (fixed.length < 30 || fixed.readUInt32LE(0) !== LOCAL) return undefined;
  const flags = fixed.readUInt16LE(6);
  const nameLength = fixed.readUInt16LE(26);
  const rest = await readBytes(zip, nameLength + fixed.readUInt16LE(28));
  if (rest.length < nameLength + fixed.readUInt16LE(28)) return undefined;
  return { name: rest.toString(flags & FLAG_UTF8 ? 'utf8' : 'latin1', 0, nameLength), encrypted: (flags & FLAG_ENCRYPTED) !== 0, method: fixed.readUInt16LE(8) };
}

/**
 * The next `n` bytes of a paused stream (fewer only if it ends first). Everything buffered is taken and
 * the rest put back: waiting for 'readable' while fewer than `n` bytes sit in the buffer would be
 * answered at once, again and again, and starve the I/O that brings the rest.
 */
export async function readBytes(stream: Readable, n: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let have = 0; have < n; ) {
    const chunk = stream.read() as Buffer | null;
    if (chunk) {
      parts.push(chunk);
      have += chunk.length;
      continue;
    }
    if (stream.readableEnded) break;
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error): void => {
        stream.off('readable', settle);
        stream.off('end', settle);
        stream.off('error', settle);
        if (error) reject(error);
        else resolve();
      };
      stream.once('readable', settle);
      stream.once('end', settle);
      stream.once('error', settle);
    });
  }
  const all = Buffer.concat(parts);
  if (all.length > n) stream.unshift(all.subarray(n));
  return all.subarray(0, n);
}

/**
 * A ZIP of one deflated entry whose content streams from `content`: written as it is read, the
 * CRC-32 and sizes in a descriptor after the data, so the entry may be far larger than memory.
 */
export function zipOfOneEntry(name: string, content: Readable, level = 6, modified = new Date()): Readable {
  return Readable.from(oneEntryZip(Buffer.from(name, 'utf8'), content, level, modified), { objectMode: false });
}

async function* oneEntryZip(name: Buffer, content: Readable, level: number, modified: Date): AsyncGenerator<Buffer> {
  const dosTime = (modified.getHours() << 11) | (modified.getMinutes() << 5) | Math.floor(modified.getSeconds() / 2);
  const dosDate = ((modified.getFullYear() - 1980) << 9) | ((modified.getMonth() + 1) << 5) | modified.getDate();
  // The fields a local header and a directory entry share, from "version needed" to the extra field's length.
  const common = (crc: number, compressed: number, size: number): Buffer => {
    const b = Buffer.alloc(26);
    b.writeUInt16LE(20, 0);
    b.writeUInt16LE(FLAG_DESCRIPTOR | FLAG_UTF8, 2);
    b.writeUInt16LE(8, 4);
    b.writeUInt16LE(dosTime, 6);
    b.writeUInt16LE(dosDate, 8);
    b.writeUInt32LE(crc >>> 0, 10);
    b.writeUInt32LE(compressed, 14);
    b.writeUInt32LE(size, 18);
    b.writeUInt16LE(name.length, 22);
    return b;
  };
  const u32 = (...values: number[]): Buffer => {
    const b = Buffer.alloc(4 * values.length);
    values.forEach((v, i) => b.writeUInt32LE(v >>> 0, 4 * i));
    return b;
  };
  yield Buffer.concat([u32(LOCAL), common(0, 0, 0), name]);
  let crc = 0;
  let size = 0;
  let compressed = 0;
  const deflate = zlib.createDeflateRaw({ level });
  const fed = pipeline(content, async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      crc = zlib.crc32(chunk, crc);
      size += chunk.length;
      yield chunk;
    }
  }, deflate);
  fed.catch(() => undefined);
  for await (const chunk of deflate) {
    compressed += (chunk as Buffer).length;
    yield chunk as Buffer;
  }
  await fed;
  if (size > 0xffffffff || compressed > 0xffffffff) throw new ZipError('the entry is too large for a ZIP without ZIP64');
  const directory = Buffer.concat([u32(CENTRAL), Buffer.from([20, 0]), common(crc, compressed, size), Buffer.alloc(14), name]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(30 + name.length + compressed + 16, 16);
  yield Buffer.concat([u32(DESCRIPTOR, crc, compressed, size), directory, end]);
}
