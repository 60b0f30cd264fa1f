// Mailing switches (GET /Mailing/Setting, the e-mail and chat switches) and the interactive tax
// office credentials (GET/PUT /TaxOffice/InteractiveTaxOffice) on one page.
import * as vscode from 'vscode';
import type { MailingSettingResponse } from '../../api/types';
import type { FormValues, SectionSpec } from '../protocol';
import { text, type FormModel } from './formModel';

function isActive(rows: MailingSettingResponse[], module: MailingSettingResponse['ModuleID']): boolean {
  return rows.find((r) => r.ModuleID === module)?.IsActive === true;
}

function sections(): SectionSpec[] {
  return [
    {
      title: vscode.l10n.t('Invoice mailing'),
      fields: [
        { name: 'EmailActive', label: vscode.l10n.t('Send invoices by e-mail'), kind: 'checkbox' },
        { name: 'ChatActive', label: vscode.l10n.t('Send invoices by WhatsApp'), kind: 'checkbox' },
      ],
    },
    {
      title: vscode.l10n.t('Interactive tax office'),
      fields: [
        { name: 'TaxOfficeUserName', label: vscode.l10n.t('User name'), kind: 'text', maxLength: 100 },
        { name: 'TaxOfficePassword', label: vscode.l10n.t('Password'), kind: 'password', maxLength: 200, hint: vscode.l10n.t('Enter the password to change the credentials; it is not shown again.') },
      ],
    },
  ];
}

export function settingsForm(): FormModel {
  return {
    kind: 'settings',
    recordKey: 'settings',
    areas: ['mailing', 'taxOffice'],
    initialTitle: () => vscode.l10n.t('Nilvera Settings'),
    async load(client) {
      const [mailing, taxOffice] = await Promise.all([client.mailing.settings(), client.taxOffice.get()]);
      return {
        title: vscode.l10n.t('Nilvera Settings'),
        description: vscode.l10n.t('Invoice mailing and the interactive tax office account.'),
        sections: sections(),
        values: { EmailActive: isActive(mailing, 'Portal'), ChatActive: isActive(mailing, 'WhatsApp'), TaxOfficeUserName: text(taxOffice.UserName), TaxOfficePassword: '' },
      };
    },
    async save(client, values: FormValues, baseline: FormValues) {
      // The credentials first: the server rejects an empty password (422), and then nothing else changes.
      const userName = typeof values.TaxOfficeUserName === 'string' ? values.TaxOfficeUserName.trim() : '';
      const password = typeof values.TaxOfficePassword === 'string' ? values.TaxOfficePassword : '';
      if (userName !== baseline.TaxOfficeUserName || password !== '') await client.taxOffice.update(userName, password);
      if (values.EmailActive !== baseline.EmailActive) await client.mailing.setEmail({ IsActive: values.EmailActive === true });
      if (values.ChatActive !== baseline.ChatActive) await client.mailing.setChat(values.ChatActive === true);
    },
  };
}
