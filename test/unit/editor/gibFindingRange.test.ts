// Where a GİB finding is underlined: the name of the element's start tag at the engine's line and
// column, on LF and CRLF text; a position without a start tag falls back to the line's first tag or text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findingRange, lineStarts } from '../../../src/editor/gib/findingRange';

const covered = (text: string, line: number, column: number) => {
  const { start, end } = findingRange(text, lineStarts(text), line, column);
  return text.slice(start, end);
};

test("the element's name at a start tag's line and column, with LF and CRLF line ends", () => {
  for (const eol of ['\n', '\r\n']) {
    const text = ['<Invoice xmlns="x">', '  <cbc:ID>ABC</cbc:ID>', '  <cac:TaxSubtotal><cbc:Percent>0</cbc:Percent></cac:TaxSubtotal>', '</Invoice>'].join(eol);
    assert.equal(covered(text, 1, 1), 'Invoice');
    assert.equal(covered(text, 2, 3), 'cbc:ID');
    assert.equal(covered(text, 3, 3), 'cac:TaxSubtotal');
    assert.equal(covered(text, 3, 20), 'cbc:Percent');
    // A column within the name (the engine's note on the root counts from the name).
    assert.equal(covered(text, 1, 2), 'Invoice');
    assert.equal(covered(text, 3, 22), 'cbc:Percent');
  }
});

test('a column that is not a start tag: the next start tag on the line, not an end tag', () => {
  const text = '<a>\n  x</b><cbc:Name>n</cbc:Name>\n';
  assert.equal(covered(text, 2, 1), 'cbc:Name');
  assert.equal(covered(text, 2, 6), 'cbc:Name');
});

test("a line without a start tag: the line's text without its indentation; lines out of range are clamped", () => {
  const text = '<a>\n   some text  \n</a>';
  assert.equal(covered(text, 2, 1), 'some text');
  assert.equal(covered(text, 99, 1), '</a>');
  assert.equal(covered(text, 0, 0), 'a');
});

test('a start tag the engine places on a later line of a long document', () => {
  const lines = Array.from({ length: 2000 }, (_, i) => `  <cbc:Note>${i}</cbc:Note>`);
  lines[1500] = '    <cac:InvoiceLine>';
  const text = lines.join('\n');
  const { start } = findingRange(text, lineStarts(text), 1501, 5);
  assert.equal(text.slice(start, start + 'cac:InvoiceLine'.length), 'cac:InvoiceLine');
  assert.equal(text.lastIndexOf('\n', start) + 1 + 5, start, 'starts after the `<` at column 5');
});
