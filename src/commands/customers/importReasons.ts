// The reasons of rejected import rows in the user's language (the domain module gives codes and
// parameters plus an English default). Reasons the server gave are kept as the server wrote them.
import * as vscode from 'vscode';
import type { ImportIssue } from '../../domain/customerImport';

export function localizedReason(issue: ImportIssue): string {
  const p = issue.params;
  if (typeof p.server === 'string') return p.server;
  const text = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v ?? ''));
  switch (issue.code) {
    case 'taxNumber.empty':
      return vscode.l10n.t('The tax number is empty.');
    case 'taxNumber.notDigits':
      return vscode.l10n.t('Tax number {0}: only digits are allowed.', text(p.taxNumber));
    case 'taxNumber.length':
      return p.suggestion
        ? vscode.l10n.t('Tax number {0}: {1} digits; a VKN has 10 digits, a TCKN 11. A spreadsheet may have dropped a leading zero: {2} would be valid; format the column as text.', text(p.taxNumber), text(p.digits), text(p.suggestion))
        : vscode.l10n.t('Tax number {0}: {1} digits; a VKN has 10 digits, a TCKN 11.', text(p.taxNumber), text(p.digits));
    case 'taxNumber.tcknLeadingZero':
      return vscode.l10n.t('Tax number {0}: a TCKN cannot start with 0.', text(p.taxNumber));
    case 'taxNumber.checksum':
      return vscode.l10n.t('Tax number {0}: bad {1} checksum (the first digits call for {2} at the end).', text(p.taxNumber), text(p.kind), text(p.expected));
    case 'taxNumber.duplicate':
      return vscode.l10n.t('Tax number {0} already appears in row {1}.', text(p.taxNumber), text(p.firstRow));
    case 'name.empty':
      return vscode.l10n.t('The name (title) is empty.');
    case 'isExport.invalid':
      return vscode.l10n.t('Export flag "{0}" is not understood; use Evet/Hayır, yes/no, true/false or 1/0.', text(p.value));
    case 'email.invalid':
      return vscode.l10n.t('E-mail address "{0}" is not valid.', text(p.value));
    case 'columns.missing':
      return vscode.l10n.t('Missing required column(s): {0}. Headers found: {1}. Accepted names: {2}.', text(p.missing), text(p.found) || '-', text(p.accepted));
    case 'json.notArray':
      return vscode.l10n.t('The JSON file must hold an array of customer objects.');
    case 'json.invalid':
      return vscode.l10n.t('The file is not valid JSON: {0}', text(p.error));
    case 'row.notObject':
      return vscode.l10n.t('This element is not an object.');
    default:
      return issue.message;
  }
}
