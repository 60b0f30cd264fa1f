// The customers view's commands (each through the shell's one error-handling wrapper): details, new,
// edit, registry check, copy, delete (one or many), find by tax number, quick search, and the view's
// search and sort (server side: GET /Customers?Search=&SortColumn=&SortType=).
import * as vscode from 'vscode';
import { FormCommands, TreeCommands } from '../../constants';
import type { CustomerResponse, SortType } from '../../api/types';
import { DOCUMENTED_SORT_COLUMNS } from '../../api/specSilent';
import { checkTaxId } from '../../domain/taxId';
import { taxNumberProblem } from '../registry/registryPrompts';
import { isApiError } from '../../shell/apiContract';
import { registerCommand } from '../../shell/commandRunner';
import { prompts } from '../../shell/prompts';
import { CustomerNode } from '../../views/customers/customerNode';
import { sortColumnLabel } from '../../views/trees';
import { confirmDelete, required, type TreeCommandContext } from '../treeCommandContext';
import { showRecord } from '../recordDocument';

export function registerCustomerCommands(ctx: TreeCommandContext): vscode.Disposable[] {
  return [
    registerCommand(TreeCommands.customersRefresh, () => ctx.trees.customers.refresh()),
    registerCommand(TreeCommands.customersSearch, () => searchCustomers(ctx)),
    registerCommand(TreeCommands.customersClearSearch, () => ctx.trees.customers.root.setFilter({ search: '' })),
    registerCommand(TreeCommands.customersSort, () => sortCustomers(ctx)),
    registerCommand(TreeCommands.customersOpen, (node) => showDetails(ctx, oneCustomer(ctx, node))),
    registerCommand(TreeCommands.customersEdit, (node) => vscode.commands.executeCommand(FormCommands.customer, { customerId: oneCustomer(ctx, node).ID })),
    registerCommand(TreeCommands.customersCheckRegistry, (node) => checkCustomerInRegistry(ctx, node)),
    registerCommand(TreeCommands.customersCopyTaxNumber, (node) => copyTaxNumber(ctx, node)),
    registerCommand(TreeCommands.customersDelete, (node, selected) => deleteCustomers(ctx, node, selected)),
    registerCommand(TreeCommands.customersDeleteSelected, (node, selected) => deleteCustomers(ctx, node, selected)),
    registerCommand(TreeCommands.customersCreate, () => vscode.commands.executeCommand(FormCommands.customer, {})),
    registerCommand(TreeCommands.customersFindByTaxNumber, () => findByTaxNumber(ctx)),
    registerCommand(TreeCommands.customersQuickSearch, () => quickSearch(ctx)),
    // Import and export are bundles of their own, loaded when first run.
    registerCommand(TreeCommands.customersImport, async (file) => (await import('./importCustomers')).importCustomers(ctx, file)),
    registerCommand(TreeCommands.customersExport, async () => (await import('./exportCustomers')).exportCustomers(ctx)),
  ];
}

/** The customers a command applies to: the clicked row plus the selection it belongs to, else the selection. */
function targetCustomers(ctx: TreeCommandContext, node: unknown, selected: unknown): CustomerNode[] {
  const picked = Array.isArray(selected) ? selected.filter((n): n is CustomerNode => n instanceof CustomerNode) : [];
  if (node instanceof CustomerNode) return picked.some((n) => n.id === node.id) ? picked : [node];
  if (picked.length > 0) return picked;
  return ctx.trees.customersView.selection.filter((n): n is CustomerNode => n instanceof CustomerNode);
}

function oneCustomer(ctx: TreeCommandContext, node: unknown): CustomerResponse {
  const [first] = targetCustomers(ctx, node, undefined);
  if (!first) throw new vscode.CancellationError();
  return first.customer;
}

/** Opens the customer's details, in a tab named by its name and tax number. */
async function showDetails(ctx: TreeCommandContext, customer: CustomerResponse): Promise<void> {
  const details = await (await ctx.client()).customers.get(customer.ID, undefined, { taxNumber: customer.TaxNumber });
  await showRecord(details, `${details.Name || vscode.l10n.t('(no name)')} (${details.TaxNumber ?? details.ID})`);
}

async function checkCustomerInRegistry(ctx: TreeCommandContext, node: unknown): Promise<void> {
  const customer = oneCustomer(ctx, node);
  const taxNumber = customer.TaxNumber ?? '';
  const entries = await (await ctx.client()).registry.checkTaxNumber(taxNumber);
  if (entries.length === 0) {
    void prompts.message('info', vscode.l10n.t('{0} ({1}) is not a registered e-invoice user: send it e-Archive invoices.', customer.Name ?? '', taxNumber));
    return;
  }
  const aliases = [...new Set(entries.map((e) => e.Name).filter((n): n is string => !!n))];
  void prompts.message('info', vscode.l10n.t('{0} ({1}) is a registered e-invoice user. Aliases: {2}', entries[0].Title ?? customer.Name ?? '', taxNumber, aliases.join(', ')));
}

async function copyTaxNumber(ctx: TreeCommandContext, node: unknown): Promise<void> {
  const customer = oneCustomer(ctx, node);
  await vscode.env.clipboard.writeText(customer.TaxNumber ?? '');
  vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', customer.TaxNumber ?? ''), 3000);
}

/** Deletes the clicked customer, or every selected one with DELETE /Customers/Bulk, after a confirmation. */
async function deleteCustomers(ctx: TreeCommandContext, node: unknown, selected: unknown): Promise<void> {
  const targets = targetCustomers(ctx, node, selected);
  if (targets.length === 0) {
    void prompts.message('info', vscode.l10n.t('Select the customers to delete first.'));
    return;
  }
  const [first] = targets;
  const question =
    targets.length === 1
      ? vscode.l10n.t('Delete customer "{0}" ({1})?', first.customer.Name ?? '', first.customer.TaxNumber ?? '')
      : vscode.l10n.t('Delete {0} customers?', targets.length);
  const detail = vscode.l10n.t('This cannot be undone: the API has no way to restore a deleted customer.');
  await confirmDelete(ctx, 'customers', question, detail, async () => {
    const api = (await ctx.client()).customers;
    return targets.length === 1 ? api.delete(first.customer.ID) : api.deleteBulk(targets.map((t) => t.customer.ID));
  });
}

/** Shows a customer: selects its row when it is on a loaded page, else opens its details. */
async function revealOrOpen(ctx: TreeCommandContext, customer: CustomerResponse): Promise<void> {
  const loaded = ctx.trees.customers.root.findLoaded(customer.ID);
  if (loaded) await ctx.trees.customersView.reveal(loaded, { select: true, focus: true });
  else await showDetails(ctx, customer);
}

async function findByTaxNumber(ctx: TreeCommandContext): Promise<void> {
  const taxNumber = required(
    await prompts.inputBox({ title: vscode.l10n.t('Find Customer by Tax Number'), prompt: vscode.l10n.t('Tax number (VKN or TCKN)'), validateInput: (text) => taxNumberProblem(checkTaxId(text.trim())) }),
  ).trim();
  try {
    const customer = await (await ctx.client()).customers.getByTaxNumber(taxNumber);
    await revealOrOpen(ctx, customer);
  } catch (error) {
    if (isApiError(error) && error.kind === 'notFound') {
      void prompts.message('info', vscode.l10n.t('No customer has the tax number {0}.', taxNumber));
      return;
    }
    throw error;
  }
}

async function quickSearch(ctx: TreeCommandContext): Promise<void> {
  const picked = await prompts.searchPick({
    title: vscode.l10n.t('Find Customer'),
    placeholder: vscode.l10n.t('Type a name or tax number'),
    search: async (text, signal) => {
      if (text.trim().length < 2) return [];
      const found = await (await ctx.client()).customers.search(text.trim(), { signal });
      return found.map((c) => ({ label: c.Name ?? '', description: c.TaxNumber ?? '', detail: [c.City, c.Email].filter((v) => v).join(' · '), customer: c }));
    },
  });
  if (picked) await revealOrOpen(ctx, picked.customer);
}

async function searchCustomers(ctx: TreeCommandContext): Promise<void> {
  const root = ctx.trees.customers.root;
  const text = required(
    await prompts.inputBox({ title: vscode.l10n.t('Search Customers'), prompt: vscode.l10n.t('Name, tax number or other text; empty shows everyone'), value: root.filter.search }),
  );
  root.setFilter({ search: text.trim() });
}

async function sortCustomers(ctx: TreeCommandContext): Promise<void> {
  const root = ctx.trees.customers.root;
  const columns: Array<vscode.QuickPickItem & { column: string | undefined }> = [
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
  const directions: Array<vscode.QuickPickItem & { direction: SortType }> = [
    { label: vscode.l10n.t('Ascending'), description: 'A → Z, 0 → 9', direction: 'ASC' },
    { label: vscode.l10n.t('Descending'), description: 'Z → A, 9 → 0', direction: 'DESC' },
  ];
  const direction = required(await prompts.quickPick(directions, { title: vscode.l10n.t('Sort Direction') }));
  root.setFilter({ sortColumn: column.column, sortType: direction.direction });
}
