// The one wording of a tax number's problem, used by the editor's diagnostics and hovers, the
// document preview, the prompts, the customer import and the reconciliation: the same bad number
// gets the same sentence everywhere. For a checksum it names the check digit(s) that are off and what
// they should be (a TCKN's 11th digit is computed from the first ten, so when the 10th is right only
// the 11th is named). The translator comes in as a parameter (vscode.l10n in the extension, an
// English formatter in plain Node), so this stays free of the vscode module.
import { checkTaxId, type TaxIdKind, type TaxIdProblem } from './taxId';

export interface Translator {
  t(message: string, ...args: Array<string | number>): string;
}

/** English with {0} placeholders filled, as vscode.l10n.t does without a translation. */
export const english: Translator = { t: (message, ...args) => message.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m)) };

export interface TaxIdTrouble {
  /** The number as written (white space around it left out). */
  value: string;
  /** What it was declared or read as; undefined when nothing says. */
  kind?: TaxIdKind;
  problem: TaxIdProblem;
  /** For a checksum failure: the check digit(s) the first nine digits call for. */
  expectedCheckDigits?: string;
}

export function taxIdProblemText(l10n: Translator, trouble: TaxIdTrouble): string {
  const { value: n, kind } = trouble;
  switch (trouble.problem) {
    case 'empty':
      return l10n.t('The tax number is empty.');
    case 'notDigits':
      if (kind === 'TCKN') return l10n.t('Invalid TCKN "{0}": only digits are allowed.', n);
      if (kind === 'VKN') return l10n.t('Invalid VKN "{0}": only digits are allowed.', n);
      return l10n.t('Invalid tax number "{0}": only digits are allowed.', n);
    case 'length':
      if (kind === 'VKN') return l10n.t('Invalid VKN {0}: a VKN has 10 digits, this has {1}.', n, n.length);
      if (kind === 'TCKN') return l10n.t('Invalid TCKN {0}: a TCKN has 11 digits, this has {1}.', n, n.length);
      return l10n.t('Invalid tax number {0}: a VKN has 10 digits and a TCKN 11, this has {1}.', n, n.length);
    case 'tcknLeadingZero':
      return l10n.t('Invalid TCKN {0}: a TCKN cannot start with 0.', n);
    case 'checksum':
      return checksumText(l10n, trouble);
  }
}

function checksumText(l10n: Translator, trouble: TaxIdTrouble): string {
  const n = trouble.value;
  let expected = trouble.expectedCheckDigits;
  if (!expected) {
    const check = checkTaxId(n);
    expected = check.valid ? undefined : check.expectedCheckDigits;
  }
  if (!expected) return l10n.t('Invalid tax number {0}: its check digits do not match.', n);
  if (expected.length === 1) return l10n.t('Invalid VKN {0}: the 10th digit should be {1} for these first nine digits.', n, expected);
  if (n[9] === expected[0]) return l10n.t('Invalid TCKN {0}: the 11th digit should be {1} for these first ten digits.', n, expected[1]);
  return l10n.t('Invalid TCKN {0}: the 10th and 11th digits should be {1} and {2} for these first nine digits.', n, expected[0], expected[1]);
}
