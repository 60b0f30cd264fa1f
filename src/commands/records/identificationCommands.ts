// Company identifications: add (one of the 21 CompanyIdentificationType values and a value), delete.
import * as vscode from 'vscode';
import { COMPANY_IDENTIFICATION_TYPES, type CompanyIdentificationType } from '../../api/types';
import { prompts } from '../../shell/prompts';
import { IdentificationNode } from '../../views/records/recordNodes';
import { required, type CommandContext } from '../commandContext';

export async function addIdentification(ctx: CommandContext): Promise<void> {
  const items = COMPANY_IDENTIFICATION_TYPES.map((t) => ({ label: t, type: t as CompanyIdentificationType }));
  const picked = required(await prompts.quickPick(items, { title: vscode.l10n.t('Add Identification (1/2)'), placeHolder: vscode.l10n.t('Identification type') }));
  const value = required(
    await prompts.inputBox({
      title: vscode.l10n.t('Add Identification (2/2)'),
      prompt: vscode.l10n.t('Value of {0}', picked.type),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('The value is required.')),
    }),
  ).trim();
  await (await ctx.client()).identifications.create(picked.type, value);
  ctx.trees.dataChanged('identifications');
}

export async function deleteIdentification(ctx: CommandContext, node: unknown): Promise<void> {
  if (!(node instanceof IdentificationNode)) throw new vscode.CancellationError();
  const i = node.identification;
  const action = vscode.l10n.t('Delete');
  const detail = vscode.l10n.t('This cannot be undone through the API; you can add the same identification again.');
  if ((await prompts.message('warning', vscode.l10n.t('Delete identification {0}: {1}?', i.Name ?? '', i.Value ?? ''), { modal: true, detail }, action)) !== action) return;
  await (await ctx.client()).identifications.delete(i.ID);
  ctx.trees.dataChanged('identifications');
}
