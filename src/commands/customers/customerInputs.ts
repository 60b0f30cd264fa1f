// The tax number's problem in words, for the input boxes that ask for one.
import * as vscode from 'vscode';
import { checkTaxId } from '../../domain/taxId';

/** The tax number's problem in words, or undefined when it is a valid VKN or TCKN. */
export function taxNumberProblem(value: string): string | undefined {
  const check = checkTaxId(value.trim());
  if (check.valid) return undefined;
  switch (check.problem) {
    case 'empty':
      return vscode.l10n.t('Enter a tax number.');
    case 'notDigits':
      return vscode.l10n.t('Only digits are allowed.');
    case 'length':
      return vscode.l10n.t('A VKN has 10 digits, a TCKN 11.');
    case 'tcknLeadingZero':
      return vscode.l10n.t('A TCKN cannot start with 0.');
    default:
      return vscode.l10n.t('The check digits do not match: this is not a valid VKN or TCKN.');
  }
}
