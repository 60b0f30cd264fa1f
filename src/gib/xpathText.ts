// Small readings of XPath text that the runner needs without a full parser: the tokens, the
// function calls whose arguments XPath 1.0 reduces to their first item, and the location paths a
// test names (to put a finding at the element a rule is about, and to evaluate a test's absolute
// paths once per document instead of once per node). Plain Node.

export interface Token {
  readonly kind: 'name' | 'string' | 'number' | 'var' | 'op' | '(' | ')' | '[' | ']' | ',' | '/' | '//' | '@' | '::' | '.' | '..' | '*';
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const NAME = /[A-Za-z_\u00C0-\uFFFF][\w.\u00B7\u00C0-\uFFFF-]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\u00B7\u00C0-\uFFFF-]*)?/y;
const NUMBER = /\d+(?:\.\d*)?|\.\d+/y;

export function tokenize(expr: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const push = (kind: Token['kind'], end: number): void => {
    out.push({ kind, text: expr.slice(i, end), start: i, end });
    i = end;
  };
  while (i < expr.length) {
    const c = expr[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '"' || c === "'") {
      const close = expr.indexOf(c, i + 1);
      push('string', close < 0 ? expr.length : close + 1);
      continue;
    }
    NUMBER.lastIndex = i;
    if (/[\d]/.test(c) || (c === '.' && /\d/.test(expr[i + 1] ?? ''))) {
      NUMBER.exec(expr);
      push('number', NUMBER.lastIndex);
      continue;
    }
    if (c === '$') {
      NAME.lastIndex = i + 1;
      push('var', NAME.exec(expr) ? NAME.lastIndex : i + 1);
      continue;
    }
    NAME.lastIndex = i;
    if (NAME.exec(expr)) {
      // A name may not swallow the '::' of an axis.
      let end = NAME.lastIndex;
      const text = expr.slice(i, end);
      if (expr.startsWith('::', i + text.indexOf(':')) && text.includes(':')) end = i + text.indexOf(':');
      push('name', end);
      continue;
    }
    const two = expr.slice(i, i + 2);
    if (two === '//') { push('//', i + 2); continue; }
    if (two === '::') { push('::', i + 2); continue; }
    if (two === '..') { push('..', i + 2); continue; }
    if (two === '!=' || two === '<=' || two === '>=') { push('op', i + 2); continue; }
    if (c === '/' || c === '(' || c === ')' || c === '[' || c === ']' || c === ',' || c === '@' || c === '.' || c === '*') {
      push(c as Token['kind'], i + 1);
      continue;
    }
    push('op', i + 1); // = < > + - |
  }
  return out;
}

/** Names that are operators when they follow an operand. */
const OPERATOR_NAMES = new Set(['and', 'or', 'div', 'mod', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'is', 'to', 'union', 'intersect', 'except', 'instance', 'of', 'treat', 'as', 'castable', 'cast']);
const KIND_TESTS = new Set(['text', 'node', 'comment', 'processing-instruction']);

function endsOperand(t: Token | undefined): boolean {
  return !!t && (t.kind === 'name' || t.kind === 'string' || t.kind === 'number' || t.kind === 'var' || t.kind === ')' || t.kind === ']' || t.kind === '.' || t.kind === '..' || t.kind === '*');
}

/** The index of the token that closes the bracket opened at `open`. */
function closing(tokens: Token[], open: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']' };
  const want = pairs[tokens[open].kind];
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const k = tokens[i].kind;
    if (k === '(' || k === '[') depth++;
    else if (k === ')' || k === ']') depth--;
    if (depth === 0) return k === want ? i : tokens.length - 1;
  }
  return tokens.length - 1;
}

/** A location path found in an expression: its text and where it stands. */
export interface PathInText {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly absolute: boolean;
  /** Its steps without predicates, for the longest prefix that exists. */
  readonly steps: readonly string[];
}

/** The location paths of an expression, in the order they are written (not those that start at a variable or function). */
export function locationPaths(expr: string): PathInText[] {
  const tokens = tokenize(expr);
  const paths: PathInText[] = [];
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i];
    const prev = tokens[i - 1];
    const startsStep = t.kind === '/' || t.kind === '//' || t.kind === '@' || t.kind === '.' || t.kind === '..' || (t.kind === '*' && !endsOperand(prev)) ||
      (t.kind === 'name' && !(endsOperand(prev) && OPERATOR_NAMES.has(t.text)) && (tokens[i + 1]?.kind !== '(' || KIND_TESTS.has(t.text)));
    if (!startsStep || (prev && (prev.kind === 'var' || prev.kind === ')'))) {
      i++;
      continue;
    }
    const first = i;
    const steps: string[] = [];
    let step = '';
    let j = i;
    while (j < tokens.length) {
      const k = tokens[j];
      if (k.kind === '[') { j = closing(tokens, j) + 1; continue; }
      if (k.kind === '/' || k.kind === '//') {
        if (step) steps.push(step);
        step = k.kind === '//' ? '//' : '';
        j++;
        continue;
      }
      const expectStep = j === first || tokens[j - 1].kind === '/' || tokens[j - 1].kind === '//' || tokens[j - 1].kind === '@' || tokens[j - 1].kind === '::';
      if (!expectStep) break;
      if (k.kind === 'name' && tokens[j + 1]?.kind === '::') { step += k.text + '::'; j += 2; continue; }
      if (k.kind === 'name' && tokens[j + 1]?.kind === '(' && KIND_TESTS.has(k.text)) { step += expr.slice(k.start, tokens[closing(tokens, j + 1)].end); j = closing(tokens, j + 1) + 1; continue; }
      if (k.kind === 'name' || k.kind === '*' || k.kind === '.' || k.kind === '..') { step += k.text; j++; continue; }
      if (k.kind === '@') { step += '@'; j++; continue; }
      break;
    }
    if (step) steps.push(step);
    const last = tokens[j - 1];
    paths.push({ text: expr.slice(t.start, last.end), start: t.start, end: last.end, absolute: t.kind === '/' || t.kind === '//', steps });
    i = j;
  }
  return paths;
}

/** Functions whose arguments XPath 1.0 reduces to their first node ("string value of the first node in document order"). */
const FIRST_ITEM_FUNCTIONS = new Set([
  'string', 'normalize-space', 'string-length', 'contains', 'starts-with', 'ends-with', 'substring', 'substring-before',
  'substring-after', 'translate', 'concat', 'number', 'matches', 'upper-case', 'lower-case', 'round', 'floor', 'ceiling',
  'xs:date', 'xs:decimal', 'xs:integer', 'xs:dateTime', 'xs:time', 'replace', 'tokenize',
]);

/**
 * The expression with each argument of those functions taken as `(arg)[1]`: XPath 1.0's reading,
 * which GİB's rules (no queryBinding, so XSLT 1.0) rely on, e.g. `string(cac:DriverPerson/cbc:FirstName)`
 * on a despatch advice with two drivers. XPath 2.0+ raises XPTY0004 there instead.
 */
export function withFirstItemArguments(expr: string): string {
  const tokens = tokenize(expr);
  const edits: { start: number; end: number; text: string }[] = [];
  for (let i = 0; i < tokens.length - 1; i++) {
    const t = tokens[i];
    if (t.kind !== 'name' || tokens[i + 1].kind !== '(' || !FIRST_ITEM_FUNCTIONS.has(t.text)) continue;
    const close = closing(tokens, i + 1);
    let argStart = i + 2;
    for (let j = i + 2; j <= close; j++) {
      const k = tokens[j].kind;
      if (k === '(' || k === '[') { j = closing(tokens, j); continue; }
      if (k === ',' || j === close) {
        const literal = j - 1 === argStart && (tokens[argStart].kind === 'string' || tokens[argStart].kind === 'number');
        if (j > argStart && !literal) {
          const a = tokens[argStart].start;
          const b = tokens[j - 1].end;
          edits.push({ start: a, end: a, text: '(' }, { start: b, end: b, text: ')[1]' });
        }
        argStart = j + 1;
      }
    }
  }
  edits.sort((x, y) => y.start - x.start || (x.text === '(' ? 1 : -1));
  let out = expr;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Functions that read the context (or its document) even when given arguments. */
const CONTEXT_FUNCTIONS = new Set(['position', 'last', 'lang', 'id', 'idref', 'element-with-id', 'root', 'generate-id', 'base-uri', 'document-uri', 'current']);
/** Names that open an expression an `or` may belong to (`if … else a or b`): such a test is not split. */
const BLOCK_NAMES = new Set(['if', 'then', 'else', 'some', 'every', 'satisfies', 'for', 'let', 'return']);

/**
 * The first operand of a test whose outermost operator is `op` (`not(../cbc:ProfileID = 'IHRACAT') or …`
 * → `not(../cbc:ProfileID = 'IHRACAT')`), else undefined: XPath evaluates it first and, for `or`, when it
 * is true the test is true whatever follows. For `and`, undefined where an `or` is outermost (`a and b or c`).
 */
export function firstOperand(expr: string, op: 'or' | 'and'): string | undefined {
  const tokens = tokenize(expr);
  let depth = 0;
  let first: Token | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === '(' || t.kind === '[') depth++;
    else if (t.kind === ')' || t.kind === ']') depth--;
    else if (depth === 0 && t.kind === ',') return undefined;
    else if (depth === 0 && t.kind === 'name') {
      const afterOperand = endsOperand(tokens[i - 1]);
      if (!afterOperand && BLOCK_NAMES.has(t.text)) return undefined;
      if (afterOperand && t.text === 'or' && op === 'and') return undefined;
      if (afterOperand && t.text === op) first ??= t;
    }
  }
  return first && expr.slice(0, first.start).trim();
}

/**
 * A part of a test that, when true, makes the whole test true, and that does not depend on the node
 * (isContextFree): the first `or` operand itself, or from a first operand `not(A and …)` the
 * `not(A)` (A false makes `A and …` false without reading the rest). Undefined when there is none.
 */
export function guardOf(expr: string): string | undefined {
  const first = firstOperand(expr, 'or');
  if (first === undefined) return undefined;
  if (isContextFree(first)) return first;
  const tokens = tokenize(first);
  if (tokens[0]?.kind !== 'name' || tokens[0].text !== 'not' || tokens[1]?.kind !== '(' || closing(tokens, 1) !== tokens.length - 1) return undefined;
  const inner = first.slice(tokens[1].end, tokens[tokens.length - 1].start);
  const a = firstOperand(inner, 'and');
  return a !== undefined && isContextFree(a) ? `not(${a})` : undefined;
}

/**
 * Whether an expression's value cannot depend on its context node: no location path (`.`, `..`,
 * `cbc:ID`, `@x`, `text()`; a path from a variable, `$v/cbc:ID`, is taken as one too), no function that reads the context
 * (`name()`, `position()`, `lang(…)`), only variables and literals. Such a part of a rule's test is
 * the same for every node of a group and is evaluated once for them.
 */
export function isContextFree(expr: string): boolean {
  if (locationPaths(expr).length > 0) return false;
  const tokens = tokenize(expr);
  for (let i = 0; i < tokens.length - 1; i++) {
    const t = tokens[i];
    if (t.kind !== 'name' || tokens[i + 1].kind !== '(') continue;
    if (CONTEXT_FUNCTIONS.has(t.text)) return false;
    if (tokens[i + 2]?.kind === ')' && t.text !== 'true' && t.text !== 'false') return false;
  }
  return true;
}

/** Functions and operators through which `.` says more than its value (its name, identity or place). */
const NODE_READERS = new Set(['name', 'local-name', 'namespace-uri', 'node-name', 'generate-id', 'path', 'is', 'has-children', 'base-uri', 'document-uri', 'nilled']);

/**
 * Whether an expression reads its context node only through its value: every location path is `.`,
 * no function that reads the context or a node's name or identity, no `<<`/`>>`. For attributes of one
 * name, such a test answers the same for every attribute of the same value.
 */
export function readsOnlyTheValue(expr: string): boolean {
  if (!locationPaths(expr).every((p) => p.text === '.')) return false;
  const tokens = tokenize(expr);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'op' && (t.text === '<' || t.text === '>') && tokens[i + 1]?.kind === 'op' && tokens[i + 1].text === t.text && tokens[i + 1].start === t.end) return false;
    if (t.kind !== 'name') continue;
    if (NODE_READERS.has(t.text) || (tokens[i + 1]?.kind === '(' && (CONTEXT_FUNCTIONS.has(t.text) || tokens[i + 2]?.kind === ')') && t.text !== 'true' && t.text !== 'false')) return false;
  }
  return true;
}
