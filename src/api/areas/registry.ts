// The global taxpayer registry: paging, search, single and bulk lookups, checks, list download.

import type { CallOptions, HttpTransport } from '../http';
import { encodeSegment } from '../paths';
import { NilveraApiError } from '../errors';
import { pathSafeSearchText, refuseSlashInPathValue, requireRecord } from '../specSilent';
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
  async search(text: string, userType?: GlobalUserType, opts?: CallOptions): Promise<SearchGlobalCompanyResponse[]> {
    try {
      const path = '/general/GlobalCompany/Search/';
      return await this.rowsByText<SearchGlobalCompanyResponse>('registry.search', path, text, userType, opts);
    } catch (err) {
      // Spec-silent: a search with no match may answer 404 instead of [].
      if (err instanceof NilveraApiError && err.kind === 'notFound') return [];
      throw err;
    }
  }

  /** GET /general/GlobalCompany/GetGlobalCustomerInfo/{TaxNumber}?globalUserType= (a notFound error when not registered, whatever shape says so). */
  async info(taxNumber: string, userType?: GlobalUserType, opts?: CallOptions): Promise<GlobalCustomerInfoResponse> {
    refuseSlashInPathValue(taxNumber, 'registry.info');
    const info = await this.http.json<GlobalCustomerInfoResponse | null | undefined>(
      {
        operation: 'registry.info',
        method: 'GET',
        path: `/general/GlobalCompany/GetGlobalCustomerInfo/${encodeSegment(taxNumber)}`,
        query: { globalUserType: userType },
      },
      opts,
    );
    // An unregistered number: 404, or an empty/`null`/`{}` 200 (see specSilent.ts).
    return requireRecord(info, 'registry.info', ['TaxNumber', 'Title', 'Aliases']);
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
    refuseSlashInPathValue(taxNumber, 'registry.checkTaxNumber');
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
    const path = '/general/GlobalCompany/Check/Name/';
    return this.rowsByText<GlobalCompanyInfoResponse>('registry.checkName', path, name, userType, opts);
  }

  /** GET `prefix` + a text, cut at a slash, which may not survive the path (specSilent.ts); object rows only. */
  private async rowsByText<T>(operation: string, prefix: string, text: string, userType?: GlobalUserType, opts?: CallOptions) {
    const safe = pathSafeSearchText(text);
    if (safe === '' && text !== '') return [];
    const path = prefix + encodeSegment(safe);
    const rows = await this.http.json<T[] | null | undefined>({ operation, method: 'GET', path, query: { globalUserType: userType } }, opts);
    return Array.isArray(rows) ? rows.filter((r) => r !== null && typeof r === 'object') : [];
  }

  /**
   * GET /general/GlobalCompany/{AliasType}/{GlobalUserType}: the registry list ZIP, decoded from the
   * body's base64 as it streams, into a file or a Buffer. Open it with src/domain/registryZip.ts.
   */
  downloadList(aliasType: AliasType, userType: GlobalUserType, target: DownloadTarget, opts?: CallOptions): Promise<DownloadResult> {
    return downloadRegistryList(this.http, aliasType, userType, target, opts);
  }
}
