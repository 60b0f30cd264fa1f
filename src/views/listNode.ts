// A parent whose children come from one list call (documents, certificates, identifications, the
// account's groups). An empty answer shows one "none" row rather than nothing.
import * as vscode from 'vscode';
import { isEmptyOrNotOffered } from '../shell/missingOperation';
import { InfoNode, ListNotOfferedError, ParentNode, type ChangeListener, type EmptyOr404, type TreeNode } from './treeNode';

/** Where a ListNode's rows come from and what it shows besides them. */
export interface ListSpec<T> {
  fetch: () => Promise<readonly T[]>;
  toNode: (record: T, parent: ListNode<T>) => TreeNode;
  /** The row of an empty group (a root shows the view's welcome content instead). */
  empty?: () => string;
  /** How the node shows when it is a group inside a view (not a root). */
  presentation?: { label: () => string; icon: string; expanded: boolean; contextValue: string };
  /** The row shown when the server does not offer this list (404), e.g. "This server does not offer company documents". */
  notOffered?: () => string;
  emptyOr404?: EmptyOr404;
}

export class ListNode<T> extends ParentNode {
  constructor(
    parent: ParentNode | undefined,
    key: string,
    notify: ChangeListener,
    private readonly spec: ListSpec<T>,
  ) {
    super(parent, key, notify);
    this.notOffered = spec.notOffered;
    this.emptyOr404 = spec.emptyOr404;
  }

  override treeItem(): vscode.TreeItem {
    const p = this.spec.presentation;
    if (!p) return super.treeItem();
    const collapsible = vscode.TreeItemCollapsibleState[p.expanded ? 'Expanded' : 'Collapsed'];
    return this.item(p.label(), { collapsible, icon: new vscode.ThemeIcon(p.icon), contextValue: p.contextValue });
  }

  protected async load(): Promise<TreeNode[]> {
    const records = await readList(this.spec.fetch, this.spec.emptyOr404);
    const nodes = records.map((r) => this.spec.toNode(r, this));
    const empty = this.spec.empty?.();
    if (nodes.length === 0 && empty && this.parent) return [new InfoNode(this, '~empty', empty, { icon: new vscode.ThemeIcon('circle-slash') })];
    return nodes;
  }
}

/**
 * The list; for a bare 404 that Check Connection has explained for this server, [] (the operation is
 * there: nothing to list) or ListNotOfferedError (it is not); otherwise the 404 itself.
 */
export async function readList<T>(fetch: () => Promise<T>, emptyOr404: EmptyOr404 | undefined, empty?: T): Promise<T> {
  try {
    return await fetch();
  } catch (error) {
    if (!emptyOr404 || !isEmptyOrNotOffered(error)) throw error;
    const known = await emptyOr404.known().catch(() => undefined);
    if (known === 'offered') return empty ?? ([] as unknown as T);
    if (known === 'missing') throw new ListNotOfferedError();
    throw error;
  }
}
