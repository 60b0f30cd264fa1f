// The preview's totals verdict on invoices whose totals do add up but go beyond lines and tax: a
// document-level charge (freight: cac:AllowanceCharge with ChargeIndicator true, which raises the
// tax-exclusive amount) and a prepayment (PrepaidAmount, which comes off the payable amount). Both
// fixtures (test/fixtures/preview/) are correct invoices: every totals check the preview makes must
// agree, and the checks that use the charge and the prepayment must be among them.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readDocument } from '../../../../src/preview/model/readDocument';
import type { StructuredModel } from '../../../../src/preview/model/types';

const root = path.resolve(__dirname, '..', '..', '..', '..', '..');
const fixture = (name: string) => fs.readFileSync(path.join(root, 'test', 'fixtures', 'preview', name), 'utf8');

function model(text: string): StructuredModel {
  const out = readDocument(text).result;
  assert.ok(out.ok, JSON.stringify(out));
  return out.model;
}

/** "agrees" when every check adds up, else what does not. */
function verdict(m: StructuredModel): string {
  const failed = m.checks.filter((c) => !c.ok).map((c) => `${c.total ?? c.id} ${c.stated} stated, ${c.computed} computed`);
  return failed.length === 0 ? 'agrees' : failed.join('; ');
}
const checkOf = (m: StructuredModel, id: string) => m.checks.find((c) => c.id === id);

test('an invoice with a freight charge (document-level AllowanceCharge, ChargeIndicator true): the totals agree, the charge raising the tax-exclusive amount', () => {
  const m = model(fixture('invoice-freight-charge.xml'));
  assert.equal(verdict(m), 'agrees');
  assert.deepEqual(
    [checkOf(m, 'taxExclusive')?.stated, checkOf(m, 'taxExclusive')?.computed, checkOf(m, 'taxExclusive')?.ok],
    ['1600.00', '1600.00', true],
    'lines 1500.00 + freight 100.00',
  );
  assert.deepEqual(m.checks.map((c) => c.id).sort(), ['lines', 'payable', 'taxExclusive', 'taxInclusive', 'taxSubtotals']);
  // The same invoice with the charge read as an allowance would not agree: the fixture tells them apart.
  const asAllowance = model(fixture('invoice-freight-charge.xml').replace('<cbc:ChargeIndicator>true</cbc:ChargeIndicator>', '<cbc:ChargeIndicator>false</cbc:ChargeIndicator>'));
  assert.equal(verdict(asAllowance), 'TaxExclusiveAmount 1600.00 stated, 1400.00 computed');
});

test('an invoice with a prepayment (PrepaidAmount): the totals agree, the prepayment coming off the payable amount', () => {
  const m = model(fixture('invoice-prepaid.xml'));
  assert.equal(verdict(m), 'agrees');
  assert.deepEqual([checkOf(m, 'payable')?.stated, checkOf(m, 'payable')?.computed, checkOf(m, 'payable')?.ok], ['1300.00', '1300.00', true], 'tax-inclusive 1800.00 − prepaid 500.00');
  assert.deepEqual(m.totals.map((t) => t.key), ['LineExtensionAmount', 'TaxExclusiveAmount', 'TaxInclusiveAmount', 'PrepaidAmount', 'PayableAmount']);
  // Without its prepayment the same payable amount would not agree.
  const unpaid = model(fixture('invoice-prepaid.xml').replace(/<cbc:PrepaidAmount[^<]*<\/cbc:PrepaidAmount>/, ''));
  assert.equal(verdict(unpaid), 'PayableAmount 1300.00 stated, 1800.00 computed');
});
