// Offline indexes written by an older version (another index format) are never read: each is rebuilt
// from the list ZIP it came from, keeping its download date, or, when that ZIP is gone, the user is
// asked to download the list again. Runs shortly after activation and whenever a search meets one.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { PaletteCommands } from '../../constants';
import { INDEX_FORMAT } from '../../registry/format';
import { closeOfflineRegistries, invalidateOfflineRegistries } from '../../registry/offlineLookup';
import { keptDownloadDate, outdatedLists, zipToRebuildFrom, type OutdatedList } from '../../registry/upgradePlan';
import { log } from '../../shell/log';
import { prompts } from '../../shell/prompts';

export { outdatedLists, registryListsFolder, registryZipName } from '../../registry/upgradePlan';

const running = new Map<string, Promise<boolean>>();

/**
 * Rebuilds one outdated list from its ZIP (its recorded path, else the default one); true when a
 * current index is in place afterwards. Concurrent calls for one list share the work.
 */
export function upgradeList(globalStoragePath: string, list: OutdatedList): Promise<boolean> {
  let job = running.get(list.storageDir);
  if (!job) {
    job = rebuild(globalStoragePath, list).finally(() => running.delete(list.storageDir));
    running.set(list.storageDir, job);
  }
  return job;
}

async function rebuild(globalStoragePath: string, list: OutdatedList): Promise<boolean> {
  const { aliasType, userType } = list;
  const zip = zipToRebuildFrom(globalStoragePath, list);
  if (!zip) {
    const download = vscode.l10n.t('Download List');
    void prompts
      .message('warning', vscode.l10n.t('The offline registry list {0}/{1} was saved by an older version and its ZIP is gone: download the list again to use it offline.', aliasType, userType), undefined, download)
      .then((choice) => (choice === download ? vscode.commands.executeCommand(PaletteCommands.registryDownload, { aliasType, userType }) : undefined));
    return false;
  }
  const registry = await import('../../registry');
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Updating the offline registry list {0}/{1} to the new index format…', aliasType, userType) },
      async () => {
        // Windows cannot replace a folder with open files: let go of the lists first.
        closeOfflineRegistries();
        await registry.buildIndexFromZip(zip, list.storageDir, { aliasType, userType, zipBytes: fs.statSync(zip).size, downloadedAt: keptDownloadDate(list.meta) });
      },
    );
  } catch (error) {
    log.error(`registry index upgrade ${aliasType}/${userType}: ${String(error)}`);
    void prompts.message('warning', vscode.l10n.t('The offline registry list {0}/{1} could not be rebuilt from its ZIP: download the list again.', aliasType, userType));
    return false;
  }
  invalidateOfflineRegistries();
  log.info(`registry index ${aliasType}/${userType} rebuilt in format ${INDEX_FORMAT} from ${zip}`);
  return true;
}

/** Rebuilds every outdated list, one after another. */
export async function upgradeOutdatedLists(globalStoragePath: string): Promise<void> {
  for (const list of outdatedLists(globalStoragePath)) await upgradeList(globalStoragePath, list);
}
