// Decoding a text file whose encoding nobody told us. Turkish Excel for Windows saves "CSV" in the
// Windows ANSI code page (windows-1254), Excel for Mac saves it in Mac Turkish (x-mac-turkish), the
// "Unicode text" exports are UTF-16 with a BOM, and everything else here is UTF-8. Decoding one as
// another turns ş, ı, ü into other letters or U+FFFD, silently: names would be stored garbled while the
// headers still match. So the bytes decide, and when they cannot (both single-byte readings look like
// Turkish), the caller asks the user (src/commands/customers/importEncoding.ts).

import { isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';

export type SourceEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1254' | 'x-mac-turkish';

/** windows-1254 bytes 0x80–0x9F (WHATWG index; unassigned bytes map to the C1 control of the same value). */
const CP1254_80_9F =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u008e\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u009e\u0178';

/** The six bytes above 0x9F where windows-1254 differs from Latin-1. */
const CP1254_TURKISH: Readonly<Record<number, string>> = { 0xd0: 'Ğ', 0xdd: 'İ', 0xde: 'Ş', 0xf0: 'ğ', 0xfd: 'ı', 0xfe: 'ş' };

const CP1254_TABLE: readonly string[] = Array.from({ length: 256 }, (_, b) =>
  b < 0x80 ? String.fromCharCode(b) : b < 0xa0 ? CP1254_80_9F[b - 0x80] : (CP1254_TURKISH[b] ?? String.fromCharCode(b)),
);

/**
 * x-mac-turkish bytes 0x80–0xFF (Apple's TURKISH.TXT mapping; 0xF0 is the Apple logo in the private use
 * area, 0xF5 an unassigned byte Apple also maps there).
 */
const MAC_TURKISH_80_FF =
  'ÄÅÇÉÑÖÜáàâäãåçéèêëíìîïñóòôöõúùûü' +
  '†°¢£§•¶ß®©™´¨≠ÆØ∞±≤≥¥µ∂∑∏π∫ªºΩæø' +
  '¿¡¬√ƒ≈∆«»…\u00a0ÀÃÕŒœ–—“”‘’÷◊ÿŸĞğİıŞş' +
  '‡·‚„‰ÂÊÁËÈÍÎÏÌÓÔ\uf8ffÒÚÛÙ\uf8a0ˆ˜¯˘˙˚¸˝˛ˇ';

const MAC_TURKISH_TABLE: readonly string[] = Array.from({ length: 256 }, (_, b) => (b < 0x80 ? String.fromCharCode(b) : MAC_TURKISH_80_FF[b - 0x80]));
const CP1254_UNITS = codeUnits(CP1254_TABLE);
const MAC_TURKISH_UNITS = codeUnits(MAC_TURKISH_TABLE);

/** A single-byte table as UTF-16 code units (every entry of both tables is one code unit). */
function codeUnits(table: readonly string[]): Uint16Array {
  return Uint16Array.from(table, (c) => c.charCodeAt(0));
}

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

// Byte → code unit through a typed array, then one UTF-16 decode (CONTRIBUTING's libraries table has its figure).
function decodeSingleByte(bytes: Uint8Array, units: Uint16Array): string {
  const out = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = units[bytes[i]];
  const utf16 = Buffer.from(out.buffer, 0, out.byteLength);
  if (!LITTLE_ENDIAN) utf16.swap16();
  return utf16.toString('utf16le');
}

/** The encoding whose byte order mark the bytes start with, if they start with one. */
function bomOf(bytes: Uint8Array): SourceEncoding | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * A streaming decoder for a known encoding: characters split across chunks are put together. A BOM
 * comes out as U+FEFF, which the CSV reader notes and drops (src/domain/csv.ts).
 */
export class StreamDecoder {
  private readonly utf: StringDecoder | undefined;
  private readonly table: Uint16Array | undefined;
  /** UTF-16BE: a byte waiting for its pair. */
  private odd: number | undefined;

  constructor(readonly encoding: SourceEncoding) {
    if (encoding === 'windows-1254') this.table = CP1254_UNITS;
    else if (encoding === 'x-mac-turkish') this.table = MAC_TURKISH_UNITS;
    else this.utf = new StringDecoder(encoding === 'utf-8' ? 'utf8' : 'utf16le');
  }

  write(chunk: Uint8Array): string {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.table) return decodeSingleByte(bytes, this.table);
    if (this.encoding !== 'utf-16be') return (this.utf as StringDecoder).write(bytes);
    // UTF-16BE: swap each pair to little-endian, carrying an odd byte to the next chunk.
    const joined = this.odd === undefined ? bytes : Buffer.concat([Buffer.of(this.odd), bytes]);
    const even = joined.length & ~1;
    this.odd = even < joined.length ? joined[even] : undefined;
    const swapped = Buffer.from(joined.subarray(0, even));
    swapped.swap16();
    return (this.utf as StringDecoder).write(swapped);
  }

  end(): string {
    return this.utf ? this.utf.end() : '';
  }
}

/** Decodes a whole buffer in `encoding`, without its BOM. */
export function decodeText(bytes: Uint8Array, encoding: SourceEncoding): string {
  const d = new StreamDecoder(encoding);
  const text = d.write(bytes) + d.end();
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export interface EncodingGuess {
  /** The most likely encoding. */
  encoding: SourceEncoding;
  /** False when other readings are as plausible: the caller should ask (with a preview of each). */
  certain: boolean;
  /** When not certain: every plausible encoding, most likely first. */
  candidates: SourceEncoding[];
}

const TURKISH_LETTERS = new Set('çğıöşüÇĞİÖŞÜâîûÂÎÛ');

/** Letters of Latin-1 and Latin Extended-A/B, the × and ÷ signs excepted: plausible in a foreign name. */
function isOtherLatinLetter(c: string): boolean {
  const code = c.charCodeAt(0);
  return code >= 0xc0 && code <= 0x24f && code !== 0xd7 && code !== 0xf7;
}

const isUpper = (c: string | undefined): boolean => c !== undefined && c !== c.toLocaleLowerCase('tr') && c === c.toLocaleUpperCase('tr');
const isLower = (c: string | undefined): boolean => c !== undefined && c !== c.toLocaleUpperCase('tr') && c === c.toLocaleLowerCase('tr');

interface Plausibility {
  /** Turkish letters that sit well in their word. */
  good: number;
  /** Symbols, controls, private-use characters, and letters whose case breaks their word. */
  bad: number;
}

/**
 * How much a decoding looks like Turkish text: a wrong single-byte reading turns ş, ı, ğ into symbols
 * (˛ ˝ ), controls or letters of the wrong case inside a word ("DOÛAN", "kİlİç").
 */
function plausibility(text: string): Plausibility {
  const p: Plausibility = { good: 0, bad: 0 };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c.charCodeAt(0) < 0x80) continue;
    const turkish = TURKISH_LETTERS.has(c);
    if (!turkish && !isOtherLatinLetter(c)) {
      p.bad++;
      continue;
    }
    const prev = text[i - 1];
    const prev2 = text[i - 2];
    // A capital after a small letter, or a small letter inside a word in capitals, is a misreading.
    if ((isUpper(c) && isLower(prev)) || (isLower(c) && isUpper(prev) && isUpper(prev2))) p.bad++;
    else if (turkish) p.good++;
  }
  return p;
}

/** Valid UTF-8, allowing the sample to end inside a character. */
function isUtf8Sample(bytes: Uint8Array, complete: boolean): boolean {
  if (isUtf8(bytes)) return true;
  if (complete) return false;
  for (let cut = 1; cut <= 3 && cut < bytes.length; cut++) if (isUtf8(bytes.subarray(0, bytes.length - cut))) return true;
  return false;
}

/** Whether the bytes hold multi-byte UTF-8 sequences at all (a UTF-8 file with a damaged byte still does). */
function hasUtf8Sequences(bytes: Uint8Array): boolean {
  for (let i = 0; i + 1 < bytes.length; i++) {
    const b = bytes[i];
    if (b >= 0xc2 && b <= 0xf4 && (bytes[i + 1] & 0xc0) === 0x80) return true;
  }
  return false;
}

/**
 * Which encoding `sample` (the start of a file, or all of it when `complete`) is in. A BOM decides; bytes
 * that are valid UTF-8 are UTF-8; otherwise windows-1254 and x-mac-turkish are both tried and the reading
 * that looks like Turkish wins. Uncertain when both readings look alike and differ.
 */
export function detectEncoding(sample: Uint8Array, complete = true): EncodingGuess {
  const bom = bomOf(sample);
  if (bom) return { encoding: bom, certain: true, candidates: [bom] };
  if (isUtf8Sample(sample, complete)) return { encoding: 'utf-8', certain: true, candidates: ['utf-8'] };
  const windows = decodeSingleByte(sample, CP1254_UNITS);
  const mac = decodeSingleByte(sample, MAC_TURKISH_UNITS);
  if (windows === mac) return { encoding: 'windows-1254', certain: true, candidates: ['windows-1254'] };
  const w = plausibility(windows);
  const m = plausibility(mac);
  const score = (p: Plausibility) => p.good - 3 * p.bad;
  const [best, other] = score(m) > score(w) ? (['x-mac-turkish', 'windows-1254'] as const) : (['windows-1254', 'x-mac-turkish'] as const);
  const [pb, po] = best === 'windows-1254' ? [w, m] : [m, w];
  // Certain when the other reading has clearly more misread characters than this one.
  const certain = (pb.bad === 0 && po.bad > 0) || po.bad >= 3 * pb.bad + 3;
  const candidates: SourceEncoding[] = [best, other];
  if (!certain && hasUtf8Sequences(sample)) candidates.push('utf-8');
  return { encoding: best, certain, candidates };
}

/** How many bytes from the first non-ASCII one a streaming decoder looks at before it decides. */
const SNIFF_BYTES = 64 * 1024;

/**
 * Streaming decoder that picks the encoding from the bytes (detectEncoding): a BOM decides at once; from
 * the first non-ASCII byte on, a run that is valid UTF-8 means UTF-8, anything else is held (up to 64 kB,
 * or to the end) and the more plausible single-byte reading is taken. ASCII before it reads the same in
 * every candidate, so it passes through at once. It never asks: callers that can ask detect first.
 */
export class SniffingTextDecoder {
  private decoder: StreamDecoder | undefined;
  /** Undecided bytes: a possible BOM start, or the non-ASCII part seen so far. */
  private held: Buffer = Buffer.alloc(0);
  private first = true;

  /** The encoding in use; undefined while only ASCII has been seen. */
  get encoding(): SourceEncoding | undefined {
    return this.decoder?.encoding;
  }

  write(chunk: Uint8Array): string {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.decoder) return this.decoder.write(bytes);
    return this.sniff(this.held.length > 0 ? Buffer.concat([this.held, bytes]) : bytes, false);
  }

  end(): string {
    let out = '';
    if (!this.decoder && this.held.length > 0) out = this.sniff(this.held, true);
    if (this.decoder) out += this.decoder.end();
    return out;
  }

  private sniff(data: Buffer, atEnd: boolean): string {
    this.held = Buffer.alloc(0);
    if (this.first) {
      if (data.length < 3 && !atEnd) {
        this.held = data;
        return '';
      }
      this.first = false;
      const bom = bomOf(data);
      if (bom) return this.choose(bom, data);
    }
    let start = 0;
    while (start < data.length && data[start] < 0x80) start++;
    if (start === data.length) return data.toString('latin1');
    let end = start;
    while (end < data.length && data[end] >= 0x80) end++;
    const runComplete = end < data.length || atEnd;
    if (runComplete && isUtf8(data.subarray(start, end))) return this.choose('utf-8', data);
    if (!atEnd && data.length - start < SNIFF_BYTES) {
      // Not UTF-8 (or not known yet): keep the bytes from the first non-ASCII one until there are enough.
      this.held = data.subarray(start);
      return data.toString('latin1', 0, start);
    }
    return data.toString('latin1', 0, start) + this.choose(detectEncoding(data.subarray(start), atEnd).encoding, data.subarray(start));
  }

  private choose(encoding: SourceEncoding, data: Buffer): string {
    this.decoder = new StreamDecoder(encoding);
    return this.decoder.write(data);
  }
}
