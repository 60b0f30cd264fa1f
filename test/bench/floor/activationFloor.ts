// The floor under activate(): an extension with our manifest whose activate() makes only the VS Code
// calls ours makes (the same command ids, tree views with their options, hover selector and
// serializers), in the same six parts, with none of our code between them. `npm run bench -- shell`
// builds it (shell.bench.ts: activationFloorDir), runs it in a fresh code-server exactly as it runs the
// extension, and prints our activate() beside it: what VS Code's registrations cost on this machine
// at that moment, and what our code adds. It is a measuring device, never shipped.
import * as vscode from 'vscode';
import { Commands, FormViewTypes, PreviewViewTypes, ReconciliationView, Views } from '../../../src/constants';
import { TAX_NUMBER_DOCUMENTS } from '../../../src/editor/selectors';
import { FEATURES, featureCommandIds, type FeatureName } from '../../../src/features';
import { ActivationSteps, type ActivationThread } from '../../../src/shell/activationSteps';

const nothing = (): void => undefined;

/**
 * A tree that is never asked for anything while activate() is timed. Its rows can change, as any tree
 * of ours: VS Code subscribes to onDidChangeTreeData in createTreeView.
 */
function changingTree(): vscode.TreeDataProvider<unknown> {
  return { getTreeItem: () => new vscode.TreeItem(''), getChildren: () => [], onDidChangeTreeData: new vscode.EventEmitter<unknown>().event };
}

export function activate(context: vscode.ExtensionContext): { activationMs: number; activationSteps: ActivationStep[]; testing: { activationThread: ActivationThread | undefined } } {
  // Measures the thread's time on the CPU as ours does in Test mode (the benchmark runs both so).
  const timing = new ActivationSteps(context.extensionMode === vscode.ExtensionMode.Test);
  const shellCommands = [Commands.apiKeySet, Commands.apiKeyClear, Commands.environmentSwitch, Commands.sandboxStart, Commands.sandboxStop, Commands.creditsRefresh, Commands.logShow];
  context.subscriptions.push(...shellCommands.map((id) => vscode.commands.registerCommand(id, nothing)));
  timing.mark('shell commands');

  // The same ids as registerFeatures() (src/features/index.ts).
  for (const name of Object.keys(FEATURES) as FeatureName[]) {
    for (const id of featureCommandIds(name, context.extension)) context.subscriptions.push(vscode.commands.registerCommand(id, nothing));
  }
  timing.mark('feature commands');

  const tree = (id: string, options: Omit<vscode.TreeViewOptions<unknown>, 'treeDataProvider'>) => vscode.window.createTreeView(id, { ...options, treeDataProvider: changingTree() });
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
  // Ours starts its listeners (configuration, editors, selection, documents, keys, diagnostics) and its
  // timers once activate() has returned (src/extension.ts startListening): one timer here.
  setTimeout(nothing, 0);
  timing.mark('listeners scheduled');
  return { activationMs: timing.totalMs, activationSteps: [...timing.steps], testing: { activationThread: timing.thread() } };
}

interface ActivationStep {
  step: string;
  ms: number;
}
