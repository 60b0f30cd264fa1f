// The two operations outside /general: e-bill template and e-voucher series updates.

import type { CallOptions, HttpTransport } from '../http';
import type { UpdateSeriesCommand, UpdateTemplateCommand } from '../types';

export class EbillApi {
  constructor(private readonly http: HttpTransport) {}

  /** PUT /ebill/Templates → true */
  updateTemplate(cmd: UpdateTemplateCommand, opts?: CallOptions): Promise<boolean> {
    return this.http.json({ operation: 'ebill.updateTemplate', method: 'PUT', path: '/ebill/Templates', body: cmd }, opts);
  }
}

export class EvoucherApi {
  constructor(private readonly http: HttpTransport) {}

  /** PUT /evoucher/Series → true */
  updateSeries(cmd: UpdateSeriesCommand, opts?: CallOptions): Promise<boolean> {
    return this.http.json({ operation: 'evoucher.updateSeries', method: 'PUT', path: '/evoucher/Series', body: cmd }, opts);
  }
}
