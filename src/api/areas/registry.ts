// The global taxpayer registry: paging, search, single and bulk lookups, checks, list download.

import type { CallOptions, HttpTransport } from '../http';
import { encodeSegment } from '../paths';
import { downloadRegistryList } from '../registryDownload';
import type { DownloadResult, DownloadTarget } from '../registryDownload';
import type {
  AliasType,
  GlobalCompanyInfoResponse,
  GlobalCustomerAliasesResponse,
  GlobalCustomerInfoResponse,
  GlobalCustomerResponsePagination,
  GlobalUserType,
  RegistryListQuery,
  SearchGlobalCompanyResponse,
} from '../types';

export class RegistryApi {
  constructor(private readonly http: HttpTransport) {}

  /** GET /general/GlobalCompany?PageSize=&Page= (1-based pages). */
  list(query: RegistryListQuery = {}, opts?: CallOptions): Promise<GlobalCustomerResponsePagination> {
    return this.http.json(
      { operation: 'registry.list', method: 'GET', path: '/general/GlobalCompany', query: { PageSize: query.PageSize, Page: query.Page } },
      opts,
    );
  }

  /** GET /general/GlobalCompany/Search/{searchText}?globalUserType= */
  search(text: string, userType?: GlobalUserType, opts?: CallOptions): Promise<SearchGlobalCompanyResponse[]> {
    return this.http.json(
      { operation: 'registry.search', method: 'GET', path: `/general/GlobalCompany/Search/${encodeSegment(text)}`, query: { globalUserType: userType } },
      opts,
    );
  }

  /** GET /general/GlobalCompany/GetGlobalCustomerInfo/{TaxNumber}?globalUserType= (404 when not registered). */
  info(taxNumber: string, userType?: GlobalUserType, opts?: CallOptions): Promise<GlobalCustomerInfoResponse> {
    return this.http.json(
      {
        operation: 'registry.info',
        method: 'GET',
        path: `/general/GlobalCompany/GetGlobalCustomerInfo/${encodeSegment(taxNumber)}`,
        query: { globalUserType: userType },
      },
      opts,
    );
  }

  /** POST /general/GlobalCompany/GetGlobalCustomerInfo?globalUserType= with a JSON array of tax numbers. */
  infoBulk(taxNumbers: string[], userType?: GlobalUserType, opts?: CallOptions): Promise<GlobalCustomerAliasesResponse[]> {
    return this.http.json(
      { operation: 'registry.infoBulk', method: 'POST', path: '/general/GlobalCompany/GetGlobalCustomerInfo', query: { globalUserType: userType }, body: taxNumbers, readOnly: true },
      opts,
    );
  }

  /** GET /general/GlobalCompany/Check/TaxNumber/{TaxNumber}?globalUserType= ([] = not registered). */
  checkTaxNumber(taxNumber: string, userType?: GlobalUserType, opts?: CallOptions): Promise<GlobalCompanyInfoResponse[]> {
    return this.http.json(
      {
        operation: 'registry.checkTaxNumber',
        method: 'GET',
        path: `/general/GlobalCompany/Check/TaxNumber/${encodeSegment(taxNumber)}`,
        query: { globalUserType: userType },
      },
      opts,
    );
  }

  /** GET /general/GlobalCompany/Check/Name/{Name}?globalUserType= */
  checkName(name: string, userType?: GlobalUserType, opts?: CallOptions): Promise<GlobalCompanyInfoResponse[]> {
    return this.http.json(
      { operation: 'registry.checkName', method: 'GET', path: `/general/GlobalCompany/Check/Name/${encodeSegment(name)}`, query: { globalUserType: userType } },
      opts,
    );
  }

  /**
   * GET /general/GlobalCompany/{AliasType}/{GlobalUserType}: the registry list ZIP, decoded from the
   * body's base64 as it streams, into a file or a Buffer. Open it with src/domain/registryZip.ts.
   */
  downloadList(aliasType: AliasType, userType: GlobalUserType, target: DownloadTarget, opts?: CallOptions): Promise<DownloadResult> {
    return downloadRegistryList(this.http, aliasType, userType, target, opts);
  }
}
