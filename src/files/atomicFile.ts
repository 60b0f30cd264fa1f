// Files the user or another window reads are written whole or not at all: the bytes go to a temporary
// file beside the target (same folder, so the rename never crosses a volume), are flushed to disk, and
// only then replace the target by a rename. A cancel, a crash or a full disk leaves the previous file as
// it was; a target held open by another program (Excel on Windows) is retried, then reported by name.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processIsAlive, removeRetrying, renameRetrying, type RetryOptions } from './lockedFiles';

/** Temporary files end with this; start-up sweeps look for it next to the files they own. */
export const TEMP_SUFFIX = '.nilvera-tmp';

/** `.<name>.<pid>-<random>.nilvera-tmp` beside `target`: unique per writer, recognisable as ours. */
export function tempPathBeside(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
}

/** Writes are gathered into pieces of this size: few system calls, bounded memory. */
const FLUSH_AT = 64 * 1024;

/**
 * A file being written. `write` appends, `commit` puts it in place of its target (or another path, when
 * the target is held), `abort` removes the temporary file. After a failed commit the temporary file is
 * still there, so the caller can commit to another name or abort; `abort` after a commit does nothing.
 */
export class AtomicFile {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private closed = false;
  private committed = false;
  bytesWritten = 0;

  private constructor(
    readonly target: string,
    readonly tempPath: string,
    private readonly handle: fs.promises.FileHandle,
  ) {}

  static async create(target: string): Promise<AtomicFile> {
    const tempPath = tempPathBeside(target);
    const handle = await fs.promises.open(tempPath, 'wx');
    return new AtomicFile(target, tempPath, handle);
  }

  async write(chunk: string | Uint8Array): Promise<void> {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.bytesWritten += bytes.length;
    if (this.pendingBytes >= FLUSH_AT) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const data = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await this.handle.writeFile(data);
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }

  /** Flushes to disk and renames over `to` (the target unless given), waiting out a brief hold on it. */
  async commit(to: string = this.target, options?: RetryOptions): Promise<string> {
    if (!this.closed) {
      await this.flush();
      // On disk before the rename, so a crash right after cannot leave an empty file in the target's place.
      await this.handle.datasync();
      await this.close();
    }
    await renameRetrying(this.tempPath, to, options);
    this.committed = true;
    return to;
  }

  async abort(): Promise<void> {
    if (this.committed) return;
    this.pending = [];
    await this.close().catch(() => undefined);
    await removeRetrying(this.tempPath).catch(() => undefined);
  }
}

export async function writeFileAtomic(target: string, data: string | Uint8Array, options?: RetryOptions): Promise<void> {
  const file = await AtomicFile.create(target);
  try {
    await file.write(data);
    await file.commit(target, options);
  } finally {
    await file.abort();
  }
}

/**
 * Removes the temporary files that writers left in `folder` when they died (a crash, a killed window):
 * ours by their suffix, and either written by a process that is gone or older than `maxAgeMs` (a
 * recycled process id). A write in progress in another window is never touched.
 */
export async function sweepTempFiles(folder: string, maxAgeMs: number): Promise<string[]> {
  const removed: string[] = [];
  const entries = await fs.promises.readdir(folder).catch(() => [] as string[]);
  for (const name of entries) {
    if (!name.endsWith(TEMP_SUFFIX)) continue;
    const file = path.join(folder, name);
    // The writer's process id, which the names of our temporary files carry.
    const pid = Number(/\.(\d+)-[0-9a-f]{8}\.nilvera-tmp$/.exec(name)?.[1]);
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat) continue;
    const abandoned = pid > 0 && pid !== process.pid && !processIsAlive(pid);
    if (abandoned || stat.mtimeMs < Date.now() - maxAgeMs) {
      await removeRetrying(file, { totalMs: 0 }).catch(() => undefined);
      removed.push(file);
    }
  }
  return removed;
}
