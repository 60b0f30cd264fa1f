// Form sections that the company and customer forms share: the address and the contact fields.
import * as vscode from 'vscode';
import type { SectionSpec } from '../protocol';

export function addressSection(): SectionSpec {
  return {
    title: vscode.l10n.t('Address'),
    fields: [
      { name: 'Address', label: vscode.l10n.t('Address'), kind: 'textarea', maxLength: 500 },
      { name: 'District', label: vscode.l10n.t('District'), kind: 'text', maxLength: 100 },
      { name: 'City', label: vscode.l10n.t('City'), kind: 'text', maxLength: 100 },
      { name: 'Country', label: vscode.l10n.t('Country'), kind: 'text', maxLength: 100 },
      { name: 'PostalCode', label: vscode.l10n.t('Postal code'), kind: 'text', rules: ['postalCode'], hint: vscode.l10n.t('Five digits, e.g. 34000.') },
    ],
  };
}

/** The phone field is `PhoneNumber` on the company record and `Phone` on a customer. */
export function contactSection(phoneField: 'Phone' | 'PhoneNumber'): SectionSpec {
  return {
    title: vscode.l10n.t('Contact'),
    fields: [
      { name: phoneField, label: vscode.l10n.t('Phone'), kind: 'text', rules: ['phone'] },
      { name: 'Fax', label: vscode.l10n.t('Fax'), kind: 'text', rules: ['phone'] },
      { name: 'Email', label: vscode.l10n.t('E-mail'), kind: 'text', rules: ['email'] },
      { name: 'WebSite', label: vscode.l10n.t('Web site'), kind: 'text', rules: ['url'] },
    ],
  };
}
