// Creates the five sidebar trees and keeps them fresh: a new key or environment reloads them all;
// a change of data (ShellServices.onDidChangeData, src/shell/dataChanges.ts) reloads only the part that shows it.
import * as vscode from 'vscode';
import { Views } from '../constants';
import type { CertificateResponse, CompanyDocumentResponse, CompanyIdentificationResponse } from '../api/types';
import { formatCount } from '../shell/displayFormat';
import type { EmptyListRead, ListAvailability } from '../shell/missingOperation';
import type { DataArea } from '../shell/dataChanges';
import { readSettings } from '../shell/settings';
import type { ShellServices } from '../shell/services';
import { CustomersRoot } from './customers/customersRoot';
import { ListNode, type ListSpec } from './listNode';
import { AccountRoot, type AccountGroupKey } from './records/accountNodes';
import { CertificateNode, DocumentNode, IdentificationNode } from './records/recordNodes';
import { NodeTreeProvider } from './treeProvider';
import type { EmptyOr404, TreeNode } from './treeNode';

export const CustomerContextKeys = {
  filtered: 'nilvera.customers.filtered',
  hasSelection: 'nilvera.customers.hasSelection',
} as const;

export class NilveraTrees implements vscode.Disposable {
  readonly customers: NodeTreeProvider<CustomersRoot>;
  readonly documents: NodeTreeProvider<ListNode<CompanyDocumentResponse>>;
  readonly certificates: NodeTreeProvider<ListNode<CertificateResponse>>;
  readonly identifications: NodeTreeProvider<ListNode<CompanyIdentificationResponse>>;
  readonly account: NodeTreeProvider<AccountRoot>;
  readonly customersView: vscode.TreeView<TreeNode>;
  readonly accountView: vscode.TreeView<TreeNode>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    /** The views activate() created (src/features/index.ts); their rows are the providers below. */
    views: (id: string) => vscode.TreeView<unknown>,
    client: ShellServices['client'],
    ready: () => Promise<boolean>,
    /** What Check Connection found about a list on the active server (src/shell/missingOperation.ts). */
    knownList: (operation: EmptyListRead) => Promise<ListAvailability | undefined> = async () => undefined,
  ) {
    // A list whose bare 404 may mean "nothing to list" as well as "no such operation here".
    const emptyOr404 = (operation: EmptyListRead, text: () => string): EmptyOr404 => ({ text, known: () => knownList(operation) });
    this.customers = new NodeTreeProvider(
      Views.customers,
      (notify) =>
        new CustomersRoot(notify, client, () => readSettings().pageSize, () => this.updateCustomersSummary(), emptyOr404('customers.list', () => vscode.l10n.t('No customers, or this server does not offer the customer list (HTTP 404)'))),
      ready,
    );
    const list = <T>(viewId: string, spec: ListSpec<T>) => {
      const key = viewId.slice('nilvera.'.length);
      return new NodeTreeProvider(viewId, (notify) => new ListNode<T>(undefined, key, notify, spec), ready);
    };
    this.documents = list<CompanyDocumentResponse>(Views.documents, {
      fetch: async () => (await client()).documents.list(),
      toNode: (d, p) => new DocumentNode(p, d),
      notOffered: () => vscode.l10n.t('This server does not offer company documents'),
      emptyOr404: emptyOr404('documents.list', () => vscode.l10n.t('No company documents, or this server does not offer company documents (HTTP 404)')),
    });
    this.certificates = list<CertificateResponse>(Views.certificates, {
      fetch: async () => (await client()).certificates.list(),
      toNode: (c, p) => new CertificateNode(p, c),
      notOffered: () => vscode.l10n.t('This server does not offer certificates'),
      emptyOr404: emptyOr404('certificates.list', () => vscode.l10n.t('No certificates, or this server does not offer certificates (HTTP 404)')),
    });
    this.identifications = list<CompanyIdentificationResponse>(Views.identifications, {
      fetch: async () => (await client()).identifications.list(),
      toNode: (i, p) => new IdentificationNode(p, i),
      notOffered: () => vscode.l10n.t('This server does not offer company identifications'),
      emptyOr404: emptyOr404('identifications.list', () => vscode.l10n.t('No company identifications, or this server does not offer company identifications (HTTP 404)')),
    });
    this.account = new NodeTreeProvider(Views.account, (notify) => new AccountRoot(notify, client), ready);

    this.customersView = views(Views.customers) as vscode.TreeView<TreeNode>;
    this.accountView = views(Views.account) as vscode.TreeView<TreeNode>;
    this.disposables.push(
      // "Delete Selected Customers" is offered in the palette only while rows are selected.
      this.customersView.onDidChangeSelection((e) => void vscode.commands.executeCommand('setContext', CustomerContextKeys.hasSelection, e.selection.length > 0)),
      ...this.all,
    );
    void vscode.commands.executeCommand('setContext', CustomerContextKeys.filtered, false);
  }

  private get all(): NodeTreeProvider[] {
    return [this.customers, this.documents, this.certificates, this.identifications, this.account];
  }

  /** The providers of the views' rows, by view id. */
  get providers(): Record<string, vscode.TreeDataProvider<unknown>> {
    return Object.fromEntries(this.all.map((p) => [p.viewId, p]));
  }

  /** Reloads every view (new key, other environment). */
  refreshAll(): void {
    for (const p of this.all) p.refresh();
  }

  /** Reloads only what shows `area`. */
  dataChanged(area: DataArea): void {
    const { customers, documents, certificates, identifications } = this;
    const tree = { customers, documents, certificates, identifications }[area as string];
    // Any other area is a group of the account view (the whole view while its groups are not made yet).
    (tree ?? this.account.root.group(area as AccountGroupKey) ?? this.account).refresh();
  }

  /** Title with the total count; description with the active search and sort. */
  updateCustomersSummary(): void {
    const root = this.customers.root;
    const view = this.customersView;
    if (!view) return; // called while the constructor is still running
    const total = root.total;
    view.title = total === null ? vscode.l10n.t('Customers') : vscode.l10n.t('Customers ({0})', formatCount(total));
    const parts: string[] = [];
    if (root.filter.search) parts.push(vscode.l10n.t('search: "{0}"', root.filter.search));
    if (root.filter.sortColumn && root.sortRefused) parts.push(vscode.l10n.t('the server does not sort by {0}: its own order', sortColumnLabel(root.filter.sortColumn)));
    else if (root.filter.sortColumn) parts.push(vscode.l10n.t('sorted by {0} {1}', sortColumnLabel(root.filter.sortColumn), root.filter.sortType === 'ASC' ? '↑' : '↓'));
    view.description = parts.join(' · ') || undefined;
    void vscode.commands.executeCommand('setContext', CustomerContextKeys.filtered, root.filter.search !== '');
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** The column names the sort offers, as the user reads them. */
export function sortColumnLabel(column: string): string {
  const labels: Record<string, string> = {
    Name: vscode.l10n.t('Name'),
    TaxNumber: vscode.l10n.t('Tax number'),
    City: vscode.l10n.t('City'),
    ID: vscode.l10n.t('Date added'),
  };
  return labels[column] ?? column;
}
