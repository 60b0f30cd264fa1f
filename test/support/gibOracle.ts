// The second engine the GİB rule tests compare with: SaxonJS (XPath 3.1, a different implementation
// from fontoxpath) reading GİB's Schematron files on its own (includes, abstract rules and extends
// found by XPath over the Schematron documents, not by src/gib/schematron.ts) and evaluating each
// assert over each context node. The ISO skeleton (the XSLT that compiles Schematron) is not on this
// machine and cannot be fetched by the tests, so this is the closest real oracle: the same
// published rules, another XPath engine, its own reading.
//
// What it does not do on purpose: XPath 1.0's first-item rule. Where XPath 3.1 raises a type error
// (XPTY0004: two drivers in `string(…/cac:DriverPerson/cbc:FirstName)`), it reports the assert as
// indeterminate instead of answering, and the tests say which answer the engine gives and why.

import * as path from 'node:path';
import { createRequire } from 'node:module';

// saxon-js has no types; the little used here is typed by hand.
interface SaxonXPath {
  evaluate(xpath: string, context: unknown, options?: { params?: Record<string, unknown>; namespaceContext?: Record<string, string>; resultForm?: 'array' | 'iterator' | 'default' }): unknown;
}
const saxon = createRequire(path.join(process.cwd(), 'package.json'))('saxon-js') as { XPath: SaxonXPath };
const XP = saxon.XPath;

const SCH_NS = { sch: 'http://purl.oclc.org/dsdl/schematron' };

export interface OracleAssert {
  readonly test: string;
  /** The assert element, to render its message. */
  readonly element: unknown;
}
export interface OracleRule {
  readonly context: string;
  readonly asserts: readonly OracleAssert[];
}
export interface OracleRules {
  readonly namespaces: Record<string, string>;
  readonly lets: readonly { name: string; value: string }[];
  readonly patterns: readonly (readonly OracleRule[])[];
}

const arr = (xpath: string, context: unknown, params: Record<string, unknown> = {}, ns: Record<string, string> = SCH_NS): unknown[] =>
  XP.evaluate(xpath, context, { params, namespaceContext: ns, resultForm: 'array' }) as unknown[];
const str = (xpath: string, context: unknown, params: Record<string, unknown> = {}, ns: Record<string, string> = SCH_NS): string =>
  String(XP.evaluate(`string(${xpath})`, context, { params, namespaceContext: ns }));

/** Reads GİB's Schematron from its three files' texts (by file name). */
export function readOracleRules(files: Record<string, string>): OracleRules {
  const docs = new Map(Object.entries(files).map(([name, text]) => [name, XP.evaluate('parse-xml($t)', null, { params: { t: text } })]));
  const main = docs.get('UBL-TR_Main_Schematron.xml');
  // The schema's children with each include replaced by the element it names.
  const top: unknown[] = [];
  for (const child of arr('/*/*', main)) {
    if (str('local-name(.)', child) !== 'include') {
      top.push(child);
      continue;
    }
    const [file, id] = str('@href', child).split('#');
    top.push(arr('//*[@id = $id]', docs.get(file), { id })[0]);
  }
  const abstracts = new Map<string, unknown>();
  for (const doc of docs.values()) for (const r of arr("//sch:rule[@abstract = 'true']", doc)) abstracts.set(str('@id', r), r);
  const assertsOf = (rule: unknown): OracleAssert[] =>
    arr('sch:assert | sch:extends', rule).flatMap((e) =>
      str('local-name(.)', e) === 'extends' ? assertsOf(abstracts.get(str('@rule', e))) : [{ test: str('@test', e), element: e }],
    );
  const namespaces: Record<string, string> = {};
  const lets: { name: string; value: string }[] = [];
  const patterns: OracleRule[][] = [];
  const loose: OracleRule[] = [];
  for (const item of top) {
    const local = str('local-name(.)', item);
    if (local === 'ns') namespaces[str('@prefix', item)] = str('@uri', item);
    else if (local === 'let') lets.push({ name: str('@name', item), value: str('@value', item) });
    else if (local === 'rule' && str('@abstract', item) !== 'true') loose.push({ context: str('@context', item), asserts: assertsOf(item) });
    else if (local === 'pattern') {
      for (const l of arr('sch:let', item)) lets.push({ name: str('@name', l), value: str('@value', l) });
      patterns.push(arr("sch:rule[not(@abstract = 'true')]", item).map((r) => ({ context: str('@context', r), asserts: assertsOf(r) })));
    }
  }
  patterns.push(loose);
  namespaces.xs ??= 'http://www.w3.org/2001/XMLSchema';
  return { namespaces, lets, patterns };
}

export interface OracleFinding {
  readonly message: string;
  /** The context node's path: names as written, [n] where a name repeats; an attribute's as its element's + /@name. */
  readonly contextPath: string;
  readonly test: string;
}
export interface OracleResult {
  readonly findings: OracleFinding[];
  /** Asserts XPath 3.1 could not evaluate (type errors), with the error code. */
  readonly indeterminate: { test: string; contextPath: string; code: string }[];
}

const PATH_OF = `string-join(ancestor-or-self::*/(let $n := name() return if (count(../*[name() = $n]) > 1) then concat($n, '[', count(preceding-sibling::*[name() = $n]) + 1, ']') else $n), '/')`;

function pathOf(node: unknown): string {
  const isAttribute = XP.evaluate('. instance of attribute()', node) as boolean;
  if (isAttribute) return `/${String(XP.evaluate(`../${PATH_OF}`, node))}/@${String(XP.evaluate('name()', node))}`;
  return `/${String(XP.evaluate(PATH_OF, node))}`;
}

/** Runs the rules over one document's text. */
export function runOracle(rules: OracleRules, text: string): OracleResult {
  const doc = XP.evaluate('parse-xml($t)', null, { params: { t: text } });
  const ns = rules.namespaces;
  const params: Record<string, unknown> = {};
  for (const l of rules.lets) params[l.name] = XP.evaluate(l.value, doc, { params, namespaceContext: ns, resultForm: 'array' });
  // The same assumption as the engine (GİB does not document it): e-Arşiv invoices are validated with $type 'earchive'.
  if (XP.evaluate("/*/*[local-name() = 'ProfileID'] = 'EARSIVFATURA'", doc)) params.type = 'earchive';
  const findings: OracleFinding[] = [];
  const indeterminate: OracleResult['indeterminate'] = [];
  for (const pattern of rules.patterns) {
    const claimed = new Set<unknown>();
    for (const rule of pattern) {
      const select = rule.context.startsWith('/') ? rule.context : `//${rule.context}`;
      for (const node of arr(select, doc, params, ns)) {
        if (claimed.has(node)) continue; // an earlier rule of the pattern matched it
        claimed.add(node);
        for (const a of rule.asserts) {
          let ok: boolean;
          try {
            ok = XP.evaluate(`boolean(${a.test})`, node, { params, namespaceContext: ns }) as boolean;
          } catch (e) {
            indeterminate.push({ test: a.test, contextPath: pathOf(node), code: String((e as { code?: string }).code ?? (e as Error).message) });
            continue;
          }
          if (!ok) findings.push({ message: renderMessage(a.element, node, params, ns), contextPath: pathOf(node), test: a.test });
        }
      }
    }
  }
  return { findings, indeterminate };
}

function renderMessage(assertElement: unknown, node: unknown, params: Record<string, unknown>, ns: Record<string, string>): string {
  let out = '';
  for (const part of arr('node()', assertElement)) {
    const local = str('local-name(.)', part);
    if (local === 'value-of' || local === 'name') {
      const select = local === 'name' ? `name(${str('@path', part) || '.'})` : str('@select', part);
      // XSLT 1.0's value-of (GİB's files declare no queryBinding): the string value of the first item.
      const items = XP.evaluate(select, node, { params, namespaceContext: ns, resultForm: 'array' }) as unknown[];
      const first = items[0];
      out += first === undefined ? '' : typeof first === 'object' && first !== null ? String(XP.evaluate('string(.)', first)) : String(first);
    } else out += str('.', part);
  }
  return out.replace(/\s+/g, ' ').trim();
}
