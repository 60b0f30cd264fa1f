// One wording of a tax number's problem (src/domain/taxIdWording.ts): the same bad number gets the same
// sentence from the editor's diagnostics, the hover card and the customer import (the document
// preview takes the editor's words: test/unit/preview/model/editorAgreement.test.ts); a checksum sentence names exactly the digits that make the number valid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTaxId, completeTckn, completeVkn, type TaxIdCheck } from '../../../src/domain/taxId';
import { english, taxIdProblemText } from '../../../src/domain/taxIdWording';
import { importCustomersJson, taxNumberIssueText } from '../../../src/domain/customerImport';
import { scanCsv } from '../../../src/domain/csvScan';
import { csvFindings } from '../../../src/editor/diagnostics/rules';
import { findingMessage } from '../../../src/editor/diagnostics/messages';
import { invalidReason } from '../../../src/editor/hover/hoverCard';

const invalid = (n: string) => checkTaxId(n) as Extract<TaxIdCheck, { valid: false }>;
const vkn = completeVkn('123456789');
const tckn = completeTckn('523456781');
const bump = (digit: string) => String((Number(digit) + 1) % 10);

/** One bad number of each kind of problem. */
const BAD: Record<string, string> = {
  'VKN check digit': vkn.slice(0, 9) + bump(vkn[9]),
  'TCKN 11th digit only': tckn.slice(0, 10) + bump(tckn[10]),
  'TCKN 10th and 11th digits': tckn.slice(0, 9) + bump(tckn[9]) + tckn[10],
  'TCKN leading zero': '0' + tckn.slice(1),
  'length': '12345678',
  'not digits': '12345X7890',
};

for (const [what, n] of Object.entries(BAD)) {
  test(`${what} (${n}): the same sentence in the diagnostics, the hover and the import`, () => {
    const sentence = taxIdProblemText(english, invalid(n));
    const [csv] = csvFindings(scanCsv(`TaxNumber;Name\n${n};Örnek\n`));
    assert.equal(findingMessage(english, csv), sentence, 'editor diagnostics (a customer list)');
    assert.equal(invalidReason(checkTaxId(n), english), sentence, 'hover card');
    const [issue] = importCustomersJson([{ TaxNumber: n, Name: 'Örnek' }]).rejected[0].reasons;
    assert.equal(issue.message, sentence, 'import (English default)');
    assert.equal(taxNumberIssueText(english, issue), sentence, 'import (localized)');
  });
}

test('a checksum sentence names the digits that make the number valid, and only those', () => {
  for (let i = 0; i < 2000; i++) {
    const prefix = String(100_000_000 + ((i * 7_919_111) % 900_000_000));
    for (const good of [completeVkn(prefix), completeTckn(prefix)]) {
      for (const position of good.length === 10 ? [9] : [9, 10]) {
        const bad = good.slice(0, position) + bump(good[position]) + good.slice(position + 1);
        const sentence = taxIdProblemText(english, invalid(bad));
        const named = /the (\d+)th digit should be (\d) |the 10th and 11th digits should be (\d) and (\d) /.exec(sentence);
        assert.ok(named, sentence);
        const fixed = named[1] ? bad.slice(0, Number(named[1]) - 1) + named[2] + bad.slice(Number(named[1])) : bad.slice(0, 9) + named[3] + named[4];
        assert.equal(fixed, good, sentence);
        // The 11th digit alone when only it is off.
        assert.equal(named[1] === '11', good.length === 11 && position === 10, sentence);
      }
    }
  }
});

test('the English translator fills the placeholders it has arguments for and leaves the others as written, as vscode.l10n.t does', () => {
  assert.equal(english.t('{0} of {1} rows', 3, 'ten'), '3 of ten rows');
  assert.equal(english.t('row {0}, column {1}', 7), 'row 7, column {1}');
});
