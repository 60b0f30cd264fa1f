// The Reconciliation view: groups by status with counts, the changes since the previous run, and
// customer rows paged inside each group (a "Load more" row), so 100,000 rows never reach the tree at once.
import * as vscode from 'vscode';
import { ReconciliationCommands } from '../constants';
import type { ReconRow } from './classify';
import { changeLabels, reasonText } from './labels';
import { cleanTreeItem } from '../shell/displayItems';
import { formatDateTime } from '../shell/displayFormat';
import type { ReconciliationReport } from './report';
import type { AliasChange } from './snapshot';

/** Rows a group shows at first and adds per "Load more". */
export const GROUP_PAGE = 200;

export type GroupKey = 'users' | 'notUsers' | 'invalid' | 'unchecked' | 'changes' | 'newlyRegistered' | 'aliasChanged' | 'deregistered';

export class GroupNode {
  shown = GROUP_PAGE;
  constructor(
    readonly key: GroupKey,
    readonly label: string,
    /** Customer rows (leaf groups) or sub-groups (changes). */
    readonly rows: readonly ReconRow[] | readonly AliasChange[] | undefined,
    readonly children: readonly (GroupNode | InfoNode)[] = [],
    readonly expanded = false,
  ) {}
}

export class CustomerNode {
  constructor(
    readonly group: GroupKey,
    readonly row: ReconRow,
    readonly previousAlias?: string,
  ) {}
}

export class LoadMoreNode {
  constructor(readonly group: GroupNode) {}
}

export class InfoNode {
  constructor(
    readonly key: string,
    readonly label: string,
  ) {}
}

export type ReconNode = GroupNode | CustomerNode | LoadMoreNode | InfoNode;

/** The top-level groups of a report (pure apart from the labels). */
export function groupsOf(report: ReconciliationReport): GroupNode[] {
  const g = (key: GroupKey, title: string, rows: readonly ReconRow[] | readonly AliasChange[]) => new GroupNode(key, vscode.l10n.t('{0} ({1})', title, rows.length), rows);
  const out = [
    g('users', vscode.l10n.t('e-Invoice users'), report.users),
    g('notUsers', vscode.l10n.t('Not e-invoice users'), report.notUsers),
    g('invalid', vscode.l10n.t('Invalid tax numbers'), report.invalid),
  ];
  if (report.unchecked.length) out.push(g('unchecked', vscode.l10n.t('Not checked (lookup failed)'), report.unchecked));
  const labels = changeLabels();
  if (!report.changes || !report.previousAt) {
    out.push(new GroupNode('changes', vscode.l10n.t('Changes'), undefined, [new InfoNode('first', vscode.l10n.t('First run: no previous result'))], true));
  } else {
    const c = report.changes;
    const count = c.newlyRegistered.length + c.aliasChanged.length + c.deregistered.length;
    const subs = (['newlyRegistered', 'aliasChanged', 'deregistered'] as const).map((kind) => g(kind, labels[kind], c[kind]));
    out.push(new GroupNode('changes', vscode.l10n.t('Changes since {0} ({1})', formatDateTime(report.previousAt), count), undefined, subs, true));
  }
  return out;
}

export class ReconciliationTree implements vscode.TreeDataProvider<ReconNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ReconNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private groups: GroupNode[] = [];
  private parents = new Map<ReconNode, GroupNode>();
  report: ReconciliationReport | undefined;

  show(report: ReconciliationReport | undefined): void {
    this.report = report;
    this.groups = report ? groupsOf(report) : [];
    this.parents = new Map();
    this.changed.fire(undefined);
  }

  loadMore(node: LoadMoreNode): void {
    node.group.shown += GROUP_PAGE;
    this.changed.fire(node.group);
  }

  getChildren(node?: ReconNode): ReconNode[] {
    if (!node) return this.groups;
    if (!(node instanceof GroupNode)) return [];
    const out: ReconNode[] = node.rows ? node.rows.slice(0, node.shown).map((r) => ('row' in r ? new CustomerNode(node.key, r.row, r.previousAlias) : new CustomerNode(node.key, r))) : [...node.children];
    if (node.rows && node.shown < node.rows.length) out.push(new LoadMoreNode(node));
    for (const c of out) this.parents.set(c, node);
    return out;
  }

  getParent(node: ReconNode): ReconNode | undefined {
    return this.parents.get(node);
  }

  getTreeItem(node: ReconNode): vscode.TreeItem {
    // Customer names and titles come from the server: no bidi or control characters (displayItems.ts).
    return cleanTreeItem(this.itemOf(node));
  }

  private itemOf(node: ReconNode): vscode.TreeItem {
    if (node instanceof GroupNode) {
      const item = new vscode.TreeItem(node.label, node.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `group/${node.key}`;
      item.contextValue = `reconciliation.group.${node.key}`;
      item.iconPath = new vscode.ThemeIcon(GROUP_ICONS[node.key]);
      return item;
    }
    if (node instanceof InfoNode) {
      const item = new vscode.TreeItem(node.label);
      item.id = `info/${node.key}`;
      item.iconPath = new vscode.ThemeIcon('info');
      return item;
    }
    if (node instanceof LoadMoreNode) {
      const item = new vscode.TreeItem(vscode.l10n.t('Load more…'));
      item.id = `group/${node.group.key}/~more/${node.group.shown}`;
      item.description = vscode.l10n.t('{0} of {1} shown', node.group.shown, node.group.rows?.length ?? 0);
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: ReconciliationCommands.loadMore, title: vscode.l10n.t('Load more…'), arguments: [node] };
      return item;
    }
    return customerItem(node);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

const GROUP_ICONS: Record<GroupKey, string> = {
  users: 'pass',
  notUsers: 'circle-slash',
  invalid: 'error',
  unchecked: 'question',
  changes: 'history',
  newlyRegistered: 'add',
  aliasChanged: 'arrow-swap',
  deregistered: 'remove',
};

function customerItem(node: CustomerNode): vscode.TreeItem {
  const { row } = node;
  const item = new vscode.TreeItem(row.name || row.taxNumber);
  item.id = `group/${node.group}/${row.customerId}`;
  let description: string;
  if (node.group === 'aliasChanged') description = vscode.l10n.t('{0} → {1}', node.previousAlias ?? '—', row.pkAlias ?? '—');
  else if (row.status === 'user') description = row.pkAlias ?? vscode.l10n.t('no active PK alias');
  else if (row.status === 'invalid') description = reasonText(row);
  else if (row.deregistered) description = vscode.l10n.t('{0} · every alias deleted', row.taxNumber);
  else description = row.taxNumber;
  item.description = description;
  item.tooltip = [row.name, row.taxNumber, row.title !== row.name ? row.title : undefined, description !== row.taxNumber ? description : undefined].filter(Boolean).join('\n');
  item.contextValue = row.status === 'user' && row.pkAlias ? 'reconciliation.customer.withAlias' : 'reconciliation.customer';
  item.iconPath = new vscode.ThemeIcon(row.status === 'invalid' ? 'warning' : 'person');
  item.command = { command: ReconciliationCommands.openCustomer, title: vscode.l10n.t('Open Customer'), arguments: [node] };
  return item;
}
