// The questions the registry commands share: a tax number checked as it is typed, and the
// GlobalUserType (Invoice or DespatchAdvice), remembered between uses.
import * as vscode from 'vscode';
import { GLOBAL_USER_TYPES, type AliasType, type GlobalUserType } from '../../api/types';
import { checkTaxId, type TaxIdCheck } from '../../domain/taxId';
import { taxIdProblemText } from '../../domain/taxIdWording';
import { prompts, UserCancelledError } from '../../shell/prompts';
import type { PaletteContext } from './paletteContext';

const USER_TYPE_KEY = 'nilvera.registry.userType';

/** Why a typed tax number cannot be right (src/domain/taxIdWording.ts), or undefined when its checksum holds. */
export function taxNumberProblem(check: TaxIdCheck): string | undefined {
  if (check.valid) return undefined;
  if (check.problem === 'empty') return vscode.l10n.t('Enter a 10-digit VKN or an 11-digit TCKN.');
  return taxIdProblemText(vscode.l10n, check);
}

export async function askTaxNumber(): Promise<string> {
  const value = await prompts.inputBox({
    title: vscode.l10n.t('Check a Tax Number'),
    prompt: vscode.l10n.t('VKN (10 digits) or TCKN (11 digits)'),
    placeHolder: '1234567890',
    ignoreFocusOut: true,
    validateInput: (text) => taxNumberProblem(checkTaxId(text)),
  });
  if (value === undefined) throw new UserCancelledError();
  return value.trim();
}

function userTypeLabel(type: GlobalUserType): string {
  return type === 'Invoice' ? vscode.l10n.t('e-Invoice (Invoice)') : vscode.l10n.t('e-Despatch (DespatchAdvice)');
}

/** Picks the GlobalUserType; the last choice comes first and is remembered. */
export async function askUserType(ctx: PaletteContext): Promise<GlobalUserType> {
  const last = ctx.shell.globalState.get<GlobalUserType>(USER_TYPE_KEY) ?? 'Invoice';
  const ordered = [last, ...GLOBAL_USER_TYPES.filter((t) => t !== last)];
  const items = ordered.map((type) => ({ label: userTypeLabel(type), description: type, type }));
  const picked = await prompts.quickPick(items, { title: vscode.l10n.t('Registered users of which document type?'), ignoreFocusOut: true });
  if (!picked) throw new UserCancelledError();
  await ctx.shell.globalState.update(USER_TYPE_KEY, picked.type);
  return picked.type;
}

export async function askAliasType(): Promise<AliasType> {
  const items = [
    { label: vscode.l10n.t('PK: receiving mailboxes'), description: 'PK', type: 'PK' as const },
    { label: vscode.l10n.t('GB: sending units'), description: 'GB', type: 'GB' as const },
  ];
  const picked = await prompts.quickPick(items, { title: vscode.l10n.t('Which alias list?'), ignoreFocusOut: true });
  if (!picked) throw new UserCancelledError();
  return picked.type;
}
