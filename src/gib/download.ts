// GİB's archives from GİB's addresses (a setting, for a mirror): each streamed to a temporary file
// beside the store, checked as the engine will read it, then installed (ruleStore.ts). What an address
// sends is held to a size cap and time limits (a mirror that streams without end or stalls is given
// up, naming what happened). Runs only from a user's command. Plain Node; the caller passes the fetch
// (the extension's honours VS Code's proxy settings).

import { mkdir, open, readdir, rm } from 'node:fs/promises';
import { processIsAlive } from '../files/lockedFiles';
import * as path from 'node:path';
import { closeBody, declaredLength } from '../api/bodyLimits';
import { formatByteSize } from '../domain/byteSize';
import { HISTORY_ENTRY, inspectGibSource, RULES_ENTRY } from './packageKind';
import { GIB_RULES_FOLDER, installGibPackage, loadGibPackage, readGibPackage } from './ruleStore';

import type { GibUrls } from './gibAddresses';

type FetchLike = (
  url: string,
  init: { signal: AbortSignal },
) => Promise<{ ok: boolean; status: number; statusText?: string; headers: { get(name: string): string | null }; body: AsyncIterable<Uint8Array> | null }>;

/**
 * The most one archive may be. GİB's are 0.7 MB (e-FaturaPaketi.zip) and 1.0 MB (UBL-TR1.2.1_Paketi.zip,
 * ../shared/data/gib/); 64 MB leaves room for years of growth and still stops a mirror that sends
 * without end before it fills the disk.
 */
export const MAX_GIB_ARCHIVE_BYTES = 64 * 1024 * 1024;
/** Time for an address to answer (connect, TLS, the response's headers) before the download is given up. */
const GIB_RESPONSE_TIMEOUT_MS = 30_000;
/** Time an archive may send nothing while its body arrives before the download is given up. */
const GIB_STALL_TIMEOUT_MS = 30_000;

/** The caps of one download; the tests lower them to stay small and fast. */
export interface GibDownloadLimits {
  readonly archiveBytes?: number;
  readonly responseMs?: number;
  readonly stallMs?: number;
}

export interface DownloadOptions {
  readonly signal?: AbortSignal;
  readonly fetch?: FetchLike;
  readonly limits?: GibDownloadLimits;
  /** Called as each archive arrives ('rules' or 'schemas'). */
  readonly onArchive?: (which: keyof GibUrls, bytes: number) => void;
}

/**
 * Why a download failed, for a message in the user's language (`detail`: the system's reason, e.g.
 * ENOTFOUND; `limit`: the cap written out, e.g. "64 MB"; `announced`: a Content-Length past it;
 * `missing`: the entry a ZIP that is not the package expected lacks).
 */
export type GibDownloadProblem =
  | { readonly kind: 'unreachable'; readonly detail: string }
  | { readonly kind: 'status'; readonly status: number }
  | { readonly kind: 'tooLarge'; readonly limit: string; readonly announced?: string }
  | { readonly kind: 'noAnswer'; readonly seconds: number }
  | { readonly kind: 'stalled'; readonly seconds: number }
  | { readonly kind: 'notZip'; readonly detail: string }
  | { readonly kind: 'wrongArchive'; readonly missing: string };

/** The download failed: the message names the address and what went wrong; nothing was installed. */
export class GibDownloadError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly which: keyof GibUrls,
    readonly problem: GibDownloadProblem,
  ) {
    super(message);
    this.name = 'GibDownloadError';
  }
}

/** The system's reason a fetch failed (Node's fetch hides it in `cause`). */
function reasonOf(e: unknown): string {
  const cause = (e as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return (e as Error)?.message ?? String(e);
}

/** Checks a downloaded archive is a ZIP and the package expected from that address, before anything is installed. */
async function checkArchive(which: keyof GibUrls, url: string, file: string): Promise<void> {
  const contents = await inspectGibSource(file, { verify: true });
  if (contents.unreadable) throw new GibDownloadError(`${url} did not send a readable ZIP: ${contents.detail ?? contents.unreadable}`, url, which, { kind: 'notZip', detail: contents.detail ?? '' });
  const missing = which === 'rules' ? (!contents.rules ? RULES_ENTRY : !contents.history ? HISTORY_ENTRY : undefined) : contents.missingSchema;
  if (missing) throw new GibDownloadError(`${url} is not GİB's ${which === 'rules' ? 'e-FaturaPaketi' : 'UBL-TR1.2.1_Paketi'}: it has no ${missing}`, url, which, { kind: 'wrongArchive', missing });
}

/** Seconds as a message shows them: 30, or 0.2 for the tests' short limits. */
function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

/**
 * One archive into `file`, streamed: a Content-Length past the cap is refused before the body is read,
 * a body that passes it is stopped there, and the download is given up when the address does not
 * answer within the response limit or, once the body arrives, sends nothing for the stall limit.
 */
async function fetchTo(which: keyof GibUrls, url: string, file: string, options: DownloadOptions): Promise<number> {
  const doFetch = options.fetch ?? (globalThis.fetch as unknown as FetchLike);
  const cap = options.limits?.archiveBytes ?? MAX_GIB_ARCHIVE_BYTES;
  const fail = (message: string, problem: GibDownloadProblem) => new GibDownloadError(`${url} ${message}`, url, which, problem);
  // One controller for the user's Cancel and our own limits; `expired` says which limit ran out.
  const controller = new AbortController();
  const cancel = () => controller.abort();
  options.signal?.addEventListener('abort', cancel, { once: true });
  if (options.signal?.aborted) controller.abort();
  let expired: GibDownloadProblem | undefined;
  let timer: NodeJS.Timeout | undefined;
  const limitTo = (ms: number, problem: GibDownloadProblem) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      expired = problem;
      controller.abort();
    }, ms);
  };
  const responseMs = options.limits?.responseMs ?? GIB_RESPONSE_TIMEOUT_MS;
  const stallMs = options.limits?.stallMs ?? GIB_STALL_TIMEOUT_MS;
  const stalled: GibDownloadProblem = { kind: 'stalled', seconds: seconds(stallMs) };
  const timedOut = (): GibDownloadError | undefined =>
    expired?.kind === 'noAnswer'
      ? fail(`did not answer within ${expired.seconds} s`, expired)
      : expired?.kind === 'stalled'
        ? fail(`sent nothing for ${expired.seconds} s; the download was stopped`, expired)
        : undefined;
  try {
    limitTo(responseMs, { kind: 'noAnswer', seconds: seconds(responseMs) });
    let response: Awaited<ReturnType<FetchLike>>;
    try {
      response = await doFetch(url, { signal: controller.signal });
    } catch (e) {
      if (options.signal?.aborted) throw e;
      throw timedOut() ?? fail(`could not be reached: ${(e as Error)?.message ?? e}`, { kind: 'unreachable', detail: reasonOf(e) });
    }
    if (!response.ok) {
      closeBody(response.body);
      throw fail(`answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, { kind: 'status', status: response.status });
    }
    const announced = declaredLength(response.headers.get('content-length'));
    if (announced !== undefined && announced > cap) {
      closeBody(response.body);
      const [limit, said] = [formatByteSize(cap), formatByteSize(announced)];
      throw fail(`is larger than ${limit} (it announced ${said}); nothing was read`, { kind: 'tooLarge', limit, announced: said });
    }
    const out = await open(file, 'wx');
    let bytes = 0;
    try {
      limitTo(stallMs, stalled);
      // Leaving the loop (a throw) closes the body, and with it the connection.
      for await (const chunk of response.body ?? []) {
        limitTo(stallMs, stalled);
        bytes += chunk.byteLength;
        if (bytes > cap) {
          const limit = formatByteSize(cap);
          throw fail(`sent more than ${limit}; the download was stopped`, { kind: 'tooLarge', limit });
        }
        await out.write(chunk);
      }
    } catch (e) {
      if (e instanceof GibDownloadError || options.signal?.aborted) throw e;
      throw timedOut() ?? fail(`stopped sending: ${(e as Error)?.message ?? e}`, { kind: 'unreachable', detail: reasonOf(e) });
    } finally {
      clearTimeout(timer);
      await out.close();
    }
    await checkArchive(which, url, file);
    return bytes;
  } finally {
    clearTimeout(timer);
    controller.abort();
    options.signal?.removeEventListener('abort', cancel);
  }
}

const DOWNLOAD_FOLDER = /^download-(\d+)-[0-9a-z]+$/;

/** What a download of a process that has ended (a crash, a closed window) left: removed. */
export async function sweepStaleDownloads(storageRoot: string): Promise<void> {
  const root = path.join(storageRoot, GIB_RULES_FOLDER);
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(DOWNLOAD_FOLDER.exec(name)?.[1]);
    if (pid && pid !== process.pid && !processIsAlive(pid)) await rm(path.join(root, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Downloads both archives into a temporary folder of this process, runs `use` on them, and removes the folder. */
async function withDownloaded<T>(storageRoot: string, urls: GibUrls, options: DownloadOptions, use: (rules: string, schemas: string) => Promise<T>): Promise<T> {
  await sweepStaleDownloads(storageRoot);
  const dir = path.join(storageRoot, GIB_RULES_FOLDER, `download-${process.pid}-${Date.now().toString(36)}`);
  await mkdir(dir, { recursive: true });
  try {
    const rules = path.join(dir, 'e-FaturaPaketi.zip');
    const schemas = path.join(dir, 'UBL-TR1.2.1_Paketi.zip');
    // (Fetched first: an optional call does not evaluate its argument when there is no callback.)
    const rulesBytes = await fetchTo('rules', urls.rules, rules, options);
    options.onArchive?.('rules', rulesBytes);
    const schemaBytes = await fetchTo('schemas', urls.schemas, schemas, options);
    options.onArchive?.('schemas', schemaBytes);
    return await use(rules, schemas);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** "Download GİB Validation Rules": fetches both archives and installs them; returns the release. */
export function downloadGibPackage(storageRoot: string, urls: GibUrls, options: DownloadOptions = {}): Promise<string> {
  return withDownloaded(storageRoot, urls, options, (rules, schemas) => installGibPackage(storageRoot, rules, schemas, urls));
}

export interface NewerCheck {
  readonly installed: string | undefined;
  readonly available: string;
  /** The available release was newer and is now installed. */
  readonly updated: boolean;
}

/**
 * "Check for newer rules": downloads, compares History.txt's newest entry with the installed one, installs
 * when newer and `confirm` (asked only then; absent: yes) agrees.
 */
export function checkForNewerGibPackage(
  storageRoot: string,
  urls: GibUrls,
  options: DownloadOptions & { confirm?: (installed: string | undefined, available: string) => Promise<boolean> } = {},
): Promise<NewerCheck> {
  return withDownloaded(storageRoot, urls, options, async (rules, schemas) => {
    const installed = (await loadGibPackage(storageRoot))?.release;
    const { release } = await readGibPackage(rules, schemas);
    const newer = !installed || release > installed; // releases are yyyymmdd
    const updated = newer && (options.confirm ? await options.confirm(installed, release) : true);
    if (updated) await installGibPackage(storageRoot, rules, schemas, urls);
    return { installed, available: release, updated };
  });
}
