// One registry list's storage folder (globalStorage/registry-index/<alias>-<user>) is shared by every
// VS Code window on the machine, and each window is a process of its own:
//
//   current               the name of the index folder in use, replaced by a rename
//   index-<time>-<hex>/   complete indexes: the current one, and older ones a window still reads
//   tmp-<pid>-index-…/    an index being built by process <pid>
//   in-use/<index>.<pid>  process <pid> reads that index: it is not removed while that process lives
//   install.lock          held (src/files/fileLock.ts) while `current` changes or index folders go
//   reindex.json          a finished download whose index could not be put in place yet
//
// An install renames its build into place, points `current` at it and removes only the folder it
// replaced, and only when no window reads it; the window that lets go of a replaced folder last
// removes it. A reader marks a folder before it opens it and then checks that `current` still names
// it, so an install that switches the pointer in between either sees the mark or is seen by the check.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sweepTempFiles, writeFileAtomic } from '../files/atomicFile';
import { LockTimeoutError, withFileLock } from '../files/fileLock';
import { processIsAlive, removeRetrying, renameRetrying } from '../files/lockedFiles';
import { ALIAS_TYPES, GLOBAL_USER_TYPES } from '../api/types';
import { enumValue } from '../domain/enumValue';
import { CURRENT_POINTER, FILES } from './format';

export const INSTALL_LOCK = 'install.lock';
const IN_USE = 'in-use';
const REINDEX = 'reindex.json';
const REBUILD_LOCK = 'rebuild.lock';
const INDEX_NAME = /^index-[\w-]+$/;
/** An install waits this long for another window's install or sweep (each takes well under a second). */
const INSTALL_WAIT_MS = 60_000;
/** A start-up sweep gives up quickly when another window holds the lock: the next one will do it. */
const SWEEP_WAIT_MS = 2_000;
const DAY_MS = 24 * 3600_000;

/** The folder holding the indexes of one list kind (PK/GB × Invoice/DespatchAdvice). */
export function indexStorageDir(root: string, aliasType: string, userType: string): string {
  assertListKind(aliasType, userType);
  return path.join(root, `${aliasType}-${userType}`);
}

/** A list's kinds name its folders and files: anything but the known values could leave the storage folder. */
export function assertListKind(aliasType: string, userType: string): void {
  if (!enumValue(aliasType, ALIAS_TYPES) || !enumValue(userType, GLOBAL_USER_TYPES)) {
    throw new RangeError(`Not a registry list: ${JSON.stringify(aliasType)}/${JSON.stringify(userType)} (expected ${ALIAS_TYPES.join(' or ')} / ${GLOBAL_USER_TYPES.join(' or ')}).`);
  }
}

/** The name `current` holds, if it is an index folder's name (whether or not that folder exists). */
export function currentIndexName(storageDir: string): string | undefined {
  try {
    const name = fs.readFileSync(path.join(storageDir, CURRENT_POINTER), 'utf8').trim();
    return INDEX_NAME.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}

/** A complete index folder: its description is written last, so a folder with it is whole. */
function isComplete(folder: string): boolean {
  return fs.existsSync(path.join(folder, FILES.meta));
}

/** The folder of the current index under `storageDir`, or undefined when none was built. */
export function currentIndexFolder(storageDir: string): string | undefined {
  const name = currentIndexName(storageDir);
  return name && isComplete(path.join(storageDir, name)) ? path.join(storageDir, name) : undefined;
}

/** The folder a build of `name` by this process is written in (its pid tells a sweep whether it still runs). */
export function buildFolderName(name: string): string {
  return `tmp-${process.pid}-${name}`;
}

// Readers: the "in use" marks of this process.

/** Index folders this process reads, with how many readers hold each. */
const held = new Map<string, number>();

const markerOf = (folder: string) => path.join(path.dirname(folder), IN_USE, `${path.basename(folder)}.${process.pid}`);

function mark(folder: string): void {
  const n = held.get(folder) ?? 0;
  held.set(folder, n + 1);
  if (n > 0) return;
  try {
    fs.mkdirSync(path.join(path.dirname(folder), IN_USE), { recursive: true });
    fs.writeFileSync(markerOf(folder), '');
  } catch {
    // Without its mark the folder may be removed by another window's install; the reader then
    // finds `current` changed on its next check and opens the new index.
  }
}

/**
 * The current index folder of `storageDir`, marked as in use by this process, or undefined when
 * there is none. Every folder returned must be given back with releaseIndexFolder.
 */
export function leaseCurrentIndex(storageDir: string): string | undefined {
  for (let attempt = 0; attempt < 5; attempt++) {
    const name = currentIndexName(storageDir);
    if (!name) return undefined;
    const folder = path.join(storageDir, name);
    mark(folder);
    // Checked after the mark: an install that changed `current` before it either saw the mark (and
    // kept the folder) or is seen here.
    if (currentIndexName(storageDir) === name && isComplete(folder)) return folder;
    releaseIndexFolder(folder);
    if (currentIndexName(storageDir) === name) return undefined; // `current` names nothing complete
  }
  return undefined;
}

/** Gives back a leased folder; a folder no longer current that nobody reads any more is removed. */
export function releaseIndexFolder(folder: string): void {
  const n = held.get(folder) ?? 0;
  if (n > 1) {
    held.set(folder, n - 1);
    return;
  }
  held.delete(folder);
  try {
    fs.rmSync(markerOf(folder), { force: true });
  } catch {
    // Swept once this process is gone.
  }
  // A replaced index goes once nobody reads it (another window's install may be under way: waits for it).
  const storageDir = path.dirname(folder);
  const name = path.basename(folder);
  if (currentIndexName(storageDir) === name) return;
  void underLock(storageDir, () => removeIfUnusedLocked(storageDir, name), INSTALL_WAIT_MS).catch(() => undefined);
}

/** Process ids of the live windows that read index `name`; marks of processes that are gone are removed. */
function liveReaders(storageDir: string, name: string): number[] {
  const dir = path.join(storageDir, IN_USE);
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch {
    return pids;
  }
  for (const entry of entries) {
    const m = /^(index-[\w-]+)\.(\d+)$/.exec(entry);
    if (!m || m[1] !== name) continue;
    const pid = Number(m[2]);
    if (pid === process.pid ? (held.get(path.join(storageDir, name)) ?? 0) > 0 : processIsAlive(pid)) pids.push(pid);
    else fs.rmSync(path.join(dir, entry), { force: true });
  }
  return pids;
}

// Installing, removing, sweeping: always under the list's lock.

function underLock<T>(storageDir: string, work: () => Promise<T>, waitMs: number, signal?: AbortSignal): Promise<T> {
  return withFileLock(path.join(storageDir, INSTALL_LOCK), work, { waitMs, signal });
}

/** Removes index `name` unless it is current or a live window reads it (the lock is held). */
async function removeIfUnusedLocked(storageDir: string, name: string): Promise<boolean> {
  if (currentIndexName(storageDir) === name || liveReaders(storageDir, name).length > 0) return false;
  try {
    await removeRetrying(path.join(storageDir, name), { totalMs: 2000 });
    return true;
  } catch {
    return false; // held by another program: the next sweep removes it
  }
}

/**
 * Puts a finished build in place as index `name` and points `current` at it; then removes the index
 * it replaced, unless a window still reads it. Another window's install waits for this one. When the
 * pointer cannot be written, the new folder is removed again and `current` still names the old index.
 */
export async function installIndexFolder(storageDir: string, builtFolder: string, name: string, signal?: AbortSignal): Promise<void> {
  await underLock(
    storageDir,
    async () => {
      const folder = path.join(storageDir, name);
      await renameRetrying(builtFolder, folder);
      const previous = currentIndexName(storageDir);
      try {
        await writeFileAtomic(path.join(storageDir, CURRENT_POINTER), name + '\n');
      } catch (error) {
        await removeRetrying(folder).catch(() => undefined);
        throw error;
      }
      if (previous && previous !== name) await removeIfUnusedLocked(storageDir, previous);
    },
    INSTALL_WAIT_MS,
    signal,
  );
}

/** A finished download to be indexed later (its index could not be put in place when it arrived). */
export interface ReindexRequest {
  zipPath: string;
  /** ISO time the download finished: the index keeps it. */
  downloadedAt: string;
  /** The downloading process: while it runs, its own install may still succeed. */
  pid?: number;
}

export async function requestReindex(storageDir: string, request: ReindexRequest): Promise<void> {
  await fs.promises.mkdir(storageDir, { recursive: true });
  await writeFileAtomic(path.join(storageDir, REINDEX), JSON.stringify(request) + '\n');
}

export function reindexRequest(storageDir: string): ReindexRequest | undefined {
  try {
    const r = JSON.parse(fs.readFileSync(path.join(storageDir, REINDEX), 'utf8')) as Partial<ReindexRequest>;
    if (typeof r.zipPath !== 'string' || typeof r.downloadedAt !== 'string') return undefined;
    return { zipPath: r.zipPath, downloadedAt: r.downloadedAt, ...(typeof r.pid === 'number' ? { pid: r.pid } : {}) };
  } catch {
    return undefined;
  }
}

/** Forgets the request (only the one described by `mine`, when given: another download may have replaced it). */
export async function clearReindexRequest(storageDir: string, mine?: ReindexRequest): Promise<void> {
  const there = reindexRequest(storageDir);
  if (!there || (mine && (there.downloadedAt !== mine.downloadedAt || there.pid !== mine.pid))) return;
  await removeRetrying(path.join(storageDir, REINDEX)).catch(() => undefined);
}

/** What a start-up sweep found and did in one list's folder. */
export interface ListSweep {
  /** Paths removed: temporary files, builds and marks of processes that are gone, unused indexes. */
  removed: string[];
  /** `current` named a folder that is not there (or not complete) and was pointed at this one instead. */
  repointed?: string;
  /** `current` names nothing usable and no complete index is left: the list must be built again. */
  broken?: boolean;
  /** Another window held the lock throughout: nothing was done this time. */
  skipped?: boolean;
}

/**
 * Whether an entry of a list's folder is what a crash left: a build folder of a process that is gone, an
 * older version's build (no pid in the name) after a day, or an older version's temporary pointer (renamed
 * within milliseconds of being written) after a minute.
 */
async function isLeftOver(entry: string, file: string): Promise<boolean> {
  const olderThan = async (ms: number) => ((await fs.promises.stat(file).catch(() => undefined))?.mtimeMs ?? Infinity) < Date.now() - ms;
  const build = /^tmp-(\d+)-index-/.exec(entry);
  if (build) return Number(build[1]) !== process.pid && !processIsAlive(Number(build[1]));
  if (entry.startsWith('tmp-index-')) return olderThan(DAY_MS);
  return /^current\.[0-9a-f]+\.tmp$/.test(entry) && olderThan(60_000);
}

/**
 * What crashes left in one list's folder, removed under the list's lock (skipped while another window
 * holds it): temporary pointer files, builds and "in use" marks of processes that are gone, and index
 * folders neither current nor read by a live window. A `current` that names nothing complete is pointed
 * at the newest complete index left, else the list is reported broken (rebuilt or downloaded again).
 */
export async function sweepListStorage(storageDir: string): Promise<ListSweep> {
  if (!fs.existsSync(storageDir)) return { removed: [] };
  try {
    const sweep = await underLock(storageDir, () => sweepLocked(storageDir), SWEEP_WAIT_MS);
    // A rebuild lock whose holder died is taken over (and so removed); a live rebuild's is left alone.
    const rebuild = path.join(storageDir, REBUILD_LOCK);
    if (fs.existsSync(rebuild) && (await withFileLock(rebuild, async () => true, { waitMs: 0 }).catch(() => false))) sweep.removed.push(rebuild);
    return sweep;
  } catch (error) {
    if (error instanceof LockTimeoutError) return { removed: [], skipped: true };
    throw error;
  }
}

async function sweepLocked(storageDir: string): Promise<ListSweep> {
  const removed = await sweepTempFiles(storageDir, DAY_MS);
  const entries = await fs.promises.readdir(storageDir).catch(() => [] as string[]);
  for (const entry of entries) {
    const file = path.join(storageDir, entry);
    if ((await isLeftOver(entry, file)) && (await removeRetrying(file, { totalMs: 0 }).then(() => true, () => false))) removed.push(file);
  }
  const result: ListSweep = { removed };
  let current = currentIndexName(storageDir);
  if (current && !isComplete(path.join(storageDir, current))) {
    const newest = entries.filter((e) => INDEX_NAME.test(e) && isComplete(path.join(storageDir, e))).sort(byTime).pop();
    if (newest) {
      await writeFileAtomic(path.join(storageDir, CURRENT_POINTER), newest + '\n');
      result.repointed = newest;
      current = newest;
    } else result.broken = true;
  }
  for (const entry of entries) {
    if (INDEX_NAME.test(entry) && entry !== current && (await removeIfUnusedLocked(storageDir, entry))) removed.push(path.join(storageDir, entry));
  }
  // Marks of processes that are gone, whatever folder they name.
  const marks = path.join(storageDir, IN_USE);
  for (const entry of await fs.promises.readdir(marks).catch(() => [] as string[])) {
    const m = /\.(\d+)$/.exec(entry);
    if (m && Number(m[1]) !== process.pid && !processIsAlive(Number(m[1]))) {
      await fs.promises.rm(path.join(marks, entry), { force: true });
      removed.push(path.join(marks, entry));
    }
  }
  return result;
}

/** index-<time>-<hex> by time (the folder names' only number). */
function byTime(a: string, b: string): number {
  return Number(/^index-(\d+)/.exec(a)?.[1] ?? 0) - Number(/^index-(\d+)/.exec(b)?.[1] ?? 0);
}

/**
 * Drops a `current` that still names nothing complete (after a sweep found no index to point it at):
 * the list then counts as not downloaded, instead of as one that cannot be opened.
 */
export async function forgetBrokenIndex(storageDir: string): Promise<void> {
  const forget = async () => {
    if (pointsToNothing(storageDir)) await removeRetrying(path.join(storageDir, CURRENT_POINTER));
  };
  await underLock(storageDir, forget, INSTALL_WAIT_MS);
}

/** Whether `current` names a folder that is not there or not complete. */
export function pointsToNothing(storageDir: string): boolean {
  const name = currentIndexName(storageDir);
  return name !== undefined && !isComplete(path.join(storageDir, name));
}

/**
 * Runs `work` while no other window rebuilds this list (a rebuild takes as long as a download's
 * index: the second window waits for the first and then finds nothing left to do).
 */
export function withRebuildLock<T>(storageDir: string, work: () => Promise<T>): Promise<T> {
  return withFileLock(path.join(storageDir, REBUILD_LOCK), work, { waitMs: 30 * 60_000 });
}
