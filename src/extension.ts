import * as vscode from 'vscode';
import { Commands, Settings } from './constants';
import { registerFeatures, watchForFeatures, type Feature } from './features';
import { ActivationSteps } from './shell/activationSteps';
import { clearApiKey, setApiKey } from './shell/apiKeyCommands';
import { hasHandler, registerCommand } from './shell/commandRunner';
import { startSandbox, stopSandbox, switchEnvironment } from './shell/environmentCommands';
import { disposeLogChannel, logChannel } from './shell/log';
import { replacePrompts } from './shell/prompts';
import { ShellServices } from './shell/services';
import { ShellState } from './shell/shellState';
import { actAsProduction, extensionExports, openTestSeamsFor, trustedValue, type PublicExports } from './shell/testSeams';
import { markUsedOnCommands, trackWorkspaceUse } from './shell/workspaceUsage';
import { registerSelectionContext } from './commands/registry/selectionContext';
import { registerUblDocumentContext } from './preview/contextKey';
import { registerWalkthroughProgress } from './walkthrough/progress';

/**
 * What activate() returns in Test mode (the extension-host suite): the activation time and its parts,
 * and the hooks the tests use. Any other mode (an installed VSIX, a debug session) returns only
 * `PublicExports`: every installed extension can read them (src/shell/testSeams.ts).
 */
export type NilveraExtensionApi = PublicExports & { testing: ReturnType<typeof testingSeams> };

let services: ShellServices | undefined;

/** The shell's own commands and what each runs (the handlers are compiled when first run, not at activation). */
const SHELL_COMMANDS: ReadonlyArray<readonly [string, (shell: ShellServices, state: ShellState, arg: unknown) => unknown]> = [
  [Commands.apiKeySet, (shell) => setApiKey(shell)],
  [Commands.apiKeyClear, (shell) => clearApiKey(shell)],
  // A target only from the tests: another extension's choice of where requests go is not taken.
  [Commands.environmentSwitch, (shell, _state, target) => switchEnvironment(shell, trustedValue(target))],
  [Commands.sandboxStart, (shell) => startSandbox(shell)],
  [Commands.sandboxStop, (shell) => stopSandbox(shell)],
  [Commands.creditsRefresh, (_shell, state) => state.statusBar().refreshCredits()],
  [Commands.logShow, () => logChannel().show()],
];

// activate() makes only what VS Code needs from it: the commands, the views, the hover and the
// panel serializers. No network and no secret reads; the listeners, context keys and the first state
// refresh (which reads the key) start once it has returned (startListening). Everything beyond the
// shell (key, environment, profiles, status bar) is a feature loaded on first use (src/features/index.ts).
export function activate(context: vscode.ExtensionContext): PublicExports | NilveraExtensionApi {
  // In Test mode it also measures the thread's time on the CPU (src/shell/activationSteps.ts).
  const timing = new ActivationSteps(openTestSeamsFor(context.extensionMode));
  // Context keys and status bar follow a profile switch (the trees follow it in the views feature).
  const shell = new ShellServices(context, () => void state.refresh());
  services = shell;
  const state = new ShellState(shell);
  const subscriptions = context.subscriptions;
  for (const [id, run] of SHELL_COMMANDS) subscriptions.push(registerCommand(id, (arg) => run(shell, state, arg)));
  subscriptions.push({ dispose: () => state.dispose() }, { dispose: disposeLogChannel }, markUsedOnCommands(() => shell.usage));
  timing.mark('shell commands');
  const features = registerFeatures(context, shell, timing);
  setTimeout(startListening, 0, context, shell, state, features);
  timing.mark('listeners scheduled');

  // Any other extension can read this (getExtension(id).exports): extensionExports hands out `testing` only
  // when context.extensionMode is ExtensionMode.Test (test/suite/hostileExtension.test.ts holds it).
  return extensionExports(context.extensionMode, { activationMs: timing.totalMs, activationSteps: timing.steps }, () => testingSeams(context, timing, shell, state, features));
}

/** The hooks the extension-host tests use, made only when extensionExports hands them out (Test mode). */
function testingSeams(context: vscode.ExtensionContext, timing: ActivationSteps, shell: ShellServices, state: ShellState, features: readonly Feature[]) {
  return {
    /** activate()'s time on the CPU, whole and by part, and its waits for a core (Linux). */
    activationThread: timing.thread(),
    services: shell,
    state,
    statusBar: () => state.statusBar(),
    replacePrompts,
    /** Where this window's logs live (the suite checks them for leaked keys). */
    logUri: context.logUri,
    /** The features loaded on first use, and whether a loaded one registered its handler for a command. */
    features,
    hasHandler,
    /** Commands treat their callers as in production until the returned function runs. */
    actAsProduction,
  };
}

/**
 * What activate() leaves to the moment it has returned. Nothing is missed by waiting: each listener
 * looks at what it watches when it starts (the active editor, the open documents, the key), and a
 * command run in between still marks the workspace used (markUsedOnCommands). The walkthrough's
 * diagnostics come from the editor feature, which loads later.
 */
function startListening(context: vscode.ExtensionContext, shell: ShellServices, state: ShellState, features: readonly Feature[]): void {
  const refresh = (): void => void state.refresh();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(Settings.section) && refresh()),
    trackWorkspaceUse(() => shell.usage),
    registerSelectionContext(),
    registerUblDocumentContext(),
    // Keys changed from now on (here, in another window or kept for the session) refresh again; one
    // changed before is read by the refresh below.
    shell.keys.onDidChange(refresh),
  );
  registerWalkthroughProgress(context, shell.globalState);
  watchForFeatures(context, features);
  refresh();
}

export async function deactivate(): Promise<void> {
  // Stops a sandbox child process this window started.
  await services?.dispose();
  services = undefined;
}
