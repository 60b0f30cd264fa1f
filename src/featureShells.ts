// What activate() registers for the features loaded on first use (src/features/index.ts): a stub for every
// feature command, a shell for every tree view, the hover provider and the serializers of the forms and
// previews, each
// loading its feature on first use; the editor feature also loads as soon as an invoice or customer
// list is open (its diagnostics), and the registry's index upgrade when a list is on disk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FormViewTypes, PreviewViewTypes, ReconciliationView, Views } from './constants';
import { DIAGNOSED_DOCUMENTS, TAX_NUMBER_DOCUMENTS } from './editor/selectors';
import { FEATURES, type EditorFeatureModule, type FormsFeatureModule, type PreviewFeatureModule } from './features';
import type { ActivationSteps } from './shell/activationSteps';
import { LazyFeature } from './shell/lazyFeatures';
import { createShellTreeView } from './shell/lazyTrees';
import { log } from './shell/log';
import type { ShellServices } from './shell/services';

/** Delay before offline indexes of an older format are looked for (kept out of activation). */
const INDEX_UPGRADE_DELAY_MS = 2000;

export function registerFeatures(context: vscode.ExtensionContext, shell: ShellServices, timing: ActivationSteps): LazyFeature[] {
  const views = new LazyFeature(FEATURES.views, context, shell);
  const forms = new LazyFeature<FormsFeatureModule>(FEATURES.forms, context, shell);
  const editor = new LazyFeature<EditorFeatureModule>(FEATURES.editor, context, shell);
  const reconciliation = new LazyFeature(FEATURES.reconciliation, context, shell);
  const preview = new LazyFeature<PreviewFeatureModule>(FEATURES.preview, context, shell);
  const others = [FEATURES.registry, FEATURES.connection, FEATURES.profiles].map((d) => new LazyFeature(d, context, shell));
  const all: LazyFeature[] = [views, forms, editor, reconciliation, ...others, preview];
  for (const feature of all) context.subscriptions.push(...feature.registerStubs());
  timing.mark('feature command stubs');

  const loadViews = () => views.module();
  context.subscriptions.push(
    createShellTreeView(Views.customers, { canSelectMany: true, showCollapseAll: false }, loadViews),
    createShellTreeView(Views.documents, {}, loadViews),
    createShellTreeView(Views.certificates, {}, loadViews),
    createShellTreeView(Views.identifications, {}, loadViews),
    createShellTreeView(Views.account, { showCollapseAll: true, manageCheckboxStateManually: true }, loadViews),
    createShellTreeView(ReconciliationView, { showCollapseAll: true }, () => reconciliation.module()),
  );
  timing.mark('tree view shells');
  context.subscriptions.push(
    vscode.languages.registerHoverProvider(TAX_NUMBER_DOCUMENTS, {
      provideHover: async (document, position, token) => (await editor.module()).provideHover(document, position, token),
    }),
  );
  timing.mark('hover provider');
  context.subscriptions.push(
    // One serializer per form type: a panel restored after a reload is handed to the forms feature.
    ...Object.entries(FormViewTypes).map(([kind, viewType]) =>
      vscode.window.registerWebviewPanelSerializer(viewType, {
        deserializeWebviewPanel: async (panel, state) => (await forms.module()).deserializeForm(kind, panel, state),
      }),
    ),
    // And one per preview panel type (the document preview, the template studio), to the preview feature.
    ...Object.values(PreviewViewTypes).map((viewType) =>
      vscode.window.registerWebviewPanelSerializer(viewType, {
        deserializeWebviewPanel: async (panel, state) => (await preview.module()).deserializePreview(viewType, panel, state),
      }),
    ),
  );
  timing.mark('webview panel serializers');
  context.subscriptions.push(loadWhenDiagnosedDocumentOpens(() => void editor.module().catch((e: unknown) => log.error(`Loading the editor feature failed: ${String(e)}`))));
  scheduleIndexUpgrade(context);
  timing.mark('editor and index-upgrade watchers');
  return all;
}

/** Calls `load` once a document that gets diagnostics is open (now, or when one opens). */
function loadWhenDiagnosedDocumentOpens(load: () => void): vscode.Disposable {
  const diagnosed = (doc: vscode.TextDocument) => vscode.languages.match(DIAGNOSED_DOCUMENTS, doc) > 0;
  let watcher: vscode.Disposable | undefined = vscode.workspace.onDidOpenTextDocument((doc) => {
    if (!diagnosed(doc)) return;
    watcher?.dispose();
    watcher = undefined;
    load();
  });
  // Documents open before activation (restored editors): looked at once activate() has returned.
  const initial = setTimeout(() => {
    if (watcher && vscode.workspace.textDocuments.some(diagnosed)) {
      watcher.dispose();
      watcher = undefined;
      load();
    }
  }, 0);
  return new vscode.Disposable(() => {
    clearTimeout(initial);
    watcher?.dispose();
  });
}

/**
 * Shortly after start-up, what crashes left in the registry's storage is swept and lists whose index
 * cannot be read as it is (an older format, a deferred install) are rebuilt from their ZIP. Only a
 * window whose storage holds lists loads the code for that.
 */
function scheduleIndexUpgrade(context: vscode.ExtensionContext): void {
  const storage = context.globalStorageUri.fsPath;
  const timer = setTimeout(() => {
    if (!fs.existsSync(path.join(storage, 'registry-index')) && !fs.existsSync(path.join(storage, 'registry-lists'))) return;
    void import('./commands/registry/indexUpgrade').then((m) => m.upgradeOutdatedLists(storage)).catch((e: unknown) => log.error(`registry index upgrade: ${String(e)}`));
  }, INDEX_UPGRADE_DELAY_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(timer) });
}
