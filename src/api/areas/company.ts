// The company record, its modules and the companies of the calling user.

import type { CallOptions, HttpTransport } from '../http';
import { listOrEmpty } from '../specSilent';
import type { CompanyListItem, CompanyModulesResponse, CompanyResponse, CompanyResponseCommand } from '../types';

export class CompanyApi {
  constructor(private readonly http: HttpTransport) {}

  get(opts?: CallOptions): Promise<CompanyResponse> {
    return this.http.json({ operation: 'company.get', method: 'GET', path: '/general/Company' }, opts);
  }

  update(cmd: CompanyResponseCommand, opts?: CallOptions): Promise<CompanyResponse> {
    return this.http.json({ operation: 'company.update', method: 'PUT', path: '/general/Company', body: cmd }, opts);
  }

  modules(opts?: CallOptions): Promise<CompanyModulesResponse[]> {
    return this.http.json({ operation: 'company.modules', method: 'GET', path: '/general/Company/Modules' }, opts);
  }

  /** GET /general/Company/List (body shape not shown in the spec; see CompanyListItem). */
  async list(opts?: CallOptions): Promise<CompanyListItem[]> {
    const answer = await this.http.json<CompanyListItem[] | null | undefined>({ operation: 'company.list', method: 'GET', path: '/general/Company/List' }, opts);
    return listOrEmpty(answer, 'company.list');
  }
}
