// GİB's Schematron read as published (e-FaturaPaketi/schematron): the main file's `<include
// href="file#id">` replaced by the element with that id in the named file, every concrete rule's
// `<extends rule="…">` expanded into the abstract rule's asserts (recursively, across patterns, as
// the old ISO skeleton GİB's files were written for allows), the `let`s (the code lists are
// pattern-level lets of the `codes` pattern; the skeleton makes them global), and the rules that
// stand outside any pattern (GİB has 9: country, currency, @currencyID, @unitCode, channel,
// IssueDate, @mimeCode) kept as a group of their own. Plain Node, no vscode.

import { sync as parseXml } from 'slimdom-sax-parser';
import type * as slimdom from 'slimdom';
import { findFile, GibSourceError, type GibFileSet } from './rulesSource';

const SCH = 'http://purl.oclc.org/dsdl/schematron';
export const MAIN_SCHEMATRON = 'UBL-TR_Main_Schematron.xml';

/** A piece of an assert's message: text, `<value-of select>` or `<name path?>`. */
export type MessagePart = string | { kind: 'value-of'; select: string } | { kind: 'name'; path: string | undefined };

export interface SchAssert {
  /** 'assert' fires when the test is false, 'report' when it is true. */
  readonly kind: 'assert' | 'report';
  readonly test: string;
  readonly message: readonly MessagePart[];
  /** The abstract rule the assert came from (GİB's asserts have no ids; this and the text name them). */
  readonly fromRule: string | undefined;
  readonly flag: string | undefined;
  readonly role: string | undefined;
}

export interface SchLet {
  readonly name: string;
  readonly value: string;
}

export interface SchRule {
  readonly context: string;
  readonly lets: readonly SchLet[];
  readonly asserts: readonly SchAssert[];
}

export interface SchPattern {
  /** The pattern's id; OUTSIDE_PATTERNS for the rules GİB put directly under the schema. */
  readonly id: string;
  readonly rules: readonly SchRule[];
}

export const OUTSIDE_PATTERNS = '(outside patterns)';

/**
 * The version of this reading of GİB's Schematron: the package store keeps what readSchematron made
 * at install (ruleStore.ts) and uses it only while this number is the same. Raise it with any change
 * to what readSchematron returns for the same files.
 */
export const SCHEMATRON_READER = 1;

export interface SchematronRules {
  /** The newest entry of History.txt, e.g. '20260312' (undefined when there is no History.txt). */
  readonly release: string | undefined;
  /** prefix → namespace URI from `<ns>`. */
  readonly namespaces: Readonly<Record<string, string>>;
  /** Schema- and pattern-level lets in document order (all global, as the skeleton compiles them). */
  readonly lets: readonly SchLet[];
  readonly patterns: readonly SchPattern[];
}

/** Options that take part of the published reading away, for the tests that prove each part counts. */
export interface ReadOptions {
  /** Leave this abstract rule out of every `extends` (a mutation the fixtures must notice). */
  readonly dropAbstractRule?: string;
}

/** Reads GİB's Schematron from the e-FaturaPaketi file set (its `schematron/` files). */
export function readSchematron(set: GibFileSet, options: ReadOptions = {}): SchematronRules {
  const main = findFile(set, MAIN_SCHEMATRON);
  if (!main) throw new GibSourceError(`${set.origin} has no ${MAIN_SCHEMATRON} (is it GİB's e-FaturaPaketi?)`);
  const folder = main.name.includes('/') ? main.name.slice(0, main.name.lastIndexOf('/') + 1) : '';
  const documents = new Map<string, slimdom.Document>();
  const load = (name: string): slimdom.Document => {
    let doc = documents.get(name);
    if (!doc) {
      const content = set.files.get(folder + name) ?? findFile(set, name)?.content;
      if (!content) throw new GibSourceError(`${set.origin}: the Schematron includes ${name}, which is missing`);
      doc = parseXml(content.toString('utf8'));
      documents.set(name, doc);
    }
    return doc;
  };
  const root = load(MAIN_SCHEMATRON).documentElement!;
  const expanded = expandIncludes(root, load);

  const abstracts = new Map<string, slimdom.Element>();
  for (const el of expanded.flatMap(elementsInOrder)) {
    if (isSch(el, 'rule') && el.getAttribute('abstract') === 'true' && el.getAttribute('id')) abstracts.set(el.getAttribute('id')!, el);
  }

  const namespaces: Record<string, string> = {};
  const lets: SchLet[] = [];
  const patterns: SchPattern[] = [];
  const outside: SchRule[] = [];
  for (const child of expanded) {
    if (isSch(child, 'ns')) namespaces[child.getAttribute('prefix') ?? ''] = child.getAttribute('uri') ?? '';
    else if (isSch(child, 'let')) lets.push(letOf(child));
    else if (isSch(child, 'rule') && child.getAttribute('abstract') !== 'true') outside.push(ruleOf(child, abstracts, options));
    else if (isSch(child, 'pattern')) {
      const rules: SchRule[] = [];
      for (const el of elementChildren(child)) {
        if (isSch(el, 'let')) lets.push(letOf(el));
        else if (isSch(el, 'rule') && el.getAttribute('abstract') !== 'true') rules.push(ruleOf(el, abstracts, options));
      }
      patterns.push({ id: child.getAttribute('id') ?? `pattern ${patterns.length + 1}`, rules });
    }
  }
  if (outside.length) patterns.push({ id: OUTSIDE_PATTERNS, rules: outside });
  return { release: releaseOf(set), namespaces, lets, patterns };
}

/** The newest release History.txt lists: its entries start with a line of 8 digits (yyyymmdd). */
export function releaseOf(set: GibFileSet): string | undefined {
  const history = findFile(set, 'schematron/History.txt') ?? findFile(set, 'History.txt');
  if (!history) return undefined;
  const dates = history.content.toString('latin1').split(/\r?\n/).map((l) => l.trim()).filter((l) => /^\d{8}$/.test(l));
  return dates.sort().at(-1);
}

/**
 * The schema's top-level children with each `<include>` replaced by what it names (the whole
 * document element, or the element whose id is the fragment), includes inside included parts too.
 */
function expandIncludes(root: slimdom.Element, load: (name: string) => slimdom.Document, depth = 0): slimdom.Element[] {
  if (depth > 10) throw new GibSourceError('the Schematron includes nest more than 10 deep (a loop?)');
  const out: slimdom.Element[] = [];
  for (const child of elementChildren(root)) {
    if (!isSch(child, 'include')) {
      out.push(child);
      continue;
    }
    const href = child.getAttribute('href') ?? '';
    const [file, fragment] = href.split('#');
    const doc = load(file);
    const target = fragment ? elementsInOrder(doc.documentElement!).find((e) => e.getAttribute('id') === fragment) : doc.documentElement!;
    if (!target) throw new GibSourceError(`the Schematron includes ${href}, and ${file} has no element with id "${fragment}"`);
    if (isSch(target, 'schema')) out.push(...expandIncludes(target, load, depth + 1));
    else out.push(target);
  }
  return out;
}

function ruleOf(el: slimdom.Element, abstracts: Map<string, slimdom.Element>, options: ReadOptions): SchRule {
  const lets: SchLet[] = [];
  const asserts: SchAssert[] = [];
  collect(el, undefined, abstracts, options, lets, asserts, new Set());
  return { context: el.getAttribute('context') ?? '', lets, asserts };
}

function collect(el: slimdom.Element, from: string | undefined, abstracts: Map<string, slimdom.Element>, options: ReadOptions, lets: SchLet[], asserts: SchAssert[], seen: Set<string>): void {
  for (const child of elementChildren(el)) {
    if (isSch(child, 'let')) lets.push(letOf(child));
    else if (isSch(child, 'assert') || isSch(child, 'report')) {
      asserts.push({
        kind: child.localName === 'report' ? 'report' : 'assert',
        test: child.getAttribute('test') ?? 'true()',
        message: messageOf(child),
        fromRule: from,
        flag: child.getAttribute('flag') ?? undefined,
        role: child.getAttribute('role') ?? undefined,
      });
    } else if (isSch(child, 'extends')) {
      const id = child.getAttribute('rule') ?? '';
      if (id === options.dropAbstractRule) continue;
      const target = abstracts.get(id);
      if (!target) throw new GibSourceError(`a Schematron rule extends "${id}", which no abstract rule defines`);
      if (seen.has(id)) throw new GibSourceError(`the abstract rule "${id}" extends itself`);
      collect(target, id, abstracts, options, lets, asserts, new Set([...seen, id]));
    }
  }
}

function messageOf(el: slimdom.Element): MessagePart[] {
  const parts: MessagePart[] = [];
  const walk = (node: slimdom.Node): void => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3 || child.nodeType === 4) parts.push((child as slimdom.Text).data);
      else if (child.nodeType === 1) {
        const e = child as slimdom.Element;
        if (isSch(e, 'value-of')) parts.push({ kind: 'value-of', select: e.getAttribute('select') ?? '.' });
        else if (isSch(e, 'name')) parts.push({ kind: 'name', path: e.getAttribute('path') ?? undefined });
        else walk(e); // emph, dir, span: their text
      }
    }
  };
  walk(el);
  return parts;
}

function letOf(el: slimdom.Element): SchLet {
  return { name: el.getAttribute('name') ?? '', value: el.getAttribute('value') ?? '' };
}

function isSch(el: slimdom.Element, localName: string): boolean {
  return el.namespaceURI === SCH && el.localName === localName;
}

function elementChildren(el: slimdom.Element): slimdom.Element[] {
  return el.childNodes.filter((n): n is slimdom.Element => n.nodeType === 1);
}

/** The document's elements in document order (childNodes: slimdom builds `children` anew on each read). */
export function elementsInOrder(root: slimdom.Element): slimdom.Element[] {
  const out: slimdom.Element[] = [];
  const stack: slimdom.Node[] = [root];
  while (stack.length) {
    const el = stack.pop() as slimdom.Element;
    out.push(el);
    const kids = el.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) if (kids[i].nodeType === 1) stack.push(kids[i]);
  }
  return out;
}
