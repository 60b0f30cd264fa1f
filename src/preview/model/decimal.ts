// Exact decimal amounts: the totals checks compare sums of amounts as written (1500.00, 0.1 + 0.2),
// which binary floating point cannot do exactly.

export interface Decimal {
  /** The value times 10^scale. */
  units: bigint;
  scale: number;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** Parses an xsd:decimal as written in a UBL amount; undefined when it is not one. */
export function parseDecimal(text: string | undefined): Decimal | undefined {
  if (text === undefined) return undefined;
  const m = DECIMAL.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const fraction = m[3] ?? '';
  const units = BigInt(`${m[2] || '0'}${fraction}`);
  return { units: m[1] === '-' ? -units : units, scale: fraction.length };
}

function rescale(d: Decimal, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale);
}

export const ZERO: Decimal = { units: 0n, scale: 0 };

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  return add(a, { units: -b.units, scale: b.scale });
}

export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce(add, ZERO);
}

export function equal(a: Decimal, b: Decimal): boolean {
  return subtract(a, b).units === 0n;
}

/** Plain text with at least `minScale` decimals (1500 → "1500.00"); no grouping. */
export function decimalText(d: Decimal, minScale = 2): string {
  const scale = Math.max(d.scale, minScale);
  const units = rescale(d, scale);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}
