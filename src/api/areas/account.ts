// Alerts, campaigns, credits and exchange rates (read-only).

import type { CallOptions, HttpTransport } from '../http';
import type { AlertResponse, CampaignResponse, CreditResponse, ExchangeRateResponse } from '../types';

export class AccountApi {
  constructor(private readonly http: HttpTransport) {}

  alerts(opts?: CallOptions): Promise<AlertResponse[]> {
    return this.http.json({ operation: 'account.alerts', method: 'GET', path: '/general/Alerts' }, opts);
  }

  campaigns(opts?: CallOptions): Promise<CampaignResponse[]> {
    return this.http.json({ operation: 'account.campaigns', method: 'GET', path: '/general/Campaigns' }, opts);
  }

  credits(opts?: CallOptions): Promise<CreditResponse[]> {
    return this.http.json({ operation: 'account.credits', method: 'GET', path: '/general/Credits' }, opts);
  }

  exchangeRate(opts?: CallOptions): Promise<ExchangeRateResponse> {
    return this.http.json({ operation: 'account.exchangeRate', method: 'GET', path: '/general/ExchangeRate' }, opts);
  }
}
