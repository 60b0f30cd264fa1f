// Interactive tax office (GİB İnteraktif Vergi Dairesi) credentials.

import type { CallOptions, HttpTransport } from '../http';
import { requireTrue } from '../specSilent';
import type { InteractiveTaxOfficeUserResponse } from '../types';

export class TaxOfficeApi {
  constructor(private readonly http: HttpTransport) {}

  /** GET /general/InteractiveTaxOffice (response fields not shown in the spec; assumed UserName, Password). */
  get(opts?: CallOptions): Promise<InteractiveTaxOfficeUserResponse> {
    return this.http.json({ operation: 'taxOffice.get', method: 'GET', path: '/general/InteractiveTaxOffice' }, opts);
  }

  /** PUT /general/InteractiveTaxOffice?UserName=&Password= → true (the log never shows the query). */
  async update(userName: string, password: string, opts?: CallOptions): Promise<boolean> {
    return requireTrue(await this.http.json<unknown>(
      { operation: 'taxOffice.update', method: 'PUT', path: '/general/InteractiveTaxOffice', query: { UserName: userName, Password: password }, redact: [password, encodeURIComponent(password)] },
      opts,
    ), 'taxOffice.update');
  }
}
