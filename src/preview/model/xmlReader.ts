// A small non-validating XML reader for the structured view: it hands over the root element, then each
// child of the root as a finished subtree, so a 20 MB invoice is never one tree in memory (its lines are
// read, turned into rows and dropped one at a time). Namespaces are resolved; the five predefined
// entities and character references are decoded; a DOCTYPE is skipped and nothing is ever loaded or
// expanded from it (no external entities, no entity bombs).

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

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

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

/** The index of the '>' ending the tag that starts at `from`, outside quotes; -1 when there is none. */
function tagEnd(text: string, from: number): number {
  let quote = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return i;
  }
  return -1;
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
  let sawRoot = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) {
      // Character data belongs to the element below the root it is in; the root's own text is not kept.
      if (stack.length > 1) stack[stack.length - 1].element.text += decode(text.slice(i, textEnd));
      else if (stack.length === 0 && /\S/.test(text.slice(i, textEnd))) fail('text outside the root element', i);
    }
    if (lt < 0) break;
    const next = text.charCodeAt(lt + 1);
    if (next === 63 /* ? */) {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) fail('a processing instruction that does not end', lt);
      i = end + 2;
      continue;
    }
    if (next === 33 /* ! */) {
      if (text.startsWith('<!--', lt)) {
        const end = text.indexOf('-->', lt + 4);
        if (end < 0) fail('a comment that does not end', lt);
        i = end + 3;
      } else if (text.startsWith('<![CDATA[', lt)) {
        const end = text.indexOf(']]>', lt + 9);
        if (end < 0) fail('a CDATA section that does not end', lt);
        if (stack.length > 1) stack[stack.length - 1].element.text += text.slice(lt + 9, end);
        i = end + 3;
      } else if (text.startsWith('<!DOCTYPE', lt) && !sawRoot) {
        // Skipped whole, internal subset included: its declarations are never applied.
        let depth = 0;
        let j = lt + 9;
        for (; j < n; j++) {
          const c = text.charCodeAt(j);
          if (c === 91) depth++;
          else if (c === 93) depth--;
          else if (c === 62 && depth <= 0) break;
        }
        if (j >= n) fail('a DOCTYPE that does not end', lt);
        i = j + 1;
      } else fail('markup that is not an element, comment or CDATA section', lt);
      continue;
    }
    const gt = tagEnd(text, lt + 1);
    if (gt < 0) fail('a tag that does not end', lt);
    if (next === 47 /* / */) {
      const qname = text.slice(lt + 2, gt).trim();
      const open = stack.pop();
      if (!open) fail(`the end tag </${qname}> closes nothing`, lt);
      else if (open.qname !== qname) fail(`the end tag </${qname}> does not match <${open.qname}>`, lt);
      else if (stack.length === 1) visitor.child(open.element);
      else if (stack.length > 1) stack[stack.length - 1].element.children.push(open.element);
      i = gt + 1;
      continue;
    }
    if (stack.length === 0 && sawRoot) fail('a second root element', lt);
    const selfClosing = text.charCodeAt(gt - 1) === 47;
    const body = text.slice(lt + 1, selfClosing ? gt - 1 : gt);
    const nameMatch = /^[^\s/>]+/.exec(body);
    if (!nameMatch) fail('an element without a name', lt);
    const qname = (nameMatch as RegExpExecArray)[0];
    const attrs: Record<string, string> = {};
    let declared: Map<string, string> | undefined;
    if (body.length > qname.length) {
      ATTRIBUTE.lastIndex = qname.length;
      for (let m = ATTRIBUTE.exec(body); m; m = ATTRIBUTE.exec(body)) {
        const name = m[1];
        const value = decode(m[2] ?? m[3] ?? '');
        if (name === 'xmlns' || name.startsWith('xmlns:')) (declared ??= new Map()).set(name === 'xmlns' ? '' : name.slice(6), value);
        else if (!(name === '__proto__' || name === 'constructor' || name === 'prototype')) attrs[name] = value;
      }
    }
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    const open: Open = { element: { local: colon < 0 ? qname : qname.slice(colon + 1), ns: '', attrs, children: [], text: '' }, qname, declared };
    stack.push(open);
    const ns = resolve(prefix);
    if (ns === undefined) fail(`the prefix "${prefix}" is not declared`, lt);
    open.element.ns = ns as string;
    if (stack.length === 1) {
      sawRoot = true;
      visitor.root(open.element);
    }
    if (selfClosing) {
      stack.pop();
      if (stack.length === 1) visitor.child(open.element);
      else if (stack.length > 1) stack[stack.length - 1].element.children.push(open.element);
    }
    i = gt + 1;
  }
  if (stack.length > 0) fail(`<${stack[stack.length - 1].qname}> is not closed`, n);
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
