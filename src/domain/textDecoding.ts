// Decoding a text file whose encoding nobody told us. Turkish Excel's "CSV" export is written in the
// Windows ANSI code page (windows-1254), its "Unicode text" export in UTF-16LE with a BOM, and
// everything else here is UTF-8. Decoding a windows-1254 file as UTF-8 would turn every Ü, Ş, İ into
// U+FFFD, silently, and headers such as "Ünvan" would no longer be recognised.

import { isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';

export type SourceEncoding = 'utf-8' | 'utf-16le' | 'windows-1254';

/** windows-1254 bytes 0x80–0x9F (WHATWG index; unassigned bytes map to the C1 control of the same value). */
const CP1254_80_9F =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u008e\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u009e\u0178';

/** The six bytes above 0x9F where windows-1254 differs from Latin-1. */
const CP1254_TURKISH: Readonly<Record<number, string>> = { 0xd0: 'Ğ', 0xdd: 'İ', 0xde: 'Ş', 0xf0: 'ğ', 0xfd: 'ı', 0xfe: 'ş' };

const CP1254_TABLE: readonly string[] = Array.from({ length: 256 }, (_, b) =>
  b < 0x80 ? String.fromCharCode(b) : b < 0xa0 ? CP1254_80_9F[b - 0x80] : (CP1254_TURKISH[b] ?? String.fromCharCode(b)),
);

/** Decodes windows-1254 bytes (single-byte, so chunk boundaries need no care). */
export function decodeWindows1254(bytes: Uint8Array): string {
  let s = '';
  let asciiStart = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b < 0x80) continue;
    if (i > asciiStart) s += Buffer.from(bytes.buffer, bytes.byteOffset + asciiStart, i - asciiStart).toString('latin1');
    s += CP1254_TABLE[b];
    asciiStart = i + 1;
  }
  if (bytes.length > asciiStart) s += Buffer.from(bytes.buffer, bytes.byteOffset + asciiStart, bytes.length - asciiStart).toString('latin1');
  return s;
}

/**
 * Streaming decoder that picks the encoding from the bytes: a UTF-16LE BOM means UTF-16LE; otherwise
 * the first run of non-ASCII bytes decides: valid UTF-8 (a BOM included) means UTF-8, anything else
 * windows-1254. Until that run is seen all bytes are ASCII, which reads the same in both.
 */
export class SniffingTextDecoder {
  private chosen: SourceEncoding | undefined;
  private decoder: StringDecoder | undefined;
  /** Undecided bytes: a possible BOM start, or a non-ASCII run that may continue in the next chunk. */
  private held: Buffer = Buffer.alloc(0);
  private first = true;

  /** The encoding in use; undefined while only ASCII has been seen. */
  get encoding(): SourceEncoding | undefined {
    return this.chosen;
  }

  write(chunk: Uint8Array): string {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.chosen) return this.decodeChosen(bytes);
    return this.sniff(this.held.length > 0 ? Buffer.concat([this.held, bytes]) : bytes, false);
  }

  end(): string {
    let out = '';
    if (!this.chosen && this.held.length > 0) out = this.sniff(this.held, true);
    if (this.decoder) out += this.decoder.end();
    return out;
  }

  private sniff(data: Buffer, atEnd: boolean): string {
    this.held = Buffer.alloc(0);
    if (this.first) {
      if (data.length < 2 && !atEnd) {
        this.held = data;
        return '';
      }
      this.first = false;
      if (data[0] === 0xff && data[1] === 0xfe) return this.choose('utf-16le', data);
    }
    let start = 0;
    while (start < data.length && data[start] < 0x80) start++;
    if (start === data.length) return data.toString('latin1');
    let end = start;
    while (end < data.length && data[end] >= 0x80) end++;
    if (end === data.length && !atEnd) {
      // The run may go on in the next chunk: decide when it is complete.
      this.held = data.subarray(start);
      return data.toString('latin1', 0, start);
    }
    return this.choose(isUtf8(data.subarray(start, end)) ? 'utf-8' : 'windows-1254', data);
  }

  private choose(encoding: SourceEncoding, data: Buffer): string {
    this.chosen = encoding;
    if (encoding !== 'windows-1254') this.decoder = new StringDecoder(encoding === 'utf-16le' ? 'utf16le' : 'utf8');
    return this.decodeChosen(data);
  }

  private decodeChosen(bytes: Buffer): string {
    return this.decoder ? this.decoder.write(bytes) : decodeWindows1254(bytes);
  }
}
