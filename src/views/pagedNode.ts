// A parent whose children come from a server-side paged list: the first page on expand, then one per
// "Load more" click, each fetched once and redrawing only this parent. A refresh starts a new list (the
// old one's answers under way are dropped); a failed page keeps the rows shown and adds a Retry item.
import * as vscode from 'vscode';
import { TreeCommands } from '../constants';
import type { Pagination } from '../api/types';
import { stepPage } from '../api/paging';
import { ErrorNode, ParentNode, TreeNode } from './treeNode';

export class LoadMoreNode extends TreeNode {
  constructor(
    readonly owner: PagedNode<unknown>,
    /** Record rows shown when this item was made: a click asks for the page after them. */
    readonly shown: number,
    private readonly total: number | null,
  ) {
    super(owner, '~more');
  }

  treeItem(): vscode.TreeItem {
    return this.item(vscode.l10n.t('Load more…'), {
      description: this.total !== null ? vscode.l10n.t('{0} of {1} shown', this.shown, this.total) : undefined,
      icon: new vscode.ThemeIcon('ellipsis'),
      contextValue: 'loadMore',
      command: { command: TreeCommands.loadMore, title: vscode.l10n.t('Load more…'), arguments: [this] },
    });
  }
}

export abstract class PagedNode<T> extends ParentNode {
  private rows: TreeNode[] = [];
  private readonly seen = new Set<unknown>();
  private nextPage = 1;
  private hasMore = true;
  private pageError: ErrorNode | undefined;
  /** Bumped when the list starts over (refresh, new filter): answers for an older list are dropped. */
  private listVersion = 0;
  /** The page request in flight (at most one per list version). */
  private pageRequest: { version: number; done: Promise<void> } | undefined;
  /** A "Load more" in flight: the page request plus the redraw. */
  private moreRequest: { version: number; done: Promise<void> } | undefined;
  /** TotalCount of the last page the server sent. */
  total: number | null = null;

  protected abstract fetchPage(page: number): Promise<Pagination<T>>;
  protected abstract toNode(record: T): TreeNode;
  /** Called after each page with the server's totals (the view title shows them). */
  protected onPage(_page: Pagination<T>): void {}

  /** Number of record rows loaded so far. */
  get loadedCount(): number {
    return this.rows.length;
  }

  protected async load(): Promise<TreeNode[]> {
    if (this.nextPage === 1) await this.fetchNext();
    return this.visibleChildren();
  }

  private visibleChildren(): TreeNode[] {
    if (this.pageError) return [...this.rows, this.pageError];
    return this.hasMore && this.rows.length > 0 ? [...this.rows, new LoadMoreNode(this as PagedNode<unknown>, this.rows.length, this.total)] : [...this.rows];
  }

  /**
   * Fetches the next page of the current list, once: a caller while it is in flight shares it. An
   * answer that arrives after the list started over is dropped: appended, it would skip pages of the
   * new list and show a superseded search's rows.
   */
  private fetchNext(): Promise<void> {
    const pending = this.pageRequest;
    if (pending && pending.version === this.listVersion) return pending.done;
    const version = this.listVersion;
    const pageNumber = this.nextPage;
    const done: Promise<void> = this.fetchPage(pageNumber)
      .then(
        (page) => {
          if (version === this.listVersion) this.append(pageNumber, page);
        },
        (error: unknown) => {
          if (version === this.listVersion) throw error;
        },
      )
      .finally(() => {
        if (this.pageRequest?.done === done) this.pageRequest = undefined;
      });
    this.pageRequest = { version, done };
    return done;
  }

  /**
   * The server's own Page, PageSize and totals decide what comes next, never the ones asked for (it
   * may cap or ignore PageSize, send its last page again, or leave the totals out: src/api/paging.ts).
   */
  private append(pageNumber: number, page: Pagination<T>): void {
    const nodes = Array.isArray(page?.Content) ? page.Content.map((r) => this.toNode(r)) : [];
    const step = stepPage({ ...page, Content: nodes }, pageNumber, { keys: this.seen, keyOf: (node) => node.id });
    this.rows.push(...step.rows);
    this.total = step.totalCount;
    this.hasMore = step.more;
    this.nextPage = step.next;
    this.onPage(page);
  }

  /**
   * Loads the next page and redraws only this parent. Concurrent clicks share one request. With
   * `shown` (the rows a "Load more" item was made for), a click on an item whose page has already
   * arrived loads nothing: one click, one page.
   */
  loadMore(shown?: number): Promise<void> {
    if (shown !== undefined && shown !== this.rows.length) return Promise.resolve();
    const version = this.listVersion;
    if (this.moreRequest?.version === version) return this.moreRequest.done;
    if (this.nextPage === 1) {
      // Nothing loaded yet: the first page (shared with an expand under way); after a failed first
      // page (its error item is cached), load it again.
      if (!this.pageRequest && this.peek()) this.invalidate();
      const first = this.children().then(() => undefined);
      this.notify(this);
      return first;
    }
    if (!this.hasMore && !this.pageError) return Promise.resolve();
    this.pageError = undefined;
    const done: Promise<void> = this.fetchNext()
      .catch((error: unknown) => {
        if (version === this.listVersion) this.pageError = new ErrorNode(this, error);
      })
      .then(() => {
        if (this.moreRequest?.done === done) this.moreRequest = undefined;
        if (version !== this.listVersion) return;
        this.setCached(this.visibleChildren());
        this.notify(this);
      });
    this.moreRequest = { version, done };
    return done;
  }

  /** Drops every loaded page too (a refresh, a new filter): the next expand loads page 1 again. */
  override invalidate(): void {
    this.listVersion++;
    this.rows = [];
    this.seen.clear();
    this.nextPage = 1;
    this.hasMore = true;
    this.pageError = undefined;
    this.total = null;
    super.invalidate();
  }
}
