// Runs GİB's Schematron over one parsed document as the ISO skeleton runs it: every element in
// document order (and every attribute, for the rules whose context is an attribute), in each
// pattern the first rule whose context matches, each of its asserts tested with that node as the
// context. XPath by fontoxpath (3.1); where GİB's rules rely on XPath 1.0 taking the first of
// several nodes (a despatch advice with two drivers), a test that raises a type error is tested
// again with its arguments reduced to their first item (xpathText.withFirstItemArguments).
// Plain Node, no vscode.

import * as fx from 'fontoxpath';
import type * as slimdom from 'slimdom';
import { elementsInOrder, type MessagePart, type SchAssert, type SchematronRules, type SchRule } from './schematron';
import { stopIfAsked, type ShouldStop } from './checkStop';
import { compileGuard, type GuardValue, type GuardVariables } from './guardEvaluator';
import { guardOf, locationPaths, readsOnlyTheValue, withFirstItemArguments, type PathInText } from './xpathText';
import { ParsedXPath } from './parsedXPath';

/** What fontoxpath is given for an expression's text: its stored parsed form or the text (parsedXPath.ts). */
type Selector = (text: string) => fx.EvaluableExpression;

const XS = 'http://www.w3.org/2001/XMLSchema';
/** The variable holding a rule's context nodes in its batch evaluation. */
const CONTEXT_VARIABLE = 'gibContextNodes';
const ELEMENT = 1;
const ATTRIBUTE = 2;
const DOCUMENT = 9;

export interface RuleHit {
  readonly pattern: string;
  readonly ruleContext: string;
  readonly assert: SchAssert;
  /** GİB's message with its value-of and name parts filled in, whitespace collapsed. */
  readonly message: string;
  /** The rule's context node (an element or an attribute). */
  readonly context: slimdom.Node;
  /** Where the finding belongs: the first node the test's paths select, else the context. */
  readonly at: slimdom.Element;
}

/** An assert this engine could not evaluate (e.g. the `namespace::` axis fontoxpath lacks). */
export interface UncheckedAssert {
  readonly ruleContext: string;
  readonly test: string;
  readonly reason: string;
  readonly at: slimdom.Element;
}

interface PreparedAssert {
  readonly assert: SchAssert;
  /** The test with its absolute paths replaced by per-document variables. */
  readonly expr: string;
  readonly firstItemExpr: string;
  readonly paths: readonly PathInText[];
}

interface PreparedRule {
  readonly context: string;
  /** Matches a node; undefined when the context is not a simple path (then the context is evaluated as an XPath over the whole document). */
  readonly matches: ((node: slimdom.Node) => boolean) | undefined;
  /** The local name (or '@name') a node must have to match; undefined when the context is not a simple path. */
  readonly name: string | undefined;
  readonly onAttributes: boolean;
  readonly lets: readonly { name: string; value: string }[];
  /** The rest, worked out on the rule's first use (a document type uses about a third of GİB's rules). */
  readonly details: RuleDetails;
}

interface RuleDetails {
  readonly asserts: readonly PreparedAssert[];
  /**
   * Every assert of the rule over a group of its nodes that share a parent, in one evaluation:
   * `$gibContextNodes ! (boolean(t1), …)`, with the paths that climb out of the node (`../cbc:ProfileID`)
   * as variables evaluated once per group (`upPaths`): from each of 300 invoice lines they would
   * otherwise scan the invoice's 300 children again.
   */
  readonly batch: string;
  readonly upPaths: ReadonlyMap<string, string>;
  /** Those of `upPaths` that are plain climbs and child steps, as selectors (no fontoxpath compiling). */
  readonly upSelectors: ReadonlyMap<string, NodeSelector>;
  /** Each assert's test as `batch` has it (`boolean(…)`), for a batch of some of them. */
  readonly batchTests: readonly string[];
  /**
   * The asserts whose test is `G or …` with a G that does not depend on the node (xpathText.guardOf:
   * `not($gibUp0 = 'IHRACAT')`, the document's profile): G is evaluated once per group, and where it
   * holds the assert is true for the whole group. Most of GİB's rules are for one profile or type.
   */
  readonly guards: readonly { readonly assert: number; readonly guard: string; readonly evaluate: ReturnType<typeof compileGuard> }[];
  /** `(boolean(G1), …)` over `guards`. */
  readonly guardBatch: string;
  /** Batches of some of the asserts, by their indexes joined with ','. */
  readonly subsetBatches: Map<string, string>;
  /**
   * A rule about attributes of one name whose tests read the attribute only through its value
   * (`contains($CurrencyCodeList, concat(',', ., ','))` on every @currencyID): one attribute per
   * distinct value is evaluated, and the others take its results.
   */
  readonly byValue: boolean;
  /** The same over one node: `(boolean(t1), …)`. */
  readonly nodeBatch: string;
}

interface PreparedPattern {
  readonly id: string;
  readonly rules: readonly PreparedRule[];
  /** The rules a node may match, in order, by its local name ('@name' for an attribute); `unnamed` for other names. */
  readonly byName: ReadonlyMap<string, readonly PreparedRule[]>;
  readonly unnamed: readonly PreparedRule[];
}

export interface PreparedRules {
  readonly source: SchematronRules;
  readonly patterns: readonly PreparedPattern[];
  readonly namespaceResolver: (prefix: string) => string | null;
  /** Absolute paths hoisted out of tests: variable name → path (it grows as rules are first used). */
  readonly hoisted: ReadonlyMap<string, string>;
  /**
   * The hoisted paths and lets that are plain absolute paths (`//inv:Invoice/cbc:ProfileID`), as matchers:
   * their nodes are collected in one walk of the document instead of one fontoxpath scan each.
   */
  readonly absolutePaths: ReadonlyMap<string, ElementMatcher>;
  /** For each local name, the patterns with a rule that may match an element or attribute of that name. */
  readonly patternsByName: ReadonlyMap<string, readonly PreparedPattern[]>;
  /** The patterns with a rule whose context is not a simple path (any node may match it). */
  readonly patternsForAnyName: readonly PreparedPattern[];
  /** Lets whose value is a string literal, read once. */
  readonly literalLets: Readonly<Record<string, string>>;
  readonly visitsAttributes: boolean;
  /** fontoxpath's parsed form of the expressions, kept between worker starts (parsedXPath.ts). */
  readonly xpath: ParsedXPath;
}

/** Prepares a rule set once per release: contexts compiled to matchers, tests rewritten. */
export function prepareRules(rules: SchematronRules, xpath: ParsedXPath = new ParsedXPath()): PreparedRules {
  const ns: Record<string, string> = { ...rules.namespaces, xs: rules.namespaces.xs ?? XS };
  const namespaceResolver = (prefix: string): string | null => (prefix ? ns[prefix] ?? null : null);
  const hoisted = new Map<string, string>();
  const absolutePaths = new Map<string, ElementMatcher>();
  const hoistName = new Map<string, string>();
  const hoist = (test: string): string =>
    withVariables(test, locationPaths(test).filter((p) => p.absolute), 'gibAbsolute', hoistName, (name, path) => {
      if (hoisted.has(name)) return;
      hoisted.set(name, path);
      const m = absolutePathMatcher(path, ns);
      if (m) absolutePaths.set(path, m);
    });
  const upName = new Map<string, string>();
  const literalLets: Record<string, string> = {};
  for (const l of rules.lets) {
    const m = /^\s*(['"])([\s\S]*)\1\s*$/.exec(l.value);
    if (m && !m[2].includes(m[1])) literalLets[l.name] = m[2];
  }
  const patterns = rules.patterns.map((p) => ({
    id: p.id,
    rules: p.rules.map((r): PreparedRule => {
      const simple = simpleContext(r.context, ns);
      // Worked out on first use (PreparedRule.details); its absolute paths join `hoisted` then.
      let details: RuleDetails | undefined;
      return {
        context: r.context,
        matches: simple?.matches,
        name: simple?.name,
        onAttributes: simple ? simple.onAttributes : /@/.test(r.context),
        lets: r.lets,
        get details() {
          return (details ??= ruleDetails(r, simple));
        },
      };
    }),
  }));
  function ruleDetails(r: SchRule, simple: ReturnType<typeof simpleContext>): RuleDetails {
    const asserts = r.asserts.map((a) => preparedAssert(a, hoist(a.test)));
    const nodeBatch = `(${asserts.map((a) => `boolean(${a.expr})`).join(', ')})`;
    const upPaths = new Map<string, string>();
    const guards: RuleDetails['guards'][number][] = [];
    const batchTests = asserts.map((a, j) => {
      // Only plain climbs (`../cbc:ProfileID`): one with a predicate may be costly and is evaluated only
      // where the test needs it (the TaxTotal's `../cac:InvoiceLine/…[…]` behind `not(… = '555') or`).
      const climbing = locationPaths(a.expr).filter((x) => x.steps[0] === '..' && !x.text.includes('$') && !x.text.includes('['));
      const out = withVariables(a.expr, climbing, 'gibUp', upName, (name, path) => upPaths.set(name, path));
      const guard = guardOf(out);
      if (guard !== undefined) guards.push({ assert: j, guard, evaluate: compileGuard(guard) });
      return `boolean(${out})`;
    });
    const upSelectors = new Map<string, NodeSelector>();
    for (const [name, text] of upPaths) {
      const selector = climbingPathSelector(text, ns);
      if (selector) upSelectors.set(name, selector);
    }
    return {
      asserts,
      batch: `$${CONTEXT_VARIABLE} ! (${batchTests.join(', ')})`,
      upPaths,
      upSelectors,
      batchTests,
      guards,
      guardBatch: `(${guards.map((g) => `boolean(${g.guard})`).join(', ')})`,
      subsetBatches: new Map(),
      byValue: !!simple?.onAttributes && r.lets.length === 0 && upPaths.size === 0 && asserts.every((a) => readsOnlyTheValue(a.expr)),
      nodeBatch,
    };
  }
  const visitsAttributes = patterns.some((p) => p.rules.some((r) => r.onAttributes));
  const indexed = patterns.map((p): PreparedPattern => {
    const unnamed = p.rules.filter((r) => r.name === undefined);
    const byName = new Map<string, PreparedRule[]>();
    for (const name of new Set(p.rules.map((r) => r.name).filter((n): n is string => n !== undefined))) {
      byName.set(name, p.rules.filter((r) => r.name === name || r.name === undefined));
    }
    return { ...p, byName, unnamed };
  });
  for (const l of rules.lets) {
    const m = l.name in literalLets ? undefined : absolutePathMatcher(l.value, ns);
    if (m) absolutePaths.set(l.value, m);
  }
  const patternsForAnyName = indexed.filter((p) => p.unnamed.length > 0);
  const patternsByName = new Map<string, PreparedPattern[]>();
  for (const p of indexed) {
    for (const name of p.byName.keys()) {
      if (!patternsByName.has(name)) patternsByName.set(name, indexed.filter((q) => q.byName.has(name) || q.unnamed.length > 0));
    }
  }
  return { source: rules, patterns: indexed, namespaceResolver, hoisted, absolutePaths, patternsByName, patternsForAnyName, literalLets, visitsAttributes, xpath };
}

/**
 * `expr` with each of `paths` replaced by a variable (`onPath` is told each one). The variable is named
 * after the path's text, not after the order rules are first used in, so a test reads the same whichever
 * document a worker checks first (parsedXPath.ts stores the parsed form by the text). `names`: path →
 * name so far (a clash is numbered).
 */
function withVariables(expr: string, paths: readonly PathInText[], prefix: string, names: Map<string, string>, onPath: (name: string, path: string) => void): string {
  let out = expr;
  for (const p of [...paths].sort((a, b) => b.start - a.start)) {
    let name = names.get(p.text);
    if (!name) names.set(p.text, (name = variableName(prefix, p.text, names)));
    onPath(name, p.text);
    out = out.slice(0, p.start) + '$' + name + out.slice(p.end);
  }
  return out;
}

function variableName(prefix: string, path: string, taken: ReadonlyMap<string, string>): string {
  let hash = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  const base = `${prefix}${(hash >>> 0).toString(36)}`;
  const names = new Set(taken.values());
  let name = base;
  for (let n = 2; names.has(name); n++) name = `${base}x${n}`;
  return name;
}

/** Matches an element by its name and its parents' names; `name` is its local name. */
export interface ElementMatcher {
  readonly name: string;
  readonly matches: (el: slimdom.Element) => boolean;
}

/**
 * `//a:B/c:D` or `/a:B/c:D` (element steps only, no predicates) as a matcher, else undefined. `//` may
 * start at any depth; `/` only at the document's root element. Undefined also for a prefix not bound
 * (fontoxpath reports that one).
 */
export function absolutePathMatcher(path: string, ns: Record<string, string>): ElementMatcher | undefined {
  const m = /^\s*(\/\/?)((?:[\w.-]+:)?[\w.-]+(?:\/(?:[\w.-]+:)?[\w.-]+)*)\s*$/.exec(path);
  const named = m && nameSteps(m[2], ns);
  if (!named || named.unbound) return undefined;
  const { steps } = named;
  const fromRoot = m[1] === '/';
  return {
    name: steps[steps.length - 1].local,
    matches: (el) => {
      const above = climbNamed(el, steps);
      return above !== false && (!fromRoot || above?.nodeType === DOCUMENT);
    },
  };
}

interface NameStep {
  readonly uri: string | null;
  readonly local: string;
}

/** `a:B/c:D` as name steps; `unbound` when a prefix is not bound (its steps then match nothing). */
function nameSteps(path: string, ns: Record<string, string>): { steps: NameStep[]; unbound: boolean } {
  let unbound = false;
  const steps = path.split('/').filter(Boolean).map((s) => {
    const [prefix, local] = s.includes(':') ? s.split(':') : ['', s];
    if (prefix && !(prefix in ns)) unbound = true;
    return { uri: prefix ? ns[prefix] ?? `unbound:${prefix}` : null, local };
  });
  return { steps, unbound };
}

/** False unless `node` and its parents upwards are the elements the steps name, last step first; else the node above them. */
function climbNamed(node: slimdom.Node | null, steps: readonly NameStep[]): slimdom.Node | null | false {
  for (let i = steps.length - 1; i >= 0; i--) {
    if (!node || node.nodeType !== ELEMENT) return false;
    const e = node as slimdom.Element;
    if (e.localName !== steps[i].local || (e.namespaceURI ?? null) !== steps[i].uri) return false;
    node = e.parentNode;
  }
  return node;
}

/** The nodes a path selects from a context node, in document order. */
export type NodeSelector = (context: slimdom.Node) => slimdom.Node[];

/**
 * `../../cbc:ProfileID`, `../cac:Delivery/cac:DeliveryAddress` or `../cac:X/cbc:ID/@schemeID` (climbs, then
 * child elements by name, then perhaps an attribute; no predicates) as a selector, else undefined (then
 * fontoxpath evaluates it). The parent of an attribute is its element, as in XPath.
 */
export function climbingPathSelector(path: string, ns: Record<string, string>): NodeSelector | undefined {
  const m = /^\s*((?:\.\.\/)*\.\.)((?:\/(?:[\w.-]+:)?[\w.-]+)*)(?:\/@([\w.-]+))?\s*$/.exec(path);
  const named = m && nameSteps(m[2], ns);
  if (!named || named.unbound) return undefined;
  const climbs = m[1].split('/').length;
  const { steps } = named;
  const attribute = m[3];
  return (context) => {
    let node: slimdom.Node | null = context;
    for (let i = 0; i < climbs && node; i++) node = node.nodeType === ATTRIBUTE ? (node as slimdom.Attr).ownerElement : node.parentNode;
    if (!node) return [];
    let found: slimdom.Node[] = [node];
    for (const step of steps) {
      const next: slimdom.Node[] = [];
      for (const parent of found) {
        for (const child of parent.childNodes) {
          if (child.nodeType === ELEMENT && (child as slimdom.Element).localName === step.local && ((child as slimdom.Element).namespaceURI ?? null) === step.uri) next.push(child);
        }
      }
      found = next;
    }
    if (attribute === undefined) return found;
    const out: slimdom.Node[] = [];
    for (const el of found) {
      if (el.nodeType !== ELEMENT) continue;
      for (const a of (el as slimdom.Element).attributes) if (a.localName === attribute && !a.namespaceURI) out.push(a);
    }
    return out;
  };
}

/**
 * An assert ready to run. Its first-item reading (wanted only when the test raises a type error) and
 * the paths that place a finding (wanted only for a finding) are worked out on first use: most asserts
 * never need them, and the worker's start is shorter without them.
 */
function preparedAssert(a: SchAssert, expr: string): PreparedAssert {
  let firstItemExpr: string | undefined;
  let paths: PathInText[] | undefined;
  return {
    assert: a,
    expr,
    get firstItemExpr() {
      return (firstItemExpr ??= withFirstItemArguments(expr));
    },
    get paths() {
      return (paths ??= positionPaths(a.test));
    },
  };
}

/**
 * The test's paths that can say where a finding is: relative ones, those inside the context first
 * (`../../cbc:InvoiceTypeCode = 'IADE' or …` is a condition about the document; the subtotal's own
 * `cbc:TaxAmount` is where the problem is), then those that climb. `.` and absolute paths say nothing.
 */
function positionPaths(test: string): PathInText[] {
  const paths = locationPaths(test).filter((x) => !x.absolute && x.text !== '.');
  const climbs = (p: PathInText): boolean => p.steps[0] === '..' || p.steps[0].startsWith('parent::') || p.steps[0].startsWith('ancestor');
  return [...paths.filter((p) => !climbs(p)), ...paths.filter(climbs)];
}

/** `a:B/c:D`, `//a:B` or `//@x` as a matcher (an XSLT pattern: the path's end and its parents). */
function simpleContext(context: string, ns: Record<string, string>): { matches: (node: slimdom.Node) => boolean; onAttributes: boolean; name: string } | undefined {
  const m = /^\s*(\/\/)?((?:[\w.-]+:)?[\w.-]+(?:\/(?:[\w.-]+:)?[\w.-]+)*)?(?:\/?@([\w.-]+))?\s*$/.exec(context);
  if (!m || (!m[2] && !m[3])) return undefined;
  const { steps } = nameSteps(m[2] ?? '', ns);
  const attribute = m[3];
  if (attribute) {
    return {
      onAttributes: true,
      name: `@${attribute}`,
      matches: (node) => {
        if (node.nodeType !== ATTRIBUTE) return false;
        const a = node as slimdom.Attr;
        return a.localName === attribute && !a.namespaceURI && (steps.length === 0 || climbNamed(a.ownerElement, steps) !== false);
      },
    };
  }
  return { onAttributes: false, name: steps[steps.length - 1].local, matches: (node) => node.nodeType === ELEMENT && climbNamed(node, steps) !== false };
}

/** What decides `$type` for one document; see `typeOf`. */
export type TypeChoice = (root: slimdom.Element) => string | undefined;

/**
 * `$type`: GİB's file declares `<let name="type" value="efatura"/>`, an XPath to a missing element,
 * so it is empty, which the rules read as e-Fatura; GİB's own validator sets it from outside for
 * e-Arşiv ('earchive') and viewing ('goruntuleme'). OUR ASSUMPTION (GİB does not document it): an
 * invoice whose cbc:ProfileID is EARSIVFATURA is validated with 'earchive', any other document as
 * published. Without it every e-Arşiv invoice gets "Geçersiz cbc:ProfileID".
 */
export const typeOf: TypeChoice = (root) => {
  for (const child of root.children) {
    if (child.localName === 'ProfileID' && child.textContent?.trim() === 'EARSIVFATURA') return 'earchive';
  }
  return undefined;
};

const nodeSequence = fx.createTypedValueFactory('node()*');
const itemSequence = fx.createTypedValueFactory('item()*');

export interface RunResult {
  readonly hits: RuleHit[];
  readonly unchecked: UncheckedAssert[];
}

/**
 * Runs the prepared rules over a parsed document (slimdom, with positions). `shouldStop` is asked
 * between rules: when it says so, GibCheckStopped is thrown (checkStop.ts).
 */
export function runRules(prepared: PreparedRules, doc: slimdom.Document, chooseType: TypeChoice = typeOf, shouldStop?: ShouldStop): RunResult {
  const root = doc.documentElement;
  const hits: RuleHit[] = [];
  const unchecked: UncheckedAssert[] = [];
  if (!root) return { hits, unchecked };
  const options = { namespaceResolver: prepared.namespaceResolver };
  const domFacade = null;
  const sel: Selector = (text) => prepared.xpath.selector(text);

  // Every element once, in document order: the plain absolute paths' nodes are collected on the way.
  const elements = elementsInOrder(root);
  const absolute = new Map<string, slimdom.Element[]>();
  /** Collects the nodes of the absolute paths known by now (more become known as rules are first used). */
  const collectAbsolute = (): void => {
    const byName = new Map<string, [string, ElementMatcher][]>();
    for (const [path, m] of prepared.absolutePaths) {
      if (absolute.has(path)) continue;
      absolute.set(path, []);
      byName.set(m.name, [...(byName.get(m.name) ?? []), [path, m]]);
    }
    if (byName.size === 0) return;
    for (const el of elements) {
      const candidates = byName.get(el.localName);
      if (candidates) for (const [path, m] of candidates) if (m.matches(el)) absolute.get(path)!.push(el);
    }
  };
  collectAbsolute();
  const nodesAt = (path: string, vars: Record<string, unknown>): slimdom.Node[] => absolute.get(path) ?? (fx.evaluateXPathToNodes(sel(path), doc, domFacade, vars, options) as slimdom.Node[]);

  // Document-level variables: the lets in order (each may use the ones before), then $type, then the hoisted paths.
  // `rawItems`: the same as the guards read them (guardVariables), where they are known without fontoxpath.
  const variables: Record<string, unknown> = {};
  const rawItems = new Map<string, readonly unknown[] | string>();
  for (const l of prepared.source.lets) {
    const raw = l.name in prepared.literalLets ? prepared.literalLets[l.name] : absolute.get(l.value);
    if (raw !== undefined) rawItems.set(l.name, raw);
    if (typeof raw === 'string') variables[l.name] = raw;
    else variables[l.name] = sequenceOf(raw ?? (fx.evaluateXPath(sel(l.value), doc, domFacade, variables, fx.evaluateXPath.ALL_RESULTS_TYPE, options) as unknown[]));
  }
  const type = chooseType(root);
  if (type !== undefined) {
    variables.type = type;
    rawItems.set('type', type);
  }
  const documentGuardVariables = guardVariables(rawItems, undefined);

  const failedAsserts = new Set<PreparedAssert>();
  const test = (a: PreparedAssert, node: slimdom.Node, vars: Record<string, unknown>): boolean | undefined => {
    try {
      return fx.evaluateXPathToBoolean(sel(a.expr), node, domFacade, vars, options);
    } catch (e) {
      if (!isTypeError(e)) return notEvaluable(a, node, e);
      try {
        return fx.evaluateXPathToBoolean(sel(a.firstItemExpr), node, domFacade, vars, options);
      } catch (e2) {
        return notEvaluable(a, node, e2);
      }
    }
  };
  const notEvaluable = (a: PreparedAssert, node: slimdom.Node, e: unknown): undefined => {
    if (!failedAsserts.has(a)) {
      failedAsserts.add(a);
      unchecked.push({ ruleContext: contextOfAssert.get(a) ?? '', test: a.assert.test, reason: String((e as Error)?.message ?? e).split('\n')[0], at: elementOf(node) });
    }
    return undefined;
  };
  const contextOfAssert = new Map<PreparedAssert, string>();

  // Rules whose context is not a simple path: their nodes, found once.
  const nodeSets = new Map<PreparedRule, Set<slimdom.Node>>();
  for (const p of prepared.patterns) {
    for (const r of p.rules) {
      if (!r.matches) {
        const path = r.context.trim().startsWith('/') ? r.context : `//${r.context}`;
        nodeSets.set(r, new Set(fx.evaluateXPathToNodes(sel(path), doc, domFacade, variables, options) as slimdom.Node[]));
      }
    }
  }
  const matches = (r: PreparedRule, node: slimdom.Node): boolean => (r.matches ? r.matches(node) : nodeSets.get(r)!.has(node));

  // Which rule of each pattern each node falls to: document order, as apply-templates walks it (attributes
  // only when some rule is about attributes); in each pattern the first rule that matches.
  const nodesOf = new Map<PreparedRule, slimdom.Node[]>();
  const assign = (node: slimdom.Node): void => {
    const isAttribute = node.nodeType === ATTRIBUTE;
    const name = isAttribute ? `@${(node as slimdom.Attr).localName}` : (node as slimdom.Element).localName;
    for (const p of prepared.patternsByName.get(name) ?? prepared.patternsForAnyName) {
      const rule = (p.byName.get(name) ?? p.unnamed).find((r) => r.onAttributes === isAttribute && matches(r, node));
      if (!rule) continue;
      let list = nodesOf.get(rule);
      if (!list) nodesOf.set(rule, (list = []));
      list.push(node);
    }
  };
  for (const el of elements) {
    assign(el);
    if (prepared.visitsAttributes) for (const attr of el.attributes) assign(attr);
  }

  // The rules with nodes, worked out (their absolute paths join the hoisted ones), then those paths' variables.
  for (const rule of nodesOf.keys()) for (const a of rule.details.asserts) contextOfAssert.set(a, rule.context);
  collectAbsolute();
  for (const [name, path] of prepared.hoisted) {
    const nodes = nodesAt(path, variables);
    rawItems.set(name, nodes);
    variables[name] = nodeSequence(nodes as never, fx.domFacade as never);
  }

  /**
   * The rule's asserts over its nodes: one fontoxpath evaluation for all of them (its cost is mostly per
   * call); where that raises (a type error on one node), node by node, and there assert by assert, each
   * with XPath 1.0's first-item reading as the fallback.
   */
  const resultsOf = (rule: PreparedRule, nodes: slimdom.Node[], vars: Record<string, unknown>): (boolean | undefined)[][] => {
    const k = rule.details.asserts.length;
    if (k === 0) return nodes.map(() => []);
    if (rule.details.byValue && nodes.length > 1) {
      const first = new Map<string, number>();
      const representatives: slimdom.Node[] = [];
      const of = nodes.map((n) => {
        const value = (n as slimdom.Attr).value;
        let at = first.get(value);
        if (at === undefined) {
          first.set(value, (at = representatives.length));
          representatives.push(n);
        }
        return at;
      });
      if (representatives.length < nodes.length) {
        const results = resultsOf({ ...rule, details: { ...rule.details, byValue: false } }, representatives, vars);
        return of.map((at) => results[at]);
      }
    }
    if (!rule.lets.length) {
      const out: (boolean | undefined)[][] = new Array(nodes.length);
      const groups = new Map<slimdom.Node | null, number[]>();
      // Groups of nodes that share a parent only where a test climbs out of the node; else one group.
      nodes.forEach((n, i) => {
        const parent = rule.details.upPaths.size === 0 ? null : n.nodeType === ATTRIBUTE ? (n as slimdom.Attr).ownerElement : n.parentNode;
        let g = groups.get(parent);
        if (!g) groups.set(parent, (g = []));
        g.push(i);
      });
      let whole = true;
      for (const indexes of groups.values()) {
        try {
          const groupVars: Record<string, unknown> = { ...vars, [CONTEXT_VARIABLE]: nodeSequence(indexes.map((i) => nodes[i]) as never, fx.domFacade as never) };
          const upItems = rule.details.upPaths.size ? new Map<string, readonly unknown[]>() : undefined;
          for (const [name, up] of rule.details.upPaths) {
            const selector = rule.details.upSelectors.get(name);
            const found = selector ? selector(nodes[indexes[0]]) : (fx.evaluateXPathToNodes(sel(up), nodes[indexes[0]], domFacade, vars, options) as slimdom.Node[]);
            upItems!.set(name, found);
            groupVars[name] = nodeSequence(found as never, fx.domFacade as never);
          }
          const left = assertsToEvaluate(rule, nodes[indexes[0]], groupVars, upItems ? guardVariables(upItems, documentGuardVariables) : documentGuardVariables);
          if (left.length === 0) {
            for (const i of indexes) out[i] = new Array<boolean>(k).fill(true);
            continue;
          }
          const batch = left.length === k ? rule.details.batch : subsetBatch(rule, left);
          const n = left.length;
          const all = fx.evaluateXPath(sel(batch), doc, domFacade, groupVars, fx.evaluateXPath.ALL_RESULTS_TYPE, options) as boolean[];
          if (all.length !== indexes.length * n) throw new Error('not one boolean per assert');
          indexes.forEach((i, at) => {
            if (n === k) out[i] = all.slice(at * k, at * k + k);
            else {
              const row = new Array<boolean>(k).fill(true);
              left.forEach((j, m) => (row[j] = all[at * n + m]));
              out[i] = row;
            }
          });
        } catch {
          whole = false; // node by node below
        }
      }
      if (whole) return out;
      return nodes.map((node, i) => out[i] ?? nodeResults(rule, node, vars));
    }
    return nodes.map((node) => nodeResults(rule, node, vars));
  };

  /** The indexes of the rule's asserts whose guard (see PreparedRule.guards) does not hold for this group; all where it cannot be told. */
  const assertsToEvaluate = (rule: PreparedRule, node: slimdom.Node, groupVars: Record<string, unknown>, guardVars: GuardVariables): number[] => {
    const all = rule.details.asserts.map((_, j) => j);
    if (rule.details.guards.length === 0) return all;
    // In plain JavaScript where every guard can be (no fontoxpath compiling), else by fontoxpath.
    let holds: (boolean | undefined)[] = rule.details.guards.map((g) => g.evaluate?.(guardVars));
    if (holds.some((h) => h === undefined)) {
      try {
        holds = fx.evaluateXPath(sel(rule.details.guardBatch), node, domFacade, groupVars, fx.evaluateXPath.ALL_RESULTS_TYPE, options) as boolean[];
      } catch {
        return all; // the whole test is evaluated, and reports what it reports
      }
    }
    if (holds.length !== rule.details.guards.length) return all;
    const known = new Set(rule.details.guards.filter((_, g) => holds[g] === true).map((g) => g.assert));
    return all.filter((j) => !known.has(j));
  };

  /** The document's variables with the rule's own lets (evaluated at the node) added; GİB's rules have none. */
  const ruleVariables = (rule: PreparedRule, node: slimdom.Node, vars: Record<string, unknown>): Record<string, unknown> => {
    if (!rule.lets.length) return vars;
    const out = { ...vars };
    for (const l of rule.lets) out[l.name] = sequenceOf(fx.evaluateXPath(sel(l.value), node, domFacade, out, fx.evaluateXPath.ALL_RESULTS_TYPE, options) as unknown[]);
    return out;
  };

  /** One node's results: its asserts in one evaluation, else one by one (with the first-item fallback). */
  const nodeResults = (rule: PreparedRule, node: slimdom.Node, vars: Record<string, unknown>): (boolean | undefined)[] => {
    const nodeVars = ruleVariables(rule, node, vars);
    try {
      const one = fx.evaluateXPath(sel(rule.details.nodeBatch), node, domFacade, nodeVars, fx.evaluateXPath.ALL_RESULTS_TYPE, options) as boolean[];
      if (one.length === rule.details.asserts.length) return one;
    } catch {
      // assert by assert below
    }
    return rule.details.asserts.map((a) => test(a, node, nodeVars));
  };

  for (const p of prepared.patterns) {
    for (const rule of p.rules) {
      const nodes = nodesOf.get(rule);
      if (!nodes) continue;
      stopIfAsked(shouldStop);
      const results = resultsOf(rule, nodes, variables);
      nodes.forEach((node, i) => {
        let nodeVars: Record<string, unknown> | undefined;
        rule.details.asserts.forEach((a, j) => {
          const result = results[i][j];
          if (result === undefined || result !== (a.assert.kind === 'report')) return;
          nodeVars ??= ruleVariables(rule, node, variables);
          hits.push({
            pattern: p.id,
            ruleContext: rule.context,
            assert: a.assert,
            message: renderMessage(a.assert.message, node, nodeVars, options, sel),
            context: node,
            at: refinedPosition(a, node, nodeVars, options, sel),
          });
        });
      });
    }
  }
  return { hits, unchecked };
}

/**
 * Variables for guardEvaluator.ts: each item list as its nodes' string values (worked out once, on
 * first use), a string as it is; a list holding something other than nodes is not offered (fontoxpath
 * evaluates the guard). `outer` answers the names `items` does not have.
 */
function guardVariables(items: ReadonlyMap<string, readonly unknown[] | string>, outer: GuardVariables | undefined): GuardVariables {
  const done = new Map<string, GuardValue | undefined>();
  return {
    get(name) {
      if (done.has(name)) return done.get(name);
      const v = items.get(name);
      let out: GuardValue | undefined;
      if (v === undefined) out = outer?.get(name);
      else if (typeof v === 'string') out = v;
      else if (v.every(isNode)) out = { nodes: v.map(stringValue) };
      done.set(name, out);
      return out;
    },
  };
}

function isNode(item: unknown): item is slimdom.Node {
  return typeof item === 'object' && item !== null && 'nodeType' in item;
}

/** A node's string value (an attribute's value, an element's text). */
function stringValue(n: slimdom.Node): string {
  return n.nodeType === ATTRIBUTE ? (n as slimdom.Attr).value : (n.textContent ?? '');
}

/** `$gibContextNodes ! (…)` over some of the rule's asserts, built once per set. */
function subsetBatch(rule: PreparedRule, asserts: readonly number[]): string {
  const key = asserts.join(',');
  let batch = rule.details.subsetBatches.get(key);
  if (!batch) rule.details.subsetBatches.set(key, (batch = `$${CONTEXT_VARIABLE} ! (${asserts.map((j) => rule.details.batchTests[j]).join(', ')})`));
  return batch;
}

function isTypeError(e: unknown): boolean {
  return /^(XPTY0004|FORG0006|FOTY0012|XPDY0050)/.test(String((e as Error)?.message ?? ''));
}

function sequenceOf(items: unknown[]): unknown {
  if (items.length === 0) return null;
  if (items.every(isNode)) return nodeSequence(items as never, fx.domFacade as never);
  if (items.length === 1) return items[0];
  return itemSequence(items as never, fx.domFacade as never);
}

/** XSLT 1.0's value-of: the string value of the first item (GİB's files are XSLT 1.0, no queryBinding). */
function firstString(expr: string, node: slimdom.Node, vars: Record<string, unknown>, options: fx.Options, sel: Selector): string {
  try {
    const items = fx.evaluateXPath(sel(expr), node, null, vars, fx.evaluateXPath.ALL_RESULTS_TYPE, options) as unknown[];
    const first = items[0];
    if (first === undefined || first === null) return '';
    return isNode(first) ? stringValue(first) : String(first);
  } catch {
    return '';
  }
}

function renderMessage(parts: readonly MessagePart[], node: slimdom.Node, vars: Record<string, unknown>, options: fx.Options, sel: Selector): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') out += part;
    else if (part.kind === 'value-of') out += firstString(part.select, node, vars, options, sel);
    else out += firstString(part.path ? `name(${part.path})` : 'name()', node, vars, options, sel);
  }
  return out.replace(/\s+/g, ' ').trim();
}

function elementOf(node: slimdom.Node): slimdom.Element {
  if (node.nodeType === ATTRIBUTE) return (node as slimdom.Attr).ownerElement!;
  if (node.nodeType === ELEMENT) return node as slimdom.Element;
  return (node.parentNode as slimdom.Element) ?? (node as slimdom.Document).documentElement!;
}

/**
 * The element a finding belongs to: the first node (in document order) that the first of the
 * test's paths selecting anything selects; else the deepest existing start of those paths (for
 * `count(cac:Delivery/cac:DeliveryAddress) = 1` on a delivery without its address: cac:Delivery);
 * else the rule's context. Absolute paths and `.` are left out: they do not say where.
 */
function refinedPosition(a: PreparedAssert, context: slimdom.Node, vars: Record<string, unknown>, options: fx.Options, sel: Selector): slimdom.Element {
  const select = (path: string): slimdom.Node | undefined => {
    try {
      return (fx.evaluateXPathToNodes(sel(path), context, null, vars, options) as slimdom.Node[])[0];
    } catch {
      return undefined;
    }
  };
  for (const p of a.paths) {
    const hit = select(p.text);
    if (hit && hit !== context) return elementOf(hit);
  }
  for (const p of a.paths) {
    for (let k = p.steps.length - 1; k >= 1; k--) {
      const prefix = p.steps.slice(0, k);
      if (prefix.every((s) => s === '..' || s === '.')) break;
      const hit = select(prefix.join('/'));
      if (hit && hit !== context) return elementOf(hit);
    }
  }
  return elementOf(context);
}

/** Where slimdom-sax-parser (with `position: true`) says an element's start tag is; 1-based. */
export function positionOf(el: slimdom.Element): { line: number; column: number } | undefined {
  return (el as unknown as { position?: { line: number; column: number } }).position;
}
