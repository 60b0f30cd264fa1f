// Empty tree providers for the views whose real providers arrive in a later issue. An empty tree
// lets VS Code show the `viewsWelcome` content (set key / try the sandbox) instead of
// "no data provider". Replace a view's entry here when its provider lands.
import * as vscode from 'vscode';
import { Views } from '../constants';

const PROVIDED_BY_SRC_VIEWS = new Set<string>([Views.customers, Views.documents, Views.certificates, Views.identifications, Views.account]);

const emptyTree: vscode.TreeDataProvider<never> = {
  getTreeItem: (element: never) => element,
  getChildren: () => [],
};

// All five views now have providers (src/views/register.ts), so none is left by default.
const VIEWS_WITHOUT_PROVIDER: readonly string[] = Object.values(Views).filter((id) => !PROVIDED_BY_SRC_VIEWS.has(id));

export function registerPlaceholderViews(viewIds: readonly string[] = VIEWS_WITHOUT_PROVIDER): vscode.Disposable[] {
  return viewIds.map((id) => vscode.window.registerTreeDataProvider(id, emptyTree));
}
