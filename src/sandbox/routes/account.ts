// Alerts, campaigns, credits and exchange rates (read-only seed data).
import { route, type RouteSpec } from '../router';

export const accountRoutes: RouteSpec[] = [
  route('GET', '/general/Alerts', 'alerts', ({ app }) => app.statics.alerts),
  route('GET', '/general/Campaigns', 'campaigns', ({ app }) => app.statics.campaigns),
  route('GET', '/general/Credits', 'credits', ({ app }) => app.statics.credits),
  route('GET', '/general/ExchangeRate', 'exchangeRate', ({ app }) => app.statics.exchangeRate),
];
