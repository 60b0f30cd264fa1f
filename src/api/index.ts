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
import type { TransportOptions } from './http';

/** The client's options: base URL, key provider, timeout, retry policy, logger, fetch. */
export type ClientOptions = TransportOptions;

export interface NilveraClient {
  readonly account: AccountApi;
  readonly company: CompanyApi;
  readonly certificates: CertificatesApi;
  readonly documents: DocumentsApi;
  readonly identifications: IdentificationsApi;
  readonly customers: CustomersApi;
  readonly registry: RegistryApi;
  readonly taxOffice: TaxOfficeApi;
  readonly mailing: MailingApi;
  readonly ebill: EbillApi;
  readonly evoucher: EvoucherApi;
}

export function createClient(options: ClientOptions): NilveraClient {
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
  };
}

export { NilveraApiError, parseErrorMessages } from './errors';
export type { ApiErrorKind, ApiMessage } from './errors';
export type { ApiLogger, CallOptions, FetchLike, FetchResponseLike, RequestLogEntry } from './http';
export type { RetryPolicy } from './retry';
export type { DownloadResult, DownloadTarget } from './registryDownload';
export { createCustomersInBatches, lookupRegistryInBatches } from './bulk';
export type { BulkOptions, CustomerImportReport, CustomerRow, RegistryLookupReport, RejectedCustomerRow, UnknownCustomerRow } from './bulk';
export type { AccountApi } from './areas/account';
export type { CompanyApi } from './areas/company';
export type { CertificatesApi } from './areas/certificates';
export type { DocumentsApi } from './areas/documents';
export type { IdentificationsApi } from './areas/identifications';
export type { CustomersApi } from './areas/customers';
export type { RegistryApi } from './areas/registry';
export type { TaxOfficeApi } from './areas/taxOffice';
export type { MailingApi } from './areas/mailing';
export type { EbillApi, EvoucherApi } from './areas/templatesSeries';
export * from './types';
