// The wording of the findings. The translator comes in as a parameter (vscode.l10n in the
// extension, an English formatter in unit tests), so this stays free of the vscode module.
import type { Finding, InvalidTaxId } from './rules';

export interface Translator {
  t(message: string, ...args: Array<string | number>): string;
}

function invalidMessage(l10n: Translator, n: string, invalid: InvalidTaxId): string {
  switch (invalid.problem) {
    case 'checksum':
      return invalid.kind === 'TCKN'
        ? l10n.t('Invalid TCKN {0}: the 10th and 11th digits should be {1} for these first nine digits.', n, invalid.expectedCheckDigits ?? '')
        : l10n.t('Invalid VKN {0}: the 10th digit should be {1} for these first nine digits.', n, invalid.expectedCheckDigits ?? '');
    case 'length':
      if (invalid.kind === 'VKN') return l10n.t('Invalid VKN {0}: a VKN has 10 digits, this has {1}.', n, n.length);
      if (invalid.kind === 'TCKN') return l10n.t('Invalid TCKN {0}: a TCKN has 11 digits, this has {1}.', n, n.length);
      return l10n.t('Invalid tax number {0}: a VKN has 10 digits and a TCKN 11, this has {1}.', n, n.length);
    case 'tcknLeadingZero':
      return l10n.t('Invalid TCKN {0}: a TCKN cannot start with 0.', n);
    case 'notDigits':
      return invalid.kind === 'TCKN'
        ? l10n.t('Invalid TCKN "{0}": only digits are allowed.', n)
        : invalid.kind === 'VKN'
          ? l10n.t('Invalid VKN "{0}": only digits are allowed.', n)
          : l10n.t('Invalid tax number "{0}": only digits are allowed.', n);
    case 'empty':
      return l10n.t('The tax number is empty.');
  }
}

export function findingMessage(l10n: Translator, f: Finding): string {
  switch (f.code) {
    case 'invalid-tax-id':
      return invalidMessage(l10n, f.taxNumber, f.invalid ?? { kind: undefined, problem: 'checksum' });
    case 'registry-not-downloaded':
      return l10n.t('Registry list not downloaded: e-invoice status not checked.');
    case 'not-e-invoice-user':
      return f.status === 'deregistered'
        ? l10n.t('{0} is not an e-invoice user (every alias deleted in the registry list): e-Arşiv expected, the profile is {1}.', f.taxNumber, f.profile ?? '')
        : l10n.t('{0} is not an e-invoice user: e-Arşiv expected, the profile is {1}.', f.taxNumber, f.profile ?? '');
    case 'not-utf8':
      return l10n.t('Turkish letters show as \uFFFD: this customer list is not UTF-8. Excel saves "CSV" in Windows-1254 (Excel for Mac: Mac Turkish); reopen it in its encoding before editing.');
    case 'e-invoice-user-on-e-archive':
      return l10n.t('{0} is a registered e-invoice user ({1}): an e-invoice profile expected, not {2}.', f.taxNumber, f.title ?? '', f.profile ?? '');
  }
}
