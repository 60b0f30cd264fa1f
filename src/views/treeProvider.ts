// One TreeDataProvider for every Nilvera view: it asks its root node for children, shows VS Code's
// progress bar in the view while a load is pending, returns nothing without an API key (so the
// view's welcome content shows), and redraws only the node that changed.
import * as vscode from 'vscode';
import { ParentNode, type TreeNode } from './treeNode';

export class NodeTreeProvider<Root extends ParentNode = ParentNode> implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly root: Root;

  constructor(
    readonly viewId: string,
    createRoot: (notify: (node: ParentNode | undefined) => void) => Root,
    /** False when no API key is set: the view stays empty and shows its welcome content. */
    private readonly ready: () => Promise<boolean>,
  ) {
    // A change of the root is one of the whole view; src/features/index.ts (FeatureTree) tells VS Code twice when it must.
    this.root = createRoot((node) => this.changed.fire(node === this.root ? undefined : node));
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.treeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    const parent = node ?? this.root;
    if (!(parent instanceof ParentNode)) return [];
    if (!node && !(await this.ready())) return [];
    const children = parent.peek() ? [...(parent.peek() ?? [])] : await vscode.window.withProgress({ location: { viewId: this.viewId } }, () => parent.children());
    // `<viewId>.empty` (nilvera.customers.empty…): the welcome content then offers the view's main action.
    if (!node) await vscode.commands.executeCommand('setContext', `${this.viewId}.empty`, children.length === 0);
    return children;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent === this.root ? undefined : node.parent;
  }

  /** Draws one row again from its node, without loading (a checkbox put back after a cancel). */
  redraw(node: TreeNode): void {
    this.changed.fire(node);
  }

  /** Reloads the whole view. */
  refresh(): void {
    this.root.refresh();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
