// A customer: create (POST /Customers with one element) or edit (PUT /Customers). "Look up in
// registry" fills the title and address from GET /GlobalCompany/GetGlobalCustomerInfo/{TaxNumber}.
import * as vscode from 'vscode';
import type { CustomerDetailResponse, CustomerDto } from '../../api/types';
import type { FormValues, SectionSpec } from '../protocol';
import { addressSection, contactSection } from './sections';
import { orNull, type FormModel } from './formModel';

const TEXT_FIELDS = ['TaxNumber', 'Name', 'TaxDepartment', 'Address', 'District', 'City', 'Country', 'PostalCode', 'Phone', 'Fax', 'Email', 'WebSite'] as const;

function sections(): SectionSpec[] {
  return [
    {
      title: vscode.l10n.t('Customer'),
      fields: [
        { name: 'TaxNumber', label: vscode.l10n.t('Tax number'), kind: 'text', rules: ['required', 'taxId'], hint: vscode.l10n.t('10-digit VKN or 11-digit TCKN.'), maxLength: 11 },
        { name: 'Name', label: vscode.l10n.t('Name or title'), kind: 'text', rules: ['required'], maxLength: 250 },
        { name: 'TaxDepartment', label: vscode.l10n.t('Tax office'), kind: 'text', maxLength: 200 },
        { name: 'IsExport', label: vscode.l10n.t('Export customer'), kind: 'checkbox' },
      ],
    },
    addressSection(),
    contactSection('Phone'),
  ];
}

function toValues(c: Partial<CustomerDetailResponse> | Partial<CustomerDto>): FormValues {
  const values: FormValues = { IsExport: c.IsExport === true };
  for (const f of TEXT_FIELDS) values[f] = c[f] ?? '';
  return values;
}

function toDto(values: FormValues): CustomerDto {
  const dto: CustomerDto = { TaxNumber: orNull(values.TaxNumber), Name: orNull(values.Name), IsExport: values.IsExport === true };
  for (const f of TEXT_FIELDS) if (f !== 'TaxNumber' && f !== 'Name') dto[f] = orNull(values[f]);
  return dto;
}

export function customerRecordKey(customerId: number | undefined): string {
  return customerId === undefined ? 'customer:new' : `customer:${customerId}`;
}

export function customerIdOf(recordKey: string): number | undefined {
  const m = /^customer:(\d+)$/.exec(recordKey);
  return m ? Number(m[1]) : undefined;
}

export function customerForm(customerId: number | undefined, prefill?: Partial<CustomerDto>): FormModel {
  const model: FormModel = {
    kind: 'customer',
    recordKey: customerRecordKey(customerId),
    areas: ['customers'],
    initialTitle: () => (customerIdOf(model.recordKey) === undefined ? vscode.l10n.t('New Customer') : vscode.l10n.t('Customer')),
    async load(client) {
      const id = customerIdOf(model.recordKey);
      if (id === undefined) {
        return { title: vscode.l10n.t('New Customer'), sections: sections(), values: toValues({}), ...(prefill ? { proposed: toValues(prefill) } : {}), lookupField: 'TaxNumber' };
      }
      const customer = await client.customers.get(id);
      return { title: vscode.l10n.t('Customer: {0}', customer.Name ?? customer.TaxNumber ?? String(id)), sections: sections(), values: toValues(customer), lookupField: 'TaxNumber' };
    },
    async save(client, values) {
      const id = customerIdOf(model.recordKey);
      const dto = toDto(values);
      if (id !== undefined) {
        await client.customers.update({ ...dto, ID: id });
        return;
      }
      await client.customers.create([dto]);
      // POST answers with a count only: find the new record so the form goes on as its editor.
      const created = await client.customers.getByTaxNumber(dto.TaxNumber ?? '');
      model.recordKey = customerRecordKey(created.ID);
    },
    async lookup(client, taxNumber) {
      const info = await client.registry.info(taxNumber.trim());
      const filled: FormValues = {};
      const fields = ['TaxDepartment', 'Address', 'District', 'City', 'Country', 'PostalCode'] as const;
      for (const [field, value] of [['Name', info.Title] as const, ...fields.map((f) => [f, info[f]] as const)]) {
        if (value && value.trim()) filled[field] = value.trim();
      }
      return filled;
    },
  };
  return model;
}
