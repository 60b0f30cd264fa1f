// The features loaded on first use. activate() registers every command, tree view, the hover and the
// webview serializers once; the first use of any imports the feature's module (a bundle of its own) and
// runs its activateFeature() once. The editor feature also loads when an invoice or customer list is open.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ACCOUNT_GROUP_COMMAND_PREFIX, ConnectionCommands, DiagnosticsCommands, FormCommands, FormViewTypes, GibCommands, PaletteCommands, PreviewCommands, PreviewViewTypes, ProfileCommands, ReconciliationCommands, ReconciliationView, TreeCommands, Views } from '../constants';
import { DIAGNOSED_DOCUMENTS, TAX_NUMBER_DOCUMENTS } from '../editor/selectors';
import type { ActivationSteps } from '../shell/activationSteps';
import { registerOnFirstUse } from '../shell/commandRunner';
import { log } from '../shell/log';
import type { ShellServices } from '../shell/services';
import type { FeatureModule, FeatureParts } from '../shell/featureParts';
import { commandIdsFor } from '../shell/testSeams';
import { contributedCommands } from '../shell/contributedCommands';

/** Each feature's module and the table of command ids it owns. */
export const FEATURES = {
  /** The sidebar trees' rows and their commands (customers, documents, certificates, identifications, account). */
  views: { load: () => import('./views'), commands: TreeCommands, contributedPrefix: ACCOUNT_GROUP_COMMAND_PREFIX },
  /** The webview forms' host side. */
  forms: { load: () => import('./forms'), commands: FormCommands },
  /** Registry look-ups, the offline list and its index, templates, series, mailing, tax office. */
  registry: { load: () => import('./registry'), commands: PaletteCommands },
  /** Hovers and diagnostics of tax numbers in the editor. */
  editor: { load: () => import('./editor'), commands: DiagnosticsCommands },
  reconciliation: { load: () => import('./reconciliation'), commands: ReconciliationCommands },
  connection: { load: () => import('./connection'), commands: ConnectionCommands },
  profiles: { load: () => import('./profiles'), commands: ProfileCommands },
  /** The document preview (a design or the structured view) and the template studio. */
  preview: { load: () => import('./preview'), commands: PreviewCommands },
  /** GİB's validation rules: download, use from a file, check for newer, and the folder report. */
  gib: { load: () => import('./gib'), commands: GibCommands },
} satisfies Record<string, { load: () => Promise<FeatureModule>; commands: Record<string, string>; contributedPrefix?: string }>;

export type FeatureName = keyof typeof FEATURES;

/** The commands feature `name` owns: its table in src/constants.ts and those package.json declares under its prefix. */
export function featureCommandIds(name: FeatureName, extension: vscode.Extension<unknown>): string[] {
  const feature: { commands: Record<string, string>; contributedPrefix?: string } = FEATURES[name];
  return [...Object.values(feature.commands), ...(feature.contributedPrefix ? contributedCommands(extension, feature.contributedPrefix) : [])];
}

/** A feature as activate() holds it: loaded and activated once, on first use. */
export interface Feature {
  readonly name: FeatureName;
  readonly commands: readonly string[];
  readonly loaded: boolean;
  parts(): Promise<FeatureParts>;
}

/** Delay before offline indexes of an older format are looked for (kept out of activation). */
const INDEX_UPGRADE_DELAY_MS = 2000;

export function registerFeatures(context: vscode.ExtensionContext, shell: ShellServices, timing: ActivationSteps): Feature[] {
  const views = new Map<string, vscode.TreeView<unknown>>();
  const load = (name: FeatureName): Feature => {
    let loading: Promise<FeatureParts> | undefined;
    return {
      name,
      // No `nilvera.internal.*` test hook outside Test mode (src/shell/testSeams.ts).
      commands: commandIdsFor(context.extensionMode, featureCommandIds(name, context.extension)),
      get loaded() {
        return loading !== undefined;
      },
      parts() {
        if (loading) return loading;
        const started = performance.now();
        const current = FEATURES[name].load().then((module: FeatureModule) => {
          const parts = module.activateFeature(context, shell, (id) => views.get(id)!) ?? {};
          log.info(`Loaded the ${name} feature in ${(performance.now() - started).toFixed(1)} ms.`);
          return parts;
        });
        // A bundle that failed to load is tried again on the next use (the caller shows the error).
        current.catch(() => loading === current && (loading = undefined));
        return (loading = current);
      },
    };
  };
  const all = (Object.keys(FEATURES) as FeatureName[]).map(load);
  const feature = (name: FeatureName) => all.find((f) => f.name === name)!;
  for (const f of all) context.subscriptions.push(...registerOnFirstUse(f.commands, () => f.parts()));
  timing.mark('feature commands');

  const tree = (id: string, owner: FeatureName, options: Omit<vscode.TreeViewOptions<unknown>, 'treeDataProvider'> = {}) => {
    const provider = new FeatureTree(id, feature(owner));
    const view = vscode.window.createTreeView<unknown>(id, { ...options, treeDataProvider: provider });
    views.set(id, view);
    return vscode.Disposable.from(view, provider);
  };
  context.subscriptions.push(
    tree(Views.customers, 'views', { canSelectMany: true, showCollapseAll: false }),
    tree(Views.documents, 'views'),
    tree(Views.certificates, 'views'),
    tree(Views.identifications, 'views'),
    tree(Views.account, 'views', { showCollapseAll: true, manageCheckboxStateManually: true }),
    tree(ReconciliationView, 'reconciliation', { showCollapseAll: true }),
  );
  timing.mark('tree views');
  const editor = feature('editor');
  context.subscriptions.push(
    vscode.languages.registerHoverProvider(TAX_NUMBER_DOCUMENTS, {
      provideHover: async (document, position, token) => (await editor.parts()).hover?.provideHover(document, position, token),
    }),
  );
  timing.mark('hover provider');
  const restoring = (viewType: string, owner: Feature) =>
    vscode.window.registerWebviewPanelSerializer(viewType, { deserializeWebviewPanel: async (panel, state) => (await owner.parts()).restore?.(viewType, panel, state) });
  context.subscriptions.push(
    ...Object.values(FormViewTypes).map((viewType) => restoring(viewType, feature('forms'))),
    ...Object.values(PreviewViewTypes).map((viewType) => restoring(viewType, feature('preview'))),
  );
  timing.mark('webview panel serializers');
  context.subscriptions.push(loadWhenDiagnosedDocumentOpens(() => void editor.parts().catch((e: unknown) => log.error(`Loading the editor feature failed: ${String(e)}`))));
  scheduleIndexUpgrade(context);
  timing.mark('editor and index-upgrade watchers');
  return all;
}

/** A view's rows: its feature's provider, loaded on the view's first request. */
class FeatureTree implements vscode.TreeDataProvider<unknown>, vscode.Disposable {
  private real: vscode.TreeDataProvider<unknown> | undefined;
  private forwarding: vscode.Disposable | undefined;
  private readonly changed = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly id: string,
    private readonly feature: Feature,
  ) {}

  private async provider(): Promise<vscode.TreeDataProvider<unknown>> {
    if (!this.real) {
      const real = (await this.feature.parts()).trees?.[this.id];
      if (!real) throw new Error(`The ${this.feature.name} feature has no rows for ${this.id}.`);
      this.forwarding ??= real.onDidChangeTreeData?.((e) => this.changed.fire(e));
      this.real = real;
    }
    return this.real;
  }

  async getChildren(element?: unknown): Promise<unknown[]> {
    return (await (await this.provider()).getChildren(element)) ?? [];
  }

  // An element may be revealed (TreeView.reveal) before the view ever asked for its rows.
  getTreeItem(element: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.real ? this.real.getTreeItem(element) : this.provider().then((p) => p.getTreeItem(element));
  }

  getParent(element: unknown): vscode.ProviderResult<unknown> {
    return this.real ? this.real.getParent?.(element) : this.provider().then((p) => p.getParent?.(element));
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}

/** Calls `load` once a document that gets diagnostics is open (now, or when one opens). */
function loadWhenDiagnosedDocumentOpens(load: () => void): vscode.Disposable {
  const loadIfDiagnosed = (docs: readonly vscode.TextDocument[]) => {
    if (!watcher || !docs.some((doc) => vscode.languages.match(DIAGNOSED_DOCUMENTS, doc) > 0)) return;
    watcher.dispose();
    watcher = undefined;
    load();
  };
  let watcher: vscode.Disposable | undefined = vscode.workspace.onDidOpenTextDocument((doc) => loadIfDiagnosed([doc]));
  // Documents open before activation (restored editors): looked at once activate() has returned.
  const initial = setTimeout(() => loadIfDiagnosed(vscode.workspace.textDocuments), 0);
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
    void import('../commands/registry/indexUpgrade').then((m) => m.upgradeOutdatedLists(storage)).catch((e: unknown) => log.error(`registry index upgrade: ${String(e)}`));
  }, INDEX_UPGRADE_DELAY_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(timer) });
}
