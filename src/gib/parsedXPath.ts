// fontoxpath's parsed form of the engine's XPath expressions, kept between worker starts. fontoxpath
// takes an XQueryX element in place of an expression's text and then skips its parser, most of the
// first check's cost (parsing GİB's tests: about 200 ms of CPU from text, about 65 ms from XQueryX).
// This module hands fontoxpath the stored form (XQueryX as nested arrays, rebuilt once: fontoxpath caches
// a compiled element by identity) or else the text, and gives what was parsed from text to store
// (parsedXPathFile.ts). Plain Node.

import * as fx from 'fontoxpath';
import type * as slimdom from 'slimdom';
import { sync as parseWithSlimdom } from 'slimdom-sax-parser';

const XQUERYX = 'http://www.w3.org/2005/XQueryX';

/**
 * One XQueryX element: [name, attributes, ...children], a child a nested element or a text. The name is
 * the local name in XQueryX's namespace, `{uri}local` in another; an attribute's is `xqx:local` in
 * XQueryX's namespace (fontoxpath's `xqx:prefix`, `xqx:URI`), `local` in none.
 */
export type StoredNode = [string, Record<string, string>, ...(StoredNode | string)[]];

export class ParsedXPath {
  private readonly built = new Map<string, fx.Element>();
  private readonly fromText = new Set<string>();
  /** Parsed from text and turned into the stored form by `entries`. */
  private readonly added = new Map<string, StoredNode>();
  private readonly everFromText = new Set<string>();

  /** `stored`: text → its XQueryX as read from the cache (trusted only as far as it builds). */
  constructor(private readonly stored: ReadonlyMap<string, StoredNode> = new Map()) {}

  /** What fontoxpath is given for `text`: its stored parsed form when there is one, else the text. */
  selector(text: string): fx.EvaluableExpression {
    const done = this.built.get(text);
    if (done) return done;
    const stored = this.stored.get(text);
    if (stored) {
      try {
        const el = buildElement(stored) as unknown as fx.Element;
        this.built.set(text, el);
        return el;
      } catch {
        // a damaged entry: the text is parsed as if there were none
      }
    }
    if (!this.added.has(text)) this.fromText.add(text);
    this.everFromText.add(text);
    return text;
  }

  /** The distinct expressions handed to fontoxpath as text (to be parsed by it). */
  get parsedFromText(): ReadonlySet<string> {
    return this.everFromText;
  }

  /** Whether expressions were parsed from text since the last `entries` (something new to store). */
  get hasNew(): boolean {
    return this.fromText.size > 0;
  }

  /**
   * Every entry to store: the stored ones, used or not, and those parsed from text, parsed again here
   * into XQueryX (an expression fontoxpath cannot parse is left out: it is parsed from text each time,
   * and raises there as it did). After it `hasNew` is false until another expression is parsed from text.
   */
  entries(): Map<string, StoredNode> {
    for (const text of this.fromText) {
      try {
        // Not annotated: fontoxpath annotates the tree when it compiles it, with the evaluation's own options.
        // The document only makes the elements (the slimdom of slimdom-sax-parser, already in the worker).
        const el = fx.parseScript(text, { language: fx.evaluateXPath.XPATH_3_1_LANGUAGE, annotateAst: false }, parseWithSlimdom('<xqueryx/>')) as unknown as slimdom.Element;
        this.added.set(text, storedNode(el));
      } catch {
        // not parsable (GİB's one test on the namespace axis): nothing to store
      }
    }
    this.fromText.clear();
    return new Map([...this.stored, ...this.added]);
  }
}

function storedNode(el: slimdom.Element): StoredNode {
  const name = el.namespaceURI === XQUERYX ? el.localName : `{${el.namespaceURI ?? ''}}${el.localName}`;
  const attributes: Record<string, string> = {};
  for (const a of el.attributes) {
    if (a.namespaceURI && a.namespaceURI !== XQUERYX) throw new Error(`an XQueryX attribute in another namespace: ${a.name}`);
    attributes[a.namespaceURI ? `xqx:${a.localName}` : a.localName] = a.value;
  }
  const out: StoredNode = [name, attributes];
  for (const child of el.childNodes) {
    if (child.nodeType === 1) out.push(storedNode(child as slimdom.Element));
    else if (child.nodeType === 3 || child.nodeType === 4) out.push((child as slimdom.Text).data);
    // comments (fontoxpath adds the expression's text as one) are left out: fontoxpath does not read them
  }
  return out;
}

/**
 * The stored node as the little of an element fontoxpath reads from an XQueryX program (its namespace,
 * local name, attributes and children: fontoxpath turns it into its own tree at once): plain objects,
 * a tenth of the cost of building a DOM.
 */
function buildElement(node: StoredNode): XQueryXElement {
  if (!Array.isArray(node) || typeof node[0] !== 'string' || typeof node[1] !== 'object' || node[1] === null) throw new Error('not a stored XQueryX node');
  const m = /^\{([^}]*)\}(.+)$/.exec(node[0]);
  const attributes: XQueryXAttribute[] = [];
  for (const [name, value] of Object.entries(node[1])) {
    if (typeof value !== 'string') throw new Error('not a stored XQueryX attribute');
    attributes.push({ nodeType: 2, localName: name.startsWith('xqx:') ? name.slice(4) : name, value });
  }
  const childNodes: (XQueryXElement | XQueryXText)[] = [];
  for (let i = 2; i < node.length; i++) {
    const child = node[i] as StoredNode | string;
    childNodes.push(typeof child === 'string' ? { nodeType: 3, data: child } : buildElement(child));
  }
  return { nodeType: 1, namespaceURI: m ? m[1] || null : XQUERYX, localName: m ? m[2] : node[0], attributes, childNodes };
}

interface XQueryXElement {
  readonly nodeType: 1;
  readonly namespaceURI: string | null;
  readonly localName: string;
  readonly attributes: readonly XQueryXAttribute[];
  readonly childNodes: readonly (XQueryXElement | XQueryXText)[];
}
interface XQueryXAttribute {
  readonly nodeType: 2;
  readonly localName: string;
  readonly value: string;
}
interface XQueryXText {
  readonly nodeType: 3;
  readonly data: string;
}
