import * as vscode from 'vscode';
import { Commands } from './constants';
import { clearApiKey, setApiKey } from './shell/apiKeyCommands';
import { registerCommand } from './shell/commandRunner';
import { switchEnvironment } from './shell/environmentCommands';
import { disposeLogChannel, logChannel } from './shell/log';
import { registerPlaceholderViews } from './shell/placeholderViews';
import { replacePrompts, type Prompts } from './shell/prompts';
import { startSandbox, stopSandbox } from './shell/sandboxCommands';
import { ShellServices } from './shell/services';
import { affectsShell } from './shell/settings';
import { ShellState } from './shell/shellState';
import { ShellStatusBar } from './shell/statusBar';
import { trackWorkspaceUse } from './shell/workspaceUsage';
import { registerForms } from './webviews/register';
import { registerViews } from './views/register';
import { registerPaletteCommands } from './commands/registry/registerAll';
import { registerTaxNumberHovers } from './editor/hover/register';
import { registerInvoiceDiagnostics } from './editor/diagnostics/register';
import { registerReconciliation } from './reconciliation/register';
import { registerConnectionCommands } from './commands/connection/register';
import { registerWalkthroughProgress } from './walkthrough/progress';
import { registerProfiles } from './shell/profiles/register';

/** What activate() returns: the activation time, and the hooks the extension-host tests use. */
export interface NilveraExtensionApi {
  activationMs: number;
  testing: {
    services: ShellServices;
    state: ShellState;
    statusBar: () => ShellStatusBar;
    replacePrompts(prompts: Prompts): () => void;
    /** Where this window's logs live (the suite checks them for leaked keys). */
    logUri: vscode.Uri;
  };
}

let services: ShellServices | undefined;

// activate() only wires things up: no network and no secret reads here; the first state refresh
// (which reads the key) runs after activate() has returned.
export function activate(context: vscode.ExtensionContext): NilveraExtensionApi {
  const started = performance.now();
  const shell = new ShellServices(context);
  services = shell;
  let statusBar: ShellStatusBar | undefined;
  const getStatusBar = (): ShellStatusBar => (statusBar ??= new ShellStatusBar(shell));
  const state = new ShellState(shell, getStatusBar);

  context.subscriptions.push(
    ...registerPlaceholderViews(),
    registerCommand(Commands.apiKeySet, () => setApiKey(shell)),
    registerCommand(Commands.apiKeyClear, () => clearApiKey(shell)),
    registerCommand(Commands.environmentSwitch, (target) => switchEnvironment(shell, target)),
    registerCommand(Commands.sandboxStart, () => startSandbox(shell)),
    registerCommand(Commands.sandboxStop, () => stopSandbox(shell)),
    registerCommand(Commands.creditsRefresh, () => getStatusBar().refreshCredits()),
    registerCommand(Commands.logShow, () => logChannel().show()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsShell(e)) void state.refresh();
    }),
    // Fires for keys changed here, in another window (secrets.onDidChange) or kept for the session.
    shell.keys.onDidChange(() => void state.refresh()),
    { dispose: () => statusBar?.dispose() },
    trackWorkspaceUse(shell.usage, () => void state.refresh()),
    { dispose: disposeLogChannel },
  );
  context.subscriptions.push(...registerProfiles(shell, () => void state.refresh()));
  context.subscriptions.push(...registerForms(context, shell));
  registerViews(context, shell);
  context.subscriptions.push(...registerPaletteCommands(context, shell));
  context.subscriptions.push(...registerTaxNumberHovers(context, shell));
  registerInvoiceDiagnostics(context, shell);
  registerReconciliation(context, shell);
  context.subscriptions.push(...registerConnectionCommands(context, shell));
  registerWalkthroughProgress(context);
  setTimeout(() => void state.refresh(), 0);

  return {
    activationMs: performance.now() - started,
    testing: { services: shell, state, statusBar: getStatusBar, replacePrompts, logUri: context.logUri },
  };
}

export async function deactivate(): Promise<void> {
  // Stops a sandbox child process this window started.
  await services?.dispose();
  services = undefined;
}
