// The one wrapper every Nilvera command is registered through: it logs failures, turns them into
// actionable messages (set the key, retry), and stays silent when the user cancelled.
import * as vscode from 'vscode';
import { Commands } from '../constants';
import { actionTitle, describeError, type ErrorAction } from './errorMessages';
import { openKeyringHelp } from './keyringHelp';
import { log, logChannel } from './log';
import { prompts } from './prompts';

export type CommandHandler = (...args: unknown[]) => unknown;

/** Whether another part of the extension registered a command (the forms may not exist yet). */
export async function commandExists(id: string): Promise<boolean> {
  return (await vscode.commands.getCommands(true)).includes(id);
}

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
    if (action === 'keyringHelp') await openKeyringHelp();
    return undefined;
  }
}

/** Told the id of every command run through the wrapper (the workspace-use signal, src/shell/workspaceUsage.ts). */
let commandObserver: ((id: string) => void) | undefined;

export function setCommandObserver(observer: ((id: string) => void) | undefined): void {
  commandObserver = observer;
}

/**
 * Commands of features loaded on first use (src/shell/lazyFeatures.ts): activate() registers a stub for
 * each id, and the feature, once loaded, hands its handler over through registerCommand below.
 */
const lazyHandlers = new Map<string, CommandHandler | undefined>();

/** Marks `id` as registered by a stub; its handler arrives when the feature registers it. */
export function expectLazyCommand(id: string): void {
  if (!lazyHandlers.has(id)) lazyHandlers.set(id, undefined);
}

/** The handler a loaded feature registered for a stubbed id (undefined while it has none). */
export function lazyHandler(id: string): CommandHandler | undefined {
  return lazyHandlers.get(id);
}

/** Registers with VS Code, or hands the handler to the stub activate() registered for this id. */
function register(id: string, handler: CommandHandler): vscode.Disposable {
  if (!lazyHandlers.has(id)) return vscode.commands.registerCommand(id, handler);
  lazyHandlers.set(id, handler);
  return new vscode.Disposable(() => {
    if (lazyHandlers.get(id) === handler) lazyHandlers.set(id, undefined);
  });
}

export function registerCommand(id: string, handler: CommandHandler): vscode.Disposable {
  return register(id, (...args: unknown[]) => {
    commandObserver?.(id);
    return runCommand(id, handler, args);
  });
}

/** A command without the wrapper (tree-internal clicks and test hooks), stub-aware like registerCommand. */
export function registerRawCommand(id: string, handler: CommandHandler): vscode.Disposable {
  return register(id, handler);
}
