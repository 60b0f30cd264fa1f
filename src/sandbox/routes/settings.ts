// Interactive tax office credentials and mailing switches.
import type { RouteSpec } from '../router';
import { badRequest, unprocessable } from '../errors';
import { expectObject, optBool, parseBoolParam } from '../validate';

export const settingsRoutes: RouteSpec[] = [
  {
    // InteractiveTaxOfficeUserResponse is assumed to be { UserName, Password } (not shown in the specification).
    method: 'GET',
    path: '/general/InteractiveTaxOffice',
    write: false,
    name: 'taxOffice.get',
    handler: ({ app }) => app.state.taxOffice,
  },
  {
    method: 'PUT',
    path: '/general/InteractiveTaxOffice',
    write: true,
    name: 'taxOffice.update',
    handler: ({ app, query }) => {
      const userName = (query.get('UserName') ?? '').trim();
      const password = query.get('Password') ?? '';
      if (!userName) throw unprocessable('UserName is required.', 'UserName');
      if (!password) throw unprocessable('Password is required.', 'Password');
      app.state.taxOffice = { UserName: userName, Password: password };
      app.changed();
      return true;
    },
  },
  { method: 'GET', path: '/general/Mailing/Setting', write: false, name: 'mailing.settings', handler: ({ app }) => app.state.mailing },
  {
    method: 'POST',
    path: '/general/Mailing/Whatsapp/Setting/{IsActive}',
    write: true,
    name: 'mailing.setChat',
    handler: ({ app, params }) => {
      const active = parseBoolParam(params.IsActive, 'IsActive');
      const row = app.state.mailing.find((m) => m.ModuleID === 'WhatsApp');
      if (!row) throw unprocessable('The chat module is not available.');
      row.IsActive = active;
      app.changed();
      return true;
    },
  },
  {
    // UpdateInvoiceMailingMailCommand is assumed to be { IsActive: boolean }, answered with true;
    // it switches the 'Portal' row (the e-mail feature) of GET /Mailing/Setting.
    method: 'POST',
    path: '/general/Mailing/Email/Setting',
    write: true,
    name: 'mailing.setEmail',
    handler: async ({ app, json }) => {
      const body = expectObject(await json(), 'UpdateInvoiceMailingMailCommand');
      const active = optBool(body, 'IsActive');
      if (active == null) throw badRequest('The request body is invalid.', 'IsActive is required.');
      const row = app.state.mailing.find((m) => m.ModuleID === 'Portal');
      if (!row) throw unprocessable('The e-mail module is not available.');
      row.IsActive = active;
      app.changed();
      return true;
    },
  },
];
