// The company record, its modules, the companies of the calling user, and its read-only account data
// (alerts, campaigns, credits, exchange rates).
import { route, type RouteSpec } from '../router';
import { COMPANY_UPDATABLE, PAYMENT_MEANS_CODES } from '../records';
import { expectObject, optEnum, optString } from '../validate';

export const companyRoutes: RouteSpec[] = [
  route('GET', '/general/Company', 'company.get', ({ app }) => app.state.company),
  route('PUT', '/general/Company', 'company.update', async ({ app, json }) => {
    const body = expectObject(await json(), 'CompanyResponseCommand');
    // Check every field before changing any, so a bad request changes nothing.
    // Spec-silent (behaviour point companyPutOmitted): an omitted field is kept, or reset to its
    // default (an empty string; the PaymentMeansCode enum's first value).
    const reset = app.behaviour.answerFor('companyPutOmitted') === 'reset';
    const next = { ...app.state.company };
    for (const field of COMPANY_UPDATABLE) {
      const v = optString(body, field);
      if (v !== undefined) next[field] = v;
      else if (reset) next[field] = '';
    }
    const code = optEnum(body.PaymentMeansCode, PAYMENT_MEANS_CODES, 'PaymentMeansCode');
    if (code !== undefined) next.PaymentMeansCode = code;
    else if (reset) next.PaymentMeansCode = PAYMENT_MEANS_CODES[0];
    app.state.company = next;
    app.changed();
    return next;
  }),
  route('GET', '/general/Company/Modules', 'company.modules', ({ app }) => app.statics.modules),
  // Assumed shape (not shown in the specification): an array of { Name, TaxNumber, IsActive }.
  route('GET', '/general/Company/List', 'company.list', ({ app }) => app.statics.companies),
  route('GET', '/general/Alerts', 'alerts', ({ app }) => app.statics.alerts),
  route('GET', '/general/Campaigns', 'campaigns', ({ app }) => app.statics.campaigns),
  route('GET', '/general/Credits', 'credits', ({ app }) => app.statics.credits),
  route('GET', '/general/ExchangeRate', 'exchangeRate', ({ app }) => app.statics.exchangeRate),
];
