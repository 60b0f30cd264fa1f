// "Nilvera: Check for Newer GİB Rules": the only time the extension asks GİB's addresses whether
// there is a newer release (History.txt's newest entry), and only when the user runs it. A newer
// release is installed only if the user says so; without rules installed it offers the download.
import * as vscode from 'vscode';
import { withCancellableProgress } from '../../shell/cancellableProgress';
import { log } from '../../shell/log';
import { prompts } from '../../shell/prompts';
import { archiveProgress, downloadRules, installExplained, useInstalled, type GibDownloadArgs } from './downloadRules';
import { gibRuleUrls } from './ruleUrls';

/** Asks before a newer release replaces the one in use. */
async function askToInstall(installed: string, available: string, signal: AbortSignal): Promise<boolean> {
  const install = vscode.l10n.t('Install');
  const answer = await prompts.message('info', vscode.l10n.t('GİB\'s rules {0} are available; you have {1}. Install them?', available, installed), undefined, install);
  return answer === install && !signal.aborted;
}

export async function checkForNewerRules(context: vscode.ExtensionContext, args: GibDownloadArgs): Promise<string | undefined> {
  const storageRoot = context.globalStorageUri.fsPath;
  const { installedGibRelease } = await import('../../gib/ruleStore');
  const installed = await installedGibRelease(storageRoot);
  if (!installed) {
    const download = vscode.l10n.t('Download');
    const answer = await prompts.message('info', vscode.l10n.t('No GİB validation rules are installed yet. Download them now?'), undefined, download);
    return answer === download ? downloadRules(context, args) : undefined;
  }
  const urls = gibRuleUrls();
  const { checkForNewerGibPackage } = await import('../../gib/download');
  const outcome = await withCancellableProgress(
    vscode.l10n.t('Checking {0} for newer GİB rules', new URL(urls.rules).host),
    (signal, progress) =>
      installExplained(installed, urls.rules, () =>
        checkForNewerGibPackage(storageRoot, urls, { signal, onArchive: archiveProgress(progress), limits: args.limits, confirm: (_installed, available) => askToInstall(installed, available, signal) }),
      ),
    args.cancellation,
  );
  log.info(`GİB rules: ${outcome.available} available at ${urls.rules}, ${outcome.installed ?? 'none'} installed${outcome.updated ? ', now installed' : ''}.`);
  if (outcome.updated) return useInstalled(context, outcome.available);
  if (outcome.available <= installed) {
    const text =
      outcome.available === installed
        ? vscode.l10n.t('You have the newest rules ({0}).', installed)
        : vscode.l10n.t('You have the newest rules ({0}); the address in the settings offers an older release ({1}).', installed, outcome.available);
    void prompts.message('info', text);
  }
  return installed;
}
