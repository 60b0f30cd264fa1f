// Comments point at things that exist: a comment in src/ or test/ that names a file of this repository
// (`src/…`, `test/…`) names one that is there, and a camelCase name in backticks (`answerFor`,
// `routeForEveryOperation`) is a name the code still uses. Comments are read with TypeScript's own
// scanner, so strings, template literals and regular expressions are never taken for comments.
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
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

interface Comment {
  file: string;
  line: number;
  text: string;
}

/** The file's comments, and the words of its code (identifiers, and the words inside its strings and regular expressions). */
function read(file: string, text: string): { comments: Comment[]; words: Set<string> } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const comments = new Map<number, Comment>();
  const words = new Set<string>();
  const addComments = (ranges: TS.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (!comments.has(r.pos)) comments.set(r.pos, { file, line: source.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
    }
  };
  const visit = (node: TS.Node): void => {
    addComments(ts.getLeadingCommentRanges(text, node.pos));
    addComments(ts.getTrailingCommentRanges(text, node.end));
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteralLike(node) || ts.isRegularExpressionLiteral(node) || ts.isTemplateLiteralToken(node)) {
      for (const w of node.getText(source).match(/[A-Za-z_$][\w$]*/g) ?? []) words.add(w);
    }
    // Tokens (`}` before a comment, the end of the file) carry comments too.
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return { comments: [...comments.values()].sort((a, b) => a.line - b.line), words };
}

/** Paths of this repository named in a comment: `src/…` or `test/…`, not inside another path. */
function pathsIn(comment: string): string[] {
  return [...comment.matchAll(/(?<![\w./@-])(?:src|test)\/[\w./<>{}*-]*[\w/>}*]/g)]
    .map((m) => m[0])
    .filter((p) => !/[*<>{}]/.test(p))
    .map((p) => p.replace(/\.$/, ''));
}

/** A name of ours in backticks: camelCase with a lower-case letter followed by an upper-case one, optionally `a.b` or `f()`. */
function namesIn(comment: string): string[] {
  return [...comment.matchAll(/`([a-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?`/g)]
    .map((m) => m[1])
    .filter((n) => /[a-z][A-Z]/.test(n));
}

const files = [...sourceFiles(path.join(root, 'src')), ...sourceFiles(path.join(root, 'test'))];
const parsed = files.map((f) => ({ file: path.relative(root, f).split(path.sep).join('/'), ...read(f, fs.readFileSync(f, 'utf8')) }));
const codeWords = new Set(parsed.flatMap((p) => [...p.words]));
// Names that live outside the TypeScript: the manifest, the build and scripts, the platform's export.
for (const extra of ['package.json', 'esbuild.js', 'eslint.config.mjs', 'test/fixtures/general.swagger.json']) {
  for (const w of fs.readFileSync(path.join(root, extra), 'utf8').match(/[A-Za-z_$][\w$]*/g) ?? []) codeWords.add(w);
}
for (const script of fs.readdirSync(path.join(root, 'scripts')).filter((f) => f.endsWith('.js'))) {
  for (const w of fs.readFileSync(path.join(root, 'scripts', script), 'utf8').match(/[A-Za-z_$][\w$]*/g) ?? []) codeWords.add(w);
}

test('the scanner finds comments and code words (the check itself is live)', () => {
  const { comments, words } = read('x.ts', "const a = '// not a comment'; // see src/nowhere.ts and `missingThing`\nconst re = /\\/\\/x/; /* `realName` */ const realName = `${a}/* no */`;");
  assert.deepEqual(comments.map((c) => c.text), ['// see src/nowhere.ts and `missingThing`', '/* `realName` */']);
  assert.deepEqual(pathsIn(comments[0].text), ['src/nowhere.ts']);
  assert.deepEqual(pathsIn('see test/e2e/fixtures/language-pack-<lang>/ and out/test/unit/x.js'), []);
  assert.deepEqual(namesIn(comments[0].text), ['missingThing']);
  assert.ok(words.has('realName') && !words.has('missingThing'));
});

/** The path is a file or folder here, or a module named without its extension. */
const exists = (p: string) => ['', '.ts', '/index.ts'].some((suffix) => fs.existsSync(path.join(root, p + suffix)));

test('every src/ or test/ path named in a comment exists', () => {
  const missing = parsed.flatMap(({ file, comments }) =>
    comments.flatMap((c) => pathsIn(c.text).filter((p) => !exists(p)).map((p) => `${file}:${c.line}: ${p}`)),
  );
  assert.deepEqual(missing, []);
});

test('every camelCase `name` in a comment is a name the code uses', () => {
  assert.ok(parsed.flatMap((p) => p.comments.flatMap((c) => namesIn(c.text))).length > 30, 'the comments name code in backticks');
  const missing = parsed.flatMap(({ file, comments }) =>
    comments.flatMap((c) => namesIn(c.text).filter((n) => n.split('.').some((part) => !codeWords.has(part))).map((n) => `${file}:${c.line}: \`${n}\``)),
  );
  assert.deepEqual(missing, []);
});
