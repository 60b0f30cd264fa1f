// One TreeDataProvider for every Nilvera view: it asks its root node for children, shows VS Code's
// progress bar in the view while a load is pending, returns nothing without an API key (so the
// view's welcome content shows), and redraws only the node that changed.
import * as vscode from 'vscode';
import { ParentNode, type TreeNode } from './treeNode';

/**
 * How long a shown view may go without asking for a changed node's children (the whole view's for
 * the root) before it is told of the change once more. VS Code drops a change when it reaches the
 * workbench together with its answer to its first request for that node's children (the view's
 * first, or a group's first expand: the two leave the extension host in one write): the workbench
 * then keeps the rows of that answer, which predate the change, e.g. the previous company's customers
 * after a profile switch (test/suite/views.staleFirstAnswer.test.ts). It asks within about 200 ms
 * otherwise (its own debounce of changes), so a second notice costs nothing but in that case, and a
 * collapsed group's costs VS Code no request (it only marks the group to load at its next expand).
 */
export const ASK_GRACE_MS = 1_000;

export class NodeTreeProvider<Root extends ParentNode = ParentNode> implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly root: Root;

  /** Nodes changed since VS Code last asked for their children (the root: the whole view). */
  private readonly unasked = new Set<ParentNode>();
  private askTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly viewId: string,
    createRoot: (notify: (node: ParentNode | undefined) => void) => Root,
    /** False when no API key is set: the view stays empty and shows its welcome content. */
    private readonly ready: () => Promise<boolean>,
    /** Whether the view is shown (VS Code asks only for a shown view's rows). */
    private readonly shown: () => boolean,
  ) {
    this.root = createRoot((node) => this.nodeChanged(node ?? this.root));
  }

  /** Tells VS Code the node changed, and once more if the view is shown and VS Code has not asked for its children by ASK_GRACE_MS. */
  private nodeChanged(node: ParentNode): void {
    this.unasked.add(node);
    this.fire(node);
    clearTimeout(this.askTimer);
    this.askTimer = setTimeout(() => {
      this.askTimer = undefined;
      const unasked = [...this.unasked];
      this.unasked.clear();
      if (this.shown()) unasked.forEach((n) => this.fire(n));
    }, ASK_GRACE_MS);
  }

  private fire(node: ParentNode): void {
    this.changed.fire(node === this.root ? undefined : node);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.treeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    const parent = node ?? this.root;
    if (!(parent instanceof ParentNode)) return [];
    this.unasked.delete(parent);
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
    clearTimeout(this.askTimer);
    this.changed.dispose();
  }
}
