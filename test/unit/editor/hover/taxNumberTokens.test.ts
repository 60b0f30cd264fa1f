// The tax-number token finder behind the hovers: which 10/11-digit runs count, and where they are.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { taxNumberAt, taxNumbersIn } from '../../../../src/editor/hover/taxNumberTokens';

interface Row {
  name: string;
  line: string;
  /** The token the hover should find, or undefined for none. */
  expect: string | undefined;
  /** Where the mouse is: the index of this substring's first character (default: `expect`, else the first digit). */
  at?: string;
  /** Added to the position found from `at`. */
  offset?: number;
}

const VKN = '1234567890';
const TCKN = '10000000146';

const rows: Row[] = [
  { name: 'bare VKN', line: VKN, expect: VKN },
  { name: 'bare TCKN', line: TCKN, expect: TCKN },
  { name: 'at start of line, followed by text', line: `${VKN} numaralı müşteri`, expect: VKN },
  { name: 'at end of line', line: `Vergi No: ${VKN}`, expect: VKN },
  { name: 'Turkish text around', line: `Şirketin VKN'si ${VKN}, TCKN'si ${TCKN} değil.`, expect: TCKN, at: TCKN },
  { name: 'Turkish suffix after apostrophe', line: `${VKN}'ya fatura kesildi`, expect: VKN },
  { name: 'CRLF line ending kept in the text', line: `${VKN}\r`, expect: VKN },
  { name: 'XML element', line: `<cbc:ID schemeID="VKN">${VKN}</cbc:ID>`, expect: VKN },
  { name: 'XML attribute', line: `<party taxNumber="${TCKN}" />`, expect: TCKN },
  { name: 'JSON string', line: `  "TaxNumber": "${VKN}",`, expect: VKN },
  { name: 'JSON number', line: `{"TaxNumber":${VKN}}`, expect: VKN },
  { name: 'JSON array of numbers', line: `[${VKN},${TCKN}]`, expect: TCKN, at: TCKN },
  { name: 'CSV cell with quotes', line: `"ACME A.Ş.","${VKN}","İstanbul"`, expect: VKN },
  { name: 'CSV cells unquoted, semicolons', line: `ACME;${TCKN};Ankara`, expect: TCKN },
  { name: 'TSV cell', line: `ACME\t${VKN}\tİzmir`, expect: VKN },
  { name: 'mouse on the last digit', line: `x ${VKN} y`, expect: VKN, at: VKN, offset: 9 },
  { name: 'mouse right after the last digit (word end)', line: `x ${VKN} y`, expect: VKN, at: VKN, offset: 10 },
  { name: 'mouse one space past the token', line: `x ${VKN} y`, expect: undefined, at: VKN, offset: 11 },
  { name: 'mouse on text, not on the number', line: `Vergi No: ${VKN}`, expect: undefined, at: 'Vergi' },
  { name: '9 digits', line: 'no 123456789 here', expect: undefined, at: '1' },
  { name: '12 digits (longer run)', line: 'id 123456789012', expect: undefined, at: '1' },
  { name: 'IBAN', line: 'IBAN: TR330006100519786457841326', expect: undefined, at: '33', offset: 5 },
  { name: 'IBAN with spaces keeps 4-digit groups', line: 'TR33 0006 1005 1978 6457 8413 26', expect: undefined, at: '0006' },
  { name: 'ISO date', line: '2024-01-15', expect: undefined, at: '2024' },
  { name: 'decimal amount with a dot', line: `"Amount": ${VKN}.50`, expect: undefined, at: VKN },
  { name: 'Turkish amount with a decimal comma', line: `Tutar: ${VKN},75 TL`, expect: undefined, at: VKN },
  { name: 'after a dot and digits', line: `0.${VKN}`, expect: undefined, at: VKN },
  { name: 'sentence-ending dot is not a decimal', line: `VKN ${VKN}.`, expect: VKN },
  { name: 'glued to letters (invoice number)', line: `ABC${VKN}`, expect: undefined, at: VKN },
  { name: 'glued to Turkish letters', line: `Ş${VKN}`, expect: undefined, at: VKN },
  { name: 'inside an underscore identifier', line: `file_${VKN}_x`, expect: undefined, at: VKN },
  { name: 'inside a base64 blob', line: `QUJD${VKN}RkdI`, expect: undefined, at: VKN },
  { name: 'a phone number (11 digits with a leading 0) is no TCKN and gets no card', line: 'Tel 05321234567', expect: undefined, at: '0532' },
];

for (const row of rows) {
  test(`taxNumberAt: ${row.name}`, () => {
    const anchor = row.at ?? row.expect ?? '';
    const index = row.line.indexOf(anchor);
    assert.ok(index >= 0, `the row's anchor ${JSON.stringify(anchor)} is not in its line`);
    const character = index + (row.offset ?? 0);
    const found = taxNumberAt(row.line, character);
    assert.equal(found?.text, row.expect);
    if (found) {
      assert.equal(row.line.slice(found.start, found.end), found.text, 'start/end must frame the token');
      assert.ok(found.start <= character && character <= found.end);
    }
  });
}

test('taxNumberAt: every position inside the token finds the same range', () => {
  const line = `<cbc:ID>${TCKN}</cbc:ID>`;
  const start = line.indexOf(TCKN);
  for (let c = start; c <= start + TCKN.length; c++) assert.deepEqual(taxNumberAt(line, c), { start, end: start + TCKN.length, text: TCKN }, `at ${c}`);
  assert.equal(taxNumberAt(line, start - 1), undefined);
});

test('taxNumberAt: out-of-range positions and empty lines find nothing', () => {
  assert.equal(taxNumberAt('', 0), undefined);
  assert.equal(taxNumberAt(VKN, -1), undefined);
  assert.equal(taxNumberAt(VKN, 50), undefined);
});

test('taxNumbersIn: lists the tokens of a line and skips the rest', () => {
  const line = `"${VKN}";"TR330006100519786457841326";2024-01-15;${TCKN};ABC${VKN};${VKN}.5`;
  assert.deepEqual(
    taxNumbersIn(line).map((t) => t.text),
    [VKN, TCKN],
  );
});
