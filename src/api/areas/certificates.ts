// Company certificates (e-signature, financial seal, HSM).

import type { CallOptions, HttpTransport } from '../http';
import { encodeSegment } from '../paths';
import type { CertificateResponse, CreateCompanyCertificateCommand, UpdateCompanyCertificateCommand } from '../types';

export class CertificatesApi {
  constructor(private readonly http: HttpTransport) {}

  /** GET /general/Company/Certificate */
  list(opts?: CallOptions): Promise<CertificateResponse[]> {
    return this.http.json({ operation: 'certificates.list', method: 'GET', path: '/general/Company/Certificate' }, opts);
  }

  /** GET /general/Company/Certificate/{SerialNumber} */
  get(serialNo: string, opts?: CallOptions): Promise<CertificateResponse> {
    return this.http.json({ operation: 'certificates.get', method: 'GET', path: `/general/Company/Certificate/${encodeSegment(serialNo)}` }, opts);
  }

  /** POST /general/Company/Certificate → true */
  create(cmd: CreateCompanyCertificateCommand, opts?: CallOptions): Promise<boolean> {
    return this.http.json({ operation: 'certificates.create', method: 'POST', path: '/general/Company/Certificate', body: cmd }, opts);
  }

  /** PUT /general/Company/Certificate → true */
  update(cmd: UpdateCompanyCertificateCommand, opts?: CallOptions): Promise<boolean> {
    return this.http.json({ operation: 'certificates.update', method: 'PUT', path: '/general/Company/Certificate', body: cmd }, opts);
  }

  /** DELETE /general/Company/Certificate/{ID} → true */
  delete(id: number, opts?: CallOptions): Promise<boolean> {
    return this.http.json({ operation: 'certificates.delete', method: 'DELETE', path: `/general/Company/Certificate/${encodeSegment(id)}` }, opts);
  }
}
