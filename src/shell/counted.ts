// Counted phrases. English needs a singular for one ("1 customer"), so each phrase is two whole
// messages chosen by the count; Turkish uses one form after a number and translates both alike.
import * as vscode from 'vscode';

export function customersCounted(n: number): string {
  return n === 1 ? vscode.l10n.t('{0} customer', n) : vscode.l10n.t('{0} customers', n);
}

export function exportedCustomersMessage(n: number, file: string): string {
  return n === 1 ? vscode.l10n.t('Exported {0} customer to {1}.', n, file) : vscode.l10n.t('Exported {0} customers to {1}.', n, file);
}

export function aliasesCounted(n: number): string {
  return n === 1 ? vscode.l10n.t('{0} alias', n) : vscode.l10n.t('{0} aliases', n);
}

export function lookupRequestsCounted(n: number): string {
  return n === 1 ? vscode.l10n.t('{0} lookup request', n) : vscode.l10n.t('{0} lookup requests', n);
}
