// The customers view's root: GET /Customers page by page with the current search and sort.
import * as vscode from 'vscode';
import type { CustomerListQuery, CustomerResponse, Pagination, SortType } from '../../api/types';
import type { ShellServices } from '../../shell/services';
import { readList } from '../listNode';
import { PagedNode } from '../pagedNode';
import type { ChangeListener, EmptyOr404, TreeNode } from '../treeNode';
import { CustomerNode } from './customerNode';
import { walkthroughStepDone } from '../../walkthrough/stepsDone';

export interface CustomerFilter {
  search: string;
  sortColumn: string | undefined;
  sortType: SortType;
}

export class CustomersRoot extends PagedNode<CustomerResponse> {
  filter: CustomerFilter = { search: '', sortColumn: undefined, sortType: 'ASC' };

  constructor(
    notify: ChangeListener,
    private readonly client: ShellServices['client'],
    private readonly pageSize: () => number,
    /** Told after every page and filter change (the view's title and description). */
    private readonly onSummary: () => void,
    emptyOr404?: EmptyOr404,
  ) {
    super(undefined, 'customers', notify);
    this.emptyOr404 = emptyOr404;
  }

  protected override notOffered = () => vscode.l10n.t('This server does not offer the customer list');

  /** The query of the current filter for a page (also used by the export). */
  query(page: number, pageSize = this.pageSize()): CustomerListQuery {
    return {
      Page: page,
      PageSize: pageSize,
      ...(this.filter.search ? { Search: this.filter.search } : {}),
      ...(this.filter.sortColumn ? { SortColumn: this.filter.sortColumn, SortType: this.filter.sortType } : {}),
    };
  }

  protected async fetchPage(page: number): Promise<Pagination<CustomerResponse>> {
    const client = await this.client();
    const empty: Pagination<CustomerResponse> = { Page: page, PageSize: this.pageSize(), TotalCount: 0, TotalPages: 0, Content: [] };
    return readList(() => client.customers.list(this.query(page)), this.emptyOr404, empty);
  }

  protected toNode(record: CustomerResponse): TreeNode {
    return new CustomerNode(this, record);
  }

  /** The server refused the sort column and sent its own order (CustomersApi.list). */
  sortRefused = false;

  protected override onPage(page: Pagination<CustomerResponse>): void {
    this.sortRefused = (page as { sortRefused?: boolean }).sortRefused === true;
    this.onSummary();
    // A page reached the view (a view asks only while it is shown): the walkthrough's "browse" step.
    walkthroughStepDone('customers');
  }

  setFilter(change: Partial<CustomerFilter>): void {
    this.filter = { ...this.filter, ...change };
    this.refresh();
    this.onSummary();
  }

  /** The loaded row of a customer, if it is on a loaded page. */
  findLoaded(id: number): CustomerNode | undefined {
    return this.peek()?.find((n): n is CustomerNode => n instanceof CustomerNode && n.customer.ID === id);
  }
}
