// Single-customer actions of the customers view: details, new, edit, registry check, copy,
// delete (one or many), find by tax number, quick search.
import * as vscode from 'vscode';
import { FormCommands } from '../../constants';
import type { CustomerResponse } from '../../api/types';
import { isApiError } from '../../shell/apiContract';
import { prompts } from '../../shell/prompts';
import { CustomerNode } from '../../views/customers/customerNode';
import { required, type CommandContext } from '../commandContext';
import { showRecord } from '../recordDocument';
import { taxNumberProblem } from './customerInputs';

/** The customers a command applies to: the clicked row plus the selection it belongs to, else the selection. */
export function targetCustomers(ctx: CommandContext, node: unknown, selected: unknown): CustomerNode[] {
  const picked = Array.isArray(selected) ? selected.filter((n): n is CustomerNode => n instanceof CustomerNode) : [];
  if (node instanceof CustomerNode) return picked.some((n) => n.id === node.id) ? picked : [node];
  if (picked.length > 0) return picked;
  return ctx.trees.customersView.selection.filter((n): n is CustomerNode => n instanceof CustomerNode);
}

function oneCustomer(ctx: CommandContext, node: unknown): CustomerResponse {
  const [first] = targetCustomers(ctx, node, undefined);
  if (!first) throw new vscode.CancellationError();
  return first.customer;
}

/** Opens the customer's details, in a tab named by its name and tax number. */
async function showDetails(ctx: CommandContext, customer: CustomerResponse): Promise<void> {
  const details = await (await ctx.client()).customers.get(customer.ID, undefined, { taxNumber: customer.TaxNumber });
  await showRecord(details, `${details.Name || vscode.l10n.t('(no name)')} (${details.TaxNumber ?? details.ID})`);
}

export async function openCustomer(ctx: CommandContext, node: unknown): Promise<void> {
  await showDetails(ctx, oneCustomer(ctx, node));
}

export async function editCustomer(ctx: CommandContext, node: unknown): Promise<void> {
  const customer = oneCustomer(ctx, node);
  await vscode.commands.executeCommand(FormCommands.customer, { customerId: customer.ID });
}

export async function checkCustomerInRegistry(ctx: CommandContext, node: unknown): Promise<void> {
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

export async function copyTaxNumber(ctx: CommandContext, node: unknown): Promise<void> {
  const customer = oneCustomer(ctx, node);
  await vscode.env.clipboard.writeText(customer.TaxNumber ?? '');
  vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', customer.TaxNumber ?? ''), 3000);
}

/** Deletes the clicked customer, or every selected one with DELETE /Customers/Bulk, after a confirmation. */
export async function deleteCustomers(ctx: CommandContext, node: unknown, selected: unknown): Promise<void> {
  const targets = targetCustomers(ctx, node, selected);
  if (targets.length === 0) {
    void prompts.message('info', vscode.l10n.t('Select the customers to delete first.'));
    return;
  }
  const action = vscode.l10n.t('Delete');
  const question =
    targets.length === 1
      ? vscode.l10n.t('Delete customer "{0}" ({1})?', targets[0].customer.Name ?? '', targets[0].customer.TaxNumber ?? '')
      : vscode.l10n.t('Delete {0} customers?', targets.length);
  const detail = vscode.l10n.t('This cannot be undone: the API has no way to restore a deleted customer.');
  if ((await prompts.message('warning', question, { modal: true, detail }, action)) !== action) return;
  const api = (await ctx.client()).customers;
  if (targets.length === 1) await api.delete(targets[0].customer.ID);
  else await api.deleteBulk(targets.map((t) => t.customer.ID));
  ctx.trees.dataChanged('customers');
}

/** Shows a customer: selects its row when it is on a loaded page, else opens its details. */
async function revealOrOpen(ctx: CommandContext, customer: CustomerResponse): Promise<void> {
  const loaded = ctx.trees.customers.root.findLoaded(customer.ID);
  if (loaded) await ctx.trees.customersView.reveal(loaded, { select: true, focus: true });
  else await showDetails(ctx, customer);
}

export async function findByTaxNumber(ctx: CommandContext): Promise<void> {
  const taxNumber = required(
    await prompts.inputBox({ title: vscode.l10n.t('Find Customer by Tax Number'), prompt: vscode.l10n.t('Tax number (VKN or TCKN)'), validateInput: taxNumberProblem }),
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

interface CustomerPick extends vscode.QuickPickItem {
  customer: CustomerResponse;
}

export async function quickSearch(ctx: CommandContext): Promise<void> {
  const picked = await prompts.searchPick<CustomerPick>({
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
