// Company identification entries (UBL-TR PartyIdentification scheme ids); create takes query parameters.
import { route, type RouteSpec } from '../router';
import { IDENTIFICATION_TYPES } from '../records';
import { conflict, unprocessable } from '../errors';
import { parseEnum } from '../validate';
import { emptyListAnswer } from '../answers';
import { deleteById } from '../context';

export const identificationRoutes: RouteSpec[] = [
  // Spec-silent (behaviour point emptyList).
  route('GET', '/general/CompanyIdentification', 'identifications.list', (ctx) =>
    emptyListAnswer(ctx, ctx.app.state.identifications, 'no identification')),
  route('POST', '/general/CompanyIdentification', 'identifications.create', ({ app, query }) => {
    const name = parseEnum(query.get('Name') ?? '', IDENTIFICATION_TYPES, 'Name');
    const value = (query.get('Value') ?? '').trim();
    if (!value) throw unprocessable('Value is required.', 'Value');
    const list = app.state.identifications;
    if (list.some((i) => i.Name === name && i.Value === value)) throw conflict('This identification already exists.', `${name} ${value}`);
    const created = { ID: app.state.nextIds.identification++, CompanyID: 1, Name: name, Value: value };
    list.push(created);
    app.changed();
    return created;
  }),
  route('DELETE', '/general/CompanyIdentification/{ID}', 'identifications.delete', ({ app, params }) =>
    deleteById(app, app.state.identifications, params.ID, 'Identification', true), { answersBoolean: true }),
];
