// Which offline lists need their index built again from their ZIP, the start-up sweep of the registry's
// storage, and the rebuild (plain Node; src/commands/registry/indexUpgrade.ts adds progress and messages).
// A rebuild is due for an index of another format, a download whose index was not put in place (a file
// held by another program, or the window died first), and a `current` that names a folder that is gone.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALIAS_TYPES, GLOBAL_USER_TYPES, type AliasType, type GlobalUserType } from '../api/types';
import { processIsAlive } from '../files/lockedFiles';
import { INDEX_FORMAT, type IndexMeta } from './format';
import { assertListKind, clearReindexRequest, currentIndexFolder, forgetBrokenIndex, indexStorageDir, pointsToNothing, reindexRequest, sweepListStorage, withRebuildLock } from './listStorage';
import { registryIndexRoot } from './offlineLookup';
import { readIndexMeta } from './reader';

/** The folder "Download Registry List" offers first (the extension's storage). */
export function registryListsFolder(globalStoragePath: string): string {
  return path.join(globalStoragePath, 'registry-lists');
}

/** The name a downloaded list's ZIP is saved under, in whichever folder. */
export function registryZipName(aliasType: string, userType: string): string {
  assertListKind(aliasType, userType);
  return `registry-${aliasType}-${userType}.zip`;
}

/** Where "Download Registry List" saves a list's ZIP when the extension's storage is chosen. */
export function defaultZipPath(globalStoragePath: string, aliasType: string, userType: string): string {
  return path.join(registryListsFolder(globalStoragePath), registryZipName(aliasType, userType));
}

export interface ListNeedingIndex {
  aliasType: AliasType;
  userType: GlobalUserType;
  /** The list's index folder (registry-index/<alias>-<user>). */
  storageDir: string;
  meta?: IndexMeta;
  /** outdated: another format; deferred: downloaded, index not put in place; missing: `current` names nothing. */
  reason: 'outdated' | 'deferred' | 'missing';
  /** The ZIP to build from, when known (else the default one). */
  zipPath?: string;
  downloadedAt?: string;
  /** deferred: the process whose download asked for it, if it still runs (its own install may yet succeed). */
  requestedByLiveProcess?: boolean;
}

function currentMeta(storageDir: string): IndexMeta | undefined {
  const folder = currentIndexFolder(storageDir);
  try {
    return folder ? readIndexMeta(folder) : undefined;
  } catch {
    return undefined;
  }
}

/** What one list needs, if anything. */
export function listNeedingIndex(globalStoragePath: string, aliasType: AliasType, userType: GlobalUserType): ListNeedingIndex | undefined {
  const storageDir = indexStorageDir(registryIndexRoot(globalStoragePath), aliasType, userType);
  const meta = currentMeta(storageDir);
  const deferred = reindexRequest(storageDir);
  // A request the installed index already answers (its download is as new) is done, whoever wrote it.
  if (deferred && !(meta?.format === INDEX_FORMAT && meta.downloadedAt >= deferred.downloadedAt)) {
    // This process's own request is a download still under way here (or one the user was told about).
    const live = deferred.pid !== undefined && (deferred.pid === process.pid || processIsAlive(deferred.pid));
    return { aliasType, userType, storageDir, reason: 'deferred', zipPath: deferred.zipPath, downloadedAt: deferred.downloadedAt, ...(live ? { requestedByLiveProcess: true } : {}) };
  }
  if (pointsToNothing(storageDir)) return { aliasType, userType, storageDir, reason: 'missing' };
  if (!currentIndexFolder(storageDir)) return undefined;
  if (meta?.format !== INDEX_FORMAT) return { aliasType, userType, storageDir, reason: 'outdated', meta, zipPath: meta?.zipPath, downloadedAt: meta?.downloadedAt };
  // The index's own ZIP changed since the index was built from it: a newer download whose window died
  // between putting the ZIP in place and marking it for indexing.
  const zip = meta.zipPath && meta.zipMtimeMs !== undefined ? fs.statSync(meta.zipPath, { throwIfNoEntry: false }) : undefined;
  if (zip && (zip.mtimeMs !== meta.zipMtimeMs || zip.size !== meta.zipBytes)) {
    return { aliasType, userType, storageDir, reason: 'deferred', zipPath: meta.zipPath, downloadedAt: new Date(zip.mtimeMs).toISOString() };
  }
  return undefined;
}

/** Every list whose index must be rebuilt from its ZIP. */
export function listsNeedingIndex(globalStoragePath: string): ListNeedingIndex[] {
  const lists = ALIAS_TYPES.flatMap((a) => GLOBAL_USER_TYPES.map((u) => listNeedingIndex(globalStoragePath, a, u)));
  return lists.filter((list) => list !== undefined);
}

/** The ZIP a rebuild reads: the recorded one if it is still there, else the default one. */
export function zipToRebuildFrom(globalStoragePath: string, list: ListNeedingIndex): string | undefined {
  return [list.zipPath, defaultZipPath(globalStoragePath, list.aliasType, list.userType)].find((p): p is string => !!p && fs.existsSync(p));
}

/** The download date a rebuilt index keeps: the one recorded, when it can be read. */
export function keptDownloadDate(downloadedAt: string | undefined): Date | undefined {
  const at = downloadedAt ? new Date(downloadedAt) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
}

export type RebuildOutcome = 'rebuilt' | 'notNeeded' | 'noZip';

/**
 * Rebuilds one list's index from its ZIP, keeping the download date. Two windows never rebuild one
 * list at once: the second waits for the first and then finds nothing left to do. With no ZIP left, a
 * `current` that names nothing is dropped and a deferred request forgotten (the list must be
 * downloaded again): 'noZip'.
 */
export async function rebuildFromZip(globalStoragePath: string, list: ListNeedingIndex, options: { beforeInstall?: () => void } = {}): Promise<RebuildOutcome> {
  const { aliasType, userType } = list;
  const zip = zipToRebuildFrom(globalStoragePath, list);
  if (!zip) {
    if (list.reason === 'missing') await forgetBrokenIndex(list.storageDir).catch(() => undefined);
    if (list.reason === 'deferred') await clearReindexRequest(list.storageDir);
    return 'noZip';
  }
  return withRebuildLock(list.storageDir, async () => {
    // Another window may have rebuilt it (or downloaded it again) while this one waited.
    const now = listNeedingIndex(globalStoragePath, aliasType, userType);
    if (!now || now.reason !== list.reason) return 'notNeeded';
    options.beforeInstall?.();
    // Loaded here: the editor and the palette reach this module, the index builder only a rebuild.
    const { buildIndexFromZip } = await import('./builder');
    await buildIndexFromZip(zip, list.storageDir, { aliasType, userType, zipBytes: fs.statSync(zip).size, downloadedAt: keptDownloadDate(list.downloadedAt) });
    if (list.reason === 'deferred') await clearReindexRequest(list.storageDir);
    return 'rebuilt';
  });
}

/**
 * Each list's folder (listStorage.ts sweepListStorage) and the partial downloads in the lists folder:
 * what the start-up sweep removed, and the lists it found pointing to nothing.
 */
export async function sweepRegistryStorage(globalStoragePath: string) {
  const out = { removed: [] as string[], repointed: [] as string[] };
  const root = registryIndexRoot(globalStoragePath);
  for (const entry of await fs.promises.readdir(root).catch(() => [] as string[])) {
    const sweep = await sweepListStorage(path.join(root, entry)).catch(() => undefined);
    if (!sweep) continue;
    out.removed.push(...sweep.removed);
    if (sweep.repointed) out.repointed.push(`${entry}/${sweep.repointed}`);
    // A request the installed index already answers: its window died after the install, before forgetting it.
    const storageDir = path.join(root, entry);
    const request = reindexRequest(storageDir);
    const meta = currentMeta(storageDir);
    if (request && meta?.format === INDEX_FORMAT && meta.downloadedAt >= request.downloadedAt) {
      await clearReindexRequest(storageDir, request);
      out.removed.push(path.join(storageDir, 'reindex.json'));
    }
  }
  const { sweepPartialDownloads } = await import('../api/registryDownload');
  out.removed.push(...(await sweepPartialDownloads(registryListsFolder(globalStoragePath))));
  return out;
}
