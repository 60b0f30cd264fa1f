// The customers view's commands, each through the shell's one error-handling wrapper.
import type * as vscode from 'vscode';
import { TreeCommands } from '../../constants';
import { registerCommand } from '../../shell/commandRunner';
import type { CommandContext } from '../commandContext';
import { checkCustomerInRegistry, copyTaxNumber, createCustomer, deleteCustomers, editCustomer, findByTaxNumber, openCustomer, quickSearch } from './customerActions';
import { exportCustomers } from './exportCustomers';
import { clearCustomerSearch, searchCustomers, sortCustomers } from './filterCommands';
import { importCustomers } from './importCustomers';

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
    registerCommand(TreeCommands.customersCreate, () => createCustomer(ctx)),
    registerCommand(TreeCommands.customersFindByTaxNumber, () => findByTaxNumber(ctx)),
    registerCommand(TreeCommands.customersQuickSearch, () => quickSearch(ctx)),
    registerCommand(TreeCommands.customersImport, (file) => importCustomers(ctx, file)),
    registerCommand(TreeCommands.customersExport, () => exportCustomers(ctx)),
  ];
}
