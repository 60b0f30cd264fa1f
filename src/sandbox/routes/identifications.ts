// Company identification entries (UBL-TR PartyIdentification scheme ids); create takes query parameters.
import type { RouteSpec } from '../router';
import { IDENTIFICATION_TYPES } from '../records';
import { conflict, notFound, unprocessable } from '../errors';
import { parseEnum, parseInt32 } from '../validate';
import { emptyListAnswer } from '../answers';

export const identificationRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/general/CompanyIdentification',
    write: false,
    name: 'identifications.list',
    // Spec-silent (behaviour point emptyList).
    handler: ({ app, res }) => emptyListAnswer(res, app.behaviour.answerFor('emptyList'), app.state.identifications.length === 0, app.state.identifications, 'no identification'),
  },
  {
    method: 'POST',
    path: '/general/CompanyIdentification',
    write: true,
    name: 'identifications.create',
    handler: ({ app, query }) => {
      const name = parseEnum(query.get('Name') ?? '', IDENTIFICATION_TYPES, 'Name');
      const value = (query.get('Value') ?? '').trim();
      if (!value) throw unprocessable('Value is required.', 'Value');
      if (app.state.identifications.some((i) => i.Name === name && i.Value === value)) throw conflict('This identification already exists.', `${name} ${value}`);
      const created = { ID: app.state.nextIds.identification++, CompanyID: 1, Name: name, Value: value };
      app.state.identifications.push(created);
      app.changed();
      return created;
    },
  },
  {
    method: 'DELETE',
    path: '/general/CompanyIdentification/{ID}',
    write: true,
    name: 'identifications.delete',
    handler: ({ app, params }) => {
      const id = parseInt32(params.ID, 'ID');
      if (id < 1) throw unprocessable('ID must be positive.', `ID ${id}`);
      const index = app.state.identifications.findIndex((i) => i.ID === id);
      if (index < 0) throw notFound('Identification not found.', `ID ${id}`);
      app.state.identifications.splice(index, 1);
      app.changed();
      return true;
    },
  },
];
