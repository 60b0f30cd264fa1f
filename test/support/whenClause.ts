// A small evaluator of VS Code when-clauses, enough for this manifest's menus and welcome content:
// `true`/`false`, context keys (truthy), `!`, `==`, `!=`, `=~ /regex/flags`, `&&`, `||` and parentheses.
// It throws on anything else, so a clause it cannot read fails the test rather than passing silently.

export type WhenContext = Record<string, string | number | boolean | undefined>;

type Token = { kind: 'op'; value: string } | { kind: 'word'; value: string } | { kind: 'regex'; value: RegExp };

function tokenize(clause: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < clause.length) {
    const rest = clause.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const op = /^(&&|\|\||==|!=|=~|!|\(|\))/.exec(rest);
    if (op) {
      tokens.push({ kind: 'op', value: op[1] });
      i += op[1].length;
      // A regex literal follows =~.
      if (op[1] === '=~') {
        const lead = /^\s*/.exec(clause.slice(i))![0].length;
        i += lead;
        const re = /^\/((?:\\.|[^\\/])+)\/([a-z]*)/.exec(clause.slice(i));
        if (!re) throw new Error(`no regex after =~ in: ${clause}`);
        tokens.push({ kind: 'regex', value: new RegExp(re[1], re[2]) });
        i += re[0].length;
      }
      continue;
    }
    const word = /^[\w.\-:'/]+/.exec(rest);
    if (!word) throw new Error(`cannot read "${rest}" in: ${clause}`);
    tokens.push({ kind: 'word', value: word[0] });
    i += word[0].length;
  }
  return tokens;
}

export function evaluateWhen(clause: string | undefined, context: WhenContext): boolean {
  if (clause === undefined) return true;
  const tokens = tokenize(clause);
  let pos = 0;
  const peek = () => tokens[pos];
  const take = () => tokens[pos++];
  const value = (word: string): unknown => (word === 'true' ? true : word === 'false' ? false : context[word]);

  function primary(): boolean {
    const t = take();
    if (!t) throw new Error(`unexpected end of: ${clause}`);
    if (t.kind === 'op' && t.value === '!') return !primary();
    if (t.kind === 'op' && t.value === '(') {
      const inner = or();
      const close = take();
      if (close?.kind !== 'op' || close.value !== ')') throw new Error(`missing ) in: ${clause}`);
      return inner;
    }
    if (t.kind !== 'word') throw new Error(`unexpected ${String(t.value)} in: ${clause}`);
    const next = peek();
    if (next?.kind === 'op' && (next.value === '==' || next.value === '!=')) {
      take();
      const right = take();
      if (right?.kind !== 'word') throw new Error(`bad comparison in: ${clause}`);
      const equal = String(value(t.value)) === right.value.replace(/^'|'$/g, '');
      return next.value === '==' ? equal : !equal;
    }
    if (next?.kind === 'op' && next.value === '=~') {
      take();
      const re = take();
      if (re?.kind !== 'regex') throw new Error(`bad =~ in: ${clause}`);
      const v = value(t.value);
      return v !== undefined && re.value.test(String(v));
    }
    return Boolean(value(t.value));
  }

  function and(): boolean {
    let result = primary();
    while (peek()?.kind === 'op' && peek()!.value === '&&') {
      take();
      const right = primary();
      result = result && right;
    }
    return result;
  }

  function or(): boolean {
    let result = and();
    while (peek()?.kind === 'op' && peek()!.value === '||') {
      take();
      const right = and();
      result = result || right;
    }
    return result;
  }

  const result = or();
  if (pos !== tokens.length) throw new Error(`trailing tokens in: ${clause}`);
  return result;
}
