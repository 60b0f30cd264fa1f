// No module of src/ imports itself through others: layers that point one way (eslint.config.mjs says
// which folder may import which) and, inside a folder, modules that can be read and loaded bottom up.
// `import type` (and imports whose every name is a type) are left out: TypeScript erases them, so they
// load nothing and cannot make a module see another half-initialised. `import()` counts: it is a load.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import type * as TS from 'typescript';

const root = path.resolve(__dirname, '..', '..', '..', '..');
const ts = createRequire(path.join(root, 'package.json'))('typescript') as typeof TS;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

function typeOnly(node: TS.ImportDeclaration | TS.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    return node.isTypeOnly || (!!node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.length > 0 && node.exportClause.elements.every((e) => e.isTypeOnly));
  }
  const clause = node.importClause;
  if (!clause) return false; // import './x': loaded for its effects
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

/** The src/ modules a file loads (relative specifiers only; packages and `vscode` cannot import src/). */
export function importsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: TS.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && !typeOnly(node)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => path.resolve(path.dirname(file), s))
    .map((target) => [`${target}.ts`, path.join(target, 'index.ts')].find((candidate) => fs.existsSync(candidate)) ?? target);
}

/** One import cycle as a list of files (the first repeated at the end), or undefined when there is none. */
export function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined;
    if (state.get(file) === 'open') return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
}

test('no import cycle in src/ (type-only imports aside)', () => {
  const files = sourceFiles(path.join(root, 'src'));
  assert.ok(files.length > 100, `found only ${files.length} files under src/`);
  const graph = new Map(files.map((f) => [f, importsOf(f, fs.readFileSync(f, 'utf8'))]));
  const cycle = findCycle(graph);
  assert.equal(cycle, undefined, `import cycle: ${cycle?.map((f) => path.relative(root, f)).join(' -> ')}`);
});

test('the cycle finder sees a cycle through import() and re-exports, and ignores type-only imports', () => {
  const dir = path.join(root, 'src');
  const a = path.join(dir, 'a.ts');
  const b = path.join(dir, 'b.ts');
  const edges = (text: string): string[] => importsOf(a, text).map((f) => path.basename(f));
  assert.deepEqual(edges(`import { x } from './b';`), ['b']);
  assert.deepEqual(edges(`export { x } from './b'; const m = import('./c');`), ['b', 'c']);
  assert.deepEqual(edges(`import type { X } from './b'; import { type Y } from './c'; export type { Z } from './d';`), []);
  assert.deepEqual(edges(`import './b'; import { type Y, z } from './c';`), ['b', 'c']);
  assert.deepEqual(findCycle(new Map([[a, [b]], [b, [a]]])), [a, b, a]);
  assert.equal(findCycle(new Map([[a, [b]], [b, []]])), undefined);
});
