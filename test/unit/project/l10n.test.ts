// Localization completeness: every English source string has a Turkish translation, nothing stale
// is left behind, and the {0} placeholders agree. Reads the real source and manifest files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { test } from 'node:test';
import type * as TS from 'typescript';

// This file runs from out/test/unit/; the repository root is three levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
// Loaded at run time (not bundled): the TypeScript parser finds every l10n.t call exactly.
const ts = createRequire(path.join(root, 'package.json'))('typescript') as typeof TS;

function readJson<T>(relative: string): T {
  return JSON.parse(fs.readFileSync(path.join(root, relative), 'utf8')) as T;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

interface Usage {
  message: string | undefined;
  where: string;
}

/** Finds `l10n.t(...)` calls (any receiver ending in `l10n`) and reads their message argument. */
function l10nCalls(file: string): Usage[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Usage[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 't') {
      const receiver = node.expression.expression;
      const isL10n = (ts.isPropertyAccessExpression(receiver) && receiver.name.text === 'l10n') || (ts.isIdentifier(receiver) && receiver.text === 'l10n');
      if (isL10n) {
        const first = node.arguments[0];
        let message: string | undefined;
        if (first && ts.isStringLiteralLike(first)) message = first.text;
        else if (first && ts.isObjectLiteralExpression(first)) {
          const prop = first.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText(source) === 'message');
          if (prop && ts.isPropertyAssignment(prop) && ts.isStringLiteralLike(prop.initializer)) message = prop.initializer.text;
        }
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push({ message, where: `${path.relative(root, file)}:${line + 1}` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function placeholders(text: string): string[] {
  return [...new Set(text.match(/\{\d+\}/g) ?? [])].sort();
}

const usages = sourceFiles(path.join(root, 'src')).flatMap(l10nCalls);
const bundle = readJson<Record<string, string>>('l10n/bundle.l10n.tr.json');

test('the scan finds the shell strings (guards against a scanner that finds nothing)', () => {
  const messages = new Set(usages.map((u) => u.message));
  assert.ok(messages.has('Set API Key'), 'expected "Set API Key" among the l10n.t messages');
  assert.ok(usages.length >= 20, `only ${usages.length} l10n.t calls found`);
});

test('every l10n.t message is a string literal, so it can be translated', () => {
  const dynamic = usages.filter((u) => u.message === undefined).map((u) => u.where);
  assert.deepEqual(dynamic, [], `l10n.t called with a non-literal message at: ${dynamic.join(', ')}`);
});

test('every l10n.t message has a Turkish translation in l10n/bundle.l10n.tr.json', () => {
  const missing = usages.filter((u) => u.message !== undefined && !(u.message in bundle)).map((u) => `${u.where}: ${JSON.stringify(u.message)}`);
  assert.deepEqual(missing, [], `missing Turkish translations:\n${missing.join('\n')}`);
});

test('the Turkish bundle has no stale keys and no empty translations', () => {
  const used = new Set(usages.map((u) => u.message));
  const stale = Object.keys(bundle).filter((k) => !used.has(k));
  assert.deepEqual(stale, [], `keys no longer used in src/: ${stale.join(' | ')}`);
  const empty = Object.entries(bundle).filter(([, v]) => typeof v !== 'string' || !v.trim()).map(([k]) => k);
  assert.deepEqual(empty, [], `empty translations: ${empty.join(' | ')}`);
});

test('Turkish translations keep the placeholders of their English source', () => {
  const wrong = Object.entries(bundle)
    .filter(([en, tr]) => placeholders(en).join() !== placeholders(tr).join())
    .map(([en, tr]) => `${en} -> ${tr}`);
  assert.deepEqual(wrong, [], `placeholder mismatch:\n${wrong.join('\n')}`);
});

function manifestKeys(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string') {
    const m = /^%([^%]+)%$/.exec(value);
    if (m) into.add(m[1]);
  } else if (Array.isArray(value)) value.forEach((v) => manifestKeys(v, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => manifestKeys(v, into));
  return into;
}

const manifestUsed = manifestKeys(readJson<unknown>('package.json'), new Set());
const nlsEn = readJson<Record<string, string>>('package.nls.json');
const nlsTr = readJson<Record<string, string>>('package.nls.tr.json');

test('every %key% in package.json is in package.nls.json and package.nls.tr.json', () => {
  assert.ok(manifestUsed.size > 0, 'package.json has no %key% references');
  const missingEn = [...manifestUsed].filter((k) => !(k in nlsEn));
  const missingTr = [...manifestUsed].filter((k) => !(k in nlsTr));
  assert.deepEqual(missingEn, [], `missing from package.nls.json: ${missingEn.join(', ')}`);
  assert.deepEqual(missingTr, [], `missing from package.nls.tr.json: ${missingTr.join(', ')}`);
});

test('the nls files have no keys package.json does not use, and no empty values', () => {
  for (const [name, nls] of [['package.nls.json', nlsEn], ['package.nls.tr.json', nlsTr]] as const) {
    const stale = Object.keys(nls).filter((k) => !manifestUsed.has(k));
    assert.deepEqual(stale, [], `${name} has unused keys: ${stale.join(', ')}`);
    const empty = Object.entries(nls).filter(([, v]) => !v.trim()).map(([k]) => k);
    assert.deepEqual(empty, [], `${name} has empty values: ${empty.join(', ')}`);
  }
});

test('nls placeholders and command links agree between English and Turkish', () => {
  const commandLinks = (text: string): string[] => (text.match(/\(command:[^)]+\)/g) ?? []).sort();
  const wrong: string[] = [];
  for (const [key, en] of Object.entries(nlsEn)) {
    const tr = nlsTr[key];
    if (tr === undefined) continue;
    if (placeholders(en).join() !== placeholders(tr).join()) wrong.push(`${key}: placeholders`);
    if (commandLinks(en).join() !== commandLinks(tr).join()) wrong.push(`${key}: command links`);
  }
  assert.deepEqual(wrong, [], wrong.join('\n'));
});
