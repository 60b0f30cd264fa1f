// The guards of GİB's asserts (runner.ts: `not($gibUp7 = 'IHRACAT')`, `not($gibUp6 = 'IHRACKAYITLI' and
// $gibUp12 = '702')`, `contains($List, concat(',', $gibUp6, ','))`) evaluated in plain JavaScript, so a
// check need not compile them with fontoxpath (at a worker's start, that compiling is most of the first
// check). Only what these guards use: string literals, variables, `=` and `!=`, `and`, `or`, `not`,
// `contains`, `concat`, `true()`, `false()`, parentheses. Anything else, or anything XPath would answer
// with an error or a conversion (a number, a sequence of several strings in `contains`), is left to
// fontoxpath: the compiled guard answers undefined. Plain Node.

import { tokenize, type Token } from './xpathText';

/** A variable's value as the guard reads it: the string values of its nodes, or a string. */
export type GuardValue = { readonly nodes: readonly string[] } | string;

/** The variables a guard may read; undefined for one it cannot (then fontoxpath evaluates the guard). */
export interface GuardVariables {
  get(name: string): GuardValue | undefined;
}

type Value = { kind: 'nodes'; items: readonly string[] } | { kind: 'string'; value: string } | { kind: 'boolean'; value: boolean };

/** Thrown inside an evaluation that fontoxpath must do instead. */
class NotHere extends Error {}

type Expr = (vars: GuardVariables) => Value;

/** The guard as a function of the variables, or undefined when it uses what this evaluator does not read. */
export function compileGuard(text: string): ((vars: GuardVariables) => boolean | undefined) | undefined {
  let tokens: Token[];
  try {
    tokens = tokenize(text);
  } catch {
    return undefined;
  }
  let at = 0;
  const peek = (): Token | undefined => tokens[at];
  const isName = (name: string): boolean => peek()?.kind === 'name' && peek()!.text === name;
  const expect = (kind: Token['kind']): void => {
    if (peek()?.kind !== kind) throw new NotHere();
    at++;
  };
  /** `operand (or operand)*`, and the same for `and`. */
  const chain = (word: 'or' | 'and', operand: () => Expr): Expr => {
    const parts = [operand()];
    while (isName(word)) {
      at++;
      parts.push(operand());
    }
    if (parts.length === 1) return parts[0];
    return (vars) => ({ kind: 'boolean', value: word === 'or' ? parts.some((p) => truth(p(vars))) : parts.every((p) => truth(p(vars))) });
  };
  const orExpr = (): Expr => chain('or', () => chain('and', comparison));
  const comparison = (): Expr => {
    const left = primary();
    const op = peek();
    if (op?.kind !== 'op' || (op.text !== '=' && op.text !== '!=')) return left;
    at++;
    const right = primary();
    const equal = op.text === '=';
    return (vars) => {
      const a = strings(left(vars));
      const b = strings(right(vars));
      return { kind: 'boolean', value: a.some((x) => b.some((y) => (x === y) === equal)) };
    };
  };
  const primary = (): Expr => {
    const t = peek();
    if (!t) throw new NotHere();
    if (t.kind === 'string') {
      at++;
      const value = t.text.slice(1, -1);
      return () => ({ kind: 'string', value });
    }
    if (t.kind === 'var') {
      at++;
      const name = t.text.slice(1);
      return (vars) => {
        const v = vars.get(name);
        if (v === undefined) throw new NotHere();
        return typeof v === 'string' ? { kind: 'string', value: v } : { kind: 'nodes', items: v.nodes };
      };
    }
    if (t.kind === '(') {
      at++;
      const inner = orExpr();
      expect(')');
      return inner;
    }
    if (t.kind === 'name' && tokens[at + 1]?.kind === '(') {
      const name = t.text;
      at += 2;
      const args: Expr[] = [];
      if (peek()?.kind !== ')') {
        args.push(orExpr());
        while (peek()?.kind === ',') {
          at++;
          args.push(orExpr());
        }
      }
      expect(')');
      return call(name, args);
    }
    throw new NotHere();
  };
  const call = (name: string, args: Expr[]): Expr => {
    if ((name === 'true' || name === 'false') && args.length === 0) return () => ({ kind: 'boolean', value: name === 'true' });
    if (name === 'not' && args.length === 1) return (vars) => ({ kind: 'boolean', value: !truth(args[0](vars)) });
    if (name === 'contains' && args.length === 2) return (vars) => ({ kind: 'boolean', value: single(args[0](vars)).includes(single(args[1](vars))) });
    if (name === 'concat' && args.length >= 2) return (vars) => ({ kind: 'string', value: args.map((a) => single(a(vars))).join('') });
    throw new NotHere();
  };
  const expr = unlessNotHere(orExpr);
  if (!expr || at !== tokens.length) return undefined;
  return (vars) => unlessNotHere(() => truth(expr(vars)));
}

/** What `f` returns, or undefined where it leaves the work to fontoxpath. */
function unlessNotHere<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof NotHere) return undefined;
    throw e;
  }
}

/** XPath's effective boolean value; several strings (an error in XPath) are left to fontoxpath. */
function truth(v: Value): boolean {
  if (v.kind === 'boolean') return v.value;
  if (v.kind === 'string') return v.value !== '';
  return v.items.length > 0;
}

/** The atomized values for a general comparison; a boolean is left to fontoxpath. */
function strings(v: Value): readonly string[] {
  if (v.kind === 'nodes') return v.items;
  if (v.kind === 'string') return [v.value];
  throw new NotHere();
}

/** A string function's argument: the empty sequence is '', more than one item an error (fontoxpath's). */
function single(v: Value): string {
  if (v.kind === 'string') return v.value;
  if (v.kind === 'nodes' && v.items.length <= 1) return v.items[0] ?? '';
  throw new NotHere();
}
