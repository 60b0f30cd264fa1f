// The extension's bundles as `npm run package` builds them (esbuild.js buildExtension, minified): what
// activation loads (dist/extension.mjs and the modules it imports statically) stays small and holds no
// feature's code; each feature loaded on first use (src/features/) is a bundle of its own; budgets per
// bundle. The figures are deterministic for a given source, so they are asserted here, not benchmarked.
// GİB's rules engine is a worker thread's bundle of its own (dist/gibWorker.js): within its budget and
// nowhere in what activation loads.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as Esbuild from 'esbuild';

// This bundle runs from out/test/unit/.
const root = path.resolve(__dirname, '..', '..', '..', '..');

interface Output {
  bytes: number;
  inputs: string[];
  imports: Array<{ path: string; kind: string }>;
  entryPoint?: string;
}

/** What activation loads. */
const ACTIVATION_BUDGET_BYTES = 80 * 1024;
/** Each feature with the bundles it requires at once (the main's among them); room for growth included. */
const FEATURE_BUDGET_BYTES: Record<string, number> = {
  views: 100 * 1024,
  forms: 70 * 1024,
  registry: 130 * 1024,
  // editor and preview read the downloaded registry list, with the marks that keep another window's
  // install from deleting an index in use (src/registry/listStorage.ts); the editor also tells a
  // customer list's encoding (src/domain/textDecoding.ts, headerMatch.ts) to offer "Reopen with Encoding".
  editor: 125 * 1024,
  // reconciliation walks the customers through the one paging walk and pool (src/api/paging.ts,
  // pool.ts) and the one retry loop, shared with the export and bulk checks: 101.2 KB when merged.
  reconciliation: 104 * 1024,
  connection: 95 * 1024,
  profiles: 70 * 1024,
  // the preview shares the editor's document-type table and wording (src/domain/ubl/, the editor's
  // messages) and restores its panels after a reload (this test prints each feature's size); it also
  // takes a design's scripts out and marks where they stood (a design cannot talk to anyone).
  preview: 115 * 1024,
  // GİB's rules on the VS Code side: the commands and the folder report; the store and the download load
  // on use, and the engine runs in its worker (dist/gibWorker.js), not here. 73 KB when the three rules
  // commands (their download checks and error wording) and the folder report were merged.
  gib: 80 * 1024,
};

/**
 * Modules of the areas loaded on first use: none of them may be loaded at activation. Everything under
 * these folders belongs to a feature; the shell keeps only the profile store, the selection context
 * key of the editor menu, and the "Preview Document" menu's context key with the table of UBL-TR
 * document types it recognises a document by (pure data, no imports), and the table of the API's
 * operations that reads a 404 (src/api/operations.ts: pure data, no imports).
 */
const AREA_MODULES: Array<[string, RegExp]> = [
  ['API client', /^src\/api\/(?!operations\.ts$)/],
  // The shell's text helpers (Markdown escape, display-text sanitizer, ISO date check, date and size formats) are tiny and import nothing.
  ['domain logic (CSV, ZIP, XML)', /^src\/domain\/(?!ubl\/documentTypes\.ts$|markdown\.ts$|displayText\.ts$|isoDate\.ts$|localeDate\.ts$|byteSize\.ts$)/],
  ['registry index', /^src\/registry\//],
  ['reconciliation', /^src\/reconciliation\//],
  ['editor scanners, hovers and diagnostics', /^src\/editor\/(diagnostics|hover|gib)\//],
  ["GİB's rules: the engine and the shell's side of it", /^src\/gib\/|^src\/shell\/gibRules\.ts$/],
  ['forms (host side)', /^src\/webviews\//],
  ['trees', /^src\/views\//],
  ['palette commands', /^src\/commands\/(?!registry\/selectionContext\.ts$)/],
  ['sandbox server', /^src\/sandbox\//],
  ['profile commands', /^src\/profiles\/profileCommands\.ts$/],
  ['content sniffing', /^src\/shell\/nilveraContent\.ts$/],
  ['preview and template studio', /^src\/preview\/(?!contextKey\.ts$)/],
  ['node-fetch, jszip', /node_modules\/(node-fetch|jszip)\//],
  // GİB's rules run in their worker (dist/gibWorker.js), started on the first UBL-TR document; the
  // editor's table of GİB's sample tax numbers (pure data) is the one module of src/gib/ it shares.
  ['GİB rules engine', /^src\/gib\/(?!sampleTaxNumbers\.ts$)/],
  ['GİB rules engine libraries', /node_modules\/(fontoxpath|slimdom|slimdom-sax-parser|libxml2-wasm|prsc|whynot|xspattern|saxes)\//],
];

/**
 * The GİB rules worker (dist/gibWorker.js, minified): fontoxpath (XPath 3.1, about 300 KB of it),
 * slimdom with its SAX parser, GİB's Schematron runner and the worker's protocol; libxml2-wasm is not in
 * it (dist/vendor/libxml2-wasm, imported at run time). 419 KB when it first shipped (issue 40).
 */
const GIB_WORKER_BUDGET_BYTES = 450 * 1024;

let outputs: Record<string, Output> = {};
let gibWorker: { bytes: number; inputs: string[] } = { bytes: 0, inputs: [] };

/** The bundle and every bundle it requires when it loads (not those behind import()). */
function loadedWith(name: string): string[] {
  const seen = new Set<string>();
  const stack = [name];
  while (stack.length) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of outputs[file].imports) if (i.kind !== 'dynamic-import') stack.push(i.path);
  }
  return [...seen];
}

const bytesOf = (files: string[]) => files.reduce((sum, f) => sum + outputs[f].bytes, 0);
const inputsOf = (files: string[]) => files.flatMap((f) => outputs[f].inputs);
const featureBundle = (feature: string) => Object.keys(outputs).find((name) => outputs[name].entryPoint === `src/features/${feature}.ts`);

before(async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildExtension, buildGibWorker } = require(path.join(root, 'esbuild.js')) as {
    buildExtension(o: { production: boolean; outdir: string }): Promise<{ outputs: Record<string, Output> }>;
    buildGibWorker(o: { production: boolean; outdir: string }): Promise<{ bytes: number; inputs: string[] }>;
  };
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-bundles-'));
  try {
    outputs = (await buildExtension({ production: true, outdir })).outputs;
    gibWorker = await buildGibWorker({ production: true, outdir: path.join(outdir, 'worker') });
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
  const table = Object.keys(FEATURE_BUDGET_BYTES).map((f) => `${f} ${(bytesOf(loadedWith(featureBundle(f) ?? 'extension.mjs')) / 1024).toFixed(1)} KB`);
  console.log(`bundles: ${Object.keys(outputs).length} files; at activation ${(bytesOf(loadedWith('extension.mjs')) / 1024).toFixed(1)} KB; features with what they load: ${table.join(', ')}; GİB rules worker ${(gibWorker.bytes / 1024).toFixed(1)} KB`);
});

test(`activation loads at most ${ACTIVATION_BUDGET_BYTES / 1024} KB of bundles`, () => {
  const files = loadedWith('extension.mjs');
  assert.ok(bytesOf(files) <= ACTIVATION_BUDGET_BYTES, `${(bytesOf(files) / 1024).toFixed(1)} KB in ${files.join(', ')}`);
});

test("no area's modules are loaded at activation", () => {
  const atActivation = inputsOf(loadedWith('extension.mjs'));
  assert.ok(atActivation.includes('src/extension.ts') && atActivation.includes('src/shell/services.ts'), 'the metafile lists the shell');
  const leaks = AREA_MODULES.flatMap(([area, pattern]) => atActivation.filter((m) => pattern.test(m)).map((m) => `${area}: ${m}`));
  assert.deepEqual(leaks, []);
});

test('each feature of src/features/ is a bundle of its own, required only through import()', () => {
  const features = fs.readdirSync(path.join(root, 'src', 'features')).filter((f) => f !== 'index.ts').map((f) => f.replace(/\.ts$/, ''));
  assert.deepEqual(features.sort(), Object.keys(FEATURE_BUDGET_BYTES).sort(), 'every feature has a budget here');
  for (const feature of features) {
    const bundle = featureBundle(feature);
    assert.ok(bundle, `no bundle for src/features/${feature}.ts`);
    const requiredBy = Object.entries(outputs).filter(([, o]) => o.imports.some((i) => i.path === bundle && i.kind !== 'dynamic-import'));
    assert.deepEqual(requiredBy.map(([name]) => name), [], `${bundle} is required at load time by another bundle`);
    assert.ok(outputs['extension.mjs'].imports.some((i) => i.path === bundle && i.kind === 'dynamic-import'), `activation does not reach ${bundle} through import()`);
  }
});

test("each module is in exactly one bundle (one copy of its state and classes)", () => {
  const where = new Map<string, string[]>();
  for (const [name, o] of Object.entries(outputs)) for (const input of o.inputs) where.set(input, [...(where.get(input) ?? []), name]);
  const twice = [...where].filter(([, names]) => names.length > 1).map(([input, names]) => `${input}: ${names.join(', ')}`);
  assert.deepEqual(twice, []);
});

test('each feature, with what it loads, stays within its budget', () => {
  const over = Object.entries(FEATURE_BUDGET_BYTES)
    .map(([feature, budget]) => ({ feature, budget, bytes: bytesOf(loadedWith(featureBundle(feature) as string)) }))
    .filter((f) => f.bytes > f.budget)
    .map((f) => `${f.feature}: ${(f.bytes / 1024).toFixed(1)} KB, budget ${f.budget / 1024} KB`);
  assert.deepEqual(over, []);
});

test('a feature whose area is another feature\'s does not load it: the forms do not load the registry index, the profiles no trees', () => {
  const inputsOfFeature = (f: string) => inputsOf(loadedWith(featureBundle(f) as string));
  assert.deepEqual(inputsOfFeature('forms').filter((m) => /^src\/registry\//.test(m)), []);
  assert.deepEqual(inputsOfFeature('profiles').filter((m) => /^src\/views\//.test(m)), []);
  assert.deepEqual(inputsOfFeature('connection').filter((m) => /^src\/(views|webviews|registry)\//.test(m)), []);
});

test(`the GİB rules worker is a bundle of its own within ${GIB_WORKER_BUDGET_BYTES / 1024} KB, with the engine and without libxml2-wasm`, () => {
  assert.ok(gibWorker.inputs.includes('src/gib/worker.ts') && gibWorker.inputs.includes('src/gib/runner.ts'), 'the metafile lists the engine');
  assert.ok(gibWorker.inputs.some((i) => /node_modules\/fontoxpath\//.test(i)), 'fontoxpath is bundled');
  assert.deepEqual(gibWorker.inputs.filter((i) => /node_modules\/libxml2-wasm\//.test(i)), [], 'libxml2-wasm is imported at run time, not bundled');
  assert.deepEqual(gibWorker.inputs.filter((i) => /slimdom-sax-parser\.cjs\.development/.test(i)), [], "slimdom-sax-parser's development build");
  assert.ok(gibWorker.bytes <= GIB_WORKER_BUDGET_BYTES, `${(gibWorker.bytes / 1024).toFixed(1)} KB`);
});

test('no bundle of the extension holds the GİB rules engine: it is reached only through its worker', () => {
  const engine = /^src\/gib\/(engine|engineSource|runner|xpathText|worker)\.ts$|node_modules\/(fontoxpath|libxml2-wasm)\//;
  const holders = Object.entries(outputs).flatMap(([name, o]) => o.inputs.filter((i) => engine.test(i)).map((i) => `${name}: ${i}`));
  assert.deepEqual(holders, []);
});

test("the host's side of GİB's rules (src/shell/gibRules.ts) bundles without the engine: the worker client and the store's reader only", async () => {
  // Built as the extension builds what imports it (ES modules, split), whichever feature that is.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof Esbuild;
  const result = await esbuild.build({
    entryPoints: { host: path.join(root, 'src/shell/gibRules.ts') },
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    minify: true,
    write: false,
    outdir: path.join(os.tmpdir(), 'nilvera-gib-host'),
    external: ['vscode', 'node-fetch', 'jszip'],
    metafile: true,
    logLevel: 'silent',
  });
  const all = Object.values(result.metafile.outputs).flatMap((o) => Object.keys(o.inputs));
  assert.ok(all.includes('src/gib/workerClient.ts') && all.includes('src/gib/ruleStore.ts'), 'the metafile lists the client and the store');
  assert.deepEqual(all.filter((i) => /^src\/gib\/(engine|engineSource|runner|xpathText|worker)\.ts$|node_modules\/(fontoxpath|libxml2-wasm)\//.test(i)), [], 'engine modules in the host');
  // What loads with it (not behind import()): the store's folder name, no XML parser, no ZIP reader.
  const [, host] = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === 'src/shell/gibRules.ts')!;
  const loaded = new Set<string>();
  const stack = [host];
  while (stack.length) {
    const o = stack.pop()!;
    for (const i of Object.keys(o.inputs)) loaded.add(i);
    for (const imp of o.imports) if (imp.kind === 'import-statement' && !imp.external) stack.push(result.metafile.outputs[imp.path]);
  }
  assert.deepEqual([...loaded].filter((i) => /node_modules\/|^src\/(domain|gib\/(schematron|rulesSource|xsd))/.test(i)), []);
});
