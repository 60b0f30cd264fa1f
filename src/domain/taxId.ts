// Turkish tax identifiers: VKN (10 digits, companies) and TCKN (11 digits, persons).
// A checksum only catches typos; whether a taxpayer exists is for the registry to say.

export type TaxIdKind = 'VKN' | 'TCKN';

export type TaxIdProblem =
  | 'empty'
  | 'notDigits'
  | 'length'
  | 'tcknLeadingZero'
  | 'checksum';

export type TaxIdCheck =
  | { valid: true; kind: TaxIdKind; value: string }
  | {
      valid: false;
      kind?: TaxIdKind;
      value: string;
      problem: TaxIdProblem;
      /** For a checksum failure: the check digit(s) the first digits call for. */
      expectedCheckDigits?: string;
    };

function digitsOf(s: string): number[] {
  const out = new Array<number>(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) - 48;
  return out;
}

/** The 10th digit of a VKN computed from its first nine. */
export function vknCheckDigit(firstNine: string): number {
  const d = digitsOf(firstNine);
  let sum = 0;
  for (let i = 1; i <= 9; i++) {
    const t = (d[i - 1] + 10 - i) % 10;
    if (t === 0) continue; // t = 0 contributes 0, not 9 (a common mistake).
    let p = (t * 2 ** (10 - i)) % 9;
    if (p === 0) p = 9;
    sum += p;
  }
  return (10 - (sum % 10)) % 10;
}

/** The 10th and 11th digits of a TCKN computed from its first nine. */
export function tcknCheckDigits(firstNine: string): [number, number] {
  const d = digitsOf(firstNine);
  const odd = d[0] + d[2] + d[4] + d[6] + d[8];
  const even = d[1] + d[3] + d[5] + d[7];
  const d10 = (((7 * odd - even) % 10) + 10) % 10; // JS % can be negative.
  let total = d10;
  for (const x of d) total += x;
  return [d10, total % 10];
}

export function isValidVkn(s: string): boolean {
  return /^\d{10}$/.test(s) && vknCheckDigit(s.slice(0, 9)) === s.charCodeAt(9) - 48;
}

export function isValidTckn(s: string): boolean {
  return /^[1-9]\d{10}$/.test(s) && s.endsWith(tcknCheckDigits(s.slice(0, 9)).join(''));
}

/** Checks a VKN or TCKN (surrounding white space ignored) and says what is wrong. */
export function checkTaxId(input: string): TaxIdCheck {
  const value = input.trim();
  if (value.length === 0) return { valid: false, value, problem: 'empty' };
  if (!/^\d+$/.test(value)) return { valid: false, value, problem: 'notDigits' };
  if (value.length === 10 || value.length === 11) {
    const kind = value.length === 10 ? 'VKN' : 'TCKN';
    if (kind === 'TCKN' && value[0] === '0') return { valid: false, kind, value, problem: 'tcknLeadingZero' };
    const firstNine = value.slice(0, 9);
    const expected = kind === 'VKN' ? String(vknCheckDigit(firstNine)) : tcknCheckDigits(firstNine).join('');
    return value.endsWith(expected) ? { valid: true, kind, value } : { valid: false, kind, value, problem: 'checksum', expectedCheckDigits: expected };
  }
  return { valid: false, value, problem: 'length' };
}

/** Completes nine digits into a valid VKN (used by the sandbox's seed data and by tests). */
export function completeVkn(firstNine: string): string {
  return firstNine + String(vknCheckDigit(firstNine));
}

/** Completes nine digits (first not 0) into a valid TCKN. */
export function completeTckn(firstNine: string): string {
  return firstNine + tcknCheckDigits(firstNine).join('');
}
