import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fx from 'fontoxpath';
import { sync } from 'slimdom-sax-parser';
import { locationPaths, withFirstItemArguments } from '../../../src/gib/xpathText';

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
