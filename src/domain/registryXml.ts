// Streaming parser for the GİB registered-user list (`<UserList><User>...</User>...</UserList>`): the
// full list is 0.5–1 GB of XML, so a purpose-built scanner rather than a DOM (`npm run bench -- domain`).
// - Each chunk becomes a latin1 string (one char per byte, a plain copy; UTF-8 decoding is far slower).
//   All markup is ASCII, so String.indexOf/charCodeAt find the structure (V8 inlines them).
// - Only the kept fields' text is decoded (textOf), once the '<' after it has arrived, so a chunk may
//   end anywhere: inside a multi-byte character, a tag or an entity.
// - Only the one unfinished piece at the end of a chunk is held back, so memory stays flat.
import {
  BANG, COLON, decodeXmlEntities, DQUOTE as DQ, GT, LT, isRegexSpace, isXmlSpace as isSpace, QUESTION as QMARK, SLASH, SQUOTE as SQ,
} from './xmlChars';

export interface RegistryAlias {
  Name: string;
  CreationTime: string;
  /** Set when the alias was withdrawn; such an alias is no longer active. */
  DeletionTime?: string;
}

export interface RegistryDocument {
  type: 'Invoice' | 'DespatchAdvice' | string;
  aliases: RegistryAlias[];
}

export interface Taxpayer {
  Identifier: string;
  Title: string;
  Type: string;
  AccountType: string;
  FirstCreationTime: string;
  Documents: RegistryDocument[];
}

export class RegistryXmlError extends Error {
  constructor(
    message: string,
    /** Byte offset in the whole input where the problem was seen. */
    readonly offset: number,
  ) {
    super(message);
    this.name = 'RegistryXmlError';
  }
}

// Where the scanner is, as far as the kept fields are concerned.
const enum Ctx {
  Outside, // not inside a <User>
  User, // directly inside <User>
  Documents,
  Document,
  Alias,
}

// Field being captured (text is collected only while one of these is open).
const enum Field {
  None,
  Identifier,
  Title,
  Type,
  AccountType,
  FirstCreationTime,
  AliasName,
  AliasCreationTime,
  AliasDeletionTime,
  /** Keep last: the number of fields, which sizes RegistryXmlParser.decoded. */
  Count,
}

const EMPTY = Buffer.alloc(0);

type Utf8Slicer = (buf: Buffer, start: number, end: number) => string;
/**
 * Buffer#utf8Slice is what buf.toString('utf8', a, b) ends in, minus two layers of argument checks
 * that cost about a third of the text decoding time here. Undocumented, so fall back if it is gone.
 */
const decodeUtf8: Utf8Slicer = typeof (Buffer.prototype as unknown as { utf8Slice?: unknown }).utf8Slice === 'function'
  ? (buf, start, end) => (buf as unknown as { utf8Slice(a: number, b: number): string }).utf8Slice(start, end)
  : (buf, start, end) => buf.toString('utf8', start, end);

/**
 * The text of buf[start, end), given s, the same bytes as Latin-1. ASCII (tax numbers, dates, types, most
 * aliases) reads the same in both, so it is sliced from s: far cheaper than a call into the UTF-8
 * decoder. A slice may keep its chunk's string alive: the index build keeps a taxpayer only until its
 * batch is sent (a few chunks).
 */
function textOf(s: string, buf: Buffer, start: number, end: number): string {
  for (let i = start; i < end; i++) if (s.charCodeAt(i) > 0x7f) return decodeUtf8(buf, start, end);
  return s.slice(start, end);
}

function isNameEnd(c: number): boolean {
  return c === GT || c === SLASH || c === 32 || c === 9 || c === 10 || c === 13;
}

/** Whether s[start, end) is exactly `lit` (no substring is created). */
function nameIs(s: string, start: number, end: number, lit: string): boolean {
  return end - start === lit.length && s.startsWith(lit, start);
}

function userField(s: string, start: number, end: number): Field {
  switch (end - start) {
    case 10: return s.startsWith('Identifier', start) ? Field.Identifier : Field.None;
    case 5: return s.startsWith('Title', start) ? Field.Title : Field.None;
    case 4: return s.startsWith('Type', start) ? Field.Type : Field.None;
    case 11: return s.startsWith('AccountType', start) ? Field.AccountType : Field.None;
    case 17: return s.startsWith('FirstCreationTime', start) ? Field.FirstCreationTime : Field.None;
    default: return Field.None;
  }
}

function aliasField(s: string, start: number, end: number): Field {
  switch (end - start) {
    case 4: return s.startsWith('Name', start) ? Field.AliasName : Field.None;
    case 12:
      if (s.startsWith('CreationTime', start)) return Field.AliasCreationTime;
      return s.startsWith('DeletionTime', start) ? Field.AliasDeletionTime : Field.None;
    default: return Field.None;
  }
}

const DOCUMENT_TYPE = 'Document type="';

/** Push parser (registryZip.ts's ListReader): `write` chunks, `end` at the end; `take` the `<User>`s read so far. */
export class RegistryXmlParser {
  /** Unconsumed bytes from the end of the previous chunk. */
  private pending: Buffer | undefined;
  /** The bytes being scanned; the scanned string is these bytes as latin1, index for index. */
  private buf: Buffer = EMPTY;
  /** Bytes of input before `pending` (for error offsets). */
  private consumed = 0;
  /** The taxpayers parsed since the last take(). */
  private batch: Taxpayer[] = [];

  private ctx = Ctx.Outside;
  /** Depth of unknown elements we are inside (their content is skipped). */
  private skipDepth = 0;
  private field = Field.None;
  /** Depth of child elements inside a captured field (e.g. `<Title><b>x</b></Title>`). */
  private fieldChildDepth = 0;
  private text = '';

  private user: Taxpayer | undefined;
  private doc: RegistryDocument | undefined;
  private alias: RegistryAlias | undefined;
  private sawElement = false;
  private count = 0;

  /** maxPending: the longest text (one field) or markup construct held back between chunks. */
  constructor(private readonly maxPending = 1024 * 1024) {}

  get taxpayerCount(): number {
    return this.count;
  }

  take(): Taxpayer[] | undefined {
    if (this.batch.length === 0) return undefined;
    const ready = this.batch;
    this.batch = [];
    return ready;
  }

  end(): void {
    const rest = this.pending;
    this.pending = undefined;
    if (rest && rest.length > 0) {
      const lt = rest.indexOf(60);
      if (lt >= 0) throw new RegistryXmlError('The XML ends inside a tag, comment or CDATA section (truncated input?).', this.consumed + lt);
      if (rest.toString('utf8').trim() !== '') throw new RegistryXmlError('Unexpected text after the last element.', this.consumed);
    }
    if (this.user) throw new RegistryXmlError('The XML ends inside a <User> element (truncated input?).', this.consumed);
    if (!this.sawElement) throw new RegistryXmlError('No XML elements found: this is not a registry list.', 0);
  }

  write(chunk: Buffer): void {
    const bytes = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    this.buf = bytes;
    const stop = this.scan(bytes.toString('latin1'));
    this.buf = EMPTY;
    if (stop < bytes.length) {
      if (bytes.length - stop > this.maxPending) {
        throw new RegistryXmlError(`A single text or markup piece is longer than ${this.maxPending} bytes.`, this.consumed + stop);
      }
      // A copy, so the caller's (possibly pooled) chunk is not kept alive.
      this.pending = Buffer.from(bytes.subarray(stop));
    }
    this.consumed += stop;
  }

  /** Per field, its last value that had to be decoded, as Latin-1 and decoded: Type and AccountType ("Özel") mostly repeat it. */
  private readonly decoded = Array.from({ length: Field.Count }, () => ({ raw: '', text: '' }));

  /** Captured text s[start, end): decoded, or the field's last decoded value when these are its bytes again. */
  private fieldText(s: string, start: number, end: number): string {
    const last = this.decoded[this.field];
    if (end - start === last.raw.length && s.startsWith(last.raw, start)) return last.text;
    const text = textOf(s, this.buf, start, end);
    // Shorter than its bytes: it had multi-byte characters, so was decoded.
    if (text.length < end - start) {
      last.raw = s.slice(start, end);
      last.text = text;
    }
    return text;
  }

  private capturing(): boolean {
    return this.field !== Field.None && this.fieldChildDepth === 0;
  }

  /** Scans as far as complete constructs go; returns the index of the first unconsumed character. */
  private scan(s: string): number {
    const n = s.length;
    let pos = 0;
    while (pos < n) {
      const lt = s.charCodeAt(pos) === LT ? pos : s.indexOf('<', pos);
      if (lt < 0) {
        // Text up to the end. Skipped text can go; captured text waits for the rest.
        return this.capturing() ? pos : n;
      }
      if (lt > pos && this.capturing()) this.text += decodeXmlEntities(this.fieldText(s, pos, lt));
      if (lt + 1 >= n) return lt;
      const c = s.charCodeAt(lt + 1);
      if (c === SLASH) {
        // End tag: only </User> needs its name read (see endTag).
        const gt = s.indexOf('>', lt + 2);
        if (gt < 0) return lt;
        this.endTag(s, lt + 2, gt);
        pos = gt + 1;
      } else if (c === BANG) {
        const next = this.markupDeclaration(s, lt);
        if (next < 0) return lt;
        pos = next;
      } else if (c === QMARK) {
        const end = s.indexOf('?>', lt + 2);
        if (end < 0) return lt;
        pos = end + 2;
      } else {
        // Fast path for the common case, a known field or container without attributes: if the text
        // up to the next '>' is exactly a name expected here, it is that tag (no per-char name scan).
        const gt0 = s.indexOf('>', lt + 1);
        if (gt0 < 0) return lt;
        if (this.startTag(s, lt + 1, gt0, gt0, false, true)) {
          pos = gt0 + 1;
          continue;
        }
        // General case: read the name, skip attributes (a quoted '>' does not end the tag).
        // Namespace prefixes are dropped (GİB's list has none, a re-export might).
        let start = lt + 1;
        let end = start;
        while (end < n) {
          const ch = s.charCodeAt(end);
          if (isNameEnd(ch)) break;
          if (ch === COLON) start = end + 1;
          end++;
        }
        if (end >= n) return lt;
        const ce = s.charCodeAt(end);
        let gt: number;
        let selfClosing = false;
        if (ce === GT) {
          gt = end; // the common case: no attributes
        } else {
          gt = this.tagEnd(s, end);
          if (gt < 0) return lt;
          selfClosing = s.charCodeAt(gt - 1) === SLASH;
        }
        this.startTag(s, start, end, gt, selfClosing, false);
        pos = gt + 1;
      }
    }
    return n;
  }

  /** `<!-- -->`, `<![CDATA[ ]]>` or `<!DOCTYPE ...>`; returns the index after it, or -1 if incomplete. */
  private markupDeclaration(s: string, lt: number): number {
    if (s.startsWith('<!--', lt)) {
      const end = s.indexOf('-->', lt + 4);
      return end < 0 ? -1 : end + 3;
    }
    if (s.startsWith('<![CDATA[', lt)) {
      const end = s.indexOf(']]>', lt + 9);
      if (end < 0) return -1;
      if (this.capturing()) this.text += textOf(s, this.buf, lt + 9, end);
      return end + 3;
    }
    // DOCTYPE and the like: skip to the closing '>', past an internal subset in brackets. The '[' is
    // looked for only before that '>' (looked for to the end, each of many `<!x>` read the rest again).
    const gt = s.indexOf('>', lt);
    if (gt < 0) return -1;
    let bracket = -1;
    for (let i = lt + 2; i < gt; i++) {
      if (s.charCodeAt(i) === 91 /* [ */) {
        bracket = i;
        break;
      }
    }
    if (bracket >= 0) {
      const close = s.indexOf(']', bracket);
      if (close < 0) return -1;
      const gt2 = s.indexOf('>', close);
      return gt2 < 0 ? -1 : gt2 + 1;
    }
    return gt + 1;
  }

  /** Index of the `>` closing a start tag, skipping quoted attribute values; -1 if incomplete. */
  private tagEnd(s: string, from: number): number {
    for (let i = from; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === DQ || c === SQ) {
        const close = s.indexOf(c === DQ ? '"' : "'", i + 1);
        if (close < 0) return -1;
        i = close;
      } else if (c === GT) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Handles a start tag. With `onlyIfKnown`, does nothing and returns false unless the name is one
   * expected in the current context (the caller then parses the tag in full).
   */
  private startTag(s: string, nameStart: number, nameEnd: number, gt: number, selfClosing: boolean, onlyIfKnown: boolean): boolean {
    if (onlyIfKnown && (this.skipDepth > 0 || this.field !== Field.None)) return false;
    this.sawElement = true;
    if (this.skipDepth > 0 || this.field !== Field.None) {
      // Inside an unknown element or inside a field: only keep count of nesting.
      if (!selfClosing) {
        if (this.field !== Field.None) this.fieldChildDepth++;
        else this.skipDepth++;
      }
      return true;
    }
    switch (this.ctx) {
      case Ctx.Outside:
        if (nameIs(s, nameStart, nameEnd, 'User')) {
          this.user = { Identifier: '', Title: '', Type: '', AccountType: '', FirstCreationTime: '', Documents: [] };
          if (selfClosing) this.emitUser();
          else this.ctx = Ctx.User;
          return true;
        }
        // Anything else outside a User (UserList, wrappers) is transparent.
        return !onlyIfKnown;
      case Ctx.User: {
        const f = userField(s, nameStart, nameEnd);
        if (f !== Field.None) {
          if (!selfClosing) this.openField(f);
        } else if (nameIs(s, nameStart, nameEnd, 'Documents')) {
          if (!selfClosing) this.ctx = Ctx.Documents;
        } else {
          return this.unknownChild(selfClosing, onlyIfKnown);
        }
        return true;
      }
      case Ctx.Documents: {
        if (onlyIfKnown) {
          // Only `<Document type="...">` written just so (no other attribute, no '"' in the value).
          const from = nameStart + DOCUMENT_TYPE.length;
          if (!s.startsWith(DOCUMENT_TYPE, nameStart) || s.indexOf('"', from) !== gt - 1) return false;
          this.openDocument(decodeXmlEntities(textOf(s, this.buf, from, gt - 1)), false);
          return true;
        }
        if (!nameIs(s, nameStart, nameEnd, 'Document')) return this.unknownChild(selfClosing, false);
        const v = attributeValue(s, nameEnd, gt, 'type');
        this.openDocument(v ? decodeXmlEntities(textOf(s, this.buf, v[0], v[1])) : '', selfClosing);
        return true;
      }
      case Ctx.Document:
        if (!nameIs(s, nameStart, nameEnd, 'Alias')) return this.unknownChild(selfClosing, onlyIfKnown);
        this.alias = { Name: '', CreationTime: '' };
        this.doc!.aliases.push(this.alias);
        if (!selfClosing) this.ctx = Ctx.Alias;
        return true;
      case Ctx.Alias: {
        const f = aliasField(s, nameStart, nameEnd);
        if (f === Field.None) return this.unknownChild(selfClosing, onlyIfKnown);
        if (!selfClosing) this.openField(f);
        return true;
      }
    }
  }

  private openDocument(type: string, selfClosing: boolean): void {
    this.doc = { type, aliases: [] };
    this.user!.Documents.push(this.doc);
    if (!selfClosing) this.ctx = Ctx.Document;
  }

  /** A start tag the context does not expect: refused on the fast path (`onlyIfKnown`), else skipped with its content. */
  private unknownChild(selfClosing: boolean, onlyIfKnown: boolean): boolean {
    if (onlyIfKnown) return false;
    if (!selfClosing) this.skipDepth = 1;
    return true;
  }

  private openField(f: Field): void {
    this.field = f;
    this.fieldChildDepth = 0;
    this.text = '';
  }

  private endTag(s: string, nameStart: number, nameEnd: number): void {
    if (this.skipDepth > 0) {
      this.skipDepth--;
      return;
    }
    if (this.field !== Field.None) {
      if (this.fieldChildDepth > 0) this.fieldChildDepth--;
      else this.closeField();
      return;
    }
    switch (this.ctx) {
      case Ctx.User: {
        // [nameStart, nameEnd) runs up to the '>': drop trailing white space and a namespace prefix.
        while (nameEnd > nameStart && isSpace(s.charCodeAt(nameEnd - 1))) nameEnd--;
        // (lastIndexOf may look far back, to an alias's "urn:mail:": not for a plain </User>.)
        const colon = nameIs(s, nameStart, nameEnd, 'User') ? -1 : s.lastIndexOf(':', nameEnd - 1);
        if (colon >= nameStart) nameStart = colon + 1;
        if (!nameIs(s, nameStart, nameEnd, 'User')) {
          throw new RegistryXmlError(`Unexpected </${decodeUtf8(this.buf, nameStart, nameEnd)}> inside <User>.`, this.consumed + nameStart);
        }
        this.emitUser();
        return;
      }
      case Ctx.Documents:
        this.ctx = Ctx.User;
        return;
      case Ctx.Document:
        this.ctx = Ctx.Documents;
        this.doc = undefined;
        return;
      case Ctx.Alias:
        this.ctx = Ctx.Document;
        this.alias = undefined;
        return;
      case Ctx.Outside:
        return;
    }
  }

  private closeField(): void {
    const t = this.text;
    // Most values have nothing to trim: then no call.
    const value = t !== '' && (isRegexSpace(t.charCodeAt(0)) || isRegexSpace(t.charCodeAt(t.length - 1))) ? t.trim() : t;
    this.text = '';
    const u = this.user!;
    switch (this.field) {
      case Field.Identifier: u.Identifier = value; break;
      case Field.Title: u.Title = value; break;
      case Field.Type: u.Type = value; break;
      case Field.AccountType: u.AccountType = value; break;
      case Field.FirstCreationTime: u.FirstCreationTime = value; break;
      case Field.AliasName: this.alias!.Name = value; break;
      case Field.AliasCreationTime: this.alias!.CreationTime = value; break;
      case Field.AliasDeletionTime: this.alias!.DeletionTime = value; break;
      case Field.None: break;
    }
    this.field = Field.None;
  }

  private emitUser(): void {
    const u = this.user!;
    this.user = undefined;
    this.doc = undefined;
    this.alias = undefined;
    this.ctx = Ctx.Outside;
    this.count++;
    this.batch.push(u);
  }
}

/**
 * Where the value of one attribute lies between a start tag's name and its '>' (either quote style,
 * namespace prefix ignored). Hand-rolled: it runs once per <Document>, a regex was measurably slower.
 */
function attributeValue(s: string, from: number, to: number, wanted: string): [number, number] | undefined {
  let i = from;
  while (i < to) {
    while (i < to && isSpace(s.charCodeAt(i))) i++;
    let nameStart = i;
    while (i < to && s.charCodeAt(i) !== 61 /* = */ && !isSpace(s.charCodeAt(i)) && s.charCodeAt(i) !== SLASH) {
      if (s.charCodeAt(i) === COLON) nameStart = i + 1;
      i++;
    }
    const nameEnd = i;
    while (i < to && isSpace(s.charCodeAt(i))) i++;
    if (i >= to || s.charCodeAt(i) !== 61) {
      i++;
      continue; // not name=value (e.g. the '/' of a self-closing tag)
    }
    i++;
    while (i < to && isSpace(s.charCodeAt(i))) i++;
    const q = s.charCodeAt(i);
    if (q !== DQ && q !== SQ) return undefined; // not well-formed; give up on attributes
    const close = s.indexOf(q === DQ ? '"' : "'", i + 1);
    if (close < 0 || close > to) return undefined;
    if (nameIs(s, nameStart, nameEnd, wanted)) return [i + 1, close];
    i = close + 1;
  }
  return undefined;
}
