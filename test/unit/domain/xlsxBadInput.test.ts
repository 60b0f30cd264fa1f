// Workbooks are untrusted input (a supplier's list, a download): whatever their parts hold, the reader
// ends with cells or an XlsxError, never another exception, and its XML scanner is linear (no search
// that runs past the tag it is in). Random and adversarial part texts through fast-check; the time of
// doubled inputs is a benchmark matter, so here only "it finishes" on inputs that were quadratic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readWorkbook } from '../../../src/domain/xlsxRead';
import { scanXml } from '../../../src/domain/xlsxXml';
import { XlsxError } from '../../../src/domain/xlsxZip';
import { buildWorkbook } from './xlsxFixtures';

const xmlish = fc.stringMatching(/^[<>/?!"'=a-z: [\]\-&#;x0-9_]{0,200}$/);

test('the scanner never throws on any text', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 300 }), xmlish), (text) => {
      let events = 0;
      scanXml(text, { open: () => void events++, close: () => void events++, text: () => void events++ });
      return events >= 0;
    }),
    { numRuns: 2000 },
  );
});

test('a workbook whose sheet, shared strings or styles hold anything: cells or an XlsxError', async () => {
  await fc.assert(
    fc.asyncProperty(xmlish, xmlish, fc.constantFrom('sheet', 'strings', 'styles'), async (a, b, where) => {
      const bytes = await buildWorkbook({
        sharedStrings: where === 'strings' ? `<si><t>${a}</t></si>${b}` : ['x'],
        styles: where === 'styles' ? a + b : undefined,
        sheets: [{ name: 'S', sheetData: where === 'sheet' ? `<row r="1"><c r="A1" t="s"><v>0</v></c>${a}</row>${b}` : '<row r="1"><c r="A1" t="s"><v>0</v></c></row>', after: where === 'sheet' ? `<mergeCells><mergeCell ref="${b.slice(0, 12)}"/></mergeCells>` : '' }],
      });
      try {
        const sheet = await (await readWorkbook(bytes)).readSheet();
        return Array.isArray(sheet.rows);
      } catch (error) {
        return error instanceof XlsxError;
      }
    }),
    { numRuns: 150 },
  );
});

// The time limit only catches a quadratic scan (minutes at this size; the linear one takes well under a second).
test('inputs that made the scanner quadratic finish: many tags with a quote far away, many processing instructions, a huge merge', { timeout: 30_000 }, async () => {
  const far = '<t>a</t>'.repeat(400_000) + "'";
  let tags = 0;
  scanXml(far, { open: () => void tags++ });
  assert.equal(tags, 400_000);
  scanXml('<?x?>'.repeat(400_000) + '[', {});
  const bytes = await buildWorkbook({ sheets: [{ name: 'S', sheetData: '<row r="1"><c r="A1" t="inlineStr"><is><t>Ünvan</t></is></c></row>', after: '<mergeCells><mergeCell ref="A1:XFD1048576"/></mergeCells>' }] });
  const { rows } = await (await readWorkbook(bytes)).readSheet();
  assert.equal(rows.length, 1, 'a merge is spread over the rows that exist, not a million');
  assert.equal(rows[0].cells.length <= 100_001, true);
});
