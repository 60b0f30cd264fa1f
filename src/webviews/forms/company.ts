// Company data (GET/PUT /general/Company): every editable field of CompanyResponseCommand; Name,
// TaxNumber and the aliases are shown read-only.
import * as vscode from 'vscode';
import { PAYMENT_MEANS_CODES, type CompanyResponse, type CompanyResponseCommand, type PaymentMeansCode } from '../../api/types';
import type { FormValues } from '../protocol';
import { addressSection, contactSection } from './sections';
import { orNull, type FormModel, type LoadedForm } from './formModel';

const EDITABLE = [
  'TaxOffice', 'Address', 'District', 'City', 'Country', 'PostalCode', 'PhoneNumber', 'Fax', 'Email', 'WebSite',
  'PayeeFinancialAccountID', 'PaymentMeansChannelCode', 'PaymentMeansCode',
] as const satisfies ReadonlyArray<keyof CompanyResponseCommand>;

function sections(company: CompanyResponse): LoadedForm['sections'] {
  const paymentMeansLabels: Record<PaymentMeansCode, string> = {
    ODEMETIPIMUHTELIF: vscode.l10n.t('Various (ODEMETIPIMUHTELIF)'),
    NAKIT: vscode.l10n.t('Cash (NAKIT)'),
    CEK: vscode.l10n.t('Cheque (CEK)'),
    BANKACEKI: vscode.l10n.t("Banker's cheque (BANKACEKI)"),
    HAVALE_EFT: vscode.l10n.t('Bank transfer (HAVALE_EFT)'),
    KREDIKARTI_BANKAKARTI: vscode.l10n.t('Credit or debit card (KREDIKARTI_BANKAKARTI)'),
  };
  const aliases = (company.Aliases ?? []).map((a) => a.Alias ?? '').filter((a) => a !== '');
  return [
    {
      title: vscode.l10n.t('Company'),
      fields: [
        { name: 'Name', label: vscode.l10n.t('Name'), kind: 'text', readOnly: true },
        { name: 'TaxNumber', label: vscode.l10n.t('Tax number'), kind: 'text', readOnly: true },
        { name: 'TaxOffice', label: vscode.l10n.t('Tax office'), kind: 'text', maxLength: 200 },
      ],
    },
    addressSection(),
    contactSection('PhoneNumber'),
    {
      title: vscode.l10n.t('Payment'),
      fields: [
        {
          name: 'PaymentMeansCode',
          label: vscode.l10n.t('Payment means'),
          kind: 'select',
          options: [{ value: '', label: vscode.l10n.t('(not set)') }, ...PAYMENT_MEANS_CODES.map((c) => ({ value: c, label: paymentMeansLabels[c] }))],
        },
        { name: 'PaymentMeansChannelCode', label: vscode.l10n.t('Payment channel code'), kind: 'text', maxLength: 50 },
        { name: 'PayeeFinancialAccountID', label: vscode.l10n.t('Payee account (IBAN)'), kind: 'text', rules: ['iban'], hint: vscode.l10n.t('An IBAN such as TR33 0006 1005 1978 6457 8413 26.') },
      ],
    },
    {
      title: vscode.l10n.t('Aliases'),
      fields: [],
      info: aliases.length > 0 ? aliases : [vscode.l10n.t('No aliases.')],
    },
  ];
}

export function companyForm(): FormModel {
  return {
    kind: 'company',
    recordKey: 'company',
    areas: ['company'],
    initialTitle: () => vscode.l10n.t('Company Data'),
    async load(client) {
      const company = await client.company.get();
      const values: FormValues = { Name: company.Name ?? '', TaxNumber: company.TaxNumber ?? '' };
      for (const f of EDITABLE) values[f] = company[f] ?? '';
      return { title: vscode.l10n.t('Company Data'), description: vscode.l10n.t('The company the API key belongs to.'), sections: sections(company), values };
    },
    async save(client, values) {
      // PUT /Company sends the whole record (spec-silent, behaviour point companyPutOmitted: a field
      // left out may be kept or reset to its default). The form holds every editable field as read;
      // a field the form leaves empty that cannot be emptied (PaymentMeansCode, an enum) keeps the
      // value the server has now, read again just before the write.
      const cmd: CompanyResponseCommand = {};
      for (const f of EDITABLE) if (f !== 'PaymentMeansCode') cmd[f] = orNull(values[f]);
      let code = orNull(values.PaymentMeansCode);
      if (!code) {
        const current = (await client.company.get()).PaymentMeansCode;
        if (current && (PAYMENT_MEANS_CODES as readonly string[]).includes(current)) code = current;
      }
      if (code) cmd.PaymentMeansCode = code as PaymentMeansCode;
      await client.company.update(cmd);
    },
  };
}
