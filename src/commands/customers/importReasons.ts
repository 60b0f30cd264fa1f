// The reasons of rejected import rows in the user's language (the domain module gives codes and
// parameters plus an English default). Reasons the server gave are kept as the server wrote them.
import * as vscode from 'vscode';
import { taxNumberIssueText, type ImportIssue } from '../../domain/customerImport';
import type { XlsxError, XlsxProblem } from '../../domain/xlsxZip';

export function localizedReason(issue: ImportIssue): string {
  const p = issue.params;
  if (typeof p.server === 'string') return p.server;
  // The tax number's own problems in the words every other place uses (src/domain/taxIdWording.ts).
  if (issue.code.startsWith('taxNumber.') && issue.code !== 'taxNumber.duplicate') return taxNumberIssueText(vscode.l10n, issue);
  const text = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v ?? ''));
  const tax = text(p.taxNumber);
  const reasons: Record<string, () => string> = {
    'taxNumber.duplicate': () => vscode.l10n.t('Tax number {0} already appears in row {1}.', tax, text(p.firstRow)),
    'name.empty': () => vscode.l10n.t('The name (title) is empty.'),
    'isExport.invalid': () =>
      vscode.l10n.t('Export flag "{0}" is not understood; use Evet/Hayır, yes/no, true/false or 1/0.', text(p.value)),
    'email.invalid': () => vscode.l10n.t('E-mail address "{0}" is not valid.', text(p.value)),
    'columns.missing': () =>
      vscode.l10n.t(
        'Missing required column(s): {0}. Headers found: {1}. Accepted names: {2}.',
        text(p.missing),
        text(p.found) || '-',
        text(p.accepted),
      ),
    'json.notArray': () => vscode.l10n.t('The JSON file must hold an array of customer objects.'),
    'json.invalid': () => vscode.l10n.t('The file is not valid JSON: {0}', text(p.error)),
    'row.notObject': () => vscode.l10n.t('This element is not an object.'),
  };
  return Object.hasOwn(reasons, issue.code) ? reasons[issue.code]() : issue.message;
}

/** Why a workbook cannot be read, in the user's language. */
export function workbookProblemText(error: XlsxError): string {
  const texts: Record<XlsxProblem, () => string> = {
    encrypted: () => vscode.l10n.t('The workbook is password-protected (or an Excel 97-2003 .xls file): open it in Excel, remove the password and save it as an .xlsx workbook.'),
    notZip: () => vscode.l10n.t('The file is not a readable .xlsx workbook (it is damaged or of another kind).'),
    notWorkbook: () => vscode.l10n.t('The file is a ZIP archive but not an .xlsx workbook (no xl/workbook.xml).'),
    tooLarge: () => vscode.l10n.t('The workbook is too large to read (more than 200 MB unpacked).'),
    noSheet: () => vscode.l10n.t('The workbook has no worksheet to read.'),
  };
  return texts[error.problem]();
}
