// What the customer and record commands work with: the API client and the trees to refresh.
import * as vscode from 'vscode';
import type { ShellServices } from '../shell/services';
import type { NilveraTrees } from '../views/trees';
import type { DataArea } from '../shell/dataChanges';
import type { EnvironmentId } from '../shell/environments';
import { prompts, UserCancelledError } from '../shell/prompts';
import { trustedUri } from '../shell/testSeams';

export interface TreeCommandContext {
  client: ShellServices['client'];
  trees: NilveraTrees;
  /** The active profile's environment ("production" is the live account). */
  environment(): EnvironmentId;
}

/** An answer or a UserCancelledError (the command wrapper ends the command silently). */
export function required<T>(value: T | undefined): T {
  if (value === undefined) throw new UserCancelledError();
  return value;
}

/** The file the tests name (Test mode only: no menu passes one), else the one the user picks. */
export async function fileArgOrPick(arg: unknown, options: vscode.OpenDialogOptions): Promise<string> {
  const given = trustedUri(arg);
  if (given) return given.fsPath;
  const file = required(await prompts.openDialog({ ...options, canSelectMany: false }))[0]?.fsPath;
  if (!file) throw new vscode.CancellationError();
  return file;
}

/** Asks before a delete the API cannot undo; on "Delete", runs it and refreshes `area`. */
export async function confirmDelete(
  ctx: TreeCommandContext,
  area: DataArea,
  question: string,
  detail: string,
  remove: () => Promise<unknown>,
): Promise<void> {
  const action = vscode.l10n.t('Delete');
  if ((await prompts.message('warning', question, { modal: true, detail }, action)) !== action) return;
  await remove();
  ctx.trees.dataChanged(area);
}
