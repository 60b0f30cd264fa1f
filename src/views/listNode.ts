// A parent whose children come from one list call (documents, certificates, identifications, the
// account's groups). An empty answer shows one "none" row rather than nothing.
import * as vscode from 'vscode';
import { InfoNode, ParentNode, type ChangeListener, type TreeNode } from './treeNode';

export class ListNode<T> extends ParentNode {
  constructor(
    parent: ParentNode | undefined,
    key: string,
    notify: ChangeListener,
    private readonly fetch: () => Promise<readonly T[]>,
    private readonly toNode: (record: T, parent: ListNode<T>) => TreeNode,
    private readonly emptyLabel: () => string | undefined = () => undefined,
    /** How the node shows when it is a group inside a view (not a root). */
    private readonly presentation?: { label: () => string; icon: string; expanded?: boolean; contextValue?: string },
    /** The row shown when the server does not offer this list (404), e.g. "This server does not offer company documents". */
    private readonly notOffered?: () => string,
  ) {
    super(parent, key, notify);
  }

  protected override notOfferedText(): string {
    return this.notOffered?.() ?? super.notOfferedText();
  }

  treeItem(): vscode.TreeItem {
    const p = this.presentation;
    const item = this.item(p?.label() ?? this.id, p?.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    if (p) item.iconPath = new vscode.ThemeIcon(p.icon);
    item.contextValue = p?.contextValue ?? 'group';
    return item;
  }

  protected async load(): Promise<TreeNode[]> {
    const records = await this.fetch();
    const nodes = records.map((r) => this.toNode(r, this));
    const empty = this.emptyLabel();
    if (nodes.length === 0 && empty && !this.isRoot) return [new InfoNode(this, '~empty', empty, undefined, new vscode.ThemeIcon('circle-slash'))];
    return nodes;
  }
}
