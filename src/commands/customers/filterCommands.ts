// Search and sort of the customers view (server side: GET /Customers?Search=&SortColumn=&SortType=).
import * as vscode from 'vscode';
import type { SortType } from '../../api/types';
import { DOCUMENTED_SORT_COLUMNS } from '../../api/specSilent';
import { prompts } from '../../shell/prompts';
import { sortColumnLabel } from '../../views/trees';
import { required, type CommandContext } from '../commandContext';

export async function searchCustomers(ctx: CommandContext): Promise<void> {
  const root = ctx.trees.customers.root;
  const text = required(
    await prompts.inputBox({ title: vscode.l10n.t('Search Customers'), prompt: vscode.l10n.t('Name, tax number or other text; empty shows everyone'), value: root.filter.search }),
  );
  root.setFilter({ search: text.trim() });
}

export function clearCustomerSearch(ctx: CommandContext): void {
  ctx.trees.customers.root.setFilter({ search: '' });
}

interface ColumnPick extends vscode.QuickPickItem {
  column: string | undefined;
}

interface DirectionPick extends vscode.QuickPickItem {
  direction: SortType;
}

export async function sortCustomers(ctx: CommandContext): Promise<void> {
  const root = ctx.trees.customers.root;
  const columns: ColumnPick[] = [
    // Only the columns the documentation names (spec-silent: others may be refused, see specSilent.ts).
    ...DOCUMENTED_SORT_COLUMNS.map((column) => ({ label: sortColumnLabel(column), column })),
    { label: vscode.l10n.t('Server order (no sorting)'), column: undefined },
  ];
  for (const c of columns) if (c.column === root.filter.sortColumn) c.description = vscode.l10n.t('current');
  const column = required(await prompts.quickPick(columns, { title: vscode.l10n.t('Sort Customers By') }));
  if (!column.column) {
    root.setFilter({ sortColumn: undefined, sortType: 'ASC' });
    return;
  }
  const directions: DirectionPick[] = [
    { label: vscode.l10n.t('Ascending'), description: 'A → Z, 0 → 9', direction: 'ASC' },
    { label: vscode.l10n.t('Descending'), description: 'Z → A, 9 → 0', direction: 'DESC' },
  ];
  const direction = required(await prompts.quickPick(directions, { title: vscode.l10n.t('Sort Direction') }));
  root.setFilter({ sortColumn: column.column, sortType: direction.direction });
}
