// The global taxpayer registry: paging, search, single and bulk lookups, checks, list download (each
// operation's method and path: operations.ts).

import type { CallOptions, HttpTransport } from '../http';
import type { OperationId } from '../operations';
import { requestOf } from '../paths';
import { refuseSlashInPathValue, requireRecord, rowsForText } from '../specSilent';
import { downloadRegistryList } from '../registryDownload';
import type { DownloadResult, DownloadTarget } from '../registryDownload';
import type {
  AliasType,
  GlobalCompanyInfoResponse,
  GlobalCustomerAliasesResponse,
  GlobalCustomerInfoResponse,
  GlobalCustomerResponse,
  GlobalUserType,
  Pagination,
  SearchGlobalCompanyResponse,
} from '../types';

export class RegistryApi {
  constructor(private readonly http: HttpTransport) {}

  list(query: { PageSize?: number; Page?: number } = {}, opts?: CallOptions): Promise<Pagination<GlobalCustomerResponse>> {
    return this.http.json(requestOf('registry.list', undefined, { PageSize: query.PageSize, Page: query.Page }), opts);
  }

  search(text: string, userType?: GlobalUserType, opts?: CallOptions): Promise<SearchGlobalCompanyResponse[]> {
    return rowsForText(this.http, 'registry.search', 'searchText', text, opts, { globalUserType: userType });
  }

  /** A notFound error when the number is not registered, whatever shape the answer says it in. */
  async info(taxNumber: string, userType?: GlobalUserType, opts?: CallOptions): Promise<GlobalCustomerInfoResponse> {
    const info = await this.ofTaxNumber<GlobalCustomerInfoResponse | null | undefined>('registry.info', taxNumber, userType, opts);
    // An unregistered number: 404, or an empty/`null`/`{}` 200 (see specSilent.ts).
    return requireRecord(info, 'registry.info', ['TaxNumber', 'Title', 'Aliases']);
  }

  infoBulk(taxNumbers: string[], userType?: GlobalUserType, opts?: CallOptions): Promise<GlobalCustomerAliasesResponse[]> {
    return this.http.json({ ...requestOf('registry.infoBulk', undefined, { globalUserType: userType }), body: taxNumbers }, opts);
  }

  /** [] when the number is not registered. */
  checkTaxNumber(taxNumber: string, userType?: GlobalUserType, opts?: CallOptions): Promise<GlobalCompanyInfoResponse[]> {
    return this.ofTaxNumber('registry.checkTaxNumber', taxNumber, userType, opts);
  }

  /** A read of one tax number's record (a slash in it refused before sending: specSilent.ts). */
  private ofTaxNumber<T>(id: OperationId, taxNumber: string, userType: GlobalUserType | undefined, opts?: CallOptions): Promise<T> {
    refuseSlashInPathValue(taxNumber, id);
    return this.http.json(requestOf(id, { TaxNumber: taxNumber }, { globalUserType: userType }), opts);
  }

  checkName(name: string, userType?: GlobalUserType, opts?: CallOptions): Promise<GlobalCompanyInfoResponse[]> {
    return rowsForText(this.http, 'registry.checkName', 'Name', name, opts, { globalUserType: userType }, false);
  }

  /**
   * GET /general/GlobalCompany/{AliasType}/{GlobalUserType}: the registry list ZIP, decoded from the
   * body's base64 as it streams, into a file or a Buffer. Open it with src/domain/registryZip.ts.
   */
  downloadList(aliasType: AliasType, userType: GlobalUserType, target: DownloadTarget, opts?: CallOptions): Promise<DownloadResult> {
    return downloadRegistryList(this.http, aliasType, userType, target, opts);
  }
}
