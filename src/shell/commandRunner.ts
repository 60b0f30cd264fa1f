// The one wrapper every Nilvera command is registered through: it logs failures, turns them into
// actionable messages (set the key, retry), and stays silent when the user cancelled.
import * as vscode from 'vscode';
import { Commands } from '../constants';
import { actionTitle, describeError, type ErrorAction } from './errorMessages';
import { openKeyringHelp } from './keyringHelp';
import { log, logChannel } from './log';
import { prompts } from './prompts';
import { isInternalCommand, testSeamsOpen } from './testSeams';

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
    if (action === 'keyringHelp') await openKeyringHelp();
    return undefined;
  }
}

/** Told the id of every command run through the wrapper (the workspace-use signal, src/shell/workspaceUsage.ts). */
let commandObserver: ((id: string) => void) | undefined;

export function setCommandObserver(observer: ((id: string) => void) | undefined): void {
  commandObserver = observer;
}

/** The handler of each command of a feature, set when the feature has loaded (src/features/index.ts). */
const handlers = new Map<string, CommandHandler>();
/** Loads the feature that owns a command id (src/features/index.ts). */
interface CommandOwner {
  parts(): Promise<unknown>;
}
const owners = new Map<string, CommandOwner>();

/** Registers `ids` with VS Code into `subscriptions`; the first call of one loads `owner`, which registers the handlers. */
export function registerOnFirstUse(ids: readonly string[], owner: CommandOwner, subscriptions: vscode.Disposable[]): void {
  for (const id of ids) {
    owners.set(id, owner);
    subscriptions.push(vscode.commands.registerCommand(id, (...args: unknown[]) => runOwned(id, owner, args)));
  }
}

/** A command of a feature: loads the feature (once), then runs the handler it registered. */
async function runOwned(id: string, owner: CommandOwner, args: unknown[]): Promise<unknown> {
  try {
    await owner.parts();
  } catch (error) {
    // Shown like any command failure (the wrapper logs it and offers the log).
    return runCommand(id, () => Promise.reject(error), args);
  }
  const handler = handlers.get(id);
  if (!handler) throw new Error(`Nothing registered a handler for ${id}.`);
  return handler(...args);
}

/** Whether the owner of a command id registered its handler (the extension-host tests ask). */
export function hasHandler(id: string): boolean {
  return handlers.has(id);
}

/** A command without the wrapper (tree-internal clicks and test hooks). */
export function registerRawCommand(id: string, given: CommandHandler): vscode.Disposable {
  let handler = given;
  if (isInternalCommand(id)) {
    // Test hooks exist only while the test seams are open (src/shell/testSeams.ts): never registered
    // outside Test mode, and answering nothing while a test makes the extension act as in production.
    if (!owners.has(id) && !testSeamsOpen()) return new vscode.Disposable(() => undefined);
    handler = (...args: unknown[]) => (testSeamsOpen() ? given(...args) : undefined);
  }
  if (!owners.has(id)) return vscode.commands.registerCommand(id, handler);
  handlers.set(id, handler);
  return new vscode.Disposable(() => {
    if (handlers.get(id) === handler) handlers.delete(id);
  });
}

export function registerCommand(id: string, handler: CommandHandler): vscode.Disposable {
  return registerRawCommand(id, (...args: unknown[]) => {
    commandObserver?.(id);
    return runCommand(id, handler, args);
  });
}
