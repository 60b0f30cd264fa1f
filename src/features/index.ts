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

/** Delay before offline indexes of an older format are looked for (kept out of activation). */
const INDEX_UPGRADE_DELAY_MS = 2000;

/** The views activate() created, by id (a feature's activateFeature() asks for its own). */
type ViewsById = Map<string, vscode.TreeView<unknown>>;

type TreeOptions = Omit<vscode.TreeViewOptions<unknown>, 'treeDataProvider'>;

/** The sidebar's trees: the feature whose rows each shows, and its options. */
const TREES: ReadonlyArray<readonly [string, FeatureName, TreeOptions?]> = [
  [Views.customers, 'views', { canSelectMany: true, showCollapseAll: false }],
  [Views.documents, 'views'],
  [Views.certificates, 'views'],
  [Views.identifications, 'views'],
  [Views.account, 'views', { showCollapseAll: true, manageCheckboxStateManually: true }],
  [ReconciliationView, 'reconciliation', { showCollapseAll: true }],
];

/** The webview panels VS Code may restore from a previous session, and the feature that restores them. */
const RESTORED_PANELS: ReadonlyArray<readonly [Record<string, string>, FeatureName]> = [
  [FormViewTypes, 'forms'],
  [PreviewViewTypes, 'preview'],
];

// activate() runs this once per window; what the registrations do when used lives in the classes and
// functions below, compiled on first use rather than while activate() is timed.
export function registerFeatures(context: vscode.ExtensionContext, shell: ShellServices, timing: ActivationSteps): Feature[] {
  const subscriptions = context.subscriptions;
  const views: ViewsById = new Map();
  const byName = {} as Record<FeatureName, Feature>;
  for (const name of Object.keys(FEATURES) as FeatureName[]) {
    const feature = (byName[name] = new Feature(name, context, shell, views));
    registerOnFirstUse(feature.commands, feature, subscriptions);
  }
  timing.mark('feature commands');
  for (const [id, owner, options] of TREES) subscriptions.push(featureTree(views, id, byName[owner], options));
  timing.mark('tree views');
  const editor = byName.editor;
  subscriptions.push(vscode.languages.registerHoverProvider(TAX_NUMBER_DOCUMENTS, { provideHover: (document, position, token) => featureHover(editor, document, position, token) }));
  timing.mark('hover provider');
  for (const [viewTypes, owner] of RESTORED_PANELS) for (const viewType of Object.values(viewTypes)) subscriptions.push(restoring(viewType, byName[owner]));
  timing.mark('webview panel serializers');
  return Object.values(byName);
}

/**
 * What the features watch for once activate() has returned (src/extension.ts): documents that load the
 * editor feature, and the sweep of outdated registry indexes.
 */
export function watchForFeatures(context: vscode.ExtensionContext, features: readonly Feature[]): void {
  const editor = features.find((f) => f.name === 'editor')!;
  const upgrade = setTimeout(upgradeOutdatedIndexes, INDEX_UPGRADE_DELAY_MS, context);
  context.subscriptions.push(loadEditorWithDiagnosedDocuments(editor), { dispose: () => clearTimeout(upgrade) });
}

/**
 * A feature as activate() holds it: its module is imported and activated once, on the first call of
 * parts(). What it loads with lives in #fields: the tests read the features from activate()'s exports,
 * which must stay a plain tree of data.
 */
export class Feature {
  // No `nilvera.internal.*` test hook outside Test mode (src/shell/testSeams.ts).
  readonly commands: readonly string[];
  readonly #context: vscode.ExtensionContext;
  readonly #shell: ShellServices;
  readonly #views: ViewsById;
  #loading: Promise<FeatureParts> | undefined;

  constructor(
    readonly name: FeatureName,
    context: vscode.ExtensionContext,
    shell: ShellServices,
    views: ViewsById,
  ) {
    this.#context = context;
    this.#shell = shell;
    this.#views = views;
    this.commands = commandIdsFor(context.extensionMode, featureCommandIds(name, context.extension));
  }

  get loaded(): boolean {
    return this.#loading !== undefined;
  }

  parts(): Promise<FeatureParts> {
    if (this.#loading) return this.#loading;
    const started = performance.now();
    const current = FEATURES[this.name].load().then((module: FeatureModule) => {
      const parts = module.activateFeature(this.#context, this.#shell, (id) => this.#views.get(id)!) ?? {};
      log.info(`Loaded the ${this.name} feature in ${(performance.now() - started).toFixed(1)} ms.`);
      return parts;
    });
    // A bundle that failed to load is tried again on the next use (the caller shows the error).
    current.catch(() => this.#loading === current && (this.#loading = undefined));
    return (this.#loading = current);
  }
}

function featureTree(views: ViewsById, id: string, owner: Feature, options: TreeOptions = {}): vscode.Disposable {
  const provider = new FeatureTree(id, owner, () => views.get(id)!.visible);
  const view = vscode.window.createTreeView<unknown>(id, { ...options, treeDataProvider: provider });
  views.set(id, view);
  return vscode.Disposable.from(view, provider);
}

/** Tax-number hovers: the editor feature's provider, loaded on the first hover. */
async function featureHover(editor: Feature, document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | null | undefined> {
  return (await editor.parts()).hover?.provideHover(document, position, token);
}

/** Restores a webview panel of a previous session through its feature, loaded then. */
function restoring(viewType: string, owner: Feature): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(viewType, { deserializeWebviewPanel: (panel, state) => restorePanel(owner, viewType, panel, state) });
}

async function restorePanel(owner: Feature, viewType: string, panel: vscode.WebviewPanel, state: unknown): Promise<void> {
  await (await owner.parts()).restore?.(viewType, panel, state);
}

/**
 * How long a shown view may go without asking for a changed node's children (the whole view's for
 * the root) before it is told of the change once more. VS Code drops a change when it reaches the
 * workbench together with its answer to its first request for that node's children (the view's
 * first, or a group's first expand: the two leave the extension host in one write): the workbench
 * then keeps the rows of that answer, which predate the change, e.g. the previous company's customers
 * after a profile switch, or an empty Reconciliation view after a run (test/suite/views.staleFirstAnswer.test.ts,
 * test/suite/reconciliation.staleFirstAnswer.test.ts). It asks within about 200 ms otherwise (its own
 * debounce of changes), so a second notice costs nothing but in that case, and a collapsed group's
 * costs VS Code no request (it only marks the group to load at its next expand). A row without
 * children (a redrawn checkbox) is never asked for: while shown it is drawn once more.
 */
export const ASK_GRACE_MS = 1_000;

/** The root in the set of changed nodes (VS Code names it undefined). */
const ROOT = Symbol('root');

/**
 * A view's rows: its feature's provider, loaded on the view's first request. Every tree's changes pass
 * through here, so here each gets its second notice (ASK_GRACE_MS).
 */
export class FeatureTree implements vscode.TreeDataProvider<unknown>, vscode.Disposable {
  private real: vscode.TreeDataProvider<unknown> | undefined;
  private forwarding: vscode.Disposable | undefined;
  private readonly changed = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Nodes changed since VS Code last asked for their children. */
  private readonly unasked = new Set<unknown>();
  private askTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly id: string,
    private readonly feature: Pick<Feature, 'name' | 'parts'>,
    /** Whether the view is shown (VS Code asks only for a shown view's rows). */
    private readonly shown: () => boolean,
  ) {}

  private async provider(): Promise<vscode.TreeDataProvider<unknown>> {
    if (!this.real) {
      const real = (await this.feature.parts()).trees?.[this.id];
      if (!real) throw new Error(`The ${this.feature.name} feature has no rows for ${this.id}.`);
      this.forwarding ??= real.onDidChangeTreeData?.((e) => this.nodesChanged(e));
      this.real = real;
    }
    return this.real;
  }

  /** Tells VS Code, and once more if the view is shown and VS Code has not asked for their children by ASK_GRACE_MS. */
  private nodesChanged(change: unknown): void {
    for (const node of Array.isArray(change) ? change : [change]) this.unasked.add(node ?? ROOT);
    this.changed.fire(change);
    clearTimeout(this.askTimer);
    this.askTimer = setTimeout(() => {
      this.askTimer = undefined;
      const unasked = [...this.unasked];
      this.unasked.clear();
      if (this.shown()) for (const node of unasked) this.changed.fire(node === ROOT ? undefined : node);
    }, ASK_GRACE_MS);
  }

  async getChildren(element?: unknown): Promise<unknown[]> {
    this.unasked.delete(element ?? ROOT);
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
    clearTimeout(this.askTimer);
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}

/** Loads the editor feature once a document that gets diagnostics is open (now, or when one opens). */
function loadEditorWithDiagnosedDocuments(editor: Feature): vscode.Disposable {
  const loads = (docs: readonly vscode.TextDocument[]): boolean => {
    if (!docs.some((doc) => vscode.languages.match(DIAGNOSED_DOCUMENTS, doc) > 0)) return false;
    void editor.parts().catch((e: unknown) => log.error(`Loading the editor feature failed: ${String(e)}`));
    return true;
  };
  // Documents already open (restored editors, or opened while activate() ran).
  if (loads(vscode.workspace.textDocuments)) return new vscode.Disposable(() => undefined);
  const watcher = vscode.workspace.onDidOpenTextDocument((doc) => loads([doc]) && watcher.dispose());
  return watcher;
}

/**
 * Shortly after start-up, what crashes left in the registry's storage is swept and lists whose index
 * cannot be read as it is (an older format, a deferred install) are rebuilt from their ZIP. Only a
 * window whose storage holds lists loads the code for that.
 */
function upgradeOutdatedIndexes(context: vscode.ExtensionContext): void {
  const storage = context.globalStorageUri.fsPath;
  if (!fs.existsSync(path.join(storage, 'registry-index')) && !fs.existsSync(path.join(storage, 'registry-lists'))) return;
  void import('../commands/registry/indexUpgrade').then((m) => m.upgradeOutdatedLists(storage)).catch((e: unknown) => log.error(`registry index upgrade: ${String(e)}`));
}
