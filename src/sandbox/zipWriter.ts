// A streaming ZIP writer for one entry: local header with a data descriptor (sizes unknown up
// front), raw deflate data, descriptor, central directory. Nothing is buffered beyond zlib's
// own window, so the entry may be far larger than memory.
import { Transform, type TransformCallback } from 'node:stream';
import * as zlib from 'node:zlib';

const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_UTF8_NAME = 0x0800;
const METHOD_DEFLATE = 8;
const VERSION = 20;

/** DOS date/time fields of a ZIP header. */
function dosDateTime(d: Date): { date: number; time: number } {
  return {
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
  };
}

/** Counts uncompressed bytes and their CRC-32 as they pass through. */
class CrcCounter extends Transform {
  crc = 0;
  size = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.crc = zlib.crc32(chunk, this.crc);
    this.size += chunk.length;
    cb(null, chunk);
  }
}

/** Wraps deflated bytes in the ZIP framing; needs the CrcCounter that saw the input. */
class ZipFramer extends Transform {
  private started = false;
  private compressed = 0;
  private readonly name: Buffer;
  private readonly stamp: { date: number; time: number };

  constructor(entryName: string, private readonly counter: CrcCounter, modified: Date) {
    super();
    this.name = Buffer.from(entryName, 'utf8');
    this.stamp = dosDateTime(modified);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.start();
    this.compressed += chunk.length;
    cb(null, chunk);
  }

  override _flush(cb: TransformCallback): void {
    this.start();
    const { crc, size } = this.counter;
    if (size > 0xffffffff || this.compressed > 0xffffffff) {
      cb(new Error('entry too large for a ZIP without ZIP64'));
      return;
    }
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(this.compressed, 8);
    descriptor.writeUInt32LE(size, 12);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(VERSION, 4); // made by
    central.writeUInt16LE(VERSION, 6); // needed to extract
    central.writeUInt16LE(FLAG_DATA_DESCRIPTOR | FLAG_UTF8_NAME, 8);
    central.writeUInt16LE(METHOD_DEFLATE, 10);
    central.writeUInt16LE(this.stamp.time, 12);
    central.writeUInt16LE(this.stamp.date, 14);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(this.compressed, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(this.name.length, 28);
    // extra length, comment length, disk number, internal attributes, external attributes: 0
    central.writeUInt32LE(0, 42); // offset of the local header

    const localLength = 30 + this.name.length;
    const centralOffset = localLength + this.compressed + descriptor.length;
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8); // entries on this disk
    end.writeUInt16LE(1, 10); // entries in total
    end.writeUInt32LE(central.length + this.name.length, 12);
    end.writeUInt32LE(centralOffset, 16);
    this.push(descriptor);
    this.push(Buffer.concat([central, this.name, end]));
    cb();
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(FLAG_DATA_DESCRIPTOR | FLAG_UTF8_NAME, 6);
    local.writeUInt16LE(METHOD_DEFLATE, 8);
    local.writeUInt16LE(this.stamp.time, 10);
    local.writeUInt16LE(this.stamp.date, 12);
    // CRC and sizes are 0 here: they follow the data in the descriptor.
    local.writeUInt16LE(this.name.length, 26);
    this.push(Buffer.concat([local, this.name]));
  }
}

/**
 * The stages that turn the entry's uncompressed bytes into a ZIP file, to be used in
 * `pipeline(source, ...zipEntryStages(name), sink)`.
 */
export function zipEntryStages(entryName: string, modified = new Date(), level = 6): Transform[] {
  const counter = new CrcCounter();
  return [counter, zlib.createDeflateRaw({ level }), new ZipFramer(entryName, counter, modified)];
}

/** Bytes in, base64 text out; carries 0–2 bytes between chunks so every piece is 3-byte aligned. */
export class Base64Encoder extends Transform {
  private carry: Buffer = Buffer.alloc(0);

  constructor(prefix = '', private readonly suffix = '') {
    super();
    if (prefix) this.push(prefix);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    const data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const whole = data.length - (data.length % 3);
    this.carry = data.subarray(whole);
    cb(null, whole > 0 ? data.subarray(0, whole).toString('base64') : undefined);
  }

  override _flush(cb: TransformCallback): void {
    cb(null, this.carry.toString('base64') + this.suffix);
  }
}
