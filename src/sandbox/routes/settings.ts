// Interactive tax office credentials and mailing switches.
import { route, type RouteSpec } from '../router';
import type { SandboxContext } from '../context';
import { badRequest, unprocessable } from '../errors';
import { expectObject, optBool, parseBoolParam } from '../validate';

function setMailing(app: SandboxContext, module: 'WhatsApp' | 'Portal', active: boolean, unavailable: string): true {
  const row = app.state.mailing.find((m) => m.ModuleID === module);
  if (!row) throw unprocessable(unavailable);
  row.IsActive = active;
  app.changed();
  return true;
}

export const settingsRoutes: RouteSpec[] = [
  // InteractiveTaxOfficeUserResponse is assumed to be { UserName, Password } (not shown in the specification).
  route('GET', '/general/InteractiveTaxOffice', 'taxOffice.get', ({ app }) => app.state.taxOffice, { notInOlderExport: true }),
  route('PUT', '/general/InteractiveTaxOffice', 'taxOffice.update', ({ app, query }) => {
    const userName = (query.get('UserName') ?? '').trim();
    const password = query.get('Password') ?? '';
    if (!userName) throw unprocessable('UserName is required.', 'UserName');
    if (!password) throw unprocessable('Password is required.', 'Password');
    app.state.taxOffice = { UserName: userName, Password: password };
    app.changed();
    return true;
  }, { answersBoolean: true, notInOlderExport: true }),
  route('GET', '/general/Mailing/Setting', 'mailing.settings', ({ app }) => app.state.mailing),
  route('POST', '/general/Mailing/Whatsapp/Setting/{IsActive}', 'mailing.setChat', ({ app, params }) =>
    setMailing(app, 'WhatsApp', parseBoolParam(params.IsActive, 'IsActive'), 'The chat module is not available.'), { answersBoolean: true }),
  // UpdateInvoiceMailingMailCommand is assumed to be { IsActive: boolean }, answered with true;
  // it switches the 'Portal' row (the e-mail feature) of GET /Mailing/Setting.
  route('POST', '/general/Mailing/Email/Setting', 'mailing.setEmail', async ({ app, json }) => {
    const active = optBool(expectObject(await json(), 'UpdateInvoiceMailingMailCommand'), 'IsActive');
    if (active == null) throw badRequest('The request body is invalid.', 'IsActive is required.');
    return setMailing(app, 'Portal', active, 'The e-mail module is not available.');
  }, { answersBoolean: true, notInOlderExport: true }),
];
