// Which offline indexes an update must rebuild, and from which ZIP: an index of another format (or
// whose description cannot be read) is never read; it is rebuilt from the list ZIP it came from,
// keeping its download date. Plain Node (no vscode), so the decisions are unit-tested on their own;
// src/commands/registry/indexUpgrade.ts acts on them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALIAS_TYPES, GLOBAL_USER_TYPES, type AliasType, type GlobalUserType } from '../api/types';
import { INDEX_FORMAT, type IndexMeta } from './format';
import { registryIndexRoot } from './offlineLookup';
import { currentIndexFolder, readIndexMeta } from './reader';

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

/**
 * The ZIP an outdated list is rebuilt from: the one its index recorded, else the default place's;
 * undefined when neither exists (the user must download the list again).
 */
export function zipToRebuildFrom(globalStoragePath: string, list: OutdatedList): string | undefined {
  return [list.meta?.zipPath, defaultZipPath(globalStoragePath, list.aliasType, list.userType)].find((p): p is string => !!p && fs.existsSync(p));
}

/** The download date the rebuilt index keeps: the old index's, when it has a readable one. */
export function keptDownloadDate(meta: IndexMeta | undefined): Date | undefined {
  const at = meta?.downloadedAt ? new Date(meta.downloadedAt) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
}
