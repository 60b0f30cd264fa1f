// Mailing switches (GET /Mailing/Setting, the e-mail and chat switches) and the interactive tax
// office credentials (GET/PUT /TaxOffice/InteractiveTaxOffice) on one page.
import * as vscode from 'vscode';
import type { FieldSpec, FormValues, SectionSpec } from '../protocol';
import { isOperationNotOffered } from '../../shell/missingOperation';
import { UserFacingError } from '../../shell/errorMessages';
import { channelState, confirmMailingChange, sendMailingChange } from '../../shell/mailingSwitch';
import type { FormModel } from './formModel';

/** A section's fields, or, where the server does not have its operation (an older API), `notOffered` instead. */
function fieldsIf(offered: boolean, fields: FieldSpec[], notOffered: string): Pick<SectionSpec, 'fields' | 'info'> {
  return offered ? { fields } : { fields: [], info: [notOffered] };
}

function sections(offered: { mailing: boolean; taxOffice: boolean }): SectionSpec[] {
  const mailing: FieldSpec[] = [
    { name: 'EmailActive', label: vscode.l10n.t('Send invoices by e-mail'), kind: 'checkbox' },
    { name: 'ChatActive', label: vscode.l10n.t('Send invoices by WhatsApp'), kind: 'checkbox' },
  ];
  const taxOffice: FieldSpec[] = [
    { name: 'TaxOfficeUserName', label: vscode.l10n.t('User name'), kind: 'text', maxLength: 100 },
    { name: 'TaxOfficePassword', label: vscode.l10n.t('Password'), kind: 'password', maxLength: 200, hint: vscode.l10n.t('Enter the password to change the credentials; it is not shown again.') },
  ];
  return [
    { title: vscode.l10n.t('Invoice mailing'), ...fieldsIf(offered.mailing, mailing, vscode.l10n.t('This server does not offer mailing settings')) },
    { title: vscode.l10n.t('Interactive tax office'), ...fieldsIf(offered.taxOffice, taxOffice, vscode.l10n.t('This server does not offer the interactive tax office settings')) },
  ];
}

/** The answer, or the error when the server does not have the operation (a 404 on its fixed path). */
async function unlessNotOffered<T>(call: Promise<T>): Promise<{ value: T } | { notOffered: unknown }> {
  try {
    return { value: await call };
  } catch (error) {
    if (isOperationNotOffered(error)) return { notOffered: error };
    throw error;
  }
}

export function settingsForm(): FormModel {
  return {
    kind: 'settings',
    recordKey: 'settings',
    areas: ['mailing', 'taxOffice'],
    initialTitle: () => vscode.l10n.t('Nilvera Settings'),
    async load(client) {
      const [mailingAnswer, taxOfficeAnswer] = await Promise.all([unlessNotOffered(client.mailing.settings()), unlessNotOffered(client.taxOffice.get())]);
      // Neither part offered: the form has nothing to show but why.
      if ('notOffered' in mailingAnswer && 'notOffered' in taxOfficeAnswer) throw mailingAnswer.notOffered;
      const mailing = 'value' in mailingAnswer ? mailingAnswer.value : undefined;
      const taxOffice = 'value' in taxOfficeAnswer ? taxOfficeAnswer.value : undefined;
      return {
        title: vscode.l10n.t('Nilvera Settings'),
        description: vscode.l10n.t('Invoice mailing and the interactive tax office account.'),
        sections: sections({ mailing: mailing !== undefined, taxOffice: taxOffice !== undefined }),
        values: {
          ...(mailing ? { EmailActive: channelState(mailing, 'email') === true, ChatActive: channelState(mailing, 'whatsapp') === true } : {}),
          ...(taxOffice ? { TaxOfficeUserName: taxOffice.UserName ?? '', TaxOfficePassword: '' } : {}),
        },
      };
    },
    async save(client, values: FormValues, baseline: FormValues, account) {
      const mailing = (['email', 'whatsapp'] as const)
        .map((channel) => ({ channel, field: channel === 'email' ? 'EmailActive' : 'ChatActive' }))
        .filter(({ field }) => typeof baseline[field] === 'boolean' && values[field] !== baseline[field])
        .map(({ channel, field }) => ({ channel, on: values[field] === true }));
      // Turning a channel off on the live account is asked before anything is sent: declined, nothing is saved.
      for (const change of mailing) {
        if (!(await confirmMailingChange(account.environment, change.channel, change.on))) {
          throw new UserFacingError(vscode.l10n.t('Nothing was saved: the sending stays on.'));
        }
      }
      // The credentials first: the server rejects an empty password (422), and then nothing else changes.
      if (typeof baseline.TaxOfficeUserName === 'string') {
        const userName = typeof values.TaxOfficeUserName === 'string' ? values.TaxOfficeUserName.trim() : '';
        const password = typeof values.TaxOfficePassword === 'string' ? values.TaxOfficePassword : '';
        if (userName !== baseline.TaxOfficeUserName || password !== '') await client.taxOffice.update(userName, password);
      }
      for (const change of mailing) await sendMailingChange(client, change.channel, change.on);
    },
  };
}
