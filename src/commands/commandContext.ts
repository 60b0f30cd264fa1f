// What the customer and record commands work with: the API client and the trees to refresh.
import * as vscode from 'vscode';
import type { ClientSource } from '../views/clientSource';
import type { NilveraTrees } from '../views/trees';
import { UserCancelledError } from '../shell/prompts';

export interface CommandContext {
  client: ClientSource;
  trees: NilveraTrees;
}

/** Whether another part of the extension registered a command (the forms may not exist yet). */
export async function commandExists(id: string): Promise<boolean> {
  return (await vscode.commands.getCommands(true)).includes(id);
}

/** An answer or a UserCancelledError (the command wrapper ends the command silently). */
export function required<T>(value: T | undefined): T {
  if (value === undefined) throw new UserCancelledError();
  return value;
}

/** Opens a record read-only (a virtual document, never an untitled editor that asks to be saved). */
export { showRecord } from './recordDocument';
