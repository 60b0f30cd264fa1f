// One TreeDataProvider for every Nilvera view: it asks its root node for children, shows VS Code's
// progress bar in the view while a load is pending, returns nothing without an API key (so the
// view's welcome content shows), and redraws only the node that changed.
import * as vscode from 'vscode';
import { ParentNode, type TreeNode } from './treeNode';

/**
 * How long a shown view may go without asking for its rows after the whole view changed before it is
 * told once more. VS Code drops such a change when it reaches the workbench together with its answer
 * to the view's first request (the two leave the extension host in one write): the workbench then
 * keeps the rows of that answer, which predate the change, e.g. the previous company's customers
 * after a profile switch (test/suite/views.staleFirstAnswer.test.ts). It asks within about 200 ms
 * otherwise (its own debounce of changes), so a second notice costs nothing but in that case.
 */
export const ROOT_ASK_GRACE_MS = 1_000;

export class NodeTreeProvider<Root extends ParentNode = ParentNode> implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly root: Root;

  /** Counts the changes of the whole view; `asked` is the count when VS Code last asked for the root. */
  private rootChanges = 0;
  private asked = 0;
  private askTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly viewId: string,
    createRoot: (notify: (node: ParentNode | undefined) => void) => Root,
    /** False when no API key is set: the view stays empty and shows its welcome content. */
    private readonly ready: () => Promise<boolean>,
    /** Whether the view is shown (VS Code asks only for a shown view's rows). */
    private readonly shown: () => boolean = () => false,
  ) {
    this.root = createRoot((node) => (!node || node === this.root ? this.rootChanged() : this.changed.fire(node)));
  }

  /** Tells VS Code the whole view changed, and once more if it is shown and has not asked by ROOT_ASK_GRACE_MS. */
  private rootChanged(): void {
    const change = ++this.rootChanges;
    this.changed.fire(undefined);
    clearTimeout(this.askTimer);
    this.askTimer = setTimeout(() => {
      this.askTimer = undefined;
      if (this.asked < change && this.shown()) this.changed.fire(undefined);
    }, ROOT_ASK_GRACE_MS);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.treeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    const parent = node ?? this.root;
    if (!(parent instanceof ParentNode)) return [];
    if (!node) this.asked = this.rootChanges;
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
