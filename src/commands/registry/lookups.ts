// Online registry lookups: check a tax number, check by name, search, and the detail of one taxpayer.
import * as vscode from 'vscode';
import { PaletteCommands } from '../../constants';
import type { GlobalCompanyInfoResponse, GlobalUserType, SearchGlobalCompanyResponse } from '../../api/types';
import { checkTaxId } from '../../domain/taxId';
import { isApiError } from '../../shell/apiContract';
import { UserFacingError } from '../../shell/errorMessages';
import { prompts, UserCancelledError } from '../../shell/prompts';
import type { PaletteContext } from './paletteContext';
import { detailFromCheckRows, detailFromInfo, type RegistryDetail } from './registryDetail';
import { askTaxNumber, askUserType, taxNumberProblem } from './registryPrompts';
import { aliasesCounted } from '../../shell/counted';
import { walkthroughStepDone } from '../../walkthrough/stepsDone';
import { withCancellableProgress } from '../../shell/cancellableProgress';

export interface CheckArgs {
  taxNumber?: string;
  userType?: GlobalUserType;
}

/** "Check a Tax Number": checksum first (no call for a wrong digit), then Check/TaxNumber. */
export async function checkTaxNumber(ctx: PaletteContext, args: CheckArgs = {}): Promise<RegistryDetail | undefined> {
  const taxNumber = args.taxNumber?.trim() ?? (await askTaxNumber());
  const problem = taxNumberProblem(checkTaxId(taxNumber));
  if (problem) throw new UserFacingError(problem);
  const userType = args.userType ?? (await askUserType(ctx));
  const client = await ctx.shell.client();
  const rows: GlobalCompanyInfoResponse[] = await withCancellableProgress(vscode.l10n.t('Checking {0}…', taxNumber), (signal) => client.registry.checkTaxNumber(taxNumber, userType, { signal }));
  walkthroughStepDone('checkTaxNumber');
  if (!rows || rows.length === 0) {
    await prompts.message('info', vscode.l10n.t('{0} is not registered: the taxpayer registry has no {1} user with this number.', taxNumber, userType));
    return undefined;
  }
  const detail = detailFromCheckRows(rows);
  await ctx.details.open(detail);
  void announceRegistered(detail);
  return detail;
}

async function announceRegistered(detail: RegistryDetail): Promise<void> {
  const addAction = vscode.l10n.t('Add as Customer');
  const copyAction = vscode.l10n.t('Copy Tax Number');
  const choice = await prompts.message('info', vscode.l10n.t('{0} is registered: {1} ({2}).', detail.taxNumber, detail.title, aliasesCounted(detail.aliases.length)), undefined, addAction, copyAction);
  if (choice === addAction) await vscode.commands.executeCommand(PaletteCommands.registryAddAsCustomer, detail);
  if (choice === copyAction) await vscode.commands.executeCommand(PaletteCommands.registryCopyTaxNumber, detail.taxNumber);
}

type ResultItem = vscode.QuickPickItem & { taxNumber: string };

async function pickResult(title: string, rows: Array<{ TaxNumber: string | null; Title: string | null; City?: string | null }>): Promise<string> {
  // One item per taxpayer: the first of its rows.
  const items = new Map<string, ResultItem>();
  for (const r of rows) if (r.TaxNumber && !items.has(r.TaxNumber)) items.set(r.TaxNumber, { label: r.Title ?? r.TaxNumber, description: r.TaxNumber, detail: r.City ?? undefined, taxNumber: r.TaxNumber });
  if (items.size === 0) throw new UserFacingError(vscode.l10n.t('No registered taxpayer matches.'));
  const picked = await prompts.quickPick([...items.values()], { title, matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true });
  if (!picked) throw new UserCancelledError();
  return picked.taxNumber;
}

async function askText(title: string, prompt: string): Promise<string> {
  const value = await prompts.inputBox({
    title,
    prompt,
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim().length < 2 ? vscode.l10n.t('Type at least 2 characters.') : undefined),
  });
  if (value === undefined) throw new UserCancelledError();
  return value.trim();
}

/** "Check by Name": Check/Name, results in a pick that opens the detail. */
export async function checkName(ctx: PaletteContext, args: { name?: string; userType?: GlobalUserType } = {}): Promise<RegistryDetail> {
  const name = args.name ?? (await askText(vscode.l10n.t('Check by Name'), vscode.l10n.t('Title or part of it')));
  const userType = args.userType ?? (await askUserType(ctx));
  const client = await ctx.shell.client();
  const rows = await withCancellableProgress(vscode.l10n.t('Searching the registry…'), (signal) => client.registry.checkName(name, userType, { signal }));
  const taxNumber = await pickResult(vscode.l10n.t('Registered users matching "{0}"', name), rows ?? []);
  return showDetail(ctx, { taxNumber, userType });
}

/** "Search the Registry": /Search/{text}, results (title, tax number, city) lead to the detail. */
export async function searchRegistry(ctx: PaletteContext, args: { text?: string } = {}): Promise<RegistryDetail> {
  const text = args.text ?? (await askText(vscode.l10n.t('Search the Taxpayer Registry'), vscode.l10n.t('Title, tax number or part of them')));
  const client = await ctx.shell.client();
  const rows: SearchGlobalCompanyResponse[] = await withCancellableProgress(vscode.l10n.t('Searching the registry…'), (signal) => client.registry.search(text, undefined, { signal }));
  const taxNumber = await pickResult(vscode.l10n.t('Taxpayers matching "{0}"', text), rows ?? []);
  return showDetail(ctx, { taxNumber });
}

/** The detail of one taxpayer (GetGlobalCustomerInfo) in the read-only document. */
export async function showDetail(ctx: PaletteContext, args: { taxNumber?: string; userType?: GlobalUserType } = {}): Promise<RegistryDetail> {
  const taxNumber = args.taxNumber ?? (await askTaxNumber());
  const client = await ctx.shell.client();
  try {
    const info = await withCancellableProgress(vscode.l10n.t('Loading {0}…', taxNumber), (signal) => client.registry.info(taxNumber, args.userType, { signal }));
    const detail = detailFromInfo(info);
    await ctx.details.open(detail);
    return detail;
  } catch (error) {
    if (isApiError(error) && error.kind === 'notFound') throw new UserFacingError(vscode.l10n.t('{0} is not in the taxpayer registry.', taxNumber));
    throw error;
  }
}
