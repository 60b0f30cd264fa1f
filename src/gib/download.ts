// GİB's archives from GİB's addresses (a setting, for a mirror): each downloaded whole to a temporary
// file beside the store, checked as the engine will read it, then installed (ruleStore.ts). Only when
// the user runs a command: nothing here runs on its own. Plain Node, no vscode; the caller passes the
// fetch to use (the extension's, which honours VS Code's proxy settings; Node's own in the CLI/tests).

import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { GIB_RULES_FOLDER, installGibPackage, loadGibPackage, readGibPackage } from './ruleStore';

/** GİB's addresses (../shared/data/gib/SOURCES.md), the default of the setting. */
export const GIB_DEFAULT_URLS = {
  rules: 'https://ebelge.gib.gov.tr/dosyalar/kilavuzlar/e-FaturaPaketi.zip',
  schemas: 'https://ebelge.gib.gov.tr/dosyalar/kilavuzlar/UBL-TR1.2.1_Paketi.zip',
} as const;

export interface GibUrls {
  readonly rules: string;
  readonly schemas: string;
}

type FetchLike = (url: string, init?: { signal?: AbortSignal }) => Promise<{ ok: boolean; status: number; statusText?: string; arrayBuffer(): Promise<ArrayBuffer> }>;

export interface DownloadOptions {
  readonly signal?: AbortSignal;
  readonly fetch?: FetchLike;
  /** Called as each archive arrives ('rules' or 'schemas'). */
  readonly onArchive?: (which: keyof GibUrls, bytes: number) => void;
}

/** The download failed: the message names the address and what went wrong. */
export class GibDownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GibDownloadError';
  }
}

async function fetchTo(url: string, file: string, options: DownloadOptions): Promise<number> {
  const doFetch = options.fetch ?? (globalThis.fetch as unknown as FetchLike);
  let response: Awaited<ReturnType<FetchLike>>;
  try {
    response = await doFetch(url, { signal: options.signal });
  } catch (e) {
    if (options.signal?.aborted) throw e;
    throw new GibDownloadError(`${url} could not be reached: ${(e as Error)?.message ?? e}`);
  }
  if (!response.ok) throw new GibDownloadError(`${url} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  await writeFile(file, bytes);
  return bytes.length;
}

/** Downloads both archives into a temporary folder of this process, runs `use` on them, and removes the folder. */
async function withDownloaded<T>(storageRoot: string, urls: GibUrls, options: DownloadOptions, use: (rules: string, schemas: string) => Promise<T>): Promise<T> {
  const dir = path.join(storageRoot, GIB_RULES_FOLDER, `download-${process.pid}-${Date.now().toString(36)}`);
  await mkdir(dir, { recursive: true });
  try {
    const rules = path.join(dir, 'e-FaturaPaketi.zip');
    const schemas = path.join(dir, 'UBL-TR1.2.1_Paketi.zip');
    // (Fetched first: an optional call does not evaluate its argument when there is no callback.)
    const rulesBytes = await fetchTo(urls.rules, rules, options);
    options.onArchive?.('rules', rulesBytes);
    const schemaBytes = await fetchTo(urls.schemas, schemas, options);
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

/** "Check for newer rules": downloads, compares History.txt's newest entry with the installed one, installs when newer. */
export function checkForNewerGibPackage(storageRoot: string, urls: GibUrls, options: DownloadOptions = {}): Promise<NewerCheck> {
  return withDownloaded(storageRoot, urls, options, async (rules, schemas) => {
    const installed = (await loadGibPackage(storageRoot))?.release;
    const { release } = await readGibPackage(rules, schemas);
    const updated = !installed || release > installed; // releases are yyyymmdd
    if (updated) await installGibPackage(storageRoot, rules, schemas, urls);
    return { installed, available: release, updated };
  });
}
