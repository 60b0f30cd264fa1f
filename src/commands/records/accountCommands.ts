// Account view actions: the company form, mailing switches, campaign links.
import * as vscode from 'vscode';
import { FormCommands } from '../../constants';
import { prompts } from '../../shell/prompts';
import { MailingNode } from '../../views/records/accountNodes';
import { commandExists, showRecord, type CommandContext } from '../commandContext';

export async function openCompany(ctx: CommandContext): Promise<void> {
  if (await commandExists(FormCommands.company)) {
    await vscode.commands.executeCommand(FormCommands.company);
    return;
  }
  // Until the form exists: the company record, read-only.
  await showRecord(await (await ctx.client()).company.get());
}

/** Switches e-mail (Portal) or WhatsApp mailing; either can be switched back the same way. */
export async function toggleMailing(ctx: CommandContext, node: unknown): Promise<void> {
  if (!(node instanceof MailingNode) || !node.toggleable) throw new vscode.CancellationError();
  const next = !node.setting.IsActive;
  const mailing = (await ctx.client()).mailing;
  if (node.setting.ModuleID === 'Portal') await mailing.setEmail({ IsActive: next });
  else await mailing.setChat(next);
  ctx.trees.dataChanged('mailing');
}

export async function openCampaign(url: unknown): Promise<void> {
  if (typeof url !== 'string') throw new vscode.CancellationError();
  const uri = vscode.Uri.parse(url, true);
  // Only web links: a campaign text comes from the server and must not open local files or commands.
  if (uri.scheme !== 'https' && uri.scheme !== 'http') {
    void prompts.message('warning', vscode.l10n.t('The campaign link is not a web address: {0}', url));
    return;
  }
  await vscode.env.openExternal(uri);
}
