// GİB's sample numbers in the editor: the invalid-number error says whose number it is and offers no
// "corrected" number; every number of the table is really in GİB's samples with wrong check digits.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanUbl } from '../../../src/editor/diagnostics/ublScan';
import { correctedNumber, csvFindings, documentFindings } from '../../../src/editor/diagnostics/rules';
import { findingMessage, type Translator } from '../../../src/editor/diagnostics/messages';
import { scanCsv } from '../../../src/domain/csvScan';
import { checkTaxId } from '../../../src/domain/taxId';
import { GIB_SAMPLE_TAX_NUMBERS } from '../../../src/gib/sampleTaxNumbers';
import { gibSamples, NO_GIB_DATA, gibArchives } from '../../support/gibPackages';

const english: Translator = { t: (m, ...a) => m.replace(/\{(\d+)\}/g, (_x, i: string) => String(a[Number(i)])) };

const invoice = (supplier: string, customer: string): string =>
  `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:ProfileID>TEMELFATURA</cbc:ProfileID>
<cac:AccountingSupplierParty><cac:Party><cac:PartyIdentification><cbc:ID schemeID="VKN">${supplier}</cbc:ID></cac:PartyIdentification></cac:Party></cac:AccountingSupplierParty>
<cac:AccountingCustomerParty><cac:Party><cac:PartyIdentification><cbc:ID schemeID="TCKN">${customer}</cbc:ID></cac:PartyIdentification></cac:Party></cac:AccountingCustomerParty>
</Invoice>`;

test("a sample's VKN and TCKN: an error that names GİB's samples, and no corrected number", () => {
  const findings = documentFindings(scanUbl(invoice('1288331521', '77777777703')), undefined).filter((f) => f.code === 'invalid-tax-id');
  assert.deepEqual(findings.map((f) => findingMessage(english, f)), [
    "VKN 1288331521 is the number of GİB's sample documents (its check digit is wrong): write the party's real VKN.",
    "TCKN 77777777703 is the number of GİB's sample documents (its check digits are wrong): write the person's real TCKN.",
  ]);
  assert.deepEqual(findings.map((f) => f.severity), ['error', 'error']);
  for (const f of findings) assert.equal(correctedNumber(f), undefined, f.taxNumber);
  // Any other wrong number still gets its check digit and the fix.
  const other = documentFindings(scanUbl(invoice('1288331520', '77777777703')), undefined)[0];
  assert.equal(findingMessage(english, other), 'Invalid VKN 1288331520: the 10th digit should be 5 for these first nine digits.');
  assert.equal(correctedNumber(other), '1288331525');
});

test('in a customer list too', () => {
  const text = 'Unvan,VKN\nA,3333333888\n';
  const [f] = csvFindings(scanCsv(text));
  assert.equal(findingMessage(english, f), "VKN 3333333888 is the number of GİB's sample documents (its check digit is wrong): write the party's real VKN.");
  assert.equal(correctedNumber(f), undefined);
});

test("every number of the table fails its check digits and is in GİB's samples", { skip: !gibArchives() && NO_GIB_DATA }, async () => {
  const all = (await gibSamples()).map((s) => s.text).join('\n');
  for (const n of GIB_SAMPLE_TAX_NUMBERS.keys()) {
    assert.equal(checkTaxId(n).valid, false, n);
    assert.ok(all.includes(`>${n}<`), `${n} is in a sample`);
  }
});
