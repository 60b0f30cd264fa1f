// The arithmetic of an invoice's totals, the one place that says how UBL-TR amounts must add up.
// Amounts are compared exactly, as written (they are the issuer's own rounded figures, so sums of
// them add up to the cent). The formulas follow UBL 2.1's LegalMonetaryTotal; two points are our
// reading of UBL-TR practice, not a quoted rule:
// - document-level allowances and charges are the root's cac:AllowanceCharge elements; line discounts
//   are already in each line's LineExtensionAmount (so AllowanceTotalAmount, which issuers often fill
//   with the sum of line discounts, is not subtracted again);
// - withholding (tevkifat, stopaj: WithholdingTaxTotal) is inside TaxInclusiveAmount and comes off the
//   PayableAmount.
import { add, decimalText, equal, parseDecimal, subtract, sum, ZERO, type Decimal } from './decimal';
import type { Amount, CheckId, TaxTotalView, TotalKey, TotalsCheck } from './types';

export interface TotalsInput {
  lineAmounts: Array<Amount | undefined>;
  /** Document-level allowances (false) and charges (true). */
  allowanceCharges: Array<{ charge: boolean; amount: Amount | undefined }>;
  taxes: TaxTotalView[];
  withholdings: TaxTotalView[];
  totals: Partial<Record<TotalKey, Amount>>;
}

const dec = (a: Amount | undefined): Decimal | undefined => (a ? parseDecimal(a.value) : undefined);

/** Every term as a decimal, or undefined when one is missing or not a number (then the check is left out). */
function all(amounts: Array<Amount | undefined>): Decimal[] | undefined {
  const terms = amounts.map(dec);
  return terms.every((d): d is Decimal => d !== undefined) ? terms : undefined;
}

function check(id: CheckId, stated: Amount | undefined, computed: Decimal | undefined, extra: { index?: number; total?: TotalKey } = {}): TotalsCheck | undefined {
  const s = dec(stated);
  if (!s || !computed) return undefined;
  return {
    id,
    ...extra,
    ok: equal(s, computed),
    stated: decimalText(s),
    computed: decimalText(computed),
    difference: decimalText(subtract(s, computed)),
    ...(stated?.currency ? { currency: stated.currency } : {}),
  };
}

function taxSum(totals: TaxTotalView[]): Decimal | undefined {
  const terms = all(totals.map((t) => t.total));
  return terms ? sum(terms) : undefined;
}

export function totalsChecks(input: TotalsInput): TotalsCheck[] {
  const checks: Array<TotalsCheck | undefined> = [];
  const t = input.totals;
  const lines = input.lineAmounts.length > 0 ? all(input.lineAmounts) : undefined;
  checks.push(check('lines', t.LineExtensionAmount, lines ? sum(lines) : undefined, { total: 'LineExtensionAmount' }));
  for (const [id, taxTotals] of [['taxSubtotals', input.taxes], ['withholdingSubtotals', input.withholdings]] as const) {
    taxTotals.forEach((tax, index) => {
      const parts = tax.subtotals.length > 0 ? all(tax.subtotals.map((s) => s.amount)) : undefined;
      checks.push(check(id, tax.total, parts ? sum(parts) : undefined, { index }));
    });
  }
  const lineExtension = dec(t.LineExtensionAmount);
  const adjustments = all(input.allowanceCharges.map((a) => a.amount));
  if (lineExtension && adjustments) {
    const net = input.allowanceCharges.reduce((acc, a, i) => (a.charge ? add(acc, adjustments[i]) : subtract(acc, adjustments[i])), lineExtension);
    checks.push(check('taxExclusive', t.TaxExclusiveAmount, net, { total: 'TaxExclusiveAmount' }));
  }
  const taxExclusive = dec(t.TaxExclusiveAmount);
  const taxes = taxSum(input.taxes);
  if (taxExclusive && taxes) checks.push(check('taxInclusive', t.TaxInclusiveAmount, add(taxExclusive, taxes), { total: 'TaxInclusiveAmount' }));
  const taxInclusive = dec(t.TaxInclusiveAmount);
  const withheld = taxSum(input.withholdings);
  const prepaid = t.PrepaidAmount ? dec(t.PrepaidAmount) : ZERO;
  const rounding = t.PayableRoundingAmount ? dec(t.PayableRoundingAmount) : ZERO;
  if (taxInclusive && withheld && prepaid && rounding) {
    checks.push(check('payable', t.PayableAmount, add(subtract(subtract(taxInclusive, withheld), prepaid), rounding), { total: 'PayableAmount' }));
  }
  return checks.filter((c): c is TotalsCheck => c !== undefined);
}
