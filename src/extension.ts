import * as vscode from 'vscode';
import { Commands, Settings } from './constants';
import { registerFeatures, type Feature } from './features';
import { ActivationSteps, type ActivationStep } from './shell/activationSteps';
import { clearApiKey, setApiKey } from './shell/apiKeyCommands';
import { hasHandler, registerCommand } from './shell/commandRunner';
import { startSandbox, stopSandbox, switchEnvironment } from './shell/environmentCommands';
import { disposeLogChannel, logChannel } from './shell/log';
import { replacePrompts, type Prompts } from './shell/prompts';
import { ShellServices } from './shell/services';
import { ShellState } from './shell/shellState';
import { ShellStatusBar } from './shell/statusBar';
import { actAsProduction, extensionExports, openTestSeamsFor, trustedValue, type PublicExports } from './shell/testSeams';
import { trackWorkspaceUse } from './shell/workspaceUsage';
import { registerSelectionContext } from './commands/registry/selectionContext';
import { registerUblDocumentContext } from './preview/contextKey';
import { registerWalkthroughProgress } from './walkthrough/progress';

/**
 * What activate() returns in Test mode (the extension-host suite): the activation time, and the hooks
 * the tests use. Any other mode (an installed VSIX, a debug session) returns only `PublicExports`:
 * every installed extension can read them (src/shell/testSeams.ts).
 */
export interface NilveraExtensionApi extends PublicExports {
  /** activate()'s parts, in order; their sum is activationMs. */
  activationSteps: readonly ActivationStep[];
  testing: {
    services: ShellServices;
    state: ShellState;
    statusBar: () => ShellStatusBar;
    replacePrompts(prompts: Prompts): () => void;
    /** Where this window's logs live (the suite checks them for leaked keys). */
    logUri: vscode.Uri;
    /** The features loaded on first use, and whether a loaded one registered its handler for a command. */
    features: readonly Feature[];
    hasHandler(id: string): boolean;
    /** Commands treat their callers as in production until the returned function runs. */
    actAsProduction(): () => void;
  };
}

let services: ShellServices | undefined;

// activate() only wires things up: no network and no secret reads here; the first state refresh
// (which reads the key) runs after activate() has returned. Everything beyond the shell (key,
// environment, profiles, status bar) is a feature loaded on first use (src/features/index.ts).
export function activate(context: vscode.ExtensionContext): PublicExports | NilveraExtensionApi {
  const timing = new ActivationSteps();
  openTestSeamsFor(context.extensionMode);
  const shell = new ShellServices(context);
  services = shell;
  let statusBar: ShellStatusBar | undefined;
  const getStatusBar = (): ShellStatusBar => (statusBar ??= new ShellStatusBar(shell));
  const state = new ShellState(shell, getStatusBar);

  context.subscriptions.push(
    registerCommand(Commands.apiKeySet, () => setApiKey(shell)),
    registerCommand(Commands.apiKeyClear, () => clearApiKey(shell)),
    // A target only from the tests: another extension's choice of where requests go is not taken.
    registerCommand(Commands.environmentSwitch, (target) => switchEnvironment(shell, trustedValue(target))),
    registerCommand(Commands.sandboxStart, () => startSandbox(shell)),
    registerCommand(Commands.sandboxStop, () => stopSandbox(shell)),
    registerCommand(Commands.creditsRefresh, () => getStatusBar().refreshCredits()),
    registerCommand(Commands.logShow, () => logChannel().show()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(Settings.section)) void state.refresh();
    }),
    // Fires for keys changed here, in another window (secrets.onDidChange) or kept for the session.
    shell.keys.onDidChange(() => void state.refresh()),
    { dispose: () => statusBar?.dispose() },
    trackWorkspaceUse(shell.usage, () => void state.refresh()),
    { dispose: disposeLogChannel },
    // Context keys and status bar follow a profile switch (the trees follow it in the views feature).
    shell.onDidChangeProfile(() => void state.refresh()),
    shell.profiles.onDidChangeRecords(() => void state.refresh()),
    registerSelectionContext(),
    registerUblDocumentContext(),
  );
  timing.mark('shell services, commands and listeners');
  const features = registerFeatures(context, shell, timing);
  registerWalkthroughProgress(context, shell.globalState);
  setTimeout(() => void state.refresh(), 0);
  timing.mark('walkthrough progress');

  // Any other extension can read this (getExtension(id).exports): extensionExports hands out `testing` only
  // when context.extensionMode is ExtensionMode.Test (test/suite/hostileExtension.test.ts holds it).
  return extensionExports(context.extensionMode, { activationMs: timing.totalMs, activationSteps: timing.steps }, () => ({
    services: shell,
    state,
    statusBar: getStatusBar,
    replacePrompts,
    logUri: context.logUri,
    features,
    hasHandler,
    actAsProduction,
  }));
}

export async function deactivate(): Promise<void> {
  // Stops a sandbox child process this window started.
  await services?.dispose();
  services = undefined;
}
