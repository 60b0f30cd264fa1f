// A parent whose children come from a server-side paged list: the first page on expand, then one
// page per "Load more" click. Only this parent is redrawn when a page arrives; one page is in
// flight at a time; a failed page keeps the rows already shown and adds an error item with Retry.
import * as vscode from 'vscode';
import { TreeCommands } from '../constants';
import type { Pagination } from '../api/types';
import { ErrorNode, ParentNode, TreeNode, uniqueById, type ChangeListener } from './treeNode';

export class LoadMoreNode extends TreeNode {
  constructor(
    readonly owner: PagedNode<unknown>,
    private readonly shown: number,
    private readonly total: number | null,
  ) {
    super(owner, '~more');
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(vscode.l10n.t('Load more…'));
    item.description = this.total !== null ? vscode.l10n.t('{0} of {1} shown', this.shown, this.total) : undefined;
    item.iconPath = new vscode.ThemeIcon('ellipsis');
    item.contextValue = 'loadMore';
    item.command = { command: TreeCommands.loadMore, title: vscode.l10n.t('Load more…'), arguments: [this] };
    return item;
  }
}

export abstract class PagedNode<T> extends ParentNode {
  private rows: TreeNode[] = [];
  private readonly seen = new Set<string>();
  private nextPage = 1;
  private hasMore = true;
  private pageError: ErrorNode | undefined;
  private pageInFlight: Promise<void> | undefined;
  /** TotalCount of the last page the server sent. */
  total: number | null = null;

  constructor(parent: ParentNode | undefined, key: string, notify: ChangeListener) {
    super(parent, key, notify);
  }

  protected abstract fetchPage(page: number): Promise<Pagination<T>>;
  protected abstract toNode(record: T): TreeNode;
  /** Called after each page with the server's totals (the view title shows them). */
  protected onPage(_page: Pagination<T>): void {}

  /** Roots are never drawn; a paged group inside a view overrides this. */
  treeItem(): vscode.TreeItem {
    return this.item(this.id, vscode.TreeItemCollapsibleState.Collapsed);
  }

  /** Number of record rows loaded so far. */
  get loadedCount(): number {
    return this.rows.length;
  }

  protected async load(): Promise<TreeNode[]> {
    if (this.nextPage === 1) await this.fetchNext();
    return this.visibleChildren();
  }

  private visibleChildren(): TreeNode[] {
    const tail: TreeNode[] = [];
    if (this.pageError) tail.push(this.pageError);
    else if (this.hasMore && this.rows.length > 0) tail.push(new LoadMoreNode(this as PagedNode<unknown>, this.rows.length, this.total));
    return [...this.rows, ...tail];
  }

  private async fetchNext(): Promise<void> {
    const page = await this.fetchPage(this.nextPage);
    const records = page.Content ?? [];
    const fresh = uniqueById(records.map((r) => this.toNode(r)), this.seen);
    this.rows.push(...fresh);
    this.total = page.TotalCount ?? null;
    const totalPages = page.TotalPages ?? (page.TotalCount !== null && page.PageSize > 0 ? Math.ceil(page.TotalCount / page.PageSize) : null);
    this.hasMore = records.length > 0 && (totalPages === null ? records.length >= page.PageSize : this.nextPage < totalPages);
    this.nextPage++;
    this.onPage(page);
  }

  /** Loads the next page and redraws only this parent. Concurrent clicks share one request. */
  loadMore(): Promise<void> {
    if (this.pageInFlight) return this.pageInFlight;
    if (this.nextPage === 1) {
      // Nothing loaded yet (Retry after a failed first page): a plain reload does it.
      this.refresh();
      return Promise.resolve();
    }
    this.pageError = undefined;
    this.pageInFlight = (async () => {
      try {
        await this.fetchNext();
      } catch (error) {
        this.pageError = new ErrorNode(this, error);
      } finally {
        this.pageInFlight = undefined;
      }
      this.replaceChildren(this.visibleChildren());
    })();
    return this.pageInFlight;
  }

  /** Drops every loaded page; the next expand loads page 1 again. */
  resetPages(): void {
    this.rows = [];
    this.seen.clear();
    this.nextPage = 1;
    this.hasMore = true;
    this.pageError = undefined;
    this.total = null;
    this.invalidate();
  }

  override refresh(): void {
    this.resetPages();
    this.notify(this.isRoot ? undefined : this);
  }

  private replaceChildren(nodes: TreeNode[]): void {
    this.setCached(nodes);
    this.notify(this.isRoot ? undefined : this);
  }
}
