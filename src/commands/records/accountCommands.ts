// Account view actions: mailing switches, campaign links.
import * as vscode from 'vscode';
import { prompts } from '../../shell/prompts';
import { readSettings } from '../../shell/settings';
import { MailingNode } from '../../views/records/accountNodes';
import type { CommandContext } from '../commandContext';

/**
 * Turns e-mail (Portal) or WhatsApp sending on or off (`wanted`: the checkbox's new state; absent:
 * the other state). Turning one off on the live (Production) account asks first, in a modal dialog:
 * invoices would stop reaching customers that way.
 */
export async function toggleMailing(ctx: CommandContext, node: unknown, wanted?: unknown): Promise<void> {
  if (!(node instanceof MailingNode) || !node.toggleable) throw new vscode.CancellationError();
  const next = typeof wanted === 'boolean' ? wanted : !node.setting.IsActive;
  if (next === node.setting.IsActive) return;
  if (!next && readSettings().environment === 'production') {
    const channel = node.setting.ModuleID === 'Portal' ? vscode.l10n.t('E-mail') : 'WhatsApp';
    const action = vscode.l10n.t('Turn Off {0} Sending', channel);
    const detail = vscode.l10n.t('This is the live account: invoices will no longer be sent to customers by {0} until it is turned on again.', channel);
    if ((await prompts.message('warning', vscode.l10n.t('Turn off {0} sending on the live account?', channel), { modal: true, detail }, action)) !== action) {
      // Puts the checkbox back to the state the server has (the node still holds it): no request.
      ctx.trees.account.redraw(node);
      return;
    }
  }
  try {
    const mailing = (await ctx.client()).mailing;
    if (node.setting.ModuleID === 'Portal') await mailing.setEmail({ IsActive: next });
    else await mailing.setChat(next);
  } finally {
    // After a failure too: the checkbox shows what the server has.
    ctx.trees.dataChanged('mailing');
  }
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
