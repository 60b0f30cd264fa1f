// Company certificates (e-signature, financial seal, HSM).

import type { CallOptions, HttpTransport } from '../http';
import { NilveraApiError } from '../errors';
import { hasSlash, listOr404Empty, requireRecord, requireTrue } from '../specSilent';
import { encodeSegment } from '../paths';
import type { CertificateResponse, CreateCompanyCertificateCommand, UpdateCompanyCertificateCommand } from '../types';

export class CertificatesApi {
  constructor(private readonly http: HttpTransport) {}

  /** GET /general/Company/Certificate ([] also for the service's own 404: specSilent.ts, row 20). */
  list(opts?: CallOptions): Promise<CertificateResponse[]> {
    return listOr404Empty(this.http.json<CertificateResponse[] | null | undefined>({ operation: 'certificates.list', method: 'GET', path: '/general/Company/Certificate' }, opts), 'certificates.list');
  }

  async get(serialNo: string, opts?: CallOptions): Promise<CertificateResponse> {
    if (hasSlash(serialNo)) {
      // A slash in a path value may be decoded, kept encoded or refused (specSilent.ts): such a
      // serial number is found in the list instead, which needs no path value.
      const match = (await this.list(opts)).find((c) => c?.SerialNo === serialNo);
      if (!match) throw new NilveraApiError({ kind: 'notFound', operation: 'certificates.get', messages: [{ description: 'no certificate has this serial number' }] });
      return match;
    }
    const found = await this.http.json<CertificateResponse | null | undefined>({ operation: 'certificates.get', method: 'GET', path: `/general/Company/Certificate/${encodeSegment(serialNo)}` }, opts);
    // An unknown serial number: 404, or an empty/`null`/`{}` 200 (see specSilent.ts).
    return requireRecord(found, 'certificates.get', ['ID', 'SerialNo']);
  }

  async create(cmd: CreateCompanyCertificateCommand, opts?: CallOptions): Promise<boolean> {
    return requireTrue(await this.http.json<unknown>({ operation: 'certificates.create', method: 'POST', path: '/general/Company/Certificate', body: cmd }, opts), 'certificates.create');
  }

  async update(cmd: UpdateCompanyCertificateCommand, opts?: CallOptions): Promise<boolean> {
    return requireTrue(await this.http.json<unknown>({ operation: 'certificates.update', method: 'PUT', path: '/general/Company/Certificate', body: cmd }, opts), 'certificates.update');
  }

  async delete(id: number, opts?: CallOptions): Promise<boolean> {
    return requireTrue(await this.http.json<unknown>({ operation: 'certificates.delete', method: 'DELETE', path: `/general/Company/Certificate/${encodeSegment(id)}` }, opts), 'certificates.delete');
  }
}
