// The company record and its settings (tax office credentials, mailing switches). Its modules, the
// companies of the calling user and the read-only account data are seed data (STATIC_READS).
import { route, type RouteSpec, type SandboxContext } from '../router';
import { badRequest, unprocessable } from '../errors';
import { COMPANY_UPDATABLE } from '../records';
import { PAYMENT_MEANS_CODES } from '../../api/types';
import { expectObject, optBool, optEnum, optString, parseBoolParam } from '../validate';

function setMailing(app: SandboxContext, module: 'WhatsApp' | 'Portal', active: boolean, unavailable: string): true {
  const row = app.state.mailing.find((m) => m.ModuleID === module);
  if (!row) throw unprocessable(unavailable);
  row.IsActive = active;
  app.changed();
  return true;
}

export const companyRoutes: RouteSpec[] = [
  route('company.get', ({ app }) => app.state.company),
  route('company.update', async ({ app, json }) => {
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
  route('taxOffice.get', ({ app }) => app.state.taxOffice),
  route('taxOffice.update', ({ app, query }) => {
    const userName = (query.get('UserName') ?? '').trim();
    const password = query.get('Password') ?? '';
    if (!userName) throw unprocessable('UserName is required.', 'UserName');
    if (!password) throw unprocessable('Password is required.', 'Password');
    app.state.taxOffice = { UserName: userName, Password: password };
    app.changed();
    return true;
  }),
  route('mailing.settings', ({ app }) => app.state.mailing),
  route('mailing.setChat', ({ app, params }) =>
    setMailing(app, 'WhatsApp', parseBoolParam(params.IsActive, 'IsActive'), 'The chat module is not available.')),
  // The body as src/api/types.ts assumes it (UpdateInvoiceMailingMailCommand); it switches the 'Portal' row (e-mail).
  route('mailing.setEmail', async ({ app, json }) => {
    const active = optBool(expectObject(await json(), 'UpdateInvoiceMailingMailCommand'), 'IsActive');
    if (active == null) throw badRequest('The request body is invalid.', 'IsActive is required.');
    return setMailing(app, 'Portal', active, 'The e-mail module is not available.');
  }),
];
