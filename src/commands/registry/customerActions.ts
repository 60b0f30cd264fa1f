// Actions on a registry detail: add the taxpayer as a customer, copy its tax number or an alias.
import * as vscode from 'vscode';
import { UserFacingError } from '../../shell/errorMessages';
import { prompts, UserCancelledError } from '../../shell/prompts';
import { FormCommands } from '../../constants';
import type { PaletteContext } from './paletteContext';
import { customerPrefill, type RegistryDetail } from './registryDetail';

function isDetail(value: unknown): value is RegistryDetail {
  return typeof value === 'object' && value !== null && typeof (value as RegistryDetail).taxNumber === 'string' && Array.isArray((value as RegistryDetail).aliases);
}

/** The detail shown in the active editor, for commands run from the palette there. */
function activeDetail(ctx: PaletteContext): RegistryDetail | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri ? ctx.details.detailOf(uri) : undefined;
}

/**
 * Opens the customer form prefilled; with `useForm: false`, creates the customer directly after a
 * confirmation. Returns how it went ('form' | 'created').
 */
export async function addAsCustomer(ctx: PaletteContext, arg?: unknown, options: { useForm?: boolean } = {}): Promise<'form' | 'created'> {
  const detail = isDetail(arg) ? arg : activeDetail(ctx);
  if (!detail) throw new UserFacingError(vscode.l10n.t('Open a taxpayer from the registry first (Check a Tax Number or Search the Registry).'));
  const prefill = customerPrefill(detail);
  if (options.useForm !== false) {
    await vscode.commands.executeCommand(FormCommands.customer, { prefill });
    return 'form';
  }
  const create = vscode.l10n.t('Create Customer');
  const choice = await prompts.message('info', vscode.l10n.t('Add {0} ({1}) as a customer?', detail.title, detail.taxNumber), { modal: true }, create);
  if (choice !== create) throw new UserCancelledError();
  const client = await ctx.shell.client();
  await client.customers.create([prefill]);
  ctx.shell.dataChanged('customers');
  void prompts.message('info', vscode.l10n.t('Customer {0} created.', detail.title));
  return 'created';
}

export async function copyTaxNumber(ctx: PaletteContext, arg?: unknown): Promise<void> {
  const taxNumber = typeof arg === 'string' ? arg : activeDetail(ctx)?.taxNumber;
  if (!taxNumber) throw new UserFacingError(vscode.l10n.t('Open a taxpayer from the registry first (Check a Tax Number or Search the Registry).'));
  await vscode.env.clipboard.writeText(taxNumber);
  void prompts.message('info', vscode.l10n.t('Copied {0}.', taxNumber));
}

export async function copyAlias(ctx: PaletteContext, arg?: unknown): Promise<void> {
  let alias = typeof arg === 'string' ? arg : undefined;
  if (!alias) {
    const detail = activeDetail(ctx);
    if (!detail || detail.aliases.length === 0) throw new UserFacingError(vscode.l10n.t('Open a taxpayer from the registry first (Check a Tax Number or Search the Registry).'));
    const picked = await prompts.quickPick(
      detail.aliases.map((a) => ({ label: a.name, description: [a.kind, a.document, a.deleted ? vscode.l10n.t('deleted') : vscode.l10n.t('active')].filter(Boolean).join(' · ') })),
      { title: vscode.l10n.t('Copy which alias?') },
    );
    if (!picked) throw new UserCancelledError();
    alias = picked.label;
  }
  await vscode.env.clipboard.writeText(alias);
  void prompts.message('info', vscode.l10n.t('Copied {0}.', alias));
}
