// GİB's archives from GİB's addresses (a setting, for a mirror): each downloaded whole to a temporary
// file beside the store, checked as the engine will read it, then installed (ruleStore.ts). Only when
// the user runs a command: nothing here runs on its own. Plain Node, no vscode; the caller passes the
// fetch to use (the extension's, which honours VS Code's proxy settings; Node's own in the CLI/tests).

import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { processIsAlive } from '../files/lockedFiles';
import * as path from 'node:path';
import { HISTORY_ENTRY, inspectGibSource, RULES_ENTRY } from './packageKind';
import { GIB_RULES_FOLDER, installGibPackage, loadGibPackage, readGibPackage } from './ruleStore';

import type { GibUrls } from './gibAddresses';
export { GIB_DEFAULT_URLS, type GibUrls } from './gibAddresses';

type FetchLike = (url: string, init?: { signal?: AbortSignal }) => Promise<{ ok: boolean; status: number; statusText?: string; arrayBuffer(): Promise<ArrayBuffer> }>;

export interface DownloadOptions {
  readonly signal?: AbortSignal;
  readonly fetch?: FetchLike;
  /** Called as each archive arrives ('rules' or 'schemas'). */
  readonly onArchive?: (which: keyof GibUrls, bytes: number) => void;
}

/**
 * Why a download failed, for a message in the user's language: the address could not be reached
 * (`detail`: the system's reason, e.g. ENOTFOUND), answered an HTTP error (`status`), sent something
 * that is not a ZIP, or a ZIP that is not the package expected there (`missing`: the entry it lacks).
 */
export type GibDownloadProblem =
  | { readonly kind: 'unreachable'; readonly detail: string }
  | { readonly kind: 'status'; readonly status: number }
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

async function fetchTo(which: keyof GibUrls, url: string, file: string, options: DownloadOptions): Promise<number> {
  const doFetch = options.fetch ?? (globalThis.fetch as unknown as FetchLike);
  let response: Awaited<ReturnType<FetchLike>>;
  try {
    response = await doFetch(url, { signal: options.signal });
  } catch (e) {
    if (options.signal?.aborted) throw e;
    throw new GibDownloadError(`${url} could not be reached: ${(e as Error)?.message ?? e}`, url, which, { kind: 'unreachable', detail: reasonOf(e) });
  }
  if (!response.ok) throw new GibDownloadError(`${url} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, url, which, { kind: 'status', status: response.status });
  let bytes: Buffer;
  try {
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (e) {
    if (options.signal?.aborted) throw e;
    throw new GibDownloadError(`${url} stopped sending: ${(e as Error)?.message ?? e}`, url, which, { kind: 'unreachable', detail: reasonOf(e) });
  }
  await writeFile(file, bytes);
  await checkArchive(which, url, file);
  return bytes.length;
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
