// A company certificate: add (POST) or update (PUT /Company/Certificate). The password is sent but
// never put into the page: left empty on update, the stored one is sent back unchanged.
import * as vscode from 'vscode';
import { CERTIFICATE_TYPES, type CertificateResponse, type CertificateType, type CreateCompanyCertificateCommand } from '../../api/types';
import type { FormValues, SectionSpec } from '../protocol';
import { orNull, type FormModel } from './formModel';

function sections(isNew: boolean): SectionSpec[] {
  const typeLabels: Record<CertificateType, string> = {
    MALIMUHUR: vscode.l10n.t('Financial seal (MALIMUHUR)'),
    EIMZA: vscode.l10n.t('E-signature (EIMZA)'),
    HSM: vscode.l10n.t('Hardware security module (HSM)'),
  };
  return [
    {
      title: vscode.l10n.t('Certificate'),
      fields: [
        { name: 'SerialNo', label: vscode.l10n.t('Serial number'), kind: 'text', rules: ['required'], maxLength: 100 },
        { name: 'Type', label: vscode.l10n.t('Type'), kind: 'select', rules: ['required'], options: CERTIFICATE_TYPES.map((t) => ({ value: t, label: typeLabels[t] })) },
        { name: 'StartDate', label: vscode.l10n.t('Valid from'), kind: 'date', rules: ['date'] },
        { name: 'EndDate', label: vscode.l10n.t('Valid until'), kind: 'date', rules: ['date', 'notBeforeStart'] },
        { name: 'Description', label: vscode.l10n.t('Description'), kind: 'textarea', maxLength: 500 },
        {
          name: 'Password',
          label: vscode.l10n.t('Password'),
          kind: 'password',
          hint: isNew ? vscode.l10n.t('The certificate password; it is sent to Nilvera and not shown again.') : vscode.l10n.t('Leave empty to keep the stored password.'),
          maxLength: 200,
        },
      ],
    },
  ];
}

export function certificateRecordKey(certificate: CertificateResponse | undefined): string {
  return certificate ? `certificate:${certificate.ID}` : 'certificate:new';
}

export function certificateForm(initial: CertificateResponse | undefined): FormModel {
  let current = initial;
  const model: FormModel = {
    kind: 'certificate',
    recordKey: certificateRecordKey(initial),
    areas: ['certificates'],
    initialTitle: () => (current ? vscode.l10n.t('Certificate: {0}', current.SerialNo ?? String(current.ID)) : vscode.l10n.t('Add Certificate')),
    async load(client) {
      // Re-read so "Reload" and a restored panel show the server's record.
      const id = current?.ID;
      if (id !== undefined) current = (await client.certificates.list()).find((c) => c.ID === id) ?? current;
      // The date fields show the date part of the server's date-times ("2025-01-31T00:00:00").
      const day = (v: string | null | undefined) => (v ?? '').slice(0, 10);
      const c = current;
      const values = { SerialNo: c?.SerialNo ?? '', Type: c?.Type ?? 'MALIMUHUR', StartDate: day(c?.StartDate), EndDate: day(c?.EndDate), Description: c?.Description ?? '', Password: '' };
      return { title: model.initialTitle(), sections: sections(!c), values };
    },
    async save(client, values: FormValues) {
      const typed = orNull(values.Password);
      const cmd: CreateCompanyCertificateCommand = {
        SerialNo: orNull(values.SerialNo),
        Type: values.Type as CertificateType,
        StartDate: orNull(values.StartDate),
        EndDate: orNull(values.EndDate),
        Description: orNull(values.Description),
        Password: typed ?? current?.Password ?? null,
      };
      if (current) {
        await client.certificates.update({ ...cmd, ID: current.ID });
        return;
      }
      await client.certificates.create(cmd);
      const created = (await client.certificates.list()).find((c) => c.SerialNo === cmd.SerialNo);
      if (created) {
        current = created;
        model.recordKey = certificateRecordKey(created);
      }
    },
  };
  return model;
}
