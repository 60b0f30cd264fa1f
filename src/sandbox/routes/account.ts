// Alerts, campaigns, credits and exchange rates (read-only seed data).
import type { RouteSpec } from '../router';

export const accountRoutes: RouteSpec[] = [
  { method: 'GET', path: '/general/Alerts', write: false, name: 'alerts', handler: ({ app }) => app.statics.alerts },
  { method: 'GET', path: '/general/Campaigns', write: false, name: 'campaigns', handler: ({ app }) => app.statics.campaigns },
  { method: 'GET', path: '/general/Credits', write: false, name: 'credits', handler: ({ app }) => app.statics.credits },
  { method: 'GET', path: '/general/ExchangeRate', write: false, name: 'exchangeRate', handler: ({ app }) => app.statics.exchangeRate },
];
