// The folder report's wording in the display language (src/gib/folderReport.ts is plain Node and takes
// it as labels), and the one-line summary shown after a run.
import * as vscode from 'vscode';
import type { FolderCounts, ReportLabels } from '../../gib/folderReport';

function filesCounted(n: number): string {
  return n === 1 ? vscode.l10n.t('{0} file', n) : vscode.l10n.t('{0} files', n);
}

function errorsCounted(n: number): string {
  return n === 1 ? vscode.l10n.t('{0} error', n) : vscode.l10n.t('{0} errors', n);
}

/** "12 files checked: 3 errors in 2 files." / "4 files checked: no errors." */
export function folderSummary(c: FolderCounts): string {
  return c.errors === 0
    ? vscode.l10n.t('{0} checked: no errors.', filesCounted(c.checked))
    : vscode.l10n.t('{0} checked: {1} in {2}.', filesCounted(c.checked), errorsCounted(c.errors), filesCounted(c.filesWithErrors));
}

export function folderReportLabels(): ReportLabels {
  return {
    title: vscode.l10n.t("GİB's verdict"),
    partialTitle: vscode.l10n.t("GİB's verdict (partial)"),
    rules: vscode.l10n.t('GİB rules {0}'),
    noRules: vscode.l10n.t('No GİB rules (XSD only)'),
    summary: folderSummary,
    cancelled: vscode.l10n.t('Partial report: cancelled after {0} of {1} files; the others were not checked.'),
    clean: vscode.l10n.t('No findings.'),
    draftsLeftOut: vscode.l10n.t('Findings that only say a document is not signed yet are left out.'),
    skipped: vscode.l10n.t('Not UBL-TR documents, not checked: {0}'),
    severity: { error: vscode.l10n.t('error'), warning: vscode.l10n.t('warning'), info: vscode.l10n.t('info') },
    columns: {
      file: vscode.l10n.t('File'),
      line: vscode.l10n.t('Line'),
      column: vscode.l10n.t('Column'),
      severity: vscode.l10n.t('Severity'),
      rule: vscode.l10n.t('Rule'),
      message: vscode.l10n.t('Message'),
      source: vscode.l10n.t('Source'),
    },
  };
}
