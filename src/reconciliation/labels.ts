// The localized texts of a reconciliation: statuses, reasons, changes, export header.
import * as vscode from 'vscode';
import type { InvalidReason, ReconRow } from './classify';
import type { ChangeKind, ExportLabels } from './export';

/** What a checksum can say: not which digit is wrong, but the check digit(s) the first nine call for. */
export function reasonText(reason: InvalidReason | undefined): string {
  switch (reason?.problem) {
    case undefined:
      return '';
    case 'empty':
      return vscode.l10n.t('no tax number');
    case 'notDigits':
      return vscode.l10n.t('not only digits');
    case 'length':
      return vscode.l10n.t('wrong length: a VKN has 10 digits, a TCKN 11');
    case 'tcknLeadingZero':
      return vscode.l10n.t('a TCKN cannot start with 0');
    case 'checksum':
      return reason.kind === 'TCKN'
        ? vscode.l10n.t('check digits wrong: the last two digits should be {0} for these first nine digits', reason.expectedCheckDigits ?? '')
        : vscode.l10n.t('check digit wrong: the 10th digit should be {0} for these first nine digits', reason.expectedCheckDigits ?? '');
  }
}

export function changeLabels(): Record<ChangeKind, string> {
  return { newlyRegistered: vscode.l10n.t('Newly registered'), aliasChanged: vscode.l10n.t('Alias changed'), deregistered: vscode.l10n.t('Deregistered') };
}

export function exportLabels(): ExportLabels {
  return {
    header: [
      vscode.l10n.t('Status'),
      vscode.l10n.t('Customer ID'),
      vscode.l10n.t('Name'),
      vscode.l10n.t('Tax Number'),
      vscode.l10n.t('PK Alias'),
      vscode.l10n.t('Registry Title'),
      vscode.l10n.t('Reason'),
      vscode.l10n.t('Change'),
      vscode.l10n.t('Previous Alias'),
    ],
    status: {
      user: vscode.l10n.t('e-Invoice user'),
      notUser: vscode.l10n.t('Not an e-invoice user'),
      invalid: vscode.l10n.t('Invalid tax number'),
      unchecked: vscode.l10n.t('Not checked (lookup failed)'),
    },
    change: changeLabels(),
    reason: (row: ReconRow) => reasonText(row.reason),
  };
}
