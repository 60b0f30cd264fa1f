// The document tree the GİB engine checks: built from saxes' events (the parser slimdom-sax-parser
// uses) into plain objects with the DOM properties fontoxpath's DOM facade and the engine read
// (nodeType, names, childNodes, siblings, attributes, data/value, ownerElement, textContent), and
// each element's start-tag position as slimdom-sax-parser gives it. Building slimdom's nodes (each
// appendChild validates the insertion and queues mutation records) is slower and heavier: CONTRIBUTING's
// table has the figure (`npm run bench -- librariesGib`). A document saxes rejects is read by
// slimdom-sax-parser, for its error. Plain Node.

import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes';
import { sync as parseWithSlimdom } from 'slimdom-sax-parser';
import type * as slimdom from 'slimdom';

const XMLNS = 'http://www.w3.org/2000/xmlns/';

interface Position {
  line: number;
  column: number;
  start: number;
  end: number;
}

type Parent = XmlDocument | XmlElement;

/** The childNodes of a node that has none (one array for them all). */
const NO_CHILDREN: never[] = [];

abstract class XmlNode {
  abstract readonly nodeType: number;
  parentNode: Parent | null = null;
  previousSibling: XmlChild | null = null;
  nextSibling: XmlChild | null = null;
}

abstract class XmlParent extends XmlNode {
  readonly childNodes: XmlChild[] = [];
  firstChild: XmlChild | null = null;
  lastChild: XmlChild | null = null;

  appendChild(child: XmlChild): void {
    child.parentNode = this as unknown as Parent;
    child.previousSibling = this.lastChild;
    if (this.lastChild) this.lastChild.nextSibling = child;
    else this.firstChild = child;
    this.lastChild = child;
    this.childNodes.push(child);
  }

  get children(): XmlElement[] {
    return this.childNodes.filter((c): c is XmlElement => c.nodeType === 1);
  }
}

class XmlDocument extends XmlParent {
  readonly nodeType = 9;
  readonly nodeName = '#document';
  documentElement: XmlElement | null = null;
}

class XmlElement extends XmlParent {
  readonly nodeType = 1;
  readonly attributes: XmlAttr[] = [];
  /** Where its start tag is (the engine's positionOf). */
  position: Position | undefined;
  constructor(
    readonly namespaceURI: string | null,
    readonly prefix: string | null,
    readonly localName: string,
    readonly nodeName: string,
  ) {
    super();
  }
  get tagName(): string {
    return this.nodeName;
  }
  getAttribute(name: string): string | null {
    return this.attributes.find((a) => a.name === name)?.value ?? null;
  }
  get textContent(): string {
    let out = '';
    const stack: XmlChild[] = [...this.childNodes].reverse();
    while (stack.length) {
      const n = stack.pop()!;
      if (n.nodeType === 3 || n.nodeType === 4) out += (n as XmlText).data;
      else if (n.nodeType === 1) for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i]);
    }
    return out;
  }
}

class XmlAttr {
  readonly nodeType = 2;
  readonly parentNode = null;
  readonly childNodes: never[] = NO_CHILDREN;
  constructor(
    readonly namespaceURI: string | null,
    readonly prefix: string | null,
    readonly localName: string,
    readonly name: string,
    readonly value: string,
    readonly ownerElement: XmlElement,
  ) {}
  get nodeName(): string {
    return this.name;
  }
  get textContent(): string {
    return this.value;
  }
}

/** Text, CDATA, a comment or a processing instruction: data, no children. */
abstract class XmlLeaf extends XmlNode {
  readonly childNodes: never[] = NO_CHILDREN;
  constructor(readonly data: string) {
    super();
  }
  get textContent(): string {
    return this.data;
  }
}

class XmlText extends XmlLeaf {
  constructor(
    readonly nodeType: 3 | 4,
    data: string,
  ) {
    super(data);
  }
  get nodeName(): string {
    return this.nodeType === 3 ? '#text' : '#cdata-section';
  }
}

class XmlComment extends XmlLeaf {
  readonly nodeType = 8;
  readonly nodeName = '#comment';
}

class XmlProcessingInstruction extends XmlLeaf {
  readonly nodeType = 7;
  constructor(
    readonly target: string,
    data: string,
  ) {
    super(data);
  }
  get nodeName(): string {
    return this.target;
  }
}

type XmlChild = XmlElement | XmlText | XmlComment | XmlProcessingInstruction;

/**
 * Parses a document for the engine (positions as slimdom-sax-parser's `position: true` gives them).
 * The result has slimdom's shape where the engine reads it, hence its type. Throws the error
 * slimdom-sax-parser throws for a document that is not well-formed.
 */
export function parseGibDocument(text: string): slimdom.Document {
  try {
    return build(text) as unknown as slimdom.Document;
  } catch {
    // Not well-formed: slimdom-sax-parser's own error (line and column first, as the engine reads it).
    return parseWithSlimdom(text, { position: true });
  }
}

function build(text: string): XmlDocument {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const document = new XmlDocument();
  let context: Parent = document;
  // slimdom-sax-parser's position tracking: a node starts where the previous one ended (saxes reports
  // a text's end one character late and a comment's one early). Only elements keep theirs.
  let lastLine = 1;
  let lastColumn = 1;
  let lastOffset = 0;
  const track = <T extends XmlNode>(node: T, kind: 'text' | 'comment' | 'other' = 'other'): T => {
    const fix = kind === 'text' ? -1 : kind === 'comment' ? 1 : 0;
    const offset = parser.position + fix;
    if (node.nodeType === 1) (node as unknown as XmlElement).position = { line: lastLine, column: lastColumn, start: lastOffset, end: offset };
    lastLine = parser.line;
    lastColumn = parser.column + 1 + fix;
    lastOffset = offset;
    return node;
  };
  const skip = (): void => {
    lastLine = parser.line;
    lastColumn = parser.column + 1;
    lastOffset = parser.position;
  };
  const append = (child: XmlChild): void => {
    if (context === document && child.nodeType === 3) return;
    context.appendChild(child);
  };

  parser.on('text', (t) => {
    if (context === document) return skip();
    append(track(new XmlText(3, t), 'text'));
  });
  parser.on('cdata', (t) => append(track(new XmlText(4, t))));
  parser.on('comment', (t) => append(track(new XmlComment(t), 'comment')));
  parser.on('processinginstruction', (pi) => append(track(new XmlProcessingInstruction(pi.target ?? '', pi.body))));
  parser.on('doctype', () => {
    // No node for it (fontoxpath leaves doctypes out); its place counts for what follows.
    skip();
  });
  parser.on('opentag', (tag) => {
    const t = tag as SaxesTagNS;
    const el = track(new XmlElement(t.uri || null, t.prefix || null, t.local, t.name));
    for (const a of Object.values(t.attributes) as SaxesAttributeNS[]) {
      const uri = a.prefix === '' ? (a.name === 'xmlns' ? XMLNS : null) : a.uri || null;
      el.attributes.push(new XmlAttr(uri, a.prefix || null, a.local, a.name, a.value, el));
    }
    context.appendChild(el);
    if (context === document) document.documentElement = el;
    context = el;
  });
  parser.on('closetag', () => {
    skip();
    context = context.parentNode!;
  });
  parser.write(text).close();
  return document;
}
