// The localized texts of a reconciliation: statuses, reasons, changes, export header.
import * as vscode from 'vscode';
import type { ReconRow } from './classify';
import { taxIdProblemText } from '../domain/taxIdWording';
import type { ChangeKind, ExportLabels } from './export';

/** Why a row's tax number fails its checksum, in the words every other place uses (src/domain/taxIdWording.ts). */
export function reasonText(row: Pick<ReconRow, 'taxNumber' | 'reason'>): string {
  return row.reason ? taxIdProblemText(vscode.l10n, { value: row.taxNumber, ...row.reason }) : '';
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
    reason: (row: ReconRow) => reasonText(row),
  };
}
