// "New customer" and "Edit" without the customer form: a short sequence of input boxes (the form
// from the webview issue is used instead when it is registered).
import * as vscode from 'vscode';
import type { CustomerDto, CustomerResponse } from '../../api/types';
import { checkTaxId } from '../../domain/taxId';
import { prompts } from '../../shell/prompts';
import { required } from '../commandContext';

type EditableField = 'Name' | 'TaxNumber' | 'TaxDepartment' | 'City' | 'District' | 'Email' | 'Phone';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The tax number's problem in words, or undefined when it is a valid VKN or TCKN. */
export function taxNumberProblem(value: string): string | undefined {
  const check = checkTaxId(value.trim());
  if (check.valid) return undefined;
  switch (check.problem) {
    case 'empty':
      return vscode.l10n.t('Enter a tax number.');
    case 'notDigits':
      return vscode.l10n.t('Only digits are allowed.');
    case 'length':
      return vscode.l10n.t('A VKN has 10 digits, a TCKN 11.');
    case 'tcknLeadingZero':
      return vscode.l10n.t('A TCKN cannot start with 0.');
    default:
      return vscode.l10n.t('The check digits do not match: this is not a valid VKN or TCKN.');
  }
}

function fieldsToAsk(): Array<{ field: EditableField; prompt: string; validate?: (v: string) => string | undefined }> {
  return [
    { field: 'Name', prompt: vscode.l10n.t('Name or title'), validate: (v) => (v.trim() ? undefined : vscode.l10n.t('The name is required.')) },
    { field: 'TaxNumber', prompt: vscode.l10n.t('Tax number (VKN or TCKN)'), validate: taxNumberProblem },
    { field: 'TaxDepartment', prompt: vscode.l10n.t('Tax office') },
    { field: 'City', prompt: vscode.l10n.t('City') },
    { field: 'District', prompt: vscode.l10n.t('District') },
    { field: 'Email', prompt: vscode.l10n.t('E-mail'), validate: (v) => (v.trim() === '' || EMAIL.test(v.trim()) ? undefined : vscode.l10n.t('This is not an e-mail address.')) },
    { field: 'Phone', prompt: vscode.l10n.t('Phone') },
  ];
}

/** Asks the fields one by one, prefilled from `current`; Escape cancels the whole sequence. */
export async function askCustomerFields(current: Partial<CustomerResponse> | undefined, title: string): Promise<CustomerDto> {
  const fields = fieldsToAsk();
  const out: CustomerDto = {
    TaxNumber: current?.TaxNumber ?? null,
    Name: current?.Name ?? null,
    TaxDepartment: current?.TaxDepartment ?? null,
    Address: current?.Address ?? null,
    Country: current?.Country ?? null,
    City: current?.City ?? null,
    District: current?.District ?? null,
    PostalCode: current?.PostalCode ?? null,
    Phone: current?.Phone ?? null,
    Fax: current?.Fax ?? null,
    Email: current?.Email ?? null,
    WebSite: current?.WebSite ?? null,
    IsExport: current?.IsExport ?? false,
  };
  for (const [i, f] of fields.entries()) {
    const answer = required(
      await prompts.inputBox({
        title: `${title} (${i + 1}/${fields.length})`,
        prompt: f.prompt,
        value: (out[f.field] as string | null) ?? '',
        ignoreFocusOut: true,
        ...(f.validate ? { validateInput: f.validate } : {}),
      }),
    ).trim();
    out[f.field] = answer === '' ? null : answer;
  }
  return out;
}
