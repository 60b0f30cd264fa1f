// "Nilvera: Download GİB Validation Rules": both of GİB's archives from the addresses in the settings,
// under a cancellable progress (src/gib/download.ts), installed whole (src/gib/ruleStore.ts): a failure
// or a Cancel leaves the rules in use as they were.
import * as vscode from 'vscode';
import { withCancellableProgress } from '../../shell/cancellableProgress';
import { formatBytes } from '../../shell/displayFormat';
import { gibRules } from '../../shell/gibRules';
import { log } from '../../shell/log';
import { prompts } from '../../shell/prompts';
import type { GibDownloadLimits } from '../../gib/download';
import { damagedProblem, downloadProblem, unusableProblem } from './problems';
import { gibRuleUrls } from './ruleUrls';

export interface GibDownloadArgs {
  /** Tests: cancels like the notification's Cancel button. */
  cancellation?: vscode.CancellationToken;
  /** Tests: smaller caps and shorter time limits than download.ts's, to stay fast. */
  limits?: GibDownloadLimits;
}

/** The notification's text as each archive arrives. */
export function archiveProgress(progress: vscode.Progress<{ message?: string }>) {
  return (which: 'rules' | 'schemas', bytes: number): void =>
    progress.report({
      message:
        which === 'rules'
          ? vscode.l10n.t('e-FaturaPaketi.zip ({0}) received, UBL-TR1.2.1_Paketi.zip next…', formatBytes(bytes))
          : vscode.l10n.t('UBL-TR1.2.1_Paketi.zip ({0}) received, checking and installing…', formatBytes(bytes)),
    });
}

/**
 * Runs a download or install (of `what`), turning what it throws into the user's message: GibDownloadError
 * and GibSourceError (what GİB's files lack) are explained; a cancellation or anything else passes through.
 */
export async function installExplained<T>(installed: string | undefined, what: string, install: () => Promise<T>): Promise<T> {
  try {
    return await install();
  } catch (error) {
    throw await explainInstallFailure(error, installed, what);
  }
}

async function explainInstallFailure(error: unknown, installed: string | undefined, what: string): Promise<unknown> {
  const { GibDownloadError } = await import('../../gib/download');
  if (error instanceof GibDownloadError) {
    log.warn(`GİB rules download: ${error.message}`);
    return downloadProblem(error, installed);
  }
  // A ZIP entry that does not inflate (the store reads it after the check; zlib's own errors have Z_ codes).
  const code = (error as { code?: unknown })?.code;
  if (error instanceof Error && (error.name === 'ZipError' || error.name === 'ZipLimitError' || (typeof code === 'string' && code.startsWith('Z_')))) {
    log.warn(`GİB rules: ${what}: ${error.message}`);
    return damagedProblem(what, installed);
  }
  if (error instanceof Error && error.name === 'GibSourceError') {
    log.warn(`GİB rules: ${error.message}`);
    return unusableProblem(what, error.message, installed);
  }
  return error;
}

/** After an install: the window's worker restarts on `release`, and the user is told it is in use. */
export async function useInstalled(context: vscode.ExtensionContext, release: string): Promise<string> {
  await gibRules(context).installed();
  void prompts.message('info', vscode.l10n.t('GİB\'s validation rules {0} are installed.', release));
  return release;
}

export async function downloadRules(context: vscode.ExtensionContext, args: GibDownloadArgs): Promise<string> {
  const urls = gibRuleUrls();
  const storageRoot = context.globalStorageUri.fsPath;
  const { downloadGibPackage } = await import('../../gib/download');
  const { installedGibRelease } = await import('../../gib/ruleStore');
  const installed = await installedGibRelease(storageRoot);
  const host = new URL(urls.rules).host;
  const release = await withCancellableProgress(
    vscode.l10n.t('Downloading GİB\'s validation rules from {0}', host),
    (signal, progress) => installExplained(installed, urls.rules, () => downloadGibPackage(storageRoot, urls, { signal, onArchive: archiveProgress(progress), limits: args.limits })),
    args.cancellation,
  );
  log.info(`GİB rules ${release} installed from ${urls.rules} and ${urls.schemas}.`);
  return useInstalled(context, release);
}
