// Offline indexes written by an older version (another index format) are never read: each is rebuilt
// from the list ZIP it came from, keeping its download date, or, when that ZIP is gone, the user is
// asked to download the list again. Runs shortly after activation and whenever a search meets one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ALIAS_TYPES, GLOBAL_USER_TYPES, type AliasType, type GlobalUserType } from '../../api/types';
import { PaletteCommands } from '../../constants';
import { INDEX_FORMAT, type IndexMeta } from '../../registry/format';
import { closeOfflineRegistries, invalidateOfflineRegistries, registryIndexRoot } from '../../registry/offlineLookup';
import { currentIndexFolder, readIndexMeta } from '../../registry/reader';
import { log } from '../../shell/log';
import { prompts } from '../../shell/prompts';

export interface OutdatedList {
  aliasType: AliasType;
  userType: GlobalUserType;
  /** The list's index folder (registry-index/<alias>-<user>). */
  storageDir: string;
  meta?: IndexMeta;
}

/** The folder "Download Registry List" offers first (the extension's storage). */
export function registryListsFolder(globalStoragePath: string): string {
  return path.join(globalStoragePath, 'registry-lists');
}

/** The name a downloaded list's ZIP is saved under, in whichever folder. */
export function registryZipName(aliasType: string, userType: string): string {
  return `registry-${aliasType}-${userType}.zip`;
}

/** Where "Download Registry List" saves a list's ZIP when the extension's storage is chosen. */
export function defaultZipPath(globalStoragePath: string, aliasType: string, userType: string): string {
  return path.join(registryListsFolder(globalStoragePath), registryZipName(aliasType, userType));
}

/** Lists whose current index is of another format (or whose description cannot be read). */
export function outdatedLists(globalStoragePath: string): OutdatedList[] {
  const root = registryIndexRoot(globalStoragePath);
  const out: OutdatedList[] = [];
  for (const aliasType of ALIAS_TYPES) {
    for (const userType of GLOBAL_USER_TYPES) {
      const storageDir = path.join(root, `${aliasType}-${userType}`);
      const folder = currentIndexFolder(storageDir);
      if (!folder) continue;
      let meta: IndexMeta | undefined;
      try {
        meta = readIndexMeta(folder);
      } catch {
        meta = undefined;
      }
      if (meta?.format !== INDEX_FORMAT) out.push({ aliasType, userType, storageDir, meta });
    }
  }
  return out;
}

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
  const zip = [list.meta?.zipPath, defaultZipPath(globalStoragePath, aliasType, userType)].find((p): p is string => !!p && fs.existsSync(p));
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
        const downloadedAt = list.meta?.downloadedAt ? new Date(list.meta.downloadedAt) : undefined;
        await registry.buildIndexFromZip(zip, list.storageDir, { aliasType, userType, zipBytes: fs.statSync(zip).size, downloadedAt: downloadedAt && !Number.isNaN(downloadedAt.getTime()) ? downloadedAt : undefined });
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
