// Registry list download and offline search. The ZIP goes to a temporary file that is renamed when
// complete and checked (src/api/registryDownload.ts); the offline index is built while it downloads
// and swapped in atomically once the file is good (src/registry/streamingIndex.ts). Searching needs
// no network.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PaletteCommands } from '../../constants';
import { ALIAS_TYPES, GLOBAL_USER_TYPES, type AliasType, type GlobalUserType } from '../../api/types';
import { enumValue } from '../../domain/enumValue';
import type { Taxpayer } from '../../domain/registryXml';
import type { DownloadedIndex, RegistryIndexReader } from '../../registry';
import { isApiError } from '../../shell/apiContract';
import { formatBytes, formatCount, formatDateTime } from '../../shell/displayFormat';
import { UserFacingError } from '../../shell/errorMessages';
import { log } from '../../shell/log';
import { prompts, UserCancelledError } from '../../shell/prompts';
import { leaseCurrentIndex, releaseIndexFolder } from '../../registry/listStorage';
import { closeOfflineRegistries, invalidateOfflineRegistries, registryIndexRoot } from '../../registry/offlineLookup';
import type { PaletteContext } from './paletteContext';
import { registryListsFolder, registryZipName } from '../../registry/listMaintenance';
import { upgradeListIfNeeded } from './indexUpgrade';
import { detailFromTaxpayer, type RegistryDetail } from './registryDetail';
import { askAliasType, askUserType } from './registryPrompts';
import { withCancellableProgress } from '../../shell/cancellableProgress';

export interface DownloadArgs {
  aliasType?: AliasType;
  userType?: GlobalUserType;
  /** Folder for the ZIP; default: the extension's global storage. */
  folder?: string;
  /** Tests: cancels like the notification's Cancel button. */
  cancellation?: vscode.CancellationToken;
}

/** A list kind a caller named: absent, or one of `allowed` (it names folders and files), else a clear refusal. */
function listKind<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  const known = enumValue(value, allowed);
  if (!known) throw new UserFacingError(vscode.l10n.t('"{0}" is not a registry list type: use {1}.', String(value), allowed.join(', ')));
  return known;
}

/** The last opened index, kept open between searches (its word dictionary is loaded once), marked as in use. */
let openReader: RegistryIndexReader | undefined;

export function closeOpenReader(): void {
  openReader?.close();
  if (openReader) releaseIndexFolder(openReader.folder);
  openReader = undefined;
}

export function indexRoot(ctx: Pick<PaletteContext, 'extension'>): string {
  return registryIndexRoot(ctx.extension.globalStorageUri.fsPath);
}

async function askFolder(ctx: PaletteContext): Promise<string> {
  const storage = { label: vscode.l10n.t('Extension storage'), description: vscode.l10n.t('recommended'), folder: registryListsFolder(ctx.extension.globalStorageUri.fsPath) };
  const choose = { label: vscode.l10n.t('Choose a folder…'), folder: '' };
  const picked = await prompts.quickPick([storage, choose], { title: vscode.l10n.t('Where should the list ZIP be saved?'), ignoreFocusOut: true });
  if (!picked) throw new UserCancelledError();
  if (picked.folder) return picked.folder;
  const chosen = await prompts.openDialog({ canSelectFiles: false, canSelectFolders: true, canSelectMany: false, openLabel: vscode.l10n.t('Save Here') });
  if (!chosen?.[0]) throw new UserCancelledError();
  return chosen[0].fsPath;
}

/** The notification's text while the ZIP downloads and the index is built on the way: one message for both. */
function downloadProgress(progress: vscode.Progress<{ message?: string }>) {
  let zipBytes = 0;
  let shownAt = 0;
  let indexed = 0;
  let done = false;
  const show = (): void => {
    const message = done
      ? indexed > 0 ? vscode.l10n.t('indexing… {0} taxpayers', formatCount(indexed)) : vscode.l10n.t('indexing…')
      : indexed > 0 ? vscode.l10n.t('{0} downloaded, {1} taxpayers indexed', formatBytes(zipBytes), formatCount(indexed)) : vscode.l10n.t('{0} downloaded', formatBytes(zipBytes));
    progress.report({ message });
  };
  return {
    downloading(bytes: number): void {
      zipBytes = bytes;
      if (bytes - shownAt < 256 * 1024) return;
      shownAt = bytes;
      show();
    },
    indexing(taxpayers: number): void {
      indexed = taxpayers;
      show();
    },
    downloaded(): void {
      done = true;
      show();
    },
  };
}

/** "Download Registry List": the ZIP to disk and the offline index built on the way, cancellable. */
export async function downloadRegistryList(ctx: PaletteContext, args: DownloadArgs = {}): Promise<DownloadedIndex> {
  const aliasType = listKind(args.aliasType, ALIAS_TYPES) ?? (await askAliasType());
  const userType = listKind(args.userType, GLOBAL_USER_TYPES) ?? (await askUserType(ctx));
  const folder = typeof args.folder === 'string' && args.folder ? args.folder : await askFolder(ctx);
  await fs.promises.mkdir(folder, { recursive: true });
  const zipPath = path.join(folder, registryZipName(aliasType, userType));
  const client = await ctx.shell.client();
  // What an earlier download that died left in this folder (a chosen folder is swept only here).
  const { sweepPartialDownloads } = await import('../../api/registryDownload');
  await sweepPartialDownloads(folder);
  const registry = await import('../../registry');

  const outcome = await withCancellableProgress(
    vscode.l10n.t('Registry list {0}/{1}', aliasType, userType),
    async (signal, progress) => {
      try {
        const shown = downloadProgress(progress);
        const result = await registry.downloadAndIndex(
          (hooks) =>
            client.registry
              .downloadList(
                aliasType,
                userType,
                {
                  kind: 'file',
                  path: zipPath,
                  // A damaged ZIP must not replace a good one: checked before the rename.
                  verifyZip: true,
                  ...hooks,
                  onProgress: (bytes) => shown.downloading(bytes),
                },
                // A download may take minutes: no overall time limit, the user cancels.
                { signal, timeoutMs: 24 * 3600 * 1000 },
              )
              .finally(() => shown.downloaded()),
          zipPath,
          registry.indexStorageDir(indexRoot(ctx), aliasType, userType),
          { aliasType, userType },
          {
            signal,
            onProgress: (n) => shown.indexing(n),
            // Windows cannot remove a folder with open files: let go of the index being replaced.
            beforeInstall: () => {
              closeOpenReader();
              closeOfflineRegistries();
            },
          },
        );
        if (!result.streamed) log.info(`registry list ${aliasType}/${userType}: indexed from the finished file (${result.notStreamedBecause ?? 'unknown reason'})`);
        else log.info(`registry list ${aliasType}/${userType}: ${result.meta.taxpayers} taxpayers indexed while downloading, records and title words written in ${result.writtenIn === 'worker' ? 'a worker thread' : 'the extension host thread'}`);
        return result;
      } catch (error) {
        if (error instanceof registry.IndexDeferredError) throw error;
        if (signal.aborted || error instanceof registry.IndexBuildCancelledError) throw new UserCancelledError();
        throw error;
      }
    },
    args.cancellation,
  ).then(undefined, (error: unknown) => {
    if (!(error instanceof UserCancelledError) && !isApiError(error)) log.error(`registry download: ${String(error)}`);
    if (error instanceof registry.IndexDeferredError) return indexLater(ctx, aliasType, userType, error);
    throw error;
  });
  invalidateOfflineRegistries();
  log.info(`registry list ${aliasType}/${userType}: ${outcome.meta.taxpayers} taxpayers, ${outcome.zipBytes} bytes, indexed`);
  if (outcome.heldTarget) log.warn(`registry list ${aliasType}/${userType}: ${outcome.heldTarget} is held by another program; the new ZIP is ${outcome.zipPath}`);
  const search = vscode.l10n.t('Search Now');
  const ready = vscode.l10n.t('Registry list {0}/{1} downloaded ({2}, {3} taxpayers) and ready for offline search.', aliasType, userType, formatBytes(outcome.zipBytes), formatCount(outcome.meta.taxpayers));
  // One message: the list is ready, and where it went when the previous ZIP was held.
  const text = outcome.heldTarget
    ? `${ready} ${vscode.l10n.t('{0} is open in another program, so the new list was saved beside it as {1}.', path.basename(outcome.heldTarget), path.basename(outcome.zipPath))}`
    : ready;
  void prompts
    .message(outcome.heldTarget ? 'warning' : 'info', text, undefined, search)
    .then((choice) => (choice === search ? vscode.commands.executeCommand(PaletteCommands.registrySearchOffline, { aliasType, userType }) : undefined));
  return outcome;
}

/**
 * The download is whole and checked, but a file its index needed stayed held by another program: the
 * ZIP is kept and marked to be indexed later. The user is told which file, and may index it now.
 */
async function indexLater(ctx: PaletteContext, aliasType: AliasType, userType: GlobalUserType, error: { zipPath: string; lock: { path: string } }): Promise<never> {
  const indexNow = vscode.l10n.t('Index Now');
  const choice = await prompts.message(
    'warning',
    vscode.l10n.t(
      'The registry list {0}/{1} was downloaded and kept ({2}), but its offline index could not be put in place: {3} is open in another program. It will be indexed the next time VS Code starts.',
      aliasType,
      userType,
      error.zipPath,
      error.lock.path,
    ),
    undefined,
    indexNow,
  );
  if (choice === indexNow) await upgradeListIfNeeded(ctx.extension.globalStorageUri.fsPath, aliasType, userType);
  throw new UserCancelledError();
}

export interface OfflineSearchArgs {
  aliasType?: AliasType;
  userType?: GlobalUserType;
  query?: string;
  /** Tests: return the results instead of opening one. */
  noOpen?: boolean;
}

export interface OfflineSearchOutcome {
  details: RegistryDetail[];
  total: number;
  downloadedAt: string;
  opened?: RegistryDetail;
}

/**
 * The list's index reader. An index of an older format is rebuilt from its ZIP first (or the user is
 * asked to download again); a damaged one is reported, never read.
 */
async function openCurrentFormat(ctx: PaletteContext, aliasType: AliasType, userType: GlobalUserType): Promise<RegistryIndexReader> {
  const registry = await import('../../registry');
  const dir = registry.indexStorageDir(indexRoot(ctx), aliasType, userType);
  const open = (): RegistryIndexReader => {
    const folder = leaseCurrentIndex(dir);
    if (!folder) throw new registry.RegistryIndexError('corrupt', `${dir} names no complete index`);
    try {
      return registry.RegistryIndexReader.openFolder(folder);
    } catch (error) {
      releaseIndexFolder(folder);
      throw error;
    }
  };
  try {
    return open();
  } catch (error) {
    if (!(error instanceof registry.RegistryIndexError)) throw error;
    const upgraded = await upgradeListIfNeeded(ctx.extension.globalStorageUri.fsPath, aliasType, userType);
    if (upgraded) return open();
    if (upgraded === false) throw new UserCancelledError();
    log.error(`registry index ${aliasType}/${userType}: ${error.message}`);
    throw new UserFacingError(vscode.l10n.t('The downloaded list {0}/{1} is damaged; download it again.', aliasType, userType));
  }
}

/** "Search Downloaded Registry": by tax number (instant) or title words/prefix, no network. */
export async function searchOffline(ctx: PaletteContext, args: OfflineSearchArgs = {}): Promise<OfflineSearchOutcome> {
  const registry = await import('../../registry');
  const root = indexRoot(ctx);
  const available: Array<{ aliasType: AliasType; userType: GlobalUserType; downloadedAt: string; taxpayers: number }> = [];
  const aliasType = listKind(args.aliasType, ALIAS_TYPES);
  const userType = listKind(args.userType, GLOBAL_USER_TYPES);
  for (const a of aliasType ? [aliasType] : ALIAS_TYPES) {
    for (const u of userType ? [userType] : GLOBAL_USER_TYPES) {
      const folder = registry.currentIndexFolder(registry.indexStorageDir(root, a, u));
      if (!folder) continue;
      const meta = JSON.parse(fs.readFileSync(path.join(folder, 'meta.json'), 'utf8')) as { downloadedAt: string; taxpayers: number };
      available.push({ aliasType: a, userType: u, downloadedAt: meta.downloadedAt, taxpayers: meta.taxpayers });
    }
  }
  if (available.length === 0) {
    const download = vscode.l10n.t('Download List');
    const choice = await prompts.message('info', vscode.l10n.t('No registry list has been downloaded yet.'), undefined, download);
    if (choice === download) await vscode.commands.executeCommand(PaletteCommands.registryDownload);
    throw new UserCancelledError();
  }
  let list = available[0];
  if (available.length > 1) {
    const picked = await prompts.quickPick(
      available.map((l) => ({ label: `${l.aliasType} / ${l.userType}`, description: vscode.l10n.t('downloaded {0}, {1} taxpayers', formatDateTime(l.downloadedAt), formatCount(l.taxpayers)), list: l })),
      { title: vscode.l10n.t('Search which downloaded list?') },
    );
    if (!picked) throw new UserCancelledError();
    list = picked.list;
  }
  const downloaded = formatDateTime(list.downloadedAt);
  const query =
    args.query ??
    (await prompts.inputBox({
      title: vscode.l10n.t('Search Downloaded Registry ({0}/{1}, downloaded {2})', list.aliasType, list.userType, downloaded),
      prompt: vscode.l10n.t('A tax number, or words of the title (the last one may be a prefix)'),
      ignoreFocusOut: true,
      validateInput: (text) => (text.trim() ? undefined : vscode.l10n.t('Type a tax number or a word.')),
    }));
  if (query === undefined) throw new UserCancelledError();

  const folder = registry.currentIndexFolder(registry.indexStorageDir(root, list.aliasType, list.userType));
  if (!folder) throw new UserFacingError(vscode.l10n.t('The downloaded list could not be opened; download it again.'));
  if (openReader?.folder !== folder) {
    closeOpenReader();
    openReader = await openCurrentFormat(ctx, list.aliasType, list.userType);
  }
  const byNumber = /^\s*\d{10,11}\s*$/.test(query) ? [openReader.byTaxNumber(query.trim())].filter((t): t is Taxpayer => t !== undefined) : undefined;
  const found = byNumber ? { taxpayers: byNumber, total: byNumber.length } : openReader.searchWords(query, 200);
  const details = found.taxpayers.map((t) => detailFromTaxpayer(t, list.aliasType, list.downloadedAt));
  if (args.noOpen) return { details, total: found.total, downloadedAt: list.downloadedAt };
  if (details.length === 0) {
    await prompts.message('info', vscode.l10n.t('Nothing in the {0}/{1} list downloaded {2} matches "{3}".', list.aliasType, list.userType, downloaded, query.trim()));
    return { details, total: 0, downloadedAt: list.downloadedAt };
  }
  let chosen = details[0];
  if (details.length > 1) {
    const picked = await prompts.quickPick(
      details.map((d) => ({ label: d.title, description: d.taxNumber, detail: d.aliases.filter((a) => !a.deleted).map((a) => a.name).join(', '), d })),
      { title: vscode.l10n.t('{0} matches (of {1}) in the list downloaded {2}', details.length, found.total, downloaded), matchOnDescription: true },
    );
    if (!picked) throw new UserCancelledError();
    chosen = picked.d;
  }
  await ctx.details.open(chosen);
  return { details, total: found.total, downloadedAt: list.downloadedAt, opened: chosen };
}
