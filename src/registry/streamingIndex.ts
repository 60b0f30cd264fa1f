// Indexes a registry list while its ZIP downloads, so the wait for the network and the index build
// overlap (the list is 1.5 million taxpayers; each step takes tens of seconds). The ZIP still goes to
// its file and is checked whole; the index built on the way is installed only when that finished
// file holds exactly the entry that was read, with the same CRC-32. In every other case (another
// layout, a failure while reading on the way) the index is built from the finished file, so what is
// installed and every error message are those of a build from the file.

import { once } from 'node:events';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { streamFirstEntry, type RegistryZipOptions, type StreamedEntrySummary } from '../domain/registryZip';
import { ZipArchive, type ZipEntry } from '../domain/zip';
import { releaseBatchBuffers } from './batchBuffers';
import { buildIndexFromZip, IndexBuildCancelledError, PendingIndex, type BuildOptions, type IndexSource } from './builder';
import { TAXPAYERS_PER_BATCH } from './indexSink';
import { ListEncoder } from './listEncoder';
import { clearReindexRequest, requestReindex } from './listStorage';
import { FileLockedError } from '../files/lockedFiles';
import type { IndexMeta } from './format';

/**
 * ZIP bytes buffered ahead of the index build before the download waits for it. Kept small: a piece
 * that waits here through two of the thread's minor collections (about 13 ms apart while a list
 * streams) is moved to the old generation, where only a full collection frees it. 128 KiB is as
 * fast as 256 KiB with a lower peak RSS (`npm run bench -- registryIndex` prints it at this size).
 */
const AHEAD_BYTES = 128 * 1024;

export type ListKind = Pick<IndexSource, 'aliasType' | 'userType'>;

export type DownloadIndexOptions = BuildOptions & RegistryZipOptions & {
  /** Called before the new index replaces the current one (Windows cannot remove open files). */
  beforeInstall?: () => void;
};

export interface DownloadedIndex {
  meta: IndexMeta;
  zipBytes: number;
  /** Where the ZIP is: the path asked for, or the name it was kept under when another program held that one. */
  zipPath: string;
  /** The path asked for, when another program held it. */
  heldTarget?: string;
  /** Whether the index was built while the ZIP downloaded (false: from the finished file). */
  streamed: boolean;
  /** Why the index could not be built on the way, when it was not. */
  notStreamedBecause?: string;
  /** Where the index built on the way had its records and title words written. */
  writtenIn?: 'worker' | 'thread';
}

/** The build made on the way, if the finished ZIP holds exactly what it read; else why not. */
type Verdict = { pending?: PendingIndex; reason?: string };

/** What the download needs from the index built on the way (DownloadTarget's hooks of the same names). */
export interface OnTheWayHooks {
  /** Every decoded byte of the ZIP, in order; the download waits while the build is behind. */
  onZipBytes(bytes: Buffer): Promise<void>;
  /** Once all bytes are in: whether the build on the way has checked the whole ZIP (then no second pass). */
  checkedOnTheWay(zip: { path: string } | { buffer: Buffer }): Promise<boolean>;
}

/** What the download step must do: fetch the ZIP to `zipPath` with these hooks (verifyZip on). */
export type ZipDownload = (hooks: OnTheWayHooks) => Promise<{ bytes: number; path?: string; heldTarget?: string }>;

/**
 * The ZIP arrived whole and was checked, but its index could not be put in place: a file stayed held
 * by another program (FileLockedError). The ZIP is kept and the list is marked to be
 * indexed from it later (listStorage.ts requestReindex): nothing downloaded is lost.
 */
export class IndexDeferredError extends Error {
  override readonly name = 'IndexDeferredError';
  constructor(
    readonly zipPath: string,
    readonly zipBytes: number,
    /** The file another program held. */
    readonly lock: FileLockedError,
  ) {
    super(`the registry list was downloaded to ${zipPath}, but its index could not be installed: ${lock.message}`, { cause: lock });
  }
}

/**
 * Downloads a registry list with `download` and indexes it into `storageDir` on the way; the finished,
 * checked ZIP decides whether that index is installed or a new one is built from the file.
 */
export async function downloadAndIndex(download: ZipDownload, zipPath: string, storageDir: string, kind: ListKind, options: DownloadIndexOptions = {}): Promise<DownloadedIndex> {
  try {
    const live = new StreamingIndex(storageDir, options);
    const downloaded = await download({
      onZipBytes: (bytes) => live.write(bytes),
      checkedOnTheWay: async (zip) => 'path' in zip && (await live.complete(zip.path)).pending !== undefined,
    }).catch(async (error: unknown) => {
      await live.abandon();
      throw error;
    });
    const zipBytes = downloaded.bytes;
    const savedPath = path.resolve(downloaded.path ?? zipPath);
    const held = downloaded.heldTarget ? { heldTarget: downloaded.heldTarget } : {};
    const downloadedAt = new Date();
    const source = { ...kind, zipBytes, zipPath: savedPath, downloadedAt };
    // Until its index is in place, the finished ZIP is marked to be indexed: a window that dies (or a file
    // held by another program) costs a rebuild from the ZIP at the next start, not the download.
    const request = { zipPath: savedPath, downloadedAt: downloadedAt.toISOString(), pid: process.pid };
    await requestReindex(storageDir, request);
    try {
      const streamed = await live.complete(savedPath);
      let installed: DownloadedIndex;
      if (streamed.pending) {
        try {
          const meta = await streamed.pending.finish(source);
          options.beforeInstall?.();
          await streamed.pending.install();
          installed = { meta, zipBytes, zipPath: savedPath, ...held, streamed: true, writtenIn: streamed.pending.writtenIn };
        } catch (error) {
          await streamed.pending.abandon();
          throw error;
        }
      } else {
        if (options.signal?.aborted) throw new IndexBuildCancelledError();
        options.beforeInstall?.();
        const meta = await buildIndexFromZip(savedPath, storageDir, source, options);
        installed = { meta, zipBytes, zipPath: savedPath, ...held, streamed: false, notStreamedBecause: streamed.reason };
      }
      await clearReindexRequest(storageDir, request);
      return installed;
    } catch (error) {
      // Kept for later only when a file stayed held; a cancel or a list that cannot be read is not retried.
      if (!(error instanceof FileLockedError)) {
        await clearReindexRequest(storageDir, request);
        throw error;
      }
      throw new IndexDeferredError(savedPath, zipBytes, error);
    }
  } finally {
    // The build is over (its worker has given every buffer back, or is gone): nothing to keep them for.
    releaseBatchBuffers();
  }
}

/** The index build fed by the download: write() as bytes arrive, complete() once the file is done. */
class StreamingIndex {
  private readonly zip = new PassThrough({ highWaterMark: AHEAD_BYTES });
  private readonly task: Promise<{ pending: PendingIndex; summary: StreamedEntrySummary } | { reason: string }>;
  /** Set once the build on the way stopped (finished, or gave up): bytes are no longer passed on. */
  private stopped = false;
  private verdict: Promise<Verdict> | undefined;

  constructor(storageDir: string, options: DownloadIndexOptions) {
    // The reader on the way gets the error through its inflate stream; this keeps it from being unhandled.
    this.zip.on('error', () => undefined);
    this.task = this.run(storageDir, options);
  }

  private async run(storageDir: string, options: DownloadIndexOptions): Promise<{ pending: PendingIndex; summary: StreamedEntrySummary } | { reason: string }> {
    let pending: PendingIndex | undefined;
    try {
      pending = await PendingIndex.start(storageDir, options);
      // The list's usual shape is read by the index's own encoder; any other shape (NotCanonicalListError)
      // ends the build on the way, and the finished file is read by the general parser instead.
      const summary = await pending.addFrom(streamFirstEntry(this.zip, new ListEncoder(TAXPAYERS_PER_BATCH), options));
      if (!summary) throw new Error('the entry ended without a summary');
      return { pending, summary };
    } catch (error) {
      await pending?.abandon();
      if (error instanceof IndexBuildCancelledError) return { reason: 'cancelled' };
      // A real problem with the list shows again, with its own message, when the file is read.
      return { reason: error instanceof Error ? error.message : String(error) };
    } finally {
      // Whatever follows the entry (or everything, after giving up) is not needed here.
      this.stopped = true;
      this.zip.resume();
    }
  }

  /** Passes downloaded bytes on, waiting while the build is more than AHEAD_BYTES behind. */
  async write(bytes: Buffer): Promise<void> {
    if (this.stopped) return;
    if (!this.zip.write(bytes)) await Promise.race([once(this.zip, 'drain'), this.task]);
  }

  /**
   * All bytes are in (the file at `zipPath`, temporary or final: the same bytes): resolves with the
   * build made on the way if the file holds only the entry that was read, with the CRC-32 it had;
   * otherwise that build is removed. Decided once.
   */
  complete(zipPath: string): Promise<Verdict> {
    return (this.verdict ??= this.judge(zipPath));
  }

  private async judge(zipPath: string): Promise<Verdict> {
    this.zip.end();
    const outcome = await this.task;
    if ('reason' in outcome) return { reason: outcome.reason };
    const entries = await zipEntries(zipPath);
    const [only] = entries ?? [];
    const read = outcome.summary;
    // The directory describes exactly what was read: the first entry, its name, CRC-32 and both sizes.
    if (entries?.length === 1 && only.localOffset === 0 && only.name === read.entryName && only.crc32 === read.crc32 && only.size === read.bytes && only.compressedSize === read.compressedBytes) {
      return { pending: outcome.pending };
    }
    await outcome.pending.abandon();
    return { reason: entries ? `the ZIP holds ${entries.length} entries, or not the one read` : 'the ZIP could not be listed' };
  }

  /** The download failed or was cancelled: the build on the way is removed. */
  async abandon(): Promise<void> {
    this.zip.destroy(new Error('the download stopped'));
    const outcome = await this.task;
    // Removing twice is harmless (the folder is gone or going); a judged build may have been kept.
    if ('pending' in outcome) await outcome.pending.abandon();
  }
}

/** The entries of the ZIP file's central directory, or undefined if it cannot be read. */
async function zipEntries(zipPath: string): Promise<readonly ZipEntry[] | undefined> {
  const zip = await ZipArchive.open(zipPath).catch(() => undefined);
  await zip?.close();
  return zip?.entries;
}
