// The one XML reader of UBL-TR documents, linear on any text. scanXml() reads tags and character data
// and reports what is not well-formed, then goes on the forgiving way, so the editor's scanner follows
// a half-typed text: an unclosed CDATA, comment or processing instruction ends at the end of the text,
// an unclosed quote at the next '<' (which XML does not allow in an attribute). readXml() builds on it
// the structured view's strict reading: namespaces resolved, the five predefined entities and character
// references decoded, each child of the root handed over as a finished subtree (a 20 MB invoice is
// never one tree in memory), a DOCTYPE skipped and nothing loaded or expanded from it.
import { BANG, COLON, DQUOTE, EQUALS, GT, isRegexSpace, isXmlSpace, LT, QUESTION, SLASH, SQUOTE } from '../xmlChars';

/** A tag as scanXml() hands it over (one object, reused: read it in the call). */
export interface XmlTag {
  /** Index of its '<'. */
  lt: number;
  /** Its qualified name is text[nameStart, nameEnd); its local name starts at localStart. */
  nameStart: number;
  localStart: number;
  nameEnd: number;
  /** Index of its '>', or -1 for a tag that is still being typed. */
  gt: number;
  /** Where the scan goes on: after the '>', or at the next '<' for a half-typed tag. */
  resume: number;
  selfClosing: boolean;
}

export interface XmlHandler {
  /** A start tag; a position returned makes the scan go on there (its content skipped unread). */
  start(tag: XmlTag): number | undefined;
  end(tag: XmlTag): void;
  /** Character data, raw (entities not decoded), or the content of a CDATA section. */
  text(from: number, to: number, cdata: boolean): void;
  /** What is not well-formed at `at`; the scan then goes on the forgiving way. */
  malformed(reason: string, at: number): void;
}

function isNameEnd(code: number): boolean {
  // white space, '>', '/', '<', '=', a quote, or the end of the text (NaN)
  return isXmlSpace(code) || code === GT || code === SLASH || code === LT || code === EQUALS || code === DQUOTE || code === SQUOTE || Number.isNaN(code);
}

/**
 * The end of a tag: the index of its '>' (quoted '>' allowed), or, for a tag that is still being
 * typed, the bitwise NOT (~) of where the next tag or the text begins.
 */
export function tagEnd(text: string, from: number): number {
  let quote = 0;
  const length = text.length;
  for (let i = from; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === LT) return ~i;
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === DQUOTE || c === SQUOTE) quote = c;
    else if (c === GT) return i;
  }
  return ~length;
}

/** A character that cannot be part of an attribute's name: white space, '=', '/', '>'. */
function endsAttributeName(code: number): boolean {
  return code === EQUALS || code === SLASH || code === GT || isRegexSpace(code);
}

/**
 * The `name="value"` pairs of a start tag (values raw), in order; with `only`, just that attribute's. One pass with char codes: what the
 * regex `([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')` found (junk between pairs skipped), without its
 * backtracking, which made a 117 KB run of name characters cost about 10 s. A closing quote is
 * looked for once per quote character ahead of where the last search ended, so an unclosed quote does
 * not make every later name read to the end of the tag again.
 */
export function attributesOf(text: string, tag: XmlTag, only?: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const end = tag.gt < 0 ? tag.resume : tag.selfClosing ? tag.gt - 1 : tag.gt;
  // The next double and single quote at or after the last search (end: none before the tag's end).
  const nextQuote = { [DQUOTE]: -1, [SQUOTE]: -1 } as Record<number, number>;
  const quoteAfter = (quote: number, from: number): number => {
    if (nextQuote[quote] < from) {
      const at = text.indexOf(quote === DQUOTE ? '"' : "'", from);
      nextQuote[quote] = at < 0 || at >= end ? end : at;
    }
    return nextQuote[quote];
  };
  let i = tag.nameEnd;
  while (i < end) {
    if (endsAttributeName(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const nameStart = i;
    while (i < end && !endsAttributeName(text.charCodeAt(i))) i++;
    const nameEnd = i;
    let j = i;
    while (j < end && isRegexSpace(text.charCodeAt(j))) j++;
    if (j >= end || text.charCodeAt(j) !== EQUALS) continue;
    j++;
    while (j < end && isRegexSpace(text.charCodeAt(j))) j++;
    const quote = text.charCodeAt(j);
    if (j >= end || (quote !== DQUOTE && quote !== SQUOTE)) continue;
    const close = quoteAfter(quote, j + 1);
    if (close >= end) continue;
    // `only`: the one attribute wanted; no string is made for the others.
    if (only === undefined || (nameEnd - nameStart === only.length && text.startsWith(only, nameStart))) attrs.set(text.slice(nameStart, nameEnd), text.slice(j + 1, close));
    i = close + 1;
  }
  return attrs;
}

/** Reads the whole text once, calling the handler (char codes and indexOf in the loop, no regex). */
export function scanXml(text: string, handler: XmlHandler): void {
  const length = text.length;
  const tag: XmlTag = { lt: 0, nameStart: 0, localStart: 0, nameEnd: 0, gt: 0, resume: 0, selfClosing: false };
  let sawElement = false;
  let i = 0;
  while (i < length) {
    const lt = text.indexOf('<', i);
    const textEnd = lt < 0 ? length : lt;
    if (textEnd > i) handler.text(i, textEnd, false);
    if (lt < 0) break;
    const next = text.charCodeAt(lt + 1);

    if (next === BANG || next === QUESTION) {
      let close: number;
      if (next === QUESTION) close = ended(text.indexOf('?>', lt + 2), 2, 'a processing instruction that does not end', lt);
      else if (text.startsWith('<!--', lt)) close = ended(text.indexOf('-->', lt + 4), 3, 'a comment that does not end', lt);
      else if (text.startsWith('<![CDATA[', lt)) {
        const end = text.indexOf(']]>', lt + 9);
        handler.text(lt + 9, end < 0 ? length : end, true);
        close = ended(end, 3, 'a CDATA section that does not end', lt);
      } else if (text.startsWith('<!DOCTYPE', lt) && !sawElement) close = ended(doctypeEnd(text, lt + 9), 1, 'a DOCTYPE that does not end', lt);
      else {
        handler.malformed('markup that is not an element, comment or CDATA section', lt);
        close = ended(text.indexOf('>', lt + 2), 1, 'a tag that does not end', lt);
      }
      if (close < 0) return;
      i = close;
      continue;
    }

    const isEnd = next === SLASH;
    const nameStart = lt + (isEnd ? 2 : 1);
    let nameEnd = nameStart;
    let localStart = nameStart;
    for (;;) {
      const c = text.charCodeAt(nameEnd);
      if (isNameEnd(c)) break;
      if (c === COLON) localStart = nameEnd + 1;
      nameEnd++;
    }
    if (nameEnd === nameStart) {
      handler.malformed('an element without a name', lt);
      i = lt + 1;
      continue;
    }
    const end = tagEnd(text, nameEnd);
    if (end < 0) handler.malformed('a tag that does not end', lt);
    tag.lt = lt;
    tag.nameStart = nameStart;
    tag.localStart = localStart;
    tag.nameEnd = nameEnd;
    tag.gt = end >= 0 ? end : -1;
    tag.resume = end >= 0 ? end + 1 : ~end;
    tag.selfClosing = end > 0 && text.charCodeAt(end - 1) === SLASH;
    if (isEnd) {
      handler.end(tag);
      i = tag.resume;
    } else {
      sawElement = true;
      i = handler.start(tag) ?? tag.resume;
    }
  }

  /** Just after a construct's end (found at `at`, `size` long), or -1 after reporting the one at `lt` unended. */
  function ended(at: number, size: number, reason: string, lt: number): number {
    if (at >= 0) return at + size;
    handler.malformed(reason, lt);
    return -1;
  }
}

/** The '>' ending a DOCTYPE, its internal subset skipped whole; -1 when there is none. */
function doctypeEnd(text: string, from: number): number {
  let depth = 0;
  for (let j = from; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 91) depth++;
    else if (c === 93) depth--;
    else if (c === GT && depth <= 0) return j;
  }
  return -1;
}

// ---- the structured view's strict reading ------------------------------------------------------------

export interface XmlElement {
  /** Local name (without prefix). */
  local: string;
  /** Namespace URI ('' for none). */
  ns: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own character data (CDATA included), not its descendants'. */
  text: string;
}

export class XmlSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} (line ${line}, column ${column})`);
  }
}

export interface XmlVisitor {
  /** The root element, before its children (its `children` stays empty). */
  root(element: XmlElement): void;
  /** Each child of the root, whole. */
  child(element: XmlElement): void;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|[A-Za-z][\w.-]*);/g, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name] ?? whole;
  });
}

interface Open {
  element: XmlElement;
  qname: string;
  /** Prefix → the namespace it had before this element declared it anew (undefined: none declared here). */
  shadowed: Map<string, string | undefined> | undefined;
}

/**
 * Elements nested deeper than this are refused: a UBL-TR document nests about 15 deep (a signature's
 * certificate digest is the deepest), and a bound keeps the readers of the tree (the structured view
 * walks it recursively) within a small stack and linear time.
 */
export const MAX_XML_DEPTH = 256;

function lineAndColumn(text: string, at: number): [number, number] {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return [line, at - lineStart + 1];
}

/** Reads the whole text, calling the visitor; throws XmlSyntaxError on text that is not well-formed. */
export function readXml(text: string, visitor: XmlVisitor): void {
  const stack: Open[] = [];
  const fail = (reason: string, at: number): never => {
    const [line, column] = lineAndColumn(text, at);
    throw new XmlSyntaxError(reason, line, column);
  };
  /** Prefix → namespace of the open elements, innermost declaration first (one look-up, at any depth). */
  const inScope = new Map<string, string>([['', ''], ['xml', 'http://www.w3.org/XML/1998/namespace']]);
  /** An element ends: its declarations go out of scope; a child of the root is handed over, a deeper one joins its parent. */
  const pop = (): Open | undefined => {
    const open = stack.pop();
    open?.shadowed?.forEach((previous, prefix) => (previous === undefined ? inScope.delete(prefix) : inScope.set(prefix, previous)));
    return open;
  };
  const close = (element: XmlElement): void => {
    if (stack.length === 1) visitor.child(element);
    else if (stack.length > 1) stack[stack.length - 1].element.children.push(element);
  };
  let sawRoot = false;
  scanXml(text, {
    malformed: fail,
    text(from, to, cdata) {
      // Character data belongs to the element below the root it is in; the root's own text is not kept.
      if (stack.length > 1) stack[stack.length - 1].element.text += cdata ? text.slice(from, to) : decode(text.slice(from, to));
      else if (stack.length === 0 && !cdata && /\S/.test(text.slice(from, to))) fail('text outside the root element', from);
    },
    end(tag) {
      const qname = text.slice(tag.nameStart, tag.nameEnd);
      const open = pop();
      if (!open) fail(`the end tag </${qname}> closes nothing`, tag.lt);
      else if (open.qname !== qname) fail(`the end tag </${qname}> does not match <${open.qname}>`, tag.lt);
      else close(open.element);
    },
    start(tag) {
      if (stack.length === 0 && sawRoot) fail('a second root element', tag.lt);
      if (stack.length >= MAX_XML_DEPTH) fail(`elements are nested more than ${MAX_XML_DEPTH} deep (a UBL-TR document nests about 15); the reader stops here`, tag.lt);
      const attrs: Record<string, string> = {};
      let shadowed: Map<string, string | undefined> | undefined;
      for (const [name, raw] of attributesOf(text, tag)) {
        const value = decode(raw);
        if (name === 'xmlns' || name.startsWith('xmlns:')) {
          const declaredPrefix = name === 'xmlns' ? '' : name.slice(6);
          shadowed ??= new Map();
          if (!shadowed.has(declaredPrefix)) shadowed.set(declaredPrefix, inScope.get(declaredPrefix));
          inScope.set(declaredPrefix, value);
        } else if (!(name === '__proto__' || name === 'constructor' || name === 'prototype')) attrs[name] = value;
      }
      const qname = text.slice(tag.nameStart, tag.nameEnd);
      const element: XmlElement = { local: text.slice(tag.localStart, tag.nameEnd), ns: '', attrs, children: [], text: '' };
      stack.push({ element, qname, shadowed });
      const prefix = tag.localStart > tag.nameStart ? text.slice(tag.nameStart, tag.localStart - 1) : '';
      const ns = inScope.get(prefix);
      if (ns === undefined) fail(`the prefix "${prefix}" is not declared`, tag.lt);
      element.ns = ns as string;
      if (stack.length === 1) {
        sawRoot = true;
        visitor.root(element);
      }
      if (tag.selfClosing) {
        pop();
        close(element);
      }
      return undefined;
    },
  });
  if (stack.length > 0) fail(`<${stack[stack.length - 1].qname}> is not closed`, text.length);
  if (!sawRoot) fail('no root element', 0);
}

// ---- helpers for reading subtrees -----------------------------------------------------------------

export function child(el: XmlElement | undefined, local: string): XmlElement | undefined {
  return el?.children.find((c) => c.local === local);
}

export function childrenOf(el: XmlElement | undefined, local: string): XmlElement[] {
  return el ? el.children.filter((c) => c.local === local) : [];
}

/** The trimmed text at a path of local names below `el`, or undefined when missing or empty. */
export function textAt(el: XmlElement | undefined, ...path: string[]): string | undefined {
  let at = el;
  for (const local of path) at = child(at, local);
  const value = at?.text.trim();
  return value ? value : undefined;
}
