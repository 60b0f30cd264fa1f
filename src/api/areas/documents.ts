// Company documents (files attached to the company record).

import type { CallOptions, HttpTransport } from '../http';
import { listOr404Empty, requireTrue } from '../specSilent';
import { encodeSegment } from '../paths';
import type { CompanyDocumentResponse, CreateCompanyDocumentCommand } from '../types';

export class DocumentsApi {
  constructor(private readonly http: HttpTransport) {}

  /** GET /general/CompanyDocuments ([] also for the service's own 404: specSilent.ts, row 20). */
  list(opts?: CallOptions): Promise<CompanyDocumentResponse[]> {
    return listOr404Empty(this.http.json<CompanyDocumentResponse[] | null | undefined>({ operation: 'documents.list', method: 'GET', path: '/general/CompanyDocuments' }, opts), 'documents.list');
  }

  /**
   * POST /general/CompanyDocuments. The body's fields are not shown in the spec; assumed
   * `{ Name, FileType, Base64String }` (409 for a Name that exists, 422 for bad content or > 10 MB).
   */
  create(cmd: CreateCompanyDocumentCommand, opts?: CallOptions): Promise<CompanyDocumentResponse> {
    return this.http.json({ operation: 'documents.create', method: 'POST', path: '/general/CompanyDocuments', body: cmd }, opts);
  }

  async delete(id: number, opts?: CallOptions): Promise<boolean> {
    return requireTrue(await this.http.json<unknown>({ operation: 'documents.delete', method: 'DELETE', path: `/general/CompanyDocuments/${encodeSegment(id)}` }, opts), 'documents.delete');
  }
}
