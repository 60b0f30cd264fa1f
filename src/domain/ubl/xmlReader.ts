// The one XML reader of UBL-TR documents, linear on any text. scanXml() reads tags and character data
// and reports what is not well-formed, then goes on the forgiving way, so the editor's scanner follows
// a half-typed text: an unclosed CDATA, comment or processing instruction ends at the end of the text,
// an unclosed quote at the next '<' (which XML does not allow in an attribute). readXml() builds on it
// the structured view's strict reading: namespaces resolved, the five predefined entities and character
// references decoded, each child of the root handed over as a finished subtree (a 20 MB invoice is
// never one tree in memory), a DOCTYPE skipped and nothing loaded or expanded from it.
import { BANG, COLON, DQUOTE, EQUALS, GT, isXmlSpace, LT, QUESTION, SLASH, SQUOTE } from '../xmlChars';

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

/** The `name="value"` pairs of a start tag (values raw), in order. */
export function attributesOf(text: string, tag: XmlTag): Map<string, string> {
  const attrs = new Map<string, string>();
  const end = tag.gt < 0 ? tag.resume : tag.selfClosing ? tag.gt - 1 : tag.gt;
  for (const m of text.slice(tag.nameEnd, end).matchAll(/([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs.set(m[1], m[2] ?? m[3] ?? '');
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
  /** Prefix → namespace declared on this element (undefined: none declared here). */
  declared: Map<string, string> | undefined;
}

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
  const resolve = (prefix: string): string | undefined => {
    for (let k = stack.length - 1; k >= 0; k--) {
      const ns = stack[k].declared?.get(prefix);
      if (ns !== undefined) return ns;
    }
    if (prefix === 'xml') return 'http://www.w3.org/XML/1998/namespace';
    return prefix === '' ? '' : undefined;
  };
  /** An element ends: a child of the root is handed over, a deeper one joins its parent. */
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
      const open = stack.pop();
      if (!open) fail(`the end tag </${qname}> closes nothing`, tag.lt);
      else if (open.qname !== qname) fail(`the end tag </${qname}> does not match <${open.qname}>`, tag.lt);
      else close(open.element);
    },
    start(tag) {
      if (stack.length === 0 && sawRoot) fail('a second root element', tag.lt);
      const attrs: Record<string, string> = {};
      let declared: Map<string, string> | undefined;
      for (const [name, raw] of attributesOf(text, tag)) {
        const value = decode(raw);
        if (name === 'xmlns' || name.startsWith('xmlns:')) (declared ??= new Map()).set(name === 'xmlns' ? '' : name.slice(6), value);
        else if (!(name === '__proto__' || name === 'constructor' || name === 'prototype')) attrs[name] = value;
      }
      const qname = text.slice(tag.nameStart, tag.nameEnd);
      const element: XmlElement = { local: text.slice(tag.localStart, tag.nameEnd), ns: '', attrs, children: [], text: '' };
      stack.push({ element, qname, declared });
      const prefix = tag.localStart > tag.nameStart ? text.slice(tag.nameStart, tag.localStart - 1) : '';
      const ns = resolve(prefix);
      if (ns === undefined) fail(`the prefix "${prefix}" is not declared`, tag.lt);
      element.ns = ns as string;
      if (stack.length === 1) {
        sawRoot = true;
        visitor.root(element);
      }
      if (tag.selfClosing) {
        stack.pop();
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
