// The floor under activate(): an extension with our manifest whose activate() makes only the VS Code
// calls ours makes (the same command ids, tree views with their options, hover selector, serializers
// and listeners), in the same seven parts, with none of our code between them. `npm run bench -- shell`
// builds it (shell.bench.ts: activationFloorDir), runs it in a fresh code-server exactly as it runs the
// extension, and prints our activate() beside it: what VS Code's registrations cost on this machine
// at that moment, and what our code adds. It is a measuring device, never shipped.
import * as vscode from 'vscode';
import { Commands, FormViewTypes, PreviewViewTypes, ReconciliationView, Views } from '../../../src/constants';
import { DIAGNOSED_DOCUMENTS, TAX_NUMBER_DOCUMENTS } from '../../../src/editor/selectors';
import { FEATURES, featureCommandIds, type FeatureName } from '../../../src/features';
import { ActivationSteps, type ActivationThread } from '../../../src/shell/activationSteps';

const nothing = (): void => undefined;

/** A tree that is never asked for anything while activate() is timed. */
const emptyTree: vscode.TreeDataProvider<unknown> = { getTreeItem: () => new vscode.TreeItem(''), getChildren: () => [] };

export function activate(context: vscode.ExtensionContext): { activationMs: number; activationSteps: ActivationStep[]; testing: { activationThread: ActivationThread | undefined } } {
  // Measures the thread's time on the CPU as ours does in Test mode (the benchmark runs both so).
  const timing = new ActivationSteps(context.extensionMode === vscode.ExtensionMode.Test);
  const shellCommands = [Commands.apiKeySet, Commands.apiKeyClear, Commands.environmentSwitch, Commands.sandboxStart, Commands.sandboxStop, Commands.creditsRefresh, Commands.logShow];
  context.subscriptions.push(
    ...shellCommands.map((id) => vscode.commands.registerCommand(id, nothing)),
    vscode.workspace.onDidChangeConfiguration(nothing),
    vscode.window.onDidChangeVisibleTextEditors(nothing),
    vscode.workspace.onDidChangeTextDocument(nothing),
    vscode.window.onDidChangeTextEditorSelection(nothing),
    vscode.window.onDidChangeActiveTextEditor(nothing),
    vscode.window.onDidChangeActiveTextEditor(nothing),
  );
  timing.mark('shell services, commands and listeners');

  // The same ids as registerFeatures() (src/features/index.ts).
  for (const name of Object.keys(FEATURES) as FeatureName[]) {
    for (const id of featureCommandIds(name, context.extension)) context.subscriptions.push(vscode.commands.registerCommand(id, nothing));
  }
  timing.mark('feature commands');

  const tree = (id: string, options: Omit<vscode.TreeViewOptions<unknown>, 'treeDataProvider'>) => vscode.window.createTreeView(id, { ...options, treeDataProvider: emptyTree });
  context.subscriptions.push(
    tree(Views.customers, { canSelectMany: true, showCollapseAll: false }),
    tree(Views.documents, {}),
    tree(Views.certificates, {}),
    tree(Views.identifications, {}),
    tree(Views.account, { showCollapseAll: true, manageCheckboxStateManually: true }),
    tree(ReconciliationView, { showCollapseAll: true }),
  );
  timing.mark('tree views');
  context.subscriptions.push(vscode.languages.registerHoverProvider(TAX_NUMBER_DOCUMENTS, { provideHover: () => undefined }));
  timing.mark('hover provider');
  context.subscriptions.push(...[...Object.values(FormViewTypes), ...Object.values(PreviewViewTypes)].map((viewType) => vscode.window.registerWebviewPanelSerializer(viewType, { deserializeWebviewPanel: async () => undefined })));
  timing.mark('webview panel serializers');
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument((doc) => vscode.languages.match(DIAGNOSED_DOCUMENTS, doc)));
  const timers = [setTimeout(nothing, 0), setTimeout(nothing, 2000)];
  context.subscriptions.push({ dispose: () => timers.forEach(clearTimeout) });
  timing.mark('editor and index-upgrade watchers');
  // Ours registers the walkthrough's progress (onDidChangeDiagnostics) once activate() has returned.
  timing.mark('walkthrough progress');
  return { activationMs: timing.totalMs, activationSteps: [...timing.steps], testing: { activationThread: timing.thread() } };
}

interface ActivationStep {
  step: string;
  ms: number;
}
