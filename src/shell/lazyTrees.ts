// Tree views whose providers live in features loaded on first use. activate() creates each view with a
// shell provider, so VS Code finds a data provider the moment it shows the view; the shell's first
// getChildren loads the feature, which claims the view (claimTreeView) and attaches its real provider.
import * as vscode from 'vscode';

class ShellTreeProvider implements vscode.TreeDataProvider<unknown>, vscode.Disposable {
  private real: vscode.TreeDataProvider<unknown> | undefined;
  private realChanges: vscode.Disposable | undefined;
  private readonly changed = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly loadFeature: () => Promise<unknown>) {}

  attach(real: vscode.TreeDataProvider<unknown>): void {
    this.realChanges?.dispose();
    this.real = real;
    this.realChanges = real.onDidChangeTreeData?.((e) => this.changed.fire(e));
    // Rows asked for before the provider arrived were answered empty: ask again.
    this.changed.fire(undefined);
  }

  async getChildren(element?: unknown): Promise<unknown[]> {
    if (!this.real) await this.loadFeature();
    return (await this.real?.getChildren(element)) ?? [];
  }

  getTreeItem(element: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    // Elements exist only once the real provider produced them.
    return this.real!.getTreeItem(element);
  }

  getParent(element: unknown): vscode.ProviderResult<unknown> {
    return this.real?.getParent?.(element);
  }

  dispose(): void {
    this.realChanges?.dispose();
    this.changed.dispose();
  }
}

const shells = new Map<string, { view: vscode.TreeView<unknown>; provider: ShellTreeProvider }>();

export type ShellTreeOptions = Omit<vscode.TreeViewOptions<unknown>, 'treeDataProvider'>;

/** Creates view `id` now, its rows from the feature `loadFeature` loads. */
export function createShellTreeView(id: string, options: ShellTreeOptions, loadFeature: () => Promise<unknown>): vscode.Disposable {
  const provider = new ShellTreeProvider(loadFeature);
  const view = vscode.window.createTreeView<unknown>(id, { ...options, treeDataProvider: provider });
  shells.set(id, { view, provider });
  return new vscode.Disposable(() => {
    shells.delete(id);
    view.dispose();
    provider.dispose();
  });
}

/** For the feature: attaches its provider to view `id` and returns the view (created at activation). */
export function claimTreeView<T>(id: string, provider: vscode.TreeDataProvider<T>): vscode.TreeView<T> {
  const shell = shells.get(id);
  if (!shell) throw new Error(`No tree view ${id} was created at activation.`);
  shell.provider.attach(provider as vscode.TreeDataProvider<unknown>);
  return shell.view as vscode.TreeView<T>;
}
