// Asks for a template or series ID: the remembered ones first, or another number.
import * as vscode from 'vscode';
import { prompts } from '../../shell/prompts';
import { required } from '../commandContext';
import type { RememberedId } from './rememberedIds';

export async function askId(title: string, remembered: RememberedId[]): Promise<{ ID: number; Name?: string }> {
  if (remembered.length > 0) {
    const items: Array<vscode.QuickPickItem & { entry?: RememberedId }> = remembered.map((r) => ({ label: r.Name ?? `#${r.ID}`, description: `ID ${r.ID}`, entry: r }));
    items.push({ label: `$(edit) ${vscode.l10n.t('Another ID…')}` });
    const picked = required(await prompts.quickPick(items, { title, ignoreFocusOut: true }));
    if (picked.entry) return picked.entry;
  }
  const typed = await prompts.inputBox({
    title,
    prompt: vscode.l10n.t('The numeric ID, as shown in the Nilvera portal'),
    ignoreFocusOut: true,
    validateInput: (text) => (/^\s*[1-9]\d{0,9}\s*$/.test(text) && Number(text) <= 2_147_483_647 ? undefined : vscode.l10n.t('Enter a positive whole number.')),
  });
  return { ID: Number(required(typed).trim()) };
}
