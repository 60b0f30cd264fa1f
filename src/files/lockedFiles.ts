// Windows refuses to rename, delete, open or overwrite a file that another process holds: Excel with
// the file open, another VS Code window, antivirus, the search indexer, OneDrive. Most of these holds
// last a moment, so every such operation is retried briefly; a hold that outlasts the retries becomes a
// FileLockedError that names the file, so the user is told which program to close instead of seeing
// EBUSY. Plain Node (no vscode): the API client, the registry index and the commands all use it.
import * as fs from 'node:fs';
import { retrying } from '../api/retrying';

/** The codes Windows (and a few network file systems) give for a file that someone else holds. */
const LOCK_CODES = new Set(['EBUSY', 'EPERM', 'EACCES']);

export function isLockError(error: unknown): boolean {
  return LOCK_CODES.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** A file that stayed held by another program through every retry. */
export class FileLockedError extends Error {
  override readonly name = 'FileLockedError';
  constructor(
    readonly path: string,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(`${path} is open in another program (${code})`, options);
  }
}

export interface RetryOptions {
  /** How long to keep trying before giving up; graceful-fs, npm's answer to the same problem, waits up to about 10 s. */
  totalMs?: number;
  signal?: AbortSignal;
}

/** The default wait; tests shorten it through setLockRetryDefault. */
let defaultTotalMs = 10_000;

/** For tests that make a lock persist: the time every retry gives up after, unless the call says otherwise. */
export function setLockRetryDefault(totalMs: number): () => void {
  const before = defaultTotalMs;
  defaultTotalMs = totalMs;
  return () => {
    defaultTotalMs = before;
  };
}

/**
 * Runs `operation` on `path`, again after 20, 40, 80 … (at most 500) ms while it fails with a lock
 * code, until `totalMs` has passed; then throws FileLockedError for `path`. Other errors pass at once.
 */
export function retryWhileLocked<T>(path: string, operation: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.totalMs ?? defaultTotalMs);
  return retrying(operation, {
    retriable: isLockError,
    waitMs: (attempt) => {
      const left = deadline - Date.now();
      return left > 0 ? Math.min(20 * 2 ** (attempt - 1), 500, left) : undefined;
    },
    givenUp: (error) => new FileLockedError(path, (error as NodeJS.ErrnoException).code as string, { cause: error }),
    signal: options.signal,
  });
}

export function renameRetrying(from: string, to: string, options?: RetryOptions): Promise<void> {
  return retryWhileLocked(to, () => fs.promises.rename(from, to), options);
}

/** rm -rf that waits out a brief hold; a path that is already gone is fine. */
export function removeRetrying(target: string, options?: RetryOptions): Promise<void> {
  return retryWhileLocked(target, () => fs.promises.rm(target, { recursive: true, force: true }), options);
}

/** The file's bytes, waiting out a brief hold; undefined when there is no such file. */
export function readFileRetrying(file: string, options?: RetryOptions): Promise<Buffer | undefined> {
  return retryWhileLocked(file, () => fs.promises.readFile(file), options).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** Whether a process of this machine is running (signal 0 only asks; EPERM means it runs as someone else). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
