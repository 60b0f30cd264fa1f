// Company identification entries (MERSIS number, trade registry number, ...).

import type { CallOptions, HttpTransport } from '../http';
import { listOr404Empty, requireTrue } from '../specSilent';
import { encodeSegment } from '../paths';
import type { CompanyIdentificationResponse, CompanyIdentificationType } from '../types';

export class IdentificationsApi {
  constructor(private readonly http: HttpTransport) {}

  /** GET /general/CompanyIdentification ([] also for the service's own 404: specSilent.ts, row 20). */
  list(opts?: CallOptions): Promise<CompanyIdentificationResponse[]> {
    return listOr404Empty(this.http.json<CompanyIdentificationResponse[] | null | undefined>({ operation: 'identifications.list', method: 'GET', path: '/general/CompanyIdentification' }, opts), 'identifications.list');
  }

  /** POST /general/CompanyIdentification?Name=&Value= (query parameters, no body). */
  create(name: CompanyIdentificationType, value: string, opts?: CallOptions): Promise<CompanyIdentificationResponse> {
    return this.http.json(
      { operation: 'identifications.create', method: 'POST', path: '/general/CompanyIdentification', query: { Name: name, Value: value } },
      opts,
    );
  }

  async delete(id: number, opts?: CallOptions): Promise<boolean> {
    return requireTrue(await this.http.json<unknown>({ operation: 'identifications.delete', method: 'DELETE', path: `/general/CompanyIdentification/${encodeSegment(id)}` }, opts), 'identifications.delete');
  }
}
