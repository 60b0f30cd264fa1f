// The account's own records and settings: alerts, campaigns, credits, exchange rates, the company
// record, its certificates (e-signature, financial seal, HSM), documents and identification entries
// (MERSIS, trade registry...), the mailing switches, the interactive tax office (GİB İnteraktif Vergi
// Dairesi) credentials, and the two operations outside /general (e-bill template, e-voucher series).

import type { CallOptions, HttpTransport, RequestSpec } from '../http';
import { NilveraApiError } from '../errors';
import { hasSlash, listOr404Empty, listOrEmpty, requireRecord, requireTrue } from '../specSilent';
import { childPath } from '../paths';
import type {
  AlertResponse,
  CampaignResponse,
  CertificateResponse,
  CompanyDocumentResponse,
  CompanyIdentificationResponse,
  CompanyIdentificationType,
  CompanyListItem,
  CompanyModulesResponse,
  CompanyResponse,
  CompanyResponseCommand,
  CreateCompanyCertificateCommand,
  CreateCompanyDocumentCommand,
  CreditResponse,
  ExchangeRateResponse,
  InteractiveTaxOfficeUserResponse,
  MailingSettingResponse,
  UpdateCompanyCertificateCommand,
  UpdateInvoiceMailingMailCommand,
  UpdateSeriesCommand,
  UpdateTemplateCommand,
} from '../types';

const CERTIFICATE = '/general/Company/Certificate';
const DOCUMENTS = '/general/CompanyDocuments';
const IDENTIFICATION = '/general/CompanyIdentification';
const MAILING = '/general/Mailing';

/** One object per area of the account, all on `http`. */
export function accountAreas(http: HttpTransport) {
  const get = <T>(operation: string, path: string) => (opts?: CallOptions) =>
    http.json<T>({ operation, method: 'GET', path }, opts);
  // Lists answered [] also for the service's own 404 (specSilent.ts, row 20).
  const list = <T>(operation: string, path: string) => (opts?: CallOptions) =>
    listOr404Empty<T>(http, { operation, method: 'GET', path }, opts);
  // A change whose documented answer is a boolean (specSilent.ts, row 5).
  const change = (spec: RequestSpec, opts?: CallOptions) => requireTrue(http, spec, opts);
  const certificates = {
    list: list<CertificateResponse>('certificates.list', CERTIFICATE),

    async get(serialNo: string, opts?: CallOptions): Promise<CertificateResponse> {
      if (hasSlash(serialNo)) {
        // A slash in a path value may be decoded, kept encoded or refused (specSilent.ts): such a
        // serial number is found in the list instead, which needs no path value.
        const match = (await certificates.list(opts)).find((c) => c?.SerialNo === serialNo);
        if (match) return match;
        const messages = [{ description: 'no certificate has this serial number' }];
        throw new NilveraApiError({ kind: 'notFound', operation: 'certificates.get', messages });
      }
      const found = await get<CertificateResponse | null>('certificates.get', childPath(CERTIFICATE, serialNo))(opts);
      // An unknown serial number: 404, or an empty/`null`/`{}` 200 (see specSilent.ts).
      return requireRecord(found, 'certificates.get', ['ID', 'SerialNo']);
    },

    create: (cmd: CreateCompanyCertificateCommand, opts?: CallOptions) =>
      change({ operation: 'certificates.create', method: 'POST', path: CERTIFICATE, body: cmd }, opts),
    update: (cmd: UpdateCompanyCertificateCommand, opts?: CallOptions) =>
      change({ operation: 'certificates.update', method: 'PUT', path: CERTIFICATE, body: cmd }, opts),
    delete: (id: number, opts?: CallOptions) =>
      change({ operation: 'certificates.delete', method: 'DELETE', path: childPath(CERTIFICATE, id) }, opts),
  };
  return {
    account: {
      alerts: get<AlertResponse[]>('account.alerts', '/general/Alerts'),
      campaigns: get<CampaignResponse[]>('account.campaigns', '/general/Campaigns'),
      credits: get<CreditResponse[]>('account.credits', '/general/Credits'),
      exchangeRate: get<ExchangeRateResponse>('account.exchangeRate', '/general/ExchangeRate'),
    },
    company: {
      get: get<CompanyResponse>('company.get', '/general/Company'),
      update: (cmd: CompanyResponseCommand, opts?: CallOptions): Promise<CompanyResponse> =>
        http.json({ operation: 'company.update', method: 'PUT', path: '/general/Company', body: cmd }, opts),
      modules: get<CompanyModulesResponse[]>('company.modules', '/general/Company/Modules'),
      /** Its body shape is not shown in the spec; see CompanyListItem. */
      list: async (opts?: CallOptions): Promise<CompanyListItem[]> =>
        listOrEmpty(await get<CompanyListItem[] | null>('company.list', '/general/Company/List')(opts), 'company.list'),
    },
    certificates,
    documents: {
      list: list<CompanyDocumentResponse>('documents.list', DOCUMENTS),
      /**
       * The body's fields are not shown in the spec; assumed `{ Name, FileType, Base64String }` (409 for a
       * Name that exists, 422 for bad content or > 10 MB).
       */
      create: (cmd: CreateCompanyDocumentCommand, opts?: CallOptions): Promise<CompanyDocumentResponse> =>
        http.json({ operation: 'documents.create', method: 'POST', path: DOCUMENTS, body: cmd }, opts),
      delete: (id: number, opts?: CallOptions) =>
        change({ operation: 'documents.delete', method: 'DELETE', path: childPath(DOCUMENTS, id) }, opts),
    },
    identifications: {
      list: list<CompanyIdentificationResponse>('identifications.list', IDENTIFICATION),
      /** Name and Value go in the query; there is no body. */
      create: (Name: CompanyIdentificationType, Value: string, opts?: CallOptions) =>
        http.json<CompanyIdentificationResponse>(
          { operation: 'identifications.create', method: 'POST', path: IDENTIFICATION, query: { Name, Value } },
          opts,
        ),
      delete: (id: number, opts?: CallOptions) =>
        change({ operation: 'identifications.delete', method: 'DELETE', path: childPath(IDENTIFICATION, id) }, opts),
    },
    mailing: {
      /** Rows for Portal (e-mail), Sms and WhatsApp. */
      settings: get<MailingSettingResponse[]>('mailing.settings', `${MAILING}/Setting`),
      /** The spec's "Chat" segment is WhatsApp. */
      setChat: (isActive: boolean, opts?: CallOptions) =>
        change({ operation: 'mailing.setChat', method: 'POST', path: `${MAILING}/Whatsapp/Setting/${isActive}` }, opts),
      /** Neither the body nor the response is shown in the spec; assumed body `{ IsActive }` and response `true`. */
      setEmail: (cmd: UpdateInvoiceMailingMailCommand, opts?: CallOptions) =>
        change({ operation: 'mailing.setEmail', method: 'POST', path: `${MAILING}/Email/Setting`, body: cmd }, opts),
    },
    taxOffice: {
      /** Its response fields are not shown in the spec; assumed UserName, Password. */
      get: get<InteractiveTaxOfficeUserResponse>('taxOffice.get', '/general/InteractiveTaxOffice'),
      /** The password goes in the query, which the log never shows; it is blanked out of server messages. */
      update: (userName: string, password: string, opts?: CallOptions) =>
        change({
          operation: 'taxOffice.update',
          method: 'PUT',
          path: '/general/InteractiveTaxOffice',
          query: { UserName: userName, Password: password },
          redact: [password, encodeURIComponent(password)],
        }, opts),
    },
    ebill: {
      updateTemplate: (cmd: UpdateTemplateCommand, opts?: CallOptions) =>
        change({ operation: 'ebill.updateTemplate', method: 'PUT', path: '/ebill/Templates', body: cmd }, opts),
    },
    evoucher: {
      updateSeries: (cmd: UpdateSeriesCommand, opts?: CallOptions) =>
        change({ operation: 'evoucher.updateSeries', method: 'PUT', path: '/evoucher/Series', body: cmd }, opts),
    },
  };
}
