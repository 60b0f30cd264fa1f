// GET /general/GlobalCompany/{AliasType}/{GlobalUserType}: the registry list as a ZIP, sent as a
// JSON string of base64 (or, spec-silent, unquoted base64 text or raw bytes: RegistryBodyDecoder). The body is decoded as it arrives and the ZIP bytes go to a file (temp
// file + rename) or into one Buffer; the base64 text is never held whole. A previous ZIP that another
// program holds (Windows refuses to replace an open file) never costs the finished download: after the
// retries, the new ZIP is kept under a name of its own beside it.

import { once } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { FileLockedError, processIsAlive, removeRetrying, renameRetrying } from '../files/lockedFiles';
import { freeNumberedName } from '../files/userFiles';
import { Base64BodyError, Base64JsonStringDecoder } from './base64JsonString';
import { tooLargeError } from './bodyLimits';
import { formatByteSize } from '../domain/byteSize';
import { NilveraApiError } from './errors';
import { checkZip, ZipError, ZipLimitError } from '../domain/zip';
import { overLimit } from '../domain/registryZip';
import type { CallOptions, HttpTransport } from './http';
import { requestOf } from './paths';
import type { AliasType, GlobalUserType } from './types';

export type DownloadTarget = ({ kind: 'file'; path: string } | { kind: 'buffer' }) & {
  onProgress?: (zipBytes: number) => void;
  /**
   * Check the ZIP (structure, sizes, CRC-32 of every entry) before the file is renamed into place
   * or the Buffer returned: a cut-off or damaged ZIP is a 'malformed' error and nothing is kept.
   * Costs one inflate pass over the ZIP.
   */
  verifyZip?: boolean;
  /**
   * Also hands every piece of the decoded ZIP, in order, to a reader on the way (the offline index
   * build, src/registry/streamingIndex.ts); the download waits while it is behind.
   */
  onZipBytes?: (bytes: Buffer) => Promise<void>;
  /**
   * With verifyZip: asked first, once all bytes are in; true when the reader on the way has already
   * checked the whole ZIP (its one entry inflated to the CRC-32 its directory gives), which makes the
   * full check's second inflate pass redundant. Anything else (false, an error) runs the full check.
   */
  checkedOnTheWay?: (zip: { path: string } | { buffer: Buffer }) => Promise<boolean>;
};

export interface DownloadResult {
  /** Size of the ZIP in bytes. */
  bytes: number;
  /** The final file (kind 'file'): the path asked for, or the name it was kept under when that one was held. */
  path?: string;
  /** Kind 'file': the path asked for, when another program held it and the ZIP was kept as `path` instead. */
  heldTarget?: string;
  /** The ZIP (kind 'buffer'). */
  buffer?: Buffer;
}

/**
 * Receives decoded ZIP bytes; `finish` makes them final (after `verify`, when given, accepts the
 * complete bytes), `discard` undoes everything.
 */
interface ByteSink {
  write(bytes: Buffer): Promise<void>;
  finish(verify?: (zip: { path: string } | { buffer: Buffer }) => Promise<void>): Promise<DownloadResult>;
  discard(): Promise<void>;
}

/** `.<name>.<pid>-<random>.part` beside the ZIP: the pid tells a sweep whether its download still runs. */
function partPath(finalPath: string): string {
  return path.join(path.dirname(finalPath), `.${path.basename(finalPath)}.${process.pid}-${randomBytes(6).toString('hex')}.part`);
}

/**
 * Removes what downloads that died left in `folder` (a crash, a killed window): `.part` files of
 * processes that are gone, and an older version's (no pid in the name) after a day. A download in
 * progress in another window is never touched.
 */
export async function sweepPartialDownloads(folder: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await fs.promises.readdir(folder).catch(() => [] as string[])) {
    if (!name.startsWith('.') || !name.endsWith('.part')) continue;
    const file = path.join(folder, name);
    const m = /\.(\d+)-[0-9a-f]{12}\.part$/.exec(name);
    const dead = m
      ? Number(m[1]) !== process.pid && !processIsAlive(Number(m[1]))
      : ((await fs.promises.stat(file).catch(() => undefined))?.mtimeMs ?? Infinity) < Date.now() - 24 * 3600_000;
    if (dead && (await removeRetrying(file, { totalMs: 0 }).then(() => true, () => false))) removed.push(file);
  }
  return removed;
}

function fileSink(finalPath: string): ByteSink {
  const tempPath = partPath(finalPath);
  const out = fs.createWriteStream(tempPath, { flags: 'wx' });
  let bytes = 0;
  let failed: Error | undefined;
  out.on('error', (err) => (failed = err));
  const closed = async () => {
    if (!out.closed) {
      out.destroy();
      await once(out, 'close').catch(() => undefined);
    }
  };
  return {
    async write(chunk) {
      if (failed) throw failed;
      bytes += chunk.length;
      if (!out.write(chunk)) {
        // Rejects if the stream fails first: that error is `failed`.
        await once(out, 'drain').catch(() => undefined);
        if (failed) throw failed;
      }
    },
    async finish(verify) {
      if (failed) throw failed;
      out.end();
      await once(out, 'finish');
      await closed();
      await verify?.({ path: tempPath });
      try {
        await renameRetrying(tempPath, finalPath);
        return { bytes, path: finalPath };
      } catch (error) {
        if (!(error instanceof FileLockedError)) throw error;
        // The previous ZIP is open in another program: the new one is kept beside it, not thrown away.
        const kept = await freeNumberedName(finalPath);
        if (!kept) throw error;
        await renameRetrying(tempPath, kept);
        return { bytes, path: kept, heldTarget: finalPath };
      }
    },
    async discard() {
      await closed();
      await removeRetrying(tempPath).catch(() => undefined);
    },
  };
}

function bufferSink(expectedMax: number | undefined): ByteSink {
  // With a Content-Length the ZIP's size is known to within two bytes: one allocation, no concat.
  let buf = expectedMax !== undefined ? Buffer.allocUnsafe(expectedMax) : undefined;
  const parts: Buffer[] = [];
  let bytes = 0;
  return {
    async write(chunk) {
      if (buf && bytes + chunk.length <= buf.length) chunk.copy(buf, bytes);
      else {
        if (buf) {
          parts.push(buf.subarray(0, bytes));
          buf = undefined;
        }
        parts.push(chunk);
      }
      bytes += chunk.length;
    },
    async finish(verify) {
      const buffer = buf ? buf.subarray(0, bytes) : Buffer.concat(parts, bytes);
      await verify?.({ buffer });
      return { bytes, buffer };
    },
    async discard() {
      parts.length = 0;
      buf = undefined;
    },
  };
}

const OPERATION = 'registry.downloadList';

export function downloadRegistryList(
  http: HttpTransport,
  aliasType: AliasType,
  userType: GlobalUserType,
  target: DownloadTarget,
  opts?: CallOptions,
): Promise<DownloadResult> {
  // The one call that may follow a redirect to another origin (a file host), without the key.
  const spec = { ...requestOf(OPERATION, { AliasType: aliasType, GlobalUserType: userType }), crossOriginGet: true };
  const cap = http.limits.registryZipBytes;
  return http.stream(spec, opts, async (body, signal, contentLength) => {
    // The ZIP is 3/4 of a base64 body (or all of a raw one): a length that announces more is refused
    // before anything is written or allocated.
    if (contentLength !== undefined && contentLength * 0.75 > cap) throw tooLargeError(OPERATION, cap, 200, `${formatByteSize(contentLength)} announced`);
    const sink = target.kind === 'file' ? fileSink(target.path) : bufferSink(contentLength !== undefined ? Math.floor(contentLength * 0.75) : undefined);
    const decoder = new RegistryBodyDecoder();
    let bytes = 0;
    // Decoded ZIP bytes go to the sink and, when asked, to the reader on the way at once.
    const deliver = async (out: Buffer): Promise<void> => {
      if (!out.length) return;
      if (bytes + out.length > cap) throw tooLargeError(OPERATION, cap, 200, 'more was sent');
      await (target.onZipBytes ? Promise.all([sink.write(out), target.onZipBytes(out)]) : sink.write(out));
      bytes += out.length;
      target.onProgress?.(bytes);
    };
    try {
      try {
        for await (const chunk of body) await deliver(decoder.push(chunk));
      } catch (err) {
        if (err instanceof Base64BodyError) throw malformed(err.message);
        if (err instanceof NilveraApiError) throw err;
        // Our own cancel or time limit: the HTTP layer reports it as such.
        if (signal.aborted) throw err;
        // The connection ended before the body's Content-Length (truncated, or reset mid-body).
        throw malformed(`the body ended early (truncated: ${transportCode(err)})`);
      }
      let last: Buffer;
      try {
        last = decoder.end();
      } catch (err) {
        throw malformed((err as Error).message);
      }
      await deliver(last);
      return await sink.finish(target.verifyZip ? (zip) => verifyZip(zip, signal, target.checkedOnTheWay) : undefined);
    } catch (err) {
      await sink.discard().catch(() => undefined);
      throw err;
    }
  });
}

async function verifyZip(zip: { path: string } | { buffer: Buffer }, signal: AbortSignal, checkedOnTheWay: DownloadTarget['checkedOnTheWay']): Promise<void> {
  if (await checkedOnTheWay?.(zip).catch(() => false)) return;
  try {
    await checkZip('path' in zip ? zip.path : zip.buffer, signal);
  } catch (err) {
    // A cancel during the check is reported by the HTTP layer as such.
    if (signal.aborted) throw err;
    // An entry over the limits is no damage: it gets the registry ZIP's own message (a bomb, too large).
    if (err instanceof ZipLimitError) throw overLimit(err);
    if (err instanceof ZipError) throw malformed(`the downloaded ZIP is damaged: ${err.message}`);
    throw err;
  }
}

/**
 * Spec-silent (behaviour point registryZipEncoding): the export says "a JSON string of base64", but
 * a deployment may send the same base64 as plain text, or the raw ZIP bytes. The first bytes tell
 * which: a ZIP signature ("PK" and a record number), a quote (after optional whitespace), or a base64
 * character. Content-Type is not trusted (proxies rewrite it). Each form streams.
 */
class RegistryBodyDecoder {
  private head = Buffer.alloc(0);
  private inner: { push(chunk: Uint8Array): Buffer; end(): Buffer } | undefined;

  push(chunk: Uint8Array): Buffer {
    if (this.inner) return this.inner.push(chunk);
    this.head = Buffer.concat([this.head, chunk]);
    const start = this.head.findIndex((b) => !(b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0xef || b === 0xbb || b === 0xbf));
    // Three bytes decide a raw ZIP; fewer may still be arriving.
    if (start < 0 || (start === 0 && this.head.length < 3)) return Buffer.alloc(0);
    const first = this.head[start];
    if (start === 0 && first === 0x50 && this.head[1] === 0x4b && this.head[2] < 0x20) {
      this.inner = { push: (c) => Buffer.from(c), end: () => Buffer.alloc(0) };
    } else if (first === 0x22) {
      this.inner = new Base64JsonStringDecoder();
    } else if (/[A-Za-z0-9+/]/.test(String.fromCharCode(first))) {
      this.inner = new Base64JsonStringDecoder({ unquoted: true });
    } else {
      throw new Base64BodyError(`the body is neither a ZIP nor base64 (it starts with byte 0x${first.toString(16).padStart(2, '0')})`);
    }
    const head = this.head.subarray(start);
    this.head = Buffer.alloc(0);
    return this.inner.push(head);
  }

  end(): Buffer {
    if (!this.inner) throw new Base64BodyError('the body is empty');
    return this.inner.end();
  }
}

function malformed(description: string): NilveraApiError {
  return new NilveraApiError({ kind: 'malformed', operation: OPERATION, status: 200, messages: [{ description }] });
}

function transportCode(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' ? code : 'connection closed';
}
