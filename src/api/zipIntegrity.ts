// Checks that a downloaded ZIP is whole before it replaces anything: the end record and central
// directory are present and inside the file, every entry's local header is where the directory
// says, and every stored or deflated entry inflates to its recorded size and CRC-32. A body that
// parsed as base64 can still hold a cut-off or damaged ZIP; this is where that is caught.

import * as fs from 'node:fs';
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { crc32 } from '../domain/crc32';

export class ZipIntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipIntegrityError';
  }
}

/** Random access to the ZIP's bytes, from a file or a Buffer. */
interface ZipBytes {
  size: number;
  read(offset: number, length: number): Promise<Buffer>;
  stream(offset: number, length: number): Readable;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN = 22;
/** The end record may be followed by a comment of up to 65 535 bytes. */
const EOCD_SEARCH = EOCD_MIN + 0xffff;

interface CentralEntry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

export async function verifyZipFile(filePath: string, signal?: AbortSignal): Promise<void> {
  const handle = await fs.promises.open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    await verify(
      {
        size,
        read: async (offset, length) => {
          const buf = Buffer.alloc(length);
          const { bytesRead } = await handle.read(buf, 0, length, offset);
          return buf.subarray(0, bytesRead);
        },
        // autoClose off: the handle is closed once, below.
        stream: (offset, length) => fs.createReadStream('', { fd: handle, start: offset, end: offset + length - 1, autoClose: false, highWaterMark: 256 * 1024 }),
      },
      signal,
    );
  } finally {
    await handle.close();
  }
}

export async function verifyZipBuffer(zip: Buffer, signal?: AbortSignal): Promise<void> {
  const chunk = 256 * 1024;
  await verify(
    {
      size: zip.length,
      read: async (offset, length) => zip.subarray(offset, offset + length),
      stream: (offset, length) =>
        Readable.from(
          (function* () {
            for (let at = offset; at < offset + length; at += chunk) yield zip.subarray(at, Math.min(offset + length, at + chunk));
          })(),
        ),
    },
    signal,
  );
}

async function verify(zip: ZipBytes, signal: AbortSignal | undefined): Promise<void> {
  if (zip.size < EOCD_MIN) throw new ZipIntegrityError(`the ZIP is too short (${zip.size} bytes)`);
  const tailStart = Math.max(0, zip.size - EOCD_SEARCH);
  const tail = await zip.read(tailStart, zip.size - tailStart);
  let at = -1;
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new ZipIntegrityError('the ZIP has no end record (it is truncated or not a ZIP)');
  const eocdOffset = tailStart + at;
  let count = tail.readUInt16LE(at + 10);
  let cdSize = tail.readUInt32LE(at + 12);
  let cdOffset = tail.readUInt32LE(at + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    ({ count, cdSize, cdOffset } = await readZip64End(zip, eocdOffset));
  }
  if (cdOffset + cdSize > eocdOffset) throw new ZipIntegrityError('the ZIP central directory lies beyond the data (truncated)');
  const directory = await zip.read(cdOffset, cdSize);
  const entries = parseCentralDirectory(directory, count);
  for (const entry of entries) {
    if (signal?.aborted) throw new ZipIntegrityError('the ZIP check was cancelled');
    await verifyEntry(zip, entry, cdOffset, signal);
  }
}

async function readZip64End(zip: ZipBytes, eocdOffset: number): Promise<{ count: number; cdSize: number; cdOffset: number }> {
  if (eocdOffset < 20) throw new ZipIntegrityError('the ZIP64 end locator is missing');
  const locator = await zip.read(eocdOffset - 20, 20);
  if (locator.readUInt32LE(0) !== ZIP64_LOCATOR_SIGNATURE) throw new ZipIntegrityError('the ZIP64 end locator is missing');
  const recordOffset = Number(locator.readBigUInt64LE(8));
  const record = await zip.read(recordOffset, 56);
  if (record.length < 56 || record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) throw new ZipIntegrityError('the ZIP64 end record is missing');
  return { count: Number(record.readBigUInt64LE(32)), cdSize: Number(record.readBigUInt64LE(40)), cdOffset: Number(record.readBigUInt64LE(48)) };
}

function parseCentralDirectory(dir: Buffer, count: number): CentralEntry[] {
  const entries: CentralEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== CENTRAL_SIGNATURE) throw new ZipIntegrityError(`the ZIP central directory is damaged at entry ${i + 1}`);
    const nameLength = dir.readUInt16LE(p + 28);
    const extraLength = dir.readUInt16LE(p + 30);
    const commentLength = dir.readUInt16LE(p + 32);
    const entry: CentralEntry = {
      name: dir.toString('utf8', p + 46, p + 46 + nameLength),
      flags: dir.readUInt16LE(p + 8),
      method: dir.readUInt16LE(p + 10),
      crc: dir.readUInt32LE(p + 16),
      compressedSize: dir.readUInt32LE(p + 20),
      size: dir.readUInt32LE(p + 24),
      localOffset: dir.readUInt32LE(p + 42),
    };
    applyZip64Extra(entry, dir.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength));
    entries.push(entry);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** ZIP64 extra field (id 1): the 64-bit values of the fields set to 0xFFFFFFFF, in a fixed order. */
function applyZip64Extra(entry: CentralEntry, extra: Buffer): void {
  for (let p = 0; p + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(p);
    const length = extra.readUInt16LE(p + 2);
    if (id === 1) {
      let q = p + 4;
      const next = () => {
        const v = q + 8 <= p + 4 + length ? Number(extra.readBigUInt64LE(q)) : undefined;
        q += 8;
        return v;
      };
      if (entry.size === 0xffffffff) entry.size = next() ?? entry.size;
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next() ?? entry.compressedSize;
      if (entry.localOffset === 0xffffffff) entry.localOffset = next() ?? entry.localOffset;
      return;
    }
    p += 4 + length;
  }
}

async function verifyEntry(zip: ZipBytes, entry: CentralEntry, cdOffset: number, signal: AbortSignal | undefined): Promise<void> {
  const local = await zip.read(entry.localOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new ZipIntegrityError(`the ZIP entry "${entry.name}" has no local header`);
  const dataStart = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (dataStart + entry.compressedSize > cdOffset) throw new ZipIntegrityError(`the ZIP entry "${entry.name}" runs past the end of its data (truncated)`);
  // Encrypted entries and methods other than stored/deflate cannot be checked here.
  if (entry.flags & 1 || (entry.method !== 0 && entry.method !== 8)) return;
  const raw = zip.stream(dataStart, entry.compressedSize);
  const source: AsyncIterable<Buffer> = entry.method === 8 ? raw.pipe(zlib.createInflateRaw()) : raw;
  if (entry.method === 8) raw.on('error', (e) => (source as zlib.InflateRaw).destroy(e));
  let crc = 0;
  let size = 0;
  try {
    for await (const chunk of source) {
      if (signal?.aborted) throw new ZipIntegrityError('the ZIP check was cancelled');
      crc = crc32(chunk, crc);
      size += chunk.length;
    }
  } catch (e) {
    raw.destroy();
    if (e instanceof ZipIntegrityError) throw e;
    throw new ZipIntegrityError(`the ZIP entry "${entry.name}" does not inflate (${(e as Error)?.message ?? 'corrupt data'})`);
  }
  if (size !== entry.size) throw new ZipIntegrityError(`the ZIP entry "${entry.name}" inflates to ${size} bytes, not ${entry.size}`);
  if (crc >>> 0 !== entry.crc >>> 0) throw new ZipIntegrityError(`the ZIP entry "${entry.name}" fails its CRC-32 check (corrupt data)`);
}
