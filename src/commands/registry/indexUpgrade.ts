// Offline lists whose index cannot be read as it is are rebuilt from their list ZIP, keeping the
// download date (src/registry/listMaintenance.ts says which and why); without the ZIP, the user is asked
// to download the list again. Runs shortly after start-up and whenever a search meets such a list.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PaletteCommands } from '../../constants';
import { FileLockedError } from '../../files/lockedFiles';
import { INDEX_FORMAT } from '../../registry/format';
import type { AliasType, GlobalUserType } from '../../api/types';
import { listNeedingIndex, listsNeedingIndex, rebuildFromZip, sweepRegistryStorage, zipToRebuildFrom, type ListNeedingIndex } from '../../registry/listMaintenance';
import { closeOfflineRegistries, invalidateOfflineRegistries } from '../../registry/offlineLookup';
import { log } from '../../shell/log';
import { prompts } from '../../shell/prompts';

const running = new Map<string, Promise<boolean>>();

/** Rebuilds the list aliasType/userType if its index needs it (upgradeList); undefined when it does not. */
export async function upgradeListIfNeeded(globalStoragePath: string, aliasType: AliasType, userType: GlobalUserType): Promise<boolean | undefined> {
  const list = listNeedingIndex(globalStoragePath, aliasType, userType);
  return list && upgradeList(globalStoragePath, list);
}

/**
 * Rebuilds one list from its ZIP (its recorded path, else the default one); true when a current
 * index is in place afterwards. Concurrent calls for one list share the work.
 */
function upgradeList(globalStoragePath: string, list: ListNeedingIndex): Promise<boolean> {
  let job = running.get(list.storageDir);
  if (!job) {
    job = rebuild(globalStoragePath, list).finally(() => running.delete(list.storageDir));
    running.set(list.storageDir, job);
  }
  return job;
}

function askToDownload(list: ListNeedingIndex): void {
  const { aliasType, userType } = list;
  const download = vscode.l10n.t('Download List');
  const text =
    list.reason === 'outdated'
      ? vscode.l10n.t('The offline registry list {0}/{1} was saved by an older version and its ZIP is gone: download the list again to use it offline.', aliasType, userType)
      : vscode.l10n.t('The offline registry list {0}/{1} and its ZIP are gone: download the list again to use it offline.', aliasType, userType);
  void prompts.message('warning', text, undefined, download).then((choice) => (choice === download ? vscode.commands.executeCommand(PaletteCommands.registryDownload, { aliasType, userType }) : undefined));
}

async function rebuild(globalStoragePath: string, list: ListNeedingIndex): Promise<boolean> {
  const { aliasType, userType } = list;
  if (!zipToRebuildFrom(globalStoragePath, list)) {
    await rebuildFromZip(globalStoragePath, list);
    askToDownload(list);
    return false;
  }
  let outcome;
  try {
    outcome = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title:
          list.reason === 'outdated'
            ? vscode.l10n.t('Updating the offline registry list {0}/{1} to the new index format…', aliasType, userType)
            : vscode.l10n.t('Indexing the downloaded registry list {0}/{1}…', aliasType, userType),
      },
      // Windows cannot replace a folder with open files: the lists are let go of first.
      () => rebuildFromZip(globalStoragePath, list, { beforeInstall: closeOfflineRegistries }),
    );
  } catch (error) {
    log.error(`registry index rebuild ${aliasType}/${userType}: ${String(error)}`);
    const text =
      error instanceof FileLockedError
        ? vscode.l10n.t('The offline registry list {0}/{1} could not be indexed yet: {2} is open in another program. Its ZIP is kept; it will be indexed the next time VS Code starts.', aliasType, userType, error.path)
        : vscode.l10n.t('The offline registry list {0}/{1} could not be rebuilt from its ZIP: download the list again.', aliasType, userType);
    void prompts.message('warning', text);
    return false;
  }
  invalidateOfflineRegistries();
  if (outcome === 'rebuilt') log.info(`registry index ${aliasType}/${userType} rebuilt in format ${INDEX_FORMAT} (${list.reason})`);
  return !listsNeedingIndex(globalStoragePath).some((l) => l.storageDir === list.storageDir);
}

/**
 * What crashes left in the registry's storage is swept, then every list whose index cannot be read as
 * it is gets rebuilt, one after another. A download another window is still indexing is left to it.
 */
export async function upgradeOutdatedLists(globalStoragePath: string): Promise<void> {
  const sweep = await sweepRegistryStorage(globalStoragePath);
  if (sweep.removed.length) log.info(`registry storage: removed what crashes left: ${sweep.removed.map((p) => path.relative(globalStoragePath, p)).join(', ')}`);
  for (const r of sweep.repointed) log.warn(`registry index ${r}: current named a folder that is gone; it now names this one`);
  for (const list of listsNeedingIndex(globalStoragePath)) {
    if (!list.requestedByLiveProcess) await upgradeList(globalStoragePath, list);
  }
}
