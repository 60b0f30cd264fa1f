// The account's own records and settings: alerts, campaigns, credits, exchange rates, the company
// record, its certificates (e-signature, financial seal, HSM), documents and identification entries
// (MERSIS, trade registry...), the mailing switches, the interactive tax office (GİB İnteraktif Vergi
// Dairesi) credentials, and the two operations outside /general (e-bill template, e-voucher series).

import type { CallOptions, HttpTransport } from '../http';
import { NilveraApiError } from '../errors';
import { changeById, changeWith, hasSlash, listOrEmpty, requireRecord, requireTrue } from '../specSilent';
import { requestOf } from '../paths';
import type { PlainReadId } from '../operations';
import { plainRead } from '../plainRead';
import type {
  CertificateResponse,
  CompanyIdentificationType,
  CompanyDocumentResponse,
  CompanyIdentificationResponse,
  CompanyListItem,
  CompanyResponse,
  CompanyResponseCommand,
  CreateCompanyCertificateCommand,
  CreateCompanyDocumentCommand,
  UpdateCompanyCertificateCommand,
  UpdateInvoiceMailingMailCommand,
  UpdateSeriesCommand,
  UpdateTemplateCommand,
} from '../types';

/** One object per area of the account, all on `http`; `read` is every plain read by its id. */
export function accountAreas(http: HttpTransport) {
  const read = plainRead(http);
  const get = <K extends PlainReadId>(id: K) => (opts?: CallOptions) => read(id, opts);
  const certificates = {
    list: get('certificates.list'),

    async get(serialNo: string, opts?: CallOptions): Promise<CertificateResponse> {
      if (hasSlash(serialNo)) {
        // A slash in a path value may be decoded, kept encoded or refused (specSilent.ts): such a
        // serial number is found in the list instead, which needs no path value.
        const match = (await certificates.list(opts)).find((c) => c?.SerialNo === serialNo);
        if (match) return match;
        const messages = [{ description: 'no certificate has this serial number' }];
        throw new NilveraApiError({ kind: 'notFound', operation: 'certificates.get', messages });
      }
      const found = await http.json<CertificateResponse | null>(requestOf('certificates.get', { SerialNumber: serialNo }), opts);
      // An unknown serial number: 404, or an empty/`null`/`{}` 200 (see specSilent.ts).
      return requireRecord(found, 'certificates.get', ['ID', 'SerialNo']);
    },

    create: changeWith<CreateCompanyCertificateCommand>(http, 'certificates.create'),
    update: changeWith<UpdateCompanyCertificateCommand>(http, 'certificates.update'),
    delete: changeById(http, 'certificates.delete'),
  };
  return {
    read,
    account: {
      alerts: get('account.alerts'),
      campaigns: get('account.campaigns'),
      credits: get('account.credits'),
      exchangeRate: get('account.exchangeRate'),
    },
    company: {
      get: get('company.get'),
      update: (cmd: CompanyResponseCommand, opts?: CallOptions): Promise<CompanyResponse> =>
        http.json({ ...requestOf('company.update'), body: cmd }, opts),
      modules: get('company.modules'),
      /** Its body shape is not shown in the spec; see CompanyListItem. */
      list: async (opts?: CallOptions): Promise<CompanyListItem[]> => listOrEmpty(await read('company.list', opts), 'company.list'),
    },
    certificates,
    documents: {
      list: get('documents.list'),
      create: (cmd: CreateCompanyDocumentCommand, opts?: CallOptions): Promise<CompanyDocumentResponse> =>
        http.json({ ...requestOf('documents.create'), body: cmd }, opts),
      delete: changeById(http, 'documents.delete'),
    },
    identifications: {
      list: get('identifications.list'),
      /** Name and Value go in the query; there is no body. */
      create: (Name: CompanyIdentificationType, Value: string, opts?: CallOptions) =>
        http.json<CompanyIdentificationResponse>(requestOf('identifications.create', undefined, { Name, Value }), opts),
      delete: changeById(http, 'identifications.delete'),
    },
    mailing: {
      /** Rows for Portal (e-mail), Sms and WhatsApp. */
      settings: get('mailing.settings'),
      /** The spec's "Chat" segment is WhatsApp. */
      setChat: (isActive: boolean, opts?: CallOptions) =>
        requireTrue(http, requestOf('mailing.setChat', { IsActive: isActive }), opts),
      setEmail: changeWith<UpdateInvoiceMailingMailCommand>(http, 'mailing.setEmail'),
    },
    taxOffice: {
      get: get('taxOffice.get'),
      /** The password goes in the query, which the log never shows; it is blanked out of server messages. */
      update: (userName: string, password: string, opts?: CallOptions) =>
        requireTrue(http, { ...requestOf('taxOffice.update', undefined, { UserName: userName, Password: password }), redact: [password, encodeURIComponent(password)] }, opts),
    },
    ebill: { updateTemplate: changeWith<UpdateTemplateCommand>(http, 'ebill.updateTemplate') },
    evoucher: { updateSeries: changeWith<UpdateSeriesCommand>(http, 'evoucher.updateSeries') },
  };
}
