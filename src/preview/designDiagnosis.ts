// What the webview can say about a design besides running it. The browser's XSLT engine (libxslt) says
// nothing when a transform fails for another reason than a malformed stylesheet, so the page looks for
// the usual causes in the text: XPath 2.0 functions (designs declare 2.0, the engine runs 1.0),
// undeclared variables, a terminating xsl:message; and lists the files a design asks for (xsl:import,
// xsl:include, document()), which the preview never loads. Pure; regular expressions, not an XPath parser.

export type DesignCause =
  | { kind: 'xpath2Function'; name: string; line: number }
  | { kind: 'undeclaredVariable'; name: string; line: number }
  | { kind: 'terminatingMessage'; line: number };

/** Functions of XPath/XSLT 2.0 and later that XSLT 1.0 engines do not have (the ones designs reach for). */
const XPATH2_FUNCTIONS = new Set([
  'format-date', 'format-dateTime', 'format-time', 'current-date', 'current-dateTime', 'current-time',
  'upper-case', 'lower-case', 'matches', 'replace', 'tokenize', 'string-join', 'ends-with', 'distinct-values',
  'exists', 'empty', 'abs', 'avg', 'min', 'max', 'compare', 'codepoints-to-string', 'string-to-codepoints',
  'normalize-unicode', 'year-from-date', 'month-from-date', 'day-from-date', 'adjust-date-to-timezone',
  'index-of', 'subsequence', 'reverse', 'insert-before', 'remove', 'base-uri', 'document-uri', 'resolve-uri',
  'current-group', 'current-grouping-key', 'unparsed-text', 'regex-group', 'data', 'deep-equal',
]);

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** XPath expressions of the design: select/test/match/use attributes and {…} in other attributes. */
function expressions(text: string): Array<{ expr: string; at: number }> {
  const out: Array<{ expr: string; at: number }> = [];
  for (const m of text.matchAll(/\s(select|test|match|use|value)\s*=\s*("([^"]*)"|'([^']*)')/g)) out.push({ expr: m[3] ?? m[4] ?? '', at: m.index ?? 0 });
  for (const m of text.matchAll(/\s[\w:-]+\s*=\s*"([^"]*\{[^"]*)"/g)) {
    for (const avt of m[1].matchAll(/\{([^{}]*)\}/g)) out.push({ expr: avt[1], at: m.index ?? 0 });
  }
  return out;
}

/** Likely reasons a transform produced nothing, in the order they appear. */
export function likelyCauses(design: string): DesignCause[] {
  const causes: DesignCause[] = [];
  const seen = new Set<string>();
  /** Whether `key` is said for the first time (each function and variable is named once). */
  const first = (key: string) => !seen.has(key) && seen.add(key);
  const declared = new Set([...design.matchAll(/<xsl:(?:variable|param)\b[^>]*\sname\s*=\s*["']([^"']+)["']/g)].map((m) => m[1]));
  for (const { expr, at } of expressions(design)) {
    // Quoted strings are not code: 'x(' inside a literal is not a call.
    const code = expr.replace(/'[^']*'|"[^"]*"/g, "''");
    for (const call of code.matchAll(/(?<![\w.:$-])([A-Za-z][\w.-]*(?::[\w.-]+)?)\s*\(/g)) {
      const name = call[1];
      if ((XPATH2_FUNCTIONS.has(name) || /^xs:/.test(name)) && first(`f:${name}`)) causes.push({ kind: 'xpath2Function', name, line: lineAt(design, at) });
    }
    for (const ref of code.matchAll(/\$([A-Za-z_][\w.-]*)/g)) {
      if (!declared.has(ref[1]) && first(`v:${ref[1]}`)) causes.push({ kind: 'undeclaredVariable', name: ref[1], line: lineAt(design, at) });
    }
  }
  for (const m of design.matchAll(/<xsl:message\b[^>]*terminate\s*=\s*["']yes["']/g)) causes.push({ kind: 'terminatingMessage', line: lineAt(design, m.index ?? 0) });
  return causes.sort((a, b) => a.line - b.line);
}

/** The other files a design asks for: xsl:import/xsl:include hrefs and document() arguments. */
export function externalReferences(design: string): string[] {
  const code = design.replace(/<!--[\s\S]*?-->/g, '');
  const refs: string[] = [];
  for (const m of code.matchAll(/<xsl:(?:import|include)\b[^>]*\shref\s*=\s*["']([^"']*)["']/g)) refs.push(m[1]);
  for (const m of code.matchAll(/document\s*\(\s*(?:'([^']*)'|"([^"]*)"|([^)]*))\)/g)) refs.push((m[1] ?? m[2] ?? m[3] ?? '').trim());
  return [...new Set(refs)].filter((r) => r !== '');
}
