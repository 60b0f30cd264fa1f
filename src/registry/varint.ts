// Unsigned LEB128 varints (7 bits a byte, low bits first) for the index's sorted numbers: deltas of
// tax-number keys and record ordinals are mostly one to three bytes. Values up to 2^53.

import { discard } from './growable';

/** A growing byte buffer written with varints and raw bytes. */
export class ByteWriter {
  buf: Buffer;
  length = 0;
  constructor(capacity = 1 << 16) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  /** Room for `extra` more bytes in buf (the buffer may be replaced: read buf after this). */
  ensure(extra: number): void {
    if (this.length + extra <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + extra));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  uvarint(value: number): void {
    this.ensure(8);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.length++] = v;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.length++] = b;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** s from `from` on as UTF-8 (a lone surrogate as U+FFFD), after its byte length as a varint. */
  utf8(s: string, from = 0): void {
    const text = from > 0 ? s.slice(from) : s;
    this.uvarint(Buffer.byteLength(text));
    this.text(text);
  }

  /** s as UTF-8, with no length before it (a lone surrogate as U+FFFD, as Buffer.write does). */
  text(s: string): void {
    this.ensure(3 * s.length);
    this.length += this.buf.write(s, this.length, 'utf8');
  }

  view(): Buffer {
    return this.buf.subarray(0, this.length);
  }

  reset(): void {
    this.length = 0;
  }

  /** Empties the writer and gives its buffer back (it grows again if written to; earlier views become empty). */
  release(): void {
    this.length = 0;
    discard(this.buf);
    this.buf = Buffer.alloc(0);
  }
}

/** Reads varints from a buffer; reading past `end` throws (a damaged file, never a wrong number). */
export class ByteReader {
  constructor(
    readonly buf: Uint8Array,
    public pos = 0,
    readonly end = buf.length,
  ) {}

  uvarint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      if (this.pos >= this.end) throw new RangeError('varint past the end');
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 0x80;
    }
    throw new RangeError('varint too long');
  }

  bytes(n: number): Uint8Array {
    if (this.pos + n > this.end) throw new RangeError('bytes past the end');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}
