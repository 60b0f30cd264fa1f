// What the user is told about a file the extension wrote for them (src/files/userFiles.ts): where it
// went, that a file they have open in Excel could not be replaced (and where the new one is instead,
// with "Try Again" to put it in place once they closed it), and why a write failed, in words.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FileLockedError, renameRetrying } from '../files/lockedFiles';
import { spreadsheetSaveChoice, type SavedFile } from '../files/userFiles';
import { isApiError } from './apiContract';
import { UserFacingError } from './errorMessages';
import { prompts, type MessageLevel } from './prompts';

/**
 * Asks where to save a workbook or a CSV (`baseName`.xlsx or .csv in the first workspace folder; the
 * workbook first where VS Code is in Turkish): the chosen path, or undefined when the user cancelled.
 */
export async function askSpreadsheetTarget(baseName: string, title: string): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const choice = spreadsheetSaveChoice(vscode.env.language, baseName, { xlsx: vscode.l10n.t('Excel workbook'), csv: 'CSV' });
  const target = await prompts.saveDialog({ title, filters: choice.filters, ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, choice.defaultName) } : {}) });
  return target?.fsPath;
}

/** "customers.csv is open in another program, e.g. Excel: close it and try again." */
export function heldFileText(file: string): string {
  return vscode.l10n.t('{0} is open in another program, e.g. Excel: close it and try again.', file);
}

/**
 * A failure while writing `target`, in words (held open, no permission, disk full, folder gone), as a
 * UserFacingError; the previous file is unchanged in every case. API errors and cancellations pass
 * through as they are.
 */
export function fileWriteError(error: unknown, target: string): unknown {
  if (isApiError(error) || !(error instanceof Error)) return error;
  if (error instanceof FileLockedError) return new UserFacingError(`${heldFileText(error.path)} ${vscode.l10n.t('Nothing was changed.')}`);
  const code = (error as NodeJS.ErrnoException).code;
  const syscall = (error as NodeJS.ErrnoException).syscall;
  if (!code || !syscall) return error;
  const folder = path.dirname(target);
  const denied = () => vscode.l10n.t('{0} could not be written: you have no permission to write in {1}. Nothing was changed.', target, folder);
  const full = () => vscode.l10n.t('{0} could not be written: the disk is full. Nothing was changed.', target);
  const texts: Record<string, () => string> = {
    EACCES: denied,
    EPERM: denied,
    EROFS: () => vscode.l10n.t('{0} could not be written: {1} is on a read-only drive. Nothing was changed.', target, folder),
    ENOSPC: full,
    EDQUOT: full,
    ENOENT: () => vscode.l10n.t('{0} could not be written: the folder {1} no longer exists.', target, folder),
  };
  return new UserFacingError(Object.hasOwn(texts, code) ? texts[code]() : vscode.l10n.t('{0} could not be written ({1}). Nothing was changed.', target, error.message));
}

/**
 * Says where a file went: `text(path)` as it is (without waiting for the message to close), or, when
 * the chosen file was held open, that it is open in another program and the new file's name, with "Try
 * Again" to move the new file into place (asked again while it is still held); then it resolves once
 * the user has answered, with where the file ended up.
 */
export async function reportSavedFile(saved: SavedFile, text: (file: string) => string, level: MessageLevel = 'info'): Promise<SavedFile> {
  if (!saved.heldTarget) {
    void prompts.message(level, text(saved.path));
    return saved;
  }
  const held = { path: saved.path, heldTarget: saved.heldTarget };
  const tryAgain = vscode.l10n.t('Try Again');
  for (;;) {
    const message = `${heldFileText(held.heldTarget)} ${vscode.l10n.t('The new file was saved as {0}.', held.path)} ${text(held.path)}`;
    const choice = await prompts.message('warning', message, undefined, tryAgain);
    if (choice !== tryAgain) return held;
    try {
      await renameRetrying(held.path, held.heldTarget, { totalMs: 2_000 });
    } catch (error) {
      if (error instanceof FileLockedError) continue;
      throw fileWriteError(error, held.heldTarget);
    }
    const moved = { path: held.heldTarget };
    void prompts.message('info', text(moved.path));
    return moved;
  }
}
