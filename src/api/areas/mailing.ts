// Mailing settings: the chat-message and e-mail sending switches.

import type { CallOptions, HttpTransport } from '../http';
import { requireTrue } from '../specSilent';
import type { MailingSettingResponse, UpdateInvoiceMailingMailCommand } from '../types';

export class MailingApi {
  constructor(private readonly http: HttpTransport) {}

  /** GET /general/Mailing/Setting (rows for Portal = e-mail, Sms, WhatsApp) */
  settings(opts?: CallOptions): Promise<MailingSettingResponse[]> {
    return this.http.json({ operation: 'mailing.settings', method: 'GET', path: '/general/Mailing/Setting' }, opts);
  }

  /** POST /general/Mailing/Whatsapp/Setting/{IsActive} → true. The spec's "Chat" segment is WhatsApp. */
  async setChat(isActive: boolean, opts?: CallOptions): Promise<boolean> {
    return requireTrue(await this.http.json<unknown>({ operation: 'mailing.setChat', method: 'POST', path: `/general/Mailing/Whatsapp/Setting/${isActive ? 'true' : 'false'}` }, opts), 'mailing.setChat');
  }

  /**
   * POST /general/Mailing/Email/Setting with a body. Neither the body nor the response is shown in
   * the spec; assumed body `{ IsActive }` and response `true`.
   */
  async setEmail(cmd: UpdateInvoiceMailingMailCommand, opts?: CallOptions): Promise<boolean> {
    return requireTrue(await this.http.json<unknown>({ operation: 'mailing.setEmail', method: 'POST', path: '/general/Mailing/Email/Setting', body: cmd }, opts), 'mailing.setEmail');
  }
}
