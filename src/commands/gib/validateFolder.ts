// "Validate Documents against GİB Rules…" on a folder (Explorer menu, or the palette, which asks for
// it): every UBL-TR file under it checked by the window's one rules worker (src/shell/gibRules.ts) under
// a cancellable progress; the report (src/gib/folderReport.ts) goes where the user says, partial after a Cancel.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { GibCommands } from '../../constants';
import { writeFileAtomic } from '../../files/atomicFile';
import { checkDocuments, countsOf, defaultReportName, findDocuments, reportCsv, reportFilesFor, reportMarkdown, type CheckFile, type FolderCounts } from '../../gib/folderReport';
import { withCancellableProgress } from '../../shell/cancellableProgress';
import { UserFacingError } from '../../shell/errorMessages';
import { exportDialect } from '../../shell/exportDialect';
import { fileWriteError } from '../../shell/fileMessages';
import { gibRules, type GibRules } from '../../shell/gibRules';
import { prompts, UserCancelledError } from '../../shell/prompts';
import { trustedArgs } from '../../shell/testSeams';
import { folderReportLabels, folderSummary } from './folderReportLabels';

/** What the tests may pass (src/shell/testSeams.ts); the Explorer menu passes the folder's Uri. */
export interface ValidateFolderArgs {
  folder?: vscode.Uri;
  cancellation?: vscode.CancellationToken;
  /** Told after each file is checked (a test cancels at a known point). */
  onFileChecked?: (checked: number, total: number) => void;
}

export interface FolderReportOutcome extends FolderCounts {
  readonly markdown: string;
  readonly csv: string;
  readonly total: number;
  readonly skipped: number;
  readonly cancelled: boolean;
}

/**
 * The folder the Explorer menu passed (the clicked one), or the tests' arguments. A Uri from any caller
 * is taken: the command only reads, and writes nothing until the user has chosen the report's place.
 */
export function validateFolderArgs(arg: unknown): ValidateFolderArgs {
  return arg instanceof vscode.Uri ? { folder: arg } : trustedArgs<ValidateFolderArgs>(arg);
}

export async function validateFolderCommand(context: vscode.ExtensionContext, args: ValidateFolderArgs): Promise<FolderReportOutcome | undefined> {
  const folder = args.folder ?? (await askFolder());
  if (folder.scheme !== 'file') throw new UserFacingError(vscode.l10n.t('GİB validation reads folders on this computer only; {0} is not one.', folder.toString(true)));
  if (!(await fs.promises.stat(folder.fsPath).catch(() => undefined))?.isDirectory()) throw new UserFacingError(vscode.l10n.t('{0} is not a folder.', folder.fsPath));
  const found = await findDocuments(folder.fsPath);
  if (found.documents.length === 0) {
    void prompts.message('info', vscode.l10n.t('{0} holds no UBL-TR document (invoice, despatch advice…): nothing to check.', path.basename(folder.fsPath)));
    return undefined;
  }
  const rules = gibRules(context);
  if (!(await rulesReady(rules))) {
    await offerRules();
    return undefined;
  }
  const chosen = await prompts.saveDialog({
    title: vscode.l10n.t('Save the GİB Validation Report'),
    defaultUri: vscode.Uri.joinPath(folder, defaultReportName()),
    filters: { Markdown: ['md'] },
  });
  if (!chosen) throw new UserCancelledError();
  const files = reportFilesFor(chosen.fsPath);

  const check = checkInWorker(rules);
  const verdict = await withCancellableProgress(
    vscode.l10n.t('Validating documents against GİB rules'),
    (signal, progress) =>
      checkDocuments(check, found, {
        signal,
        onProgress: (done, total) => {
          progress.report({ message: vscode.l10n.t('{0} of {1} files', done, total), increment: done > 0 && total > 0 ? 100 / total : 0 });
          if (done > 0) args.onFileChecked?.(done, total);
        },
      }),
    args.cancellation,
  );

  const labels = folderReportLabels();
  const dialect = exportDialect();
  for (const [file, text] of [
    [files.markdown, reportMarkdown(verdict, labels)],
    [files.csv, reportCsv(verdict, labels, dialect.delimiter)],
  ] as const) {
    try {
      await writeFileAtomic(file, text);
    } catch (error) {
      throw fileWriteError(error, file);
    }
  }

  const counts = countsOf(verdict);
  const summary = verdict.cancelled
    ? `${folderSummary(counts)} ${vscode.l10n.t('Cancelled after {0} of {1} files: the report is partial.', verdict.files.length, verdict.total)}`
    : folderSummary(counts);
  const open = vscode.l10n.t('Open Report');
  // Not awaited: the command is done once the report is written; the button opens it later.
  void prompts.message(counts.errors > 0 ? 'warning' : 'info', `${summary} ${dialect.note}`, undefined, open).then(async (choice) => {
    if (choice === open) await vscode.window.showTextDocument(vscode.Uri.file(files.markdown));
  });
  return { ...counts, markdown: files.markdown, csv: files.csv, total: verdict.total, skipped: verdict.skipped.length, cancelled: verdict.cancelled };
}

async function askFolder(): Promise<vscode.Uri> {
  const picked = await prompts.openDialog({
    title: vscode.l10n.t('Validate Documents against GİB Rules'),
    openLabel: vscode.l10n.t('Validate'),
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  });
  if (!picked?.[0]) throw new UserCancelledError();
  return picked[0];
}

/**
 * Whether rules are installed, with the worker on them: an install this window has not heard of yet
 * (the package file's watcher waits a moment) restarts it, so the check uses what is installed now.
 */
async function rulesReady(rules: GibRules): Promise<boolean> {
  const { installedGibRelease } = await import('../../gib/ruleStore');
  const installed = await installedGibRelease(rules.storageRoot);
  if (!installed) return false;
  if ((await rules.client())?.info.release !== installed) await rules.reload();
  return true;
}

/** No rules: one message offering the two ways to get them (never an error). */
async function offerRules(): Promise<void> {
  const download = vscode.l10n.t('Download GİB Validation Rules');
  const fromFile = vscode.l10n.t('Use GİB Rules from a File…');
  const choice = await prompts.message('info', vscode.l10n.t("GİB's validation rules are not on this computer yet: download them from GİB, or use the archives you have."), undefined, download, fromFile);
  if (choice === download) await vscode.commands.executeCommand(GibCommands.downloadRules);
  else if (choice === fromFile) await vscode.commands.executeCommand(GibCommands.useRulesFromFile);
}

/** One file's verdict from the window's worker; each run's keys are its own, so no other request supersedes them. */
function checkInWorker(rules: GibRules): CheckFile {
  const run = `gib-folder-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return async (file, text) => {
    const key = `${run}:${file}`;
    // 'superseded' comes only from a newer request of the same key (none here): ask again, a few times at most.
    for (let attempt = 0; attempt < 3; attempt++) {
      const verdict = await rules.verdict(key, text);
      if (verdict.kind === 'checked') return { validation: verdict.validation, release: verdict.release };
      // The rules went away in the middle of the run (another window removed them).
      if (verdict.kind === 'noRules') throw new UserFacingError(vscode.l10n.t("GİB's validation rules were removed while {0} was being checked.", path.basename(file)));
    }
    throw new Error(`The GİB rules worker kept superseding the check of ${file}.`);
  };
}
