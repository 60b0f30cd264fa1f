// The features loaded on first use: each one's entry is a module of this folder, which esbuild makes
// a bundle of its own (it splits at every `import()` below, see esbuild.js), and the command ids it
// registers. activate() registers a stub per id
// (src/shell/lazyFeatures.ts). test/unit/project/bundles.test.ts keeps each feature's modules out of the main
// bundle; test/unit/project/manifest.test.ts checks that every contributed command is here or in activate().
import { ConnectionCommands, DiagnosticsCommands, FormCommands, PaletteCommands, PreviewCommands, ProfileCommands, ReconciliationCommands, TreeCommands } from '../constants';
import type { FeatureDefinition, FeatureModule } from '../shell/lazyFeatures';
import type * as vscode from 'vscode';

/**
 * Commands offered only on the rows of the feature's own views (hidden from the palette, in no other
 * menu, run by no other feature): a row exists only once its feature is loaded, so these get no stub
 * and the feature registers them with VS Code itself. Fewer stubs, less work at activation.
 * test/unit/project/manifest.test.ts checks the manifest side of this promise.
 */
export const OWN_ROWS_ONLY: ReadonlySet<string> = new Set<string>([
  TreeCommands.customersOpen,
  TreeCommands.customersEdit,
  TreeCommands.customersCheckRegistry,
  TreeCommands.customersCopyTaxNumber,
  TreeCommands.customersDelete,
  TreeCommands.documentsDelete,
  TreeCommands.certificatesDetails,
  TreeCommands.certificatesUpdate,
  TreeCommands.certificatesDelete,
  TreeCommands.identificationsDelete,
  TreeCommands.accountToggleMailing,
  TreeCommands.accountOpenCampaign,
  TreeCommands.retry,
  TreeCommands.loadMore,
  ReconciliationCommands.openCustomer,
  ReconciliationCommands.copyPkAlias,
  ReconciliationCommands.loadMore,
]);

/**
 * Run only while their feature is loaded, so no stub: the forms run the first after a save only when
 * the trees are loaded (they look it up first); the second is a quick fix of the editor's diagnostics.
 */
const LOADED_FEATURE_ONLY: ReadonlySet<string> = new Set<string>([TreeCommands.dataChanged, DiagnosticsCommands.reopenWithEncoding]);

/** The ids of a table that need a stub. */
const ids = (table: Record<string, string>): string[] => Object.values(table).filter((id) => !OWN_ROWS_ONLY.has(id) && !LOADED_FEATURE_ONLY.has(id));

export interface EditorFeatureModule extends FeatureModule {
  provideHover(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): vscode.ProviderResult<vscode.Hover>;
}

export interface FormsFeatureModule extends FeatureModule {
  deserializeForm(kind: string, panel: vscode.WebviewPanel, state: unknown): void;
}

export interface PreviewFeatureModule extends FeatureModule {
  deserializePreview(viewType: string, panel: vscode.WebviewPanel, state: unknown): Promise<void>;
}

export const FEATURES = {
  /** The sidebar trees' rows and their commands (customers, documents, certificates, identifications, account). */
  views: { name: 'views', load: () => import('./views'), commands: ids(TreeCommands) },
  /** The webview forms' host side. */
  forms: { name: 'forms', load: () => import('./forms'), commands: ids(FormCommands) } as FeatureDefinition<FormsFeatureModule>,
  /** Registry look-ups, the offline list and its index, templates, series, mailing, tax office. */
  registry: { name: 'registry', load: () => import('./registry'), commands: ids(PaletteCommands) },
  /** Hovers and diagnostics of tax numbers in the editor. */
  editor: { name: 'editor', load: () => import('./editor'), commands: ids(DiagnosticsCommands) } as FeatureDefinition<EditorFeatureModule>,
  reconciliation: { name: 'reconciliation', load: () => import('./reconciliation'), commands: ids(ReconciliationCommands) },
  connection: { name: 'connection', load: () => import('./connection'), commands: ids(ConnectionCommands) },
  profiles: { name: 'profiles', load: () => import('./profiles'), commands: ids(ProfileCommands) },
  /** The document preview (a design or the structured view) and the template studio. */
  preview: { name: 'preview', load: () => import('./preview'), commands: ids(PreviewCommands) } as FeatureDefinition<PreviewFeatureModule>,
} satisfies Record<string, FeatureDefinition>;

export type FeatureName = keyof typeof FEATURES;
