// Mailing switches (WhatsApp messages, e-mail sending) and the interactive tax office credentials.
import * as vscode from 'vscode';
import type { MailingSettingResponse } from '../../api/types';
import { isApiError } from '../../shell/apiContract';
import { UserFacingError } from '../../shell/errorMessages';
import { prompts, UserCancelledError } from '../../shell/prompts';
import { notifyDataChanged, type PaletteContext } from '../registry/commandContext';

export type MailingFeature = 'whatsapp' | 'email';

export interface MailingArgs {
  feature?: MailingFeature;
  isActive?: boolean;
}

function featureLabel(feature: MailingFeature): string {
  return feature === 'whatsapp' ? vscode.l10n.t('WhatsApp messages') : vscode.l10n.t('E-mail sending');
}

/** GET /Mailing/Setting rows: ModuleID Portal is the e-mail feature, WhatsApp the chat one. */
function currentState(rows: MailingSettingResponse[], feature: MailingFeature): boolean | undefined {
  const module = feature === 'whatsapp' ? 'WhatsApp' : 'Portal';
  return rows.find((r) => r.ModuleID === module)?.IsActive;
}

export async function switchMailing(ctx: PaletteContext, args: MailingArgs = {}): Promise<{ feature: MailingFeature; isActive: boolean }> {
  const client = await ctx.shell.client();
  let { feature, isActive } = args;
  if (!feature || isActive === undefined) {
    const rows = await client.mailing.settings();
    const onOff = (v: boolean | undefined) => (v === undefined ? vscode.l10n.t('unknown') : v ? vscode.l10n.t('on') : vscode.l10n.t('off'));
    const items = (['whatsapp', 'email'] as const).map((f) => {
      const now = currentState(rows, f);
      return {
        label: now ? vscode.l10n.t('Turn off {0}', featureLabel(f)) : vscode.l10n.t('Turn on {0}', featureLabel(f)),
        description: vscode.l10n.t('now {0}', onOff(now)),
        feature: f,
        next: !now,
      };
    });
    const picked = await prompts.quickPick(items.filter((i) => !feature || i.feature === feature), { title: vscode.l10n.t('Mailing Settings'), ignoreFocusOut: true });
    if (!picked) throw new UserCancelledError();
    feature = picked.feature;
    isActive = picked.next;
  }
  if (feature === 'whatsapp') await client.mailing.setChat(isActive);
  // The e-mail command's body is not shown in the spec: sent as { IsActive } (src/api/areas/mailing.ts).
  else await client.mailing.setEmail({ IsActive: isActive });
  await notifyDataChanged('mailing');
  void prompts.message('info', isActive ? vscode.l10n.t('{0}: on.', featureLabel(feature)) : vscode.l10n.t('{0}: off.', featureLabel(feature)));
  return { feature, isActive };
}

export interface TaxOfficeArgs {
  userName?: string;
  password?: string;
}

/** PUT /InteractiveTaxOffice?UserName=&Password=; a 422 shows the server's reason. */
export async function updateTaxOffice(ctx: PaletteContext, args: TaxOfficeArgs = {}): Promise<string> {
  const client = await ctx.shell.client();
  let userName = args.userName;
  if (userName === undefined) {
    const current = await client.taxOffice.get().catch(() => undefined);
    userName = await prompts.inputBox({
      title: vscode.l10n.t('Interactive Tax Office: user name'),
      prompt: vscode.l10n.t('The user name of the GİB Interactive Tax Office (usually the tax number)'),
      value: current?.UserName ?? '',
      ignoreFocusOut: true,
      validateInput: (text) => (text.trim() ? undefined : vscode.l10n.t('The user name cannot be empty.')),
    });
    if (userName === undefined) throw new UserCancelledError();
  }
  const password =
    args.password ??
    (await prompts.inputBox({ title: vscode.l10n.t('Interactive Tax Office: password'), prompt: vscode.l10n.t('The password is sent to Nilvera only and not kept here.'), password: true, ignoreFocusOut: true }));
  if (password === undefined) throw new UserCancelledError();
  try {
    await client.taxOffice.update(userName.trim(), password);
  } catch (error) {
    if (isApiError(error) && error.kind === 'validation') {
      const reason = error.messages.map((m) => m.description).filter(Boolean).join(' ');
      throw new UserFacingError(vscode.l10n.t('The tax office credentials were not accepted: {0}', reason || vscode.l10n.t('no reason given')));
    }
    throw error;
  }
  await notifyDataChanged('taxOffice');
  void prompts.message('info', vscode.l10n.t('Interactive Tax Office credentials updated for {0}.', userName.trim()));
  return userName.trim();
}
