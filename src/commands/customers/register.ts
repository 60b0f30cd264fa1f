// The customers view's commands, each through the shell's one error-handling wrapper.
import * as vscode from 'vscode';
import { FormCommands, TreeCommands } from '../../constants';
import { registerCommand } from '../../shell/commandRunner';
import type { CommandContext } from '../commandContext';
import { checkCustomerInRegistry, copyTaxNumber, deleteCustomers, editCustomer, findByTaxNumber, openCustomer, quickSearch } from './customerActions';
import { clearCustomerSearch, searchCustomers, sortCustomers } from './filterCommands';

export function registerCustomerCommands(ctx: CommandContext): vscode.Disposable[] {
  return [
    registerCommand(TreeCommands.customersRefresh, () => ctx.trees.customers.refresh()),
    registerCommand(TreeCommands.customersSearch, () => searchCustomers(ctx)),
    registerCommand(TreeCommands.customersClearSearch, () => clearCustomerSearch(ctx)),
    registerCommand(TreeCommands.customersSort, () => sortCustomers(ctx)),
    registerCommand(TreeCommands.customersOpen, (node) => openCustomer(ctx, node)),
    registerCommand(TreeCommands.customersEdit, (node) => editCustomer(ctx, node)),
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
