// The two operations outside /general: e-bill template and e-voucher series updates.

import type { CallOptions, HttpTransport } from '../http';
import { requireTrue } from '../specSilent';
import type { UpdateSeriesCommand, UpdateTemplateCommand } from '../types';

export class EbillApi {
  constructor(private readonly http: HttpTransport) {}

  async updateTemplate(cmd: UpdateTemplateCommand, opts?: CallOptions): Promise<boolean> {
    return requireTrue(await this.http.json<unknown>({ operation: 'ebill.updateTemplate', method: 'PUT', path: '/ebill/Templates', body: cmd }, opts), 'ebill.updateTemplate');
  }
}

export class EvoucherApi {
  constructor(private readonly http: HttpTransport) {}

  async updateSeries(cmd: UpdateSeriesCommand, opts?: CallOptions): Promise<boolean> {
    return requireTrue(await this.http.json<unknown>({ operation: 'evoucher.updateSeries', method: 'PUT', path: '/evoucher/Series', body: cmd }, opts), 'evoucher.updateSeries');
  }
}
