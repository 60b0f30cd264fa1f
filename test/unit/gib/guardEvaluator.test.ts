// The guards evaluated in plain JavaScript (src/gib/guardEvaluator.ts) answer as fontoxpath does, over
// GİB's kind of guards and variables (node lists, empty ones, several nodes, strings), and leave to
// fontoxpath what they do not read.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fx from 'fontoxpath';
import { compileGuard, type GuardValue } from '../../../src/gib/guardEvaluator';
import { parseGibDocument } from '../../../src/gib/xmlTree';

const doc = parseGibDocument('<r><p>IHRACAT</p><t>ISTISNA</t><c>702</c><c>701</c><e/><x a="TEMELFATURA"/></r>');
const select = (path: string): unknown[] => fx.evaluateXPathToNodes(path, doc) as unknown[];
const nodeSequence = fx.createTypedValueFactory('node()*');
const stringValue = (n: unknown): string => ((n as { nodeType: number }).nodeType === 2 ? (n as { value: string }).value : ((n as { textContent: string }).textContent ?? ''));

/** Each variable both ways: for fontoxpath, and as the guard reads it. */
const bindings: Record<string, unknown[] | string> = {
  profile: select('/r/p'),
  invoiceType: select('/r/t'),
  codes: select('/r/c'),
  none: select('/r/missing'),
  empty: select('/r/e'),
  attr: select('/r/x/@a'),
  type: 'earchive',
  List: ',ISTISNA,IHRACKAYITLI,',
};
const fxVars = Object.fromEntries(Object.entries(bindings).map(([k, v]) => [k, typeof v === 'string' ? v : nodeSequence(v as never, fx.domFacade as never)]));
const guardVars = {
  get: (name: string): GuardValue | undefined => {
    const v = bindings[name];
    return v === undefined ? undefined : typeof v === 'string' ? v : { nodes: v.map(stringValue) };
  },
};

test('guards answer as fontoxpath: comparisons over node lists (empty, one, several), strings, and/or/not, contains, concat', () => {
  const guards = [
    "not($profile='IHRACAT')",
    "not($profile = 'YATIRIMTESVIK' or ($profile='EARSIVFATURA' and contains($List, concat(',', $invoiceType, ','))))",
    "not($invoiceType = 'IADE' or $invoiceType = 'TEVKIFATIADE')",
    "not($profile = 'IHRACAT' and $codes = '702')",
    "$codes = '701'",
    "$codes != '702'",
    "$none = ''",
    "$none != 'x'",
    "not($none)",
    "not($empty)",
    "$empty = ''",
    "contains($List, concat(',', $invoiceType, ','))",
    "contains($List, concat(',', $none, ','))",
    "contains($List, $none)",
    "$attr = 'TEMELFATURA' and $type = 'earchive'",
    "not($type = 'earchive') or true()",
    "(false() or $profile = 'IHRACAT') and not(false())",
    "$profile = $invoiceType or $codes = $codes",
    "not($type)",
  ];
  for (const g of guards) {
    const compiled = compileGuard(g);
    assert.ok(compiled, `compiled: ${g}`);
    assert.equal(compiled(guardVars), fx.evaluateXPathToBoolean(g, doc, null, fxVars), g);
  }
});

test('what the evaluator does not read is left to fontoxpath: unknown syntax at compile, errors and conversions at evaluation', () => {
  for (const g of ["$a = 1", "count($codes) = 2", "string-length($profile) > 0", "$a = 'x''y'", "$profile/text() = 'x'", "$profile < 'x'"]) {
    assert.equal(compileGuard(g), undefined, g);
  }
  // XPath raises a type error for several nodes in contains/concat: fontoxpath says so, not us.
  for (const g of ["contains($List, $codes)", "concat($codes, 'x') = 'a'", "$unbound = 'x'", "not($profile = 'a') = 'x'", "not($profile = 'a') = true()"]) {
    const compiled = compileGuard(g);
    assert.ok(compiled, g);
    assert.equal(compiled(guardVars), undefined, g);
  }
  assert.throws(() => fx.evaluateXPathToBoolean('contains($List, $codes)', doc, null, fxVars), /XPTY0004/);
});
