// What a feature module hands to activate() (src/features/index.ts): types only. They live in the shell
// because the features' own folders (views, forms, preview, reconciliation…) sit below src/features.
import type * as vscode from 'vscode';
import type { ShellServices } from './services';

/** The tree views activate() created, by id, for the feature that fills them. */
export type TreeViews = (id: string) => vscode.TreeView<unknown>;

/** What a feature hands back besides the command handlers it registers (src/shell/commandRunner.ts). */
export interface FeatureParts {
  /** The rows of the tree views it fills, by view id. */
  trees?: Record<string, vscode.TreeDataProvider<unknown>>;
  hover?: vscode.HoverProvider;
  /** Reattaches a webview panel VS Code restored after a reload. */
  restore?(viewType: string, panel: vscode.WebviewPanel, state: unknown): void | Promise<void>;
}

export interface FeatureModule {
  activateFeature(context: vscode.ExtensionContext, shell: ShellServices, views: TreeViews): FeatureParts | void;
}
