// The one way e-mail (Portal) or WhatsApp sending is turned on or off: the Account view's checkbox,
// the palette's Mailing Settings and the settings form all come here. Turning a channel off on the
// live account asks first, in a modal dialog (invoices would stop reaching customers); "live" is the
// active profile's environment, not the `nilvera.environment` setting.
import * as vscode from 'vscode';
import type { NilveraClient } from '../api';
import type { MailingSettingResponse } from '../api/types';
import type { EnvironmentId } from './environments';
import { prompts } from './prompts';

export type MailingChannel = 'email' | 'whatsapp';

/** The GET /Mailing/Setting row of each channel: ModuleID Portal is e-mail, WhatsApp the chat. */
const MODULE_OF_CHANNEL: Record<MailingChannel, MailingSettingResponse['ModuleID']> = { email: 'Portal', whatsapp: 'WhatsApp' };

/** The channel a settings row switches; undefined for a row no switch serves (SMS, an unknown module). */
export function channelOf(row: Pick<MailingSettingResponse, 'ModuleID'>): MailingChannel | undefined {
  return (Object.keys(MODULE_OF_CHANNEL) as MailingChannel[]).find((channel) => MODULE_OF_CHANNEL[channel] === row.ModuleID);
}

/** Whether the channel is on in the settings rows; undefined when no row names it. */
export function channelState(rows: readonly MailingSettingResponse[], channel: MailingChannel): boolean | undefined {
  return rows.find((row) => row.ModuleID === MODULE_OF_CHANNEL[channel])?.IsActive;
}

/** Whether the change may go ahead: always for a test or sandbox account or a change to "on"; else the user says. */
export async function confirmMailingChange(environment: EnvironmentId, channel: MailingChannel, on: boolean): Promise<boolean> {
  if (on || environment !== 'production') return true;
  const name = channel === 'email' ? vscode.l10n.t('E-mail') : 'WhatsApp';
  const action = vscode.l10n.t('Turn Off {0} Sending', name);
  const detail = vscode.l10n.t('This is the live account: invoices will no longer be sent to customers by {0} until it is turned on again.', name);
  return (await prompts.message('warning', vscode.l10n.t('Turn off {0} sending on the live account?', name), { modal: true, detail }, action)) === action;
}

/** Sends a change `confirmMailingChange` allowed. */
export async function sendMailingChange(client: NilveraClient, channel: MailingChannel, on: boolean): Promise<void> {
  // The e-mail command's body is not shown in the spec: sent as { IsActive } (src/api/areas/account.ts).
  if (channel === 'email') await client.mailing.setEmail({ IsActive: on });
  else await client.mailing.setChat(on);
}

/** Asks when it must, then sends the change; false when the user declined (nothing was sent). */
export async function switchMailingChannel(client: NilveraClient, environment: EnvironmentId, channel: MailingChannel, on: boolean): Promise<boolean> {
  if (!(await confirmMailingChange(environment, channel, on))) return false;
  await sendMailingChange(client, channel, on);
  return true;
}
