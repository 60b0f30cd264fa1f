// The index build's fast reader of a registry list, for the download that indexes on the way
// (streamingIndex.ts): for each <User> of the list's usual shape it writes the record (encodeRecord),
// title (titleForBatch) and tax-number key (taxNumberKey) straight from the XML's bytes, with no
// taxpayer object and no string for a field without an entity, so the extension host's thread spends
// less CPU than with the general parser. "The usual shape" is GİB's documented list: <User> without
// attributes holding Identifier, Title, Type, AccountType, FirstCreationTime, then optionally
// <Documents> of <Document type="..."> with <Alias> of Name, CreationTime [, DeletionTime], only white
// space between tags. Anything else throws NotCanonicalListError and the finished file is read by the
// general parser (registryXml.ts); a unit test holds this reader to that parser's output byte for byte.

import { isUtf8 } from 'node:buffer';
import { decodeXmlEntities, DQUOTE as QUOTE, GT, isRegexSpace, LT, SLASH } from '../domain/xmlChars';
import { batchBuffer } from './batchBuffers';
import { TITLE_SEPARATOR, titleForBatch } from './fold';
import { ALIAS_SEP, cleanValue, FIELD_SEP, PART_SEP, RECORD_SEP, RECORDS_PER_BLOCK, taxNumberKey } from './format';
import { ByteWriter } from './varint';

/** The list is not of the usual shape (or not whole): the caller reads it with the general parser instead. */
export class NotCanonicalListError extends Error {
  constructor(reason: string) {
    super(`The registry list is not of the usual shape (${reason}).`);
    this.name = 'NotCanonicalListError';
  }
}

/**
 * Taxpayers first… first + keys.length - 1, encoded: their records as UTF-8, RECORDS_PER_BLOCK to a
 * block, each block's records joined by RECORD_SEP and the blocks back to back (blockEnds: where each
 * ends); their titles as UTF-8 joined by TITLE_SEPARATOR; their tax-number keys. All four view one
 * buffer (batchBuffers.ts), which is transferred to the index worker and comes back to be reused.
 */
export interface EncodedBatch {
  /** The one buffer the arrays below view (transferred to the worker and back). */
  buffer: ArrayBuffer;
  first: number;
  records: Uint8Array;
  blockEnds: Uint32Array;
  titles: Uint8Array;
  keys: Float64Array;
}

const AMP = 0x26;
// The record encoding's separators (format.ts) as bytes.
const RS = RECORD_SEP.charCodeAt(0);
const FS = FIELD_SEP.charCodeAt(0);
const AS = ALIAS_SEP.charCodeAt(0);
const PS = PART_SEP.charCodeAt(0);
const NUL = TITLE_SEPARATOR.charCodeAt(0);

/** The longest piece held back between chunks (one <User> or one markup construct), as the general parser's default. */
const MAX_HELD_BYTES = 1024 * 1024;

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

export class ListEncoder {
  /**
   * Inflated bytes buffered ahead (registryZip.ts's ListReader): 512 KiB, not the general parser's
   * 2 MiB. This reader leaves V8 little to collect, so a full collection comes only once tens of MB of
   * buffers wait for it; chunks that queued long enough to be promoted piled up that way. As fast
   * with less.
   */
  readonly readAheadBytes = 512 * 1024;
  /** Bytes from the start of an unfinished construct (a <User> or markup) at the end of the last chunk. */
  private held: Buffer | undefined;
  private sawElement = false;
  private count = 0;
  private batchFirst = 0;
  private inBatch = 0;
  private readonly records = new ByteWriter(1 << 19);
  private readonly titles = new ByteWriter(1 << 17);
  private readonly blockEnds: number[] = [];
  private keys: Float64Array;
  private readonly ready: EncodedBatch[] = [];
  // The chunk being read: its bytes and the same bytes as Latin-1 (one character a byte; markup is ASCII).
  private buf: Buffer = Buffer.alloc(0);
  private s = '';
  private pos = 0;

  constructor(private readonly batchSize: number) {
    if (batchSize % RECORDS_PER_BLOCK !== 0) throw new RangeError('A batch is whole record blocks.');
    this.keys = new Float64Array(batchSize);
  }

  get taxpayerCount(): number {
    return this.count;
  }

  write(chunk: Buffer): void {
    const buf = this.held ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = undefined;
    this.buf = buf;
    this.s = buf.toString('latin1');
    const stop = this.scan();
    // Everything before `stop` was read; it starts and ends on markup, so it holds whole UTF-8 characters.
    if (!isUtf8(buf.subarray(0, stop))) throw new NotCanonicalListError('text that is not UTF-8');
    if (stop < buf.length) {
      if (buf.length - stop > MAX_HELD_BYTES) throw new NotCanonicalListError('a piece longer than 1 MiB');
      this.held = Buffer.from(buf.subarray(stop));
    }
    this.buf = Buffer.alloc(0);
    this.s = '';
  }

  /** The list ended: anything unfinished is not the usual shape (the general parser says what is wrong). */
  end(): void {
    // What is held back always starts at a '<' (scan stops only there), so it is an unfinished construct.
    if (this.held) throw new NotCanonicalListError('it ends inside an element');
    if (!this.sawElement) throw new NotCanonicalListError('no elements');
    if (this.inBatch > 0) this.finishBatch();
  }

  take(): EncodedBatch | undefined {
    return this.ready.shift();
  }

  /** Reads whole constructs from this.s; returns where the first unfinished one starts. */
  private scan(): number {
    const s = this.s;
    const n = s.length;
    let p = 0;
    for (;;) {
      const lt = s.indexOf('<', p);
      if (lt < 0) return n; // text outside a <User> is not read (as the general parser)
      if (lt + 1 >= n) return lt;
      const c = s.charCodeAt(lt + 1);
      if (c === 0x21 /* ! */) {
        if (!s.startsWith('<!--', lt)) {
          if (lt + 4 > n) return lt;
          throw new NotCanonicalListError('a CDATA section or declaration');
        }
        const end = s.indexOf('-->', lt + 4);
        if (end < 0) return lt;
        p = end + 3;
        continue;
      }
      if (c === 0x3f /* ? */) {
        const end = s.indexOf('?>', lt + 2);
        if (end < 0) return lt;
        p = end + 2;
        continue;
      }
      const gt = s.indexOf('>', lt + 1);
      if (gt < 0) return lt;
      if (c !== SLASH) {
        this.sawElement = true;
        // A quoted '>' could end the tag elsewhere, and a <User> with attributes or a prefix is unusual.
        if (hasQuote(s, lt, gt)) throw new NotCanonicalListError('quoted attributes outside a <User>');
        if (gt === lt + 5 && s.startsWith('User', lt + 1)) {
          const end = s.indexOf('</User>', gt);
          if (end < 0) return lt;
          this.pos = gt + 1;
          this.user(end);
          p = end + 7;
          continue;
        }
        if (/^(?:[^\s/>:]*:)?User(?:[\s/>]|$)/.test(s.slice(lt + 1, gt + 1))) throw new NotCanonicalListError('a <User> tag of another form');
      }
      // Any other tag outside a <User> (the list's root, wrappers, end tags) is passed through.
      p = gt + 1;
    }
  }

  /** One <User> whose '</User>' starts at `end`; this.pos is just after '<User>'. */
  private user(end: number): void {
    const records = this.records;
    if (this.inBatch % RECORDS_PER_BLOCK !== 0) records.byte(RS);
    if (this.inBatch > 0) this.titles.byte(NUL);
    this.field('Identifier', 'key');
    records.byte(FS);
    this.field('Title', 'title');
    records.byte(FS);
    this.field('Type', 'plain');
    records.byte(FS);
    this.field('AccountType', 'plain');
    records.byte(FS);
    this.field('FirstCreationTime', 'plain');
    if (this.opens('Documents')) {
      while (this.openDocument()) {
        while (this.opens('Alias')) {
          records.byte(AS);
          this.field('Name', 'plain');
          records.byte(PS);
          this.field('CreationTime', 'plain');
          if (this.opens('DeletionTime')) {
            records.byte(PS);
            this.fieldText('DeletionTime', 'plain');
          }
          this.close('Alias');
        }
        this.close('Document');
      }
      this.close('Documents');
    }
    this.skipSpace();
    if (this.pos !== end) throw new NotCanonicalListError('a <User> of another form');
    this.endUser();
  }

  private endUser(): void {
    this.count++;
    this.inBatch++;
    if (this.inBatch % RECORDS_PER_BLOCK === 0) this.blockEnds.push(this.records.length);
    if (this.inBatch === this.batchSize) this.finishBatch();
  }

  /** Copies the batch into one buffer: keys, records, titles, block ends (each aligned for its type). */
  private finishBatch(): void {
    if (this.inBatch % RECORDS_PER_BLOCK !== 0) this.blockEnds.push(this.records.length);
    const n = this.inBatch;
    const records = this.records.view();
    const titles = this.titles.view();
    const recordsAt = 8 * n;
    const titlesAt = recordsAt + records.length;
    const endsAt = 4 * Math.ceil((titlesAt + titles.length) / 4);
    const buffer = batchBuffer(endsAt + 4 * this.blockEnds.length);
    const keys = new Float64Array(buffer, 0, n);
    keys.set(this.keys.subarray(0, n));
    const recordsCopy = new Uint8Array(buffer, recordsAt, records.length);
    recordsCopy.set(records);
    const titlesCopy = new Uint8Array(buffer, titlesAt, titles.length);
    titlesCopy.set(titles);
    const ends = new Uint32Array(buffer, endsAt, this.blockEnds.length);
    ends.set(this.blockEnds);
    const batch = { buffer, first: this.batchFirst, records: recordsCopy, blockEnds: ends, titles: titlesCopy, keys };
    this.ready.push(batch);
    this.records.reset();
    this.titles.reset();
    this.blockEnds.length = 0;
    this.batchFirst = this.count;
    this.inBatch = 0;
  }

  private skipSpace(): void {
    const s = this.s;
    while (this.pos < s.length && isSpace(s.charCodeAt(this.pos))) this.pos++;
  }

  /** Whether the next tag is exactly <name> (then read past it). */
  private opens(name: string): boolean {
    this.skipSpace();
    const s = this.s;
    const p = this.pos;
    if (s.charCodeAt(p) !== LT || !s.startsWith(name, p + 1) || s.charCodeAt(p + 1 + name.length) !== GT) return false;
    this.pos = p + name.length + 2;
    return true;
  }

  /** </name> next, or this is not the usual shape. */
  private close(name: string): void {
    this.skipSpace();
    const s = this.s;
    const p = this.pos;
    if (s.charCodeAt(p) !== LT || s.charCodeAt(p + 1) !== SLASH || !s.startsWith(name, p + 2) || s.charCodeAt(p + 2 + name.length) !== GT) {
      throw new NotCanonicalListError(`no </${name}> where expected`);
    }
    this.pos = p + name.length + 3;
  }

  /** <Document type="..."> next (its type written as the document's field), or false. */
  private openDocument(): boolean {
    this.skipSpace();
    const s = this.s;
    const p = this.pos;
    if (!s.startsWith('<Document type="', p)) return false;
    const a = p + 16;
    const b = s.indexOf('"', a);
    if (b < 0 || s.charCodeAt(b + 1) !== GT || s.indexOf('<', a) < b) throw new NotCanonicalListError('a <Document> of another form');
    this.records.byte(FS);
    // An attribute value is not trimmed (as the general parser's attributeValue).
    this.value(a, b, 'plain', false);
    this.pos = b + 2;
    return true;
  }

  /** <name>text</name> next: its text written to the record (and where it also goes, by `kind`). */
  private field(name: string, kind: 'key' | 'title' | 'plain'): void {
    if (!this.opens(name)) throw new NotCanonicalListError(`no <${name}> where expected`);
    this.fieldText(name, kind);
  }

  /** The text and end tag of a field whose start tag was just read. */
  private fieldText(name: string, kind: 'key' | 'title' | 'plain'): void {
    const a = this.pos;
    const b = this.s.indexOf('<', a);
    this.pos = b;
    this.close(name);
    this.value(a, b, kind, true);
  }

  /**
   * Writes the text s[a, b) as the general parser and encodeRecord would: entities decoded, trimmed
   * (fields), separators made spaces. Text that is plain ASCII or UTF-8 between non-space ASCII (nearly
   * all) is copied byte for byte; anything else is decoded and written back as the general parser reads it.
   */
  private value(a: number, b: number, kind: 'key' | 'title' | 'plain', trim: boolean): void {
    const s = this.s;
    if (trim) {
      while (a < b && isSpace(s.charCodeAt(a))) a++;
      while (b > a && isSpace(s.charCodeAt(b - 1))) b--;
      // A character from U+0080 up at either end might be white space that String.trim removes.
      if (a < b && ((s.charCodeAt(a) >= 0x80 && trimmedAt(s, a)) || (s.charCodeAt(b - 1) >= 0x80 && trimmedAt(s, lastCharStart(s, a, b))))) {
        return this.decodedValue(a, b, kind, trim);
      }
    }
    const records = this.records;
    records.ensure(b - a);
    const out = records.buf;
    const start = records.length;
    let o = start;
    for (let i = a; i < b; i++) {
      const c = s.charCodeAt(i);
      // '&' (an entity) and control characters (separators, NUL) take the general way.
      if (c === AMP || (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d)) return this.decodedValue(a, b, kind, trim);
      out[o++] = c;
    }
    records.length = o;
    if (kind === 'title') {
      this.titles.bytes(out.subarray(start, o));
    } else if (kind === 'key') {
      this.keys[this.inBatch] = digitsKey(s, a, b);
    }
  }

  private decodedValue(a: number, b: number, kind: 'key' | 'title' | 'plain', trim: boolean): void {
    const raw = decodeXmlEntities(this.buf.toString('utf8', a, b));
    const value = trim ? raw.trim() : raw;
    this.records.text(cleanValue(value));
    if (kind === 'title') this.titles.text(titleForBatch(value));
    else if (kind === 'key') this.keys[this.inBatch] = taxNumberKey(value);
  }
}

function hasQuote(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === QUOTE || c === 0x27) return true;
  }
  return false;
}

/** taxNumberKey of the ASCII text s[a, b) (no entity, already trimmed). */
function digitsKey(s: string, a: number, b: number): number {
  if (b - a < 1 || b - a > 11) return Number.NaN;
  let n = 0;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return Number.NaN;
    n = n * 10 + (c - 0x30);
  }
  return (b - a) * 1e12 + n;
}

/** Where the UTF-8 character that ends s[a, b) starts (s: the bytes as Latin-1). */
function lastCharStart(s: string, a: number, b: number): number {
  let i = b - 1;
  while (i > a && (s.charCodeAt(i) & 0xc0) === 0x80) i--;
  return i;
}

/** Whether the two- or three-byte UTF-8 character at i (s: the bytes as Latin-1) is white space String.trim removes. */
function trimmedAt(s: string, i: number): boolean {
  const b0 = s.charCodeAt(i);
  const tail = ((s.charCodeAt(i + 1) & 0x3f) << 6) | (s.charCodeAt(i + 2) & 0x3f);
  if (b0 >= 0xc0 && b0 < 0xe0) return isRegexSpace(((b0 & 0x1f) << 6) | (tail >> 6));
  return b0 >= 0xe0 && b0 < 0xf0 && isRegexSpace(((b0 & 0x0f) << 12) | tail);
}
