// The one wrapper every Nilvera command is registered through: it logs failures, turns them into
// actionable messages (set the key, retry), and stays silent when the user cancelled.
import * as vscode from 'vscode';
import { Commands } from '../constants';
import { actionTitle, describeError, type ErrorAction } from './errorMessages';
import { log, logChannel } from './log';
import { prompts } from './prompts';

export type CommandHandler = (...args: unknown[]) => unknown;

/** Runs a handler with the shell's error handling; resolves when it (and any retry) settled. */
export async function runCommand(id: string, handler: CommandHandler, args: unknown[]): Promise<unknown> {
  try {
    return await handler(...args);
  } catch (error) {
    const described = describeError(error);
    if (!described.show) return undefined;
    log.error(`${id} failed: ${error instanceof Error ? error.message : String(error)}`);
    const titles = new Map<string, ErrorAction>(described.actions.map((a) => [actionTitle(a), a]));
    const choice = await prompts.message('error', described.text, undefined, ...titles.keys());
    const action = choice ? titles.get(choice) : undefined;
    if (action === 'retry') return runCommand(id, handler, args);
    if (action === 'setApiKey') await vscode.commands.executeCommand(Commands.apiKeySet);
    if (action === 'showLog') logChannel().show(true);
    return undefined;
  }
}

/** Told the id of every command run through the wrapper (the workspace-use signal, src/shell/workspaceUsage.ts). */
let commandObserver: ((id: string) => void) | undefined;

export function setCommandObserver(observer: ((id: string) => void) | undefined): void {
  commandObserver = observer;
}

export function registerCommand(id: string, handler: CommandHandler): vscode.Disposable {
  return vscode.commands.registerCommand(id, (...args: unknown[]) => {
    commandObserver?.(id);
    return runCommand(id, handler, args);
  });
}
