import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fx from 'fontoxpath';
import { sync } from 'slimdom-sax-parser';
import { firstOperand, guardOf, isContextFree, locationPaths, readsOnlyTheValue, withFirstItemArguments } from '../../../src/gib/xpathText';

test('XPath 1.0 first item: the arguments of string functions become (arg)[1]; literals and other functions stay', () => {
  assert.equal(
    withFirstItemArguments("string-length(normalize-space(string(a/b))) != 0 and count(c) = 1 and contains($L, concat(',', d, ','))"),
    "string-length((normalize-space((string((a/b)[1]))[1]))[1]) != 0 and count(c) = 1 and contains(($L)[1], (concat(',', (d)[1], ','))[1])",
  );
  assert.equal(withFirstItemArguments("matches(x, '^[A-Z]{3}$')"), "matches((x)[1], '^[A-Z]{3}$')");
});

test('the rewritten test answers as XPath 1.0 where XPath 3.1 raises XPTY0004', () => {
  const doc = sync('<r><d><n>Ali</n></d><d><n/></d></r>');
  const test1 = 'string-length(normalize-space(string(d/n))) != 0';
  assert.throws(() => fx.evaluateXPathToBoolean(test1, doc.documentElement), /XPTY0004/);
  assert.equal(fx.evaluateXPathToBoolean(withFirstItemArguments(test1), doc.documentElement), true);
  const swapped = sync('<r><d><n/></d><d><n>Ali</n></d></r>');
  assert.equal(fx.evaluateXPathToBoolean(withFirstItemArguments(test1), swapped.documentElement), false);
});

test('the location paths a test names, in order, with their steps; operators and functions are not paths', () => {
  const paths = locationPaths("not(../../cbc:X = 'IADE') or count(cac:A[cbc:P = 0]/cac:B) = 0 and //cbc:V = '2.1' and @schemeID and . != '' and $v/x and text() div 2");
  assert.deepEqual(paths.map((p) => [p.text, p.steps, p.absolute]), [
    ['../../cbc:X', ['..', '..', 'cbc:X'], false],
    ['cac:A[cbc:P = 0]/cac:B', ['cac:A', 'cac:B'], false],
    ['//cbc:V', ['//cbc:V'], true],
    ['@schemeID', ['@schemeID'], false],
    ['.', ['.'], false],
    ['x', ['x'], false],
    ['text()', ['text()'], false],
  ]);
});

test("a test's first 'or' operand, where it is the outermost operator: the guard the runner evaluates once per group", () => {
  assert.equal(firstOperand("not($gibUp0='IHRACAT') or string-length(normalize-space(string(cac:Price/cbc:PriceAmount))) != 0", 'or'), "not($gibUp0='IHRACAT')");
  assert.equal(firstOperand("not($a = 'X' or $b = 'Y') or count(c) = 1 or d", 'or'), "not($a = 'X' or $b = 'Y')");
  // `or` inside brackets, an `and` on the outside, sequences and if/else are not split.
  assert.equal(firstOperand("($a or cbc:ID) and cbc:Note", 'or'), undefined);
  assert.equal(firstOperand("$a and (cbc:ID or cbc:Note)", 'or'), undefined);
  assert.equal(firstOperand("cbc:ID[. = 'a' or . = 'b']", 'or'), undefined);
  assert.equal(firstOperand('if ($a) then cbc:ID else $b or cbc:Note', 'or'), undefined);
  assert.equal(firstOperand('$a, $b or c', 'or'), undefined);
  // A name `or` as an element is not the operator.
  assert.equal(firstOperand('or = 1', 'or'), undefined);
});

test('context-free: only variables, literals and functions that do not read the context node', () => {
  assert.equal(isContextFree("not(($gibUp1 = 'YATIRIMTESVIK' or contains($L, concat(',', $gibUp2, ','))) and not($gibUp2 = 'IADE'))"), true);
  assert.equal(isContextFree("$gibAbsolute0 = '1' and true()"), true);
  for (const expr of ["not(../cbc:ProfileID = 'IHRACAT')", 'not(cbc:ID)', "contains($L, concat(',', ., ','))", '@schemeID', 'string-length() = 0', "name() = 'x'", 'position() = 1', "lang('tr')", 'count(text()) = 0', "$a[. = 'x']"]) {
    assert.equal(isContextFree(expr), false, expr);
  }
});

test('reads only its value: `.` as the one path, no name, identity or context function', () => {
  for (const expr of ["contains($CurrencyCodeList, concat(',', ., ','))", "not($gibAbsolute3 = '2.1') or string-length(.) = 3", '. = $a or number(.) > 0']) {
    assert.equal(readsOnlyTheValue(expr), true, expr);
  }
  for (const expr of ["contains($L, concat(',', ../@x, ','))", "name(.) = 'currencyID'", 'local-name() = $a', '. is $a', '. << $a', 'position() = 1', "string-length() = 3", 'cbc:ID = .']) {
    assert.equal(readsOnlyTheValue(expr), false, expr);
  }
});

test("a test's guard: a node-free first 'or' operand, or not(A) from a first operand not(A and …) with a node-free A", () => {
  assert.equal(guardOf("not($gibUp7='IHRACAT') or string-length(cbc:ID) != 0"), "not($gibUp7='IHRACAT')");
  assert.equal(guardOf("not(($gibUp7 = 'YATIRIMTESVIK' and $gibUp6 = 'ISTISNA') and cac:Item/cbc:Code = '01') or count(cac:TaxTotal) > 0"), "not(($gibUp7 = 'YATIRIMTESVIK' and $gibUp6 = 'ISTISNA'))");
  // Not a guard: the first operand reads the node; an `or` outermost inside not(…); not(…) not the whole operand; no `or`.
  assert.equal(guardOf("not(cbc:ID and $a) or $b"), undefined);
  assert.equal(guardOf("not($a and cbc:ID or cbc:Note) or cbc:X"), undefined);
  assert.equal(guardOf("not($a and cbc:ID) = false() or cbc:X"), undefined);
  assert.equal(guardOf("not($a and cbc:ID)"), undefined);
});
