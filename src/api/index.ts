// Public entry of the General API client. Plain Node: no `vscode` import.
//
//   const client = createClient({ baseUrl: 'https://apitest.nilvera.com', getApiKey: async () => key });
//   const page = await client.customers.list({ Page: 1, PageSize: 50 });

import { AccountApi } from './areas/account';
import { CertificatesApi } from './areas/certificates';
import { CompanyApi } from './areas/company';
import { CustomersApi } from './areas/customers';
import { DocumentsApi } from './areas/documents';
import { IdentificationsApi } from './areas/identifications';
import { MailingApi } from './areas/mailing';
import { RegistryApi } from './areas/registry';
import { TaxOfficeApi } from './areas/taxOffice';
import { EbillApi, EvoucherApi } from './areas/templatesSeries';
import { HttpTransport } from './http';
import type { ClientOptions } from './http';

/** The client: one object per area of the API, all on one transport. */
export function createClient(options: ClientOptions) {
  const http = new HttpTransport(options);
  return {
    account: new AccountApi(http),
    company: new CompanyApi(http),
    certificates: new CertificatesApi(http),
    documents: new DocumentsApi(http),
    identifications: new IdentificationsApi(http),
    customers: new CustomersApi(http),
    registry: new RegistryApi(http),
    taxOffice: new TaxOfficeApi(http),
    mailing: new MailingApi(http),
    ebill: new EbillApi(http),
    evoucher: new EvoucherApi(http),
  } as const;
}

export type NilveraClient = ReturnType<typeof createClient>;

export { NilveraApiError } from './errors';
export type { ApiErrorKind } from './errors';
export type { CallOptions, ClientOptions, FetchLike, RequestLogEntry } from './http';
export { createCustomersInBatches, lookupRegistryInBatches } from './bulk';
export * from './types';
