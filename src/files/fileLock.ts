// A lock that several VS Code windows (several extension hosts, one globalStorage) take before they
// change shared files. The lock is a file created exclusively, holding its owner's pid, host and a random
// token from the moment it exists. A holder that crashed cannot keep it forever: the lock counts as stale when its process is gone
// (same host) or when it has not been refreshed for `staleMs` (the holder touches it while it works).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempPathBeside } from './atomicFile';
import { processIsAlive, retryWhileLocked } from './lockedFiles';

interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

export interface LockOptions {
  /** A lock not refreshed for this long is taken over (default 30 s; the holder refreshes at a third of it). */
  staleMs?: number;
  /** How long to wait for a live holder before giving up (default 60 s). */
  waitMs?: number;
  signal?: AbortSignal;
}

export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
  constructor(readonly lockFile: string) {
    super(`another window holds ${lockFile}`);
  }
}

async function readOwner(lockFile: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await fs.promises.readFile(lockFile, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.token === 'string' ? (owner as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

async function isStale(lockFile: string, staleMs: number): Promise<boolean> {
  const stat = await fs.promises.stat(lockFile).catch(() => undefined);
  if (!stat) return false; // gone: simply try again
  const owner = await readOwner(lockFile);
  if (owner && owner.host === os.hostname() && owner.pid !== process.pid && !processIsAlive(owner.pid)) return true;
  // A lock whose content is not readable yet is being written: only its age can make it stale.
  return Date.now() - stat.mtimeMs > staleMs;
}

/**
 * Takes over a stale lock. Two waiters may both find it stale: the lock is first renamed to a name of
 * the waiter's own (only one rename of the file succeeds), and removed only if it is still the stale
 * one; a live lock taken by the other waiter in between is put back.
 */
async function breakStale(lockFile: string, stale: LockOwner | undefined): Promise<void> {
  const aside = `${lockFile}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await fs.promises.rename(lockFile, aside);
  } catch {
    return; // someone else moved it first
  }
  const moved = await readOwner(aside);
  if (stale && moved && moved.token !== stale.token) {
    await fs.promises.link(aside, lockFile).catch(() => undefined);
  }
  await fs.promises.rm(aside, { force: true });
}

/**
 * Creates the lock file with its owner already in it: the owner is written to a temporary file that is
 * then hard-linked to the lock's name (which fails with EEXIST when the lock exists). A holder killed at
 * any moment leaves either no lock or one that names it, never an empty one that only age could
 * make stale. Where hard links are refused (some network or FAT volumes), the file is created with
 * O_EXCL and the owner written into it.
 */
async function create(lockFile: string, owner: LockOwner): Promise<void> {
  const temp = tempPathBeside(lockFile);
  let linked: boolean;
  try {
    await retryWhileLocked(temp, () => fs.promises.writeFile(temp, JSON.stringify(owner), { flag: 'wx' }));
    linked = await fs.promises.link(temp, lockFile).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') throw error;
        return false;
      },
    );
  } finally {
    await fs.promises.rm(temp, { force: true }).catch(() => undefined);
  }
  if (linked) return;
  const handle = await retryWhileLocked(lockFile, () => fs.promises.open(lockFile, 'wx'));
  try {
    await handle.writeFile(JSON.stringify(owner));
  } finally {
    await handle.close();
  }
}

/**
 * Runs `work` while holding `lockFile`; waits (polling) while another live holder has it. The lock is
 * refreshed while `work` runs and removed afterwards, also when `work` throws.
 */
export async function withFileLock<T>(lockFile: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? 30_000;
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  const owner: LockOwner = { pid: process.pid, host: os.hostname(), token: randomBytes(8).toString('hex') };
  for (let delay = 10; ; delay = Math.min(delay * 2, 250)) {
    options.signal?.throwIfAborted();
    try {
      await create(lockFile, owner);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readOwner(lockFile);
    if (await isStale(lockFile, staleMs)) {
      await breakStale(lockFile, holder);
      continue;
    }
    if (Date.now() > deadline) throw new LockTimeoutError(lockFile);
    await sleep(delay);
  }
  const refresh = setInterval(() => {
    const now = new Date();
    fs.promises.utimes(lockFile, now, now).catch(() => undefined);
  }, Math.max(1000, staleMs / 3));
  refresh.unref?.();
  try {
    return await work();
  } finally {
    clearInterval(refresh);
    // Only our own lock is removed: after a takeover (we were presumed dead) it belongs to someone else.
    const current = await readOwner(lockFile);
    if (current?.token === owner.token) await retryWhileLocked(lockFile, () => fs.promises.rm(lockFile, { force: true })).catch(() => undefined);
  }
}
