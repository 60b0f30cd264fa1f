// A parent whose children come from one list call (documents, certificates, identifications, the
// account's groups). An empty answer shows one "none" row rather than nothing.
import * as vscode from 'vscode';
import type { ListAvailability } from '../shell/listAvailability';
import { isEmptyOrNotOffered } from '../shell/missingOperation';
import { InfoNode, ListNotOfferedError, ParentNode, type ChangeListener, type TreeNode } from './treeNode';

/**
 * A list that may answer a bare 404 when it is empty (src/shell/missingOperation.ts): the row that
 * says both are possible, and what Check Connection found for this server, if it ran.
 */
export interface EmptyOr404 {
  text: () => string;
  known: () => Promise<ListAvailability | undefined>;
}

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
    private readonly emptyOr404?: EmptyOr404,
  ) {
    super(parent, key, notify);
  }

  protected override notOfferedText(): string {
    return this.notOffered?.() ?? super.notOfferedText();
  }

  protected override emptyOrNotOfferedText(): string {
    return this.emptyOr404?.text() ?? super.emptyOrNotOfferedText();
  }

  treeItem(): vscode.TreeItem {
    const p = this.presentation;
    const item = this.item(p?.label() ?? this.id, p?.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    if (p) item.iconPath = new vscode.ThemeIcon(p.icon);
    item.contextValue = p?.contextValue ?? 'group';
    return item;
  }

  protected async load(): Promise<TreeNode[]> {
    const records = await readList(this.fetch, this.emptyOr404);
    const nodes = records.map((r) => this.toNode(r, this));
    const empty = this.emptyLabel();
    if (nodes.length === 0 && empty && !this.isRoot) return [new InfoNode(this, '~empty', empty, undefined, new vscode.ThemeIcon('circle-slash'))];
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
