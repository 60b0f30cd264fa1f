// The GİB engine's own code against the library it replaced, in the same run on the same input
// (CONTRIBUTING.md, "Our code or a library"). As in libraries.bench.ts, each row is the library's
// figure with ours as the baseline: `ratio` > 1 means the library is slower or bigger.
//   - the document tree (src/gib/xmlTree.ts, saxes into plain objects) against slimdom-sax-parser
//     (slimdom's nodes): GİB's samples and the generated 600 KB invoice (measured without GİB's archives
//     too), time and retained memory;
//   - the guards of GİB's asserts (src/gib/guardEvaluator.ts) against fontoxpath evaluating each rule's
//     guard batch as the runner otherwise does, at the first node of each rule in a sample: first use
//     (ours compiles, fontoxpath parses and compiles; each run's texts made new so fontoxpath's cache of
//     compiled expressions does not answer) and warm;
//   - the climbing paths (`../cbc:ProfileID`, runner.ts climbingPathSelector) against fontoxpath's
//     evaluateXPathToNodes, from every node of their rules in GİB's samples, warm.
// The end-to-end effect is gibRules.bench.ts's. Skipped without GİB's archives (test/support/gibPackages.ts).
// Run: npm run bench -- librariesGib
import * as fx from 'fontoxpath';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import type * as slimdom from 'slimdom';
import { sync as parseWithSlimdom } from 'slimdom-sax-parser';
import { compileGuard, type GuardValue, type GuardVariables } from '../../src/gib/guardEvaluator';
import { readGibFiles } from '../../src/gib/rulesSource';
import { prepareRules, typeOf, type PreparedRules } from '../../src/gib/runner';
import { elementsInOrder, readSchematron } from '../../src/gib/schematron';
import { parseGibDocument } from '../../src/gib/xmlTree';
import { gibArchives, gibSamples, NO_GIB_DATA } from '../support/gibPackages';
import { largeInvoice } from '../support/largeInvoice';
import { printBench } from './benchLine';
import { median, report } from './libraryFigures';

const root = path.resolve(__dirname, '..', '..', '..');
const RUNS = 9;
const load = (): string => `load average ${loadavg()[0].toFixed(1)}`;
const nodeSequence = fx.createTypedValueFactory('node()*');
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

const FIGURES = {
  parseSamples: "GİB parse: GİB's samples, slimdom-sax-parser against xmlTree",
  parseLarge: 'GİB parse: 600 KB invoice, slimdom-sax-parser against xmlTree',
  parseLargeMemory: 'GİB parse: 600 KB invoice, tree retained, slimdom-sax-parser against xmlTree',
  guardsFirst: 'GİB guards: first use, fontoxpath against guardEvaluator',
  guardsWarm: 'GİB guards: warm, fontoxpath against guardEvaluator',
  climbing: 'GİB climbing paths: warm, fontoxpath against climbingPathSelector',
};

/** Median wall time of `run` over RUNS runs (after one unmeasured run when `warm`). */
function medianMs(run: (i: number) => void, warm = true): number {
  if (warm) run(-1);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    run(i);
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Median wall times of ours and the library's, run by run alternated (which goes first, too), after one unmeasured run each. */
function pairedMs(ours: () => void, theirs: () => void): { ours: number; theirs: number } {
  ours();
  theirs();
  const a: number[] = [];
  const b: number[] = [];
  const time = (run: () => void, into: number[]): void => {
    const t0 = performance.now();
    run();
    into.push(performance.now() - t0);
  };
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) {
      time(ours, a);
      time(theirs, b);
    } else {
      time(theirs, b);
      time(ours, a);
    }
  }
  return { ours: median(a), theirs: median(b) };
}

/** Heap bytes a tree keeps alive. */
function retainedBytes(parse: () => unknown): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = parse();
  gc();
  const after = process.memoryUsage().heapUsed;
  if (!kept) throw new Error('nothing parsed');
  return after - before;
}

function sampleParseFigures(samples: readonly string[]): void {
  const all = pairedMs(
    () => samples.forEach((t) => parseGibDocument(t)),
    () => samples.forEach((t) => parseWithSlimdom(t, { position: true })),
  );
  report(FIGURES.parseSamples, all.theirs, 'ms', all.ours, `${samples.length} documents, ${(samples.reduce((n, t) => n + t.length, 0) / 1024).toFixed(0)} KB in all; median of ${RUNS}; ${load()}`);
}

/** The generated invoice (the repository's fixture, lines repeated): measured with or without GİB's archives. */
function largeParseFigures(): void {
  const large = largeInvoice(path.join(root, 'test/fixtures/gib/invoice.xml'), 600 * 1024);
  const one = pairedMs(
    () => parseGibDocument(large),
    () => parseWithSlimdom(large, { position: true }),
  );
  report(FIGURES.parseLarge, one.theirs, 'ms', one.ours, `${(large.length / 1024).toFixed(0)} KB; median of ${RUNS}; ${load()}`);
  const oursBytes = retainedBytes(() => parseGibDocument(large));
  const theirsBytes = retainedBytes(() => parseWithSlimdom(large, { position: true }));
  report(FIGURES.parseLargeMemory, theirsBytes / 1e6, 'MB', oursBytes / 1e6, `heap used after gc with the tree kept; ${load()}`);
}

/** A node's string value, as the runner gives it to the guards. */
const stringValue = (n: slimdom.Node): string => (n.nodeType === 2 ? (n as slimdom.Attr).value : (n.textContent ?? ''));

/** The rule's nodes in the document: elements, and attributes where the rule is about attributes. */
function nodesOfRule(rule: PreparedRules['patterns'][number]['rules'][number], elements: readonly slimdom.Element[]): slimdom.Node[] {
  if (!rule.matches) return [];
  const out: slimdom.Node[] = [];
  for (const el of elements) {
    if (rule.matches(el)) out.push(el);
    if (rule.onAttributes) for (const a of el.attributes) if (rule.matches(a)) out.push(a);
  }
  return out;
}

interface GuardCase {
  node: slimdom.Node;
  guards: readonly string[];
  batch: string;
  fxVars: Record<string, unknown>;
  raw: ReadonlyMap<string, slimdom.Node[] | string>;
}

/** Variables as the guards read them: string values worked out on first use (as runner.ts's guardVariables). */
function guardVariablesOf(raw: ReadonlyMap<string, slimdom.Node[] | string>): GuardVariables {
  const done = new Map<string, GuardValue | undefined>();
  return {
    get(name) {
      if (done.has(name)) return done.get(name);
      const v = raw.get(name);
      const out = v === undefined ? undefined : typeof v === 'string' ? v : { nodes: v.map(stringValue) };
      done.set(name, out);
      return out;
    },
  };
}

/**
 * The guards GİB's rules have (prepareRules' PreparedRule.guards), each rule's at its first node in the
 * first sample that has one, with the variables they read bound both ways (fontoxpath's and
 * guardEvaluator's). Only rules whose every guard guardEvaluator answers there, and answers as
 * fontoxpath does (else this throws).
 */
function guardCases(prepared: PreparedRules, docs: readonly slimdom.Document[]): GuardCase[] {
  const options = { namespaceResolver: prepared.namespaceResolver };
  const bind = (raw: Map<string, slimdom.Node[] | string>, vars: Record<string, unknown>, name: string, value: unknown[] | string): void => {
    if (typeof value === 'string') {
      raw.set(name, value);
      vars[name] = value;
    } else if (value.every((n) => typeof n === 'object' && n !== null && 'nodeType' in n)) {
      raw.set(name, value as slimdom.Node[]);
      vars[name] = nodeSequence(value as never, fx.domFacade as never);
    } else vars[name] = value.length === 1 ? value[0] : null;
  };
  const rules = prepared.patterns.flatMap((p) => p.rules).filter((r) => r.details.guards.length > 0);
  const covered = new Set<(typeof rules)[number]>();
  const cases: GuardCase[] = [];
  for (const doc of docs) {
    const elements = elementsInOrder(doc.documentElement!);
    // Document-level: the lets in order, $type, the hoisted absolute paths (each as nodes or a string).
    const docRaw = new Map<string, slimdom.Node[] | string>();
    const docFx: Record<string, unknown> = {};
    for (const l of prepared.source.lets) {
      if (l.name in prepared.literalLets) bind(docRaw, docFx, l.name, prepared.literalLets[l.name]);
      else bind(docRaw, docFx, l.name, fx.evaluateXPath(l.value, doc, null, docFx, fx.evaluateXPath.ALL_RESULTS_TYPE, options) as unknown[]);
    }
    const type = typeOf(doc.documentElement!);
    if (type !== undefined) bind(docRaw, docFx, 'type', type);
    for (const [name, hoistedPath] of prepared.hoisted) bind(docRaw, docFx, name, fx.evaluateXPathToNodes(hoistedPath, doc, null, docFx, options) as slimdom.Node[]);
    for (const rule of rules) {
      if (covered.has(rule)) continue;
      const node = nodesOfRule(rule, elements)[0];
      if (!node) continue;
      covered.add(rule);
      const raw = new Map(docRaw);
      const fxVars = { ...docFx };
      for (const [name, upPath] of rule.details.upPaths) bind(raw, fxVars, name, fx.evaluateXPathToNodes(upPath, node, null, fxVars, options) as slimdom.Node[]);
      const guards = rule.details.guards.map((g) => g.guard);
      const vars = guardVariablesOf(raw);
      const ours = guards.map((g) => compileGuard(g)?.(vars));
      if (ours.some((h) => h === undefined)) continue; // left to fontoxpath in the runner too
      const theirs = fx.evaluateXPath(rule.details.guardBatch, node, null, fxVars, fx.evaluateXPath.ALL_RESULTS_TYPE, options) as boolean[];
      if (theirs.length !== ours.length || ours.some((h, i) => h !== theirs[i])) throw new Error(`guards of ${rule.context} answer otherwise than fontoxpath`);
      cases.push({ node, guards, batch: rule.details.guardBatch, fxVars, raw });
    }
  }
  return cases;
}

function guardFigures(prepared: PreparedRules, docs: readonly slimdom.Document[]): void {
  const options = { namespaceResolver: prepared.namespaceResolver };
  const cases = guardCases(prepared, docs);
  const count = cases.reduce((n, c) => n + c.guards.length, 0);
  const all = prepared.patterns.flatMap((p) => p.rules).reduce((n, r) => n + r.details.guards.length, 0);
  const about = `${count} guards (of the rules' ${all}) of the ${cases.length} rules with a node in GİB's samples, each at its rule's first node`;
  // First use: each run's texts are new (trailing spaces), so neither side has them compiled.
  const pad = (text: string, i: number): string => text + ' '.repeat(i + 2);
  const oursFirst = medianMs((i) => {
    for (const c of cases) {
      const vars = guardVariablesOf(c.raw);
      for (const g of c.guards) compileGuard(pad(g, i))!(vars);
    }
  }, false);
  const theirsFirst = medianMs((i) => {
    for (const c of cases) fx.evaluateXPath(pad(c.batch, i), c.node, null, c.fxVars, fx.evaluateXPath.ALL_RESULTS_TYPE, options);
  }, false);
  report(FIGURES.guardsFirst, theirsFirst, 'ms', oursFirst, `${about}; fontoxpath parses and compiles each rule's guard batch, ours compiles each guard; median of ${RUNS}; ${load()}`);

  const compiled = cases.map((c) => c.guards.map((g) => compileGuard(g)!));
  const REPEAT = 20;
  const oursWarm = medianMs(() => {
    for (let r = 0; r < REPEAT; r++) {
      cases.forEach((c, k) => {
        const vars = guardVariablesOf(c.raw);
        for (const evaluate of compiled[k]) evaluate(vars);
      });
    }
  });
  const theirsWarm = medianMs(() => {
    for (let r = 0; r < REPEAT; r++) for (const c of cases) fx.evaluateXPath(c.batch, c.node, null, c.fxVars, fx.evaluateXPath.ALL_RESULTS_TYPE, options);
  });
  report(FIGURES.guardsWarm, theirsWarm / REPEAT, 'ms', oursWarm / REPEAT, `${about}, each evaluation once (median of ${RUNS} runs of ${REPEAT}); ${load()}`);
}

function climbingFigures(prepared: PreparedRules, docs: readonly slimdom.Document[]): void {
  const options = { namespaceResolver: prepared.namespaceResolver };
  // Every plain climb of a rule with a selector, from every node of that rule in every sample.
  const cases: { text: string; select: (n: slimdom.Node) => slimdom.Node[]; nodes: slimdom.Node[] }[] = [];
  for (const doc of docs) {
    const elements = elementsInOrder(doc.documentElement!);
    for (const p of prepared.patterns) {
      for (const rule of p.rules) {
        if (rule.details.upSelectors.size === 0) continue;
        const nodes = nodesOfRule(rule, elements);
        if (nodes.length === 0) continue;
        for (const [name, select] of rule.details.upSelectors) cases.push({ text: rule.details.upPaths.get(name)!, select, nodes });
      }
    }
  }
  let selections = 0;
  let selected = 0;
  for (const c of cases) {
    for (const node of c.nodes) {
      const ours = c.select(node);
      const theirs = fx.evaluateXPathToNodes(c.text, node, null, {}, options);
      if (ours.length !== theirs.length || ours.some((n, i) => n !== theirs[i])) throw new Error(`${c.text} selects otherwise than fontoxpath`);
      selections++;
      selected += ours.length;
    }
  }
  const { ours, theirs } = pairedMs(
    () => cases.forEach((c) => c.nodes.forEach((n) => c.select(n))),
    () => cases.forEach((c) => c.nodes.forEach((n) => fx.evaluateXPathToNodes(c.text, n, null, {}, options))),
  );
  const paths = new Set(cases.map((c) => c.text)).size;
  report(FIGURES.climbing, theirs, 'ms', ours, `${paths} paths, ${selections} selections (${selected} nodes) over ${docs.length} samples; fontoxpath's compiled form cached (warm); median of ${RUNS}; ${load()}`);
}

async function main(): Promise<void> {
  const archives = gibArchives();
  largeParseFigures();
  if (!archives) {
    for (const figure of [FIGURES.parseSamples, FIGURES.guardsFirst, FIGURES.guardsWarm, FIGURES.climbing]) printBench({ figure, goal: 'report', skipped: NO_GIB_DATA });
    return;
  }
  // GİB's samples both parsers read (a sample that is not well-formed is left out).
  const samples = (await gibSamples()).filter((s) => {
    try {
      parseWithSlimdom(s.text, { position: true });
      return true;
    } catch {
      return false;
    }
  });
  sampleParseFigures(samples.map((s) => s.text));
  const prepared = prepareRules(readSchematron(await readGibFiles(archives.rules, (n) => /(^|\/)schematron\/[^/]+$/i.test(n) || /UBL-TR_[^/]*\.xml$|History\.txt$/i.test(n))));
  const docs = samples.map((s) => parseGibDocument(s.text));
  guardFigures(prepared, docs);
  climbingFigures(prepared, docs);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
