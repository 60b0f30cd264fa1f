// Customers: paged list with search and sort, all-or-nothing bulk create, update, single and bulk delete.
import { route, type RouteSpec, type SandboxContext } from '../router';
import { checkTaxId } from '../../domain/taxId';
import { CUSTOMER_STRING_FIELDS, type CustomerFields, type CustomerRecord } from '../records';
import { SORT_TYPES } from '../../api/types';
import { DOCUMENTED_SORT_COLUMNS } from '../../api/specSilent';
import { SORTABLE_COLUMNS } from '../customerStore';
import { ApiError, badRequest, ErrorCode, notFound, ValidationMessages } from '../errors';
import { emptyListAnswer, noMatchAnswer, recordOrMissing, send } from '../answers';
import { expectArray, expectObject, optBool, optEnum, optString, pageOf, parseInt32, parsePaging, reqInt, type JsonObject } from '../validate';

const SEARCH_LIMIT = 100;

/** CustomerResponse: the record without the detail-only dates. */
function toResponse(c: CustomerRecord) {
  const { CreatedDate: _created, ModifiedDate: _modified, ...rest } = c;
  return rest;
}

const DUPLICATE = {
  exists: 'A customer with this tax number exists.',
  twice: 'The tax number appears twice in the list.',
  elsewhere: 'Another customer has this tax number.',
} as const;
const DUPLICATES: ReadonlySet<string> = new Set(Object.values(DUPLICATE));

/** A business-rule problem: its text, the error's Detail, and for a POST the element's index. */
interface Problem {
  text: string;
  detail: string;
  index?: number;
}

/**
 * The error for rejected customers. Spec-silent (behaviour point duplicateStatus): when every
 * problem is a tax number that exists already, 422 (business rule) or 409 with code 1015
 * ("record already added" in the platform's catalogue); any other problem keeps it a 422, or for a
 * POST the status of behaviour point customerBatchStatus.
 */
function rejection(app: SandboxContext, problems: Problem[], post = false): ApiError {
  const errors = problems.map((p) => ({ Code: ErrorCode.businessRule, Description: p.text, Detail: p.detail }));
  if (app.behaviour.answerFor('duplicateStatus') === '409' && problems.every((p) => DUPLICATES.has(p.text))) {
    return ApiError.many(409, errors.map((e) => ({ ...e, Code: ErrorCode.alreadyExists })));
  }
  const batchStatus = post ? app.behaviour.answerFor('customerBatchStatus') : '422';
  if (batchStatus === '400') {
    // The model-validation answer: each message with the element's property path.
    const field = (p: Problem) => (p.text.startsWith('Name') ? 'Name' : 'TaxNumber');
    return new ValidationMessages(problems.map((p) => [`[${p.index}].${field(p)}`, p.text]));
  }
  if (batchStatus === '400unnamed') {
    // The platform's error shape, with the messages only: which element each is about is not said.
    return ApiError.many(400, problems.map((p) => ({ Code: ErrorCode.badRequest, Description: p.text, Detail: '' })));
  }
  return ApiError.many(422, errors);
}

/** Reads the CustomerDto fields; wrong JSON types are a 400 (thrown). */
function readFields(o: JsonObject): CustomerFields {
  const out = { IsExport: optBool(o, 'IsExport') ?? false } as CustomerFields;
  for (const f of CUSTOMER_STRING_FIELDS) out[f] = optString(o, f)?.trim() ?? null;
  return out;
}

/** Business-rule problems of one customer (empty when fine). */
function ruleProblems(f: CustomerFields): string[] {
  const problems: string[] = [];
  if (!f.Name) problems.push('Name is required.');
  if (!f.TaxNumber) problems.push('TaxNumber is required.');
  else {
    const check = checkTaxId(f.TaxNumber);
    if (!check.valid) problems.push(`TaxNumber is not a valid VKN/TCKN (${check.problem}).`);
  }
  return problems;
}

export const customerRoutes: RouteSpec[] = [
  route('customers.list', (ctx) => {
    const { app, query } = ctx;
    const paging = parsePaging(query, app.behaviour.answerFor('pageSizeLimit'));
    const columnText = query.get('SortColumn');
    let sortColumn: string | undefined;
    if (columnText) {
      // Spec-silent (behaviour point sortColumns): any CustomerResponse field, or only the documented ones (the client's list).
      const allowed = app.behaviour.answerFor('sortColumns') === 'fixedList' ? DOCUMENTED_SORT_COLUMNS : SORTABLE_COLUMNS;
      sortColumn = allowed.find((c) => c.toLowerCase() === columnText.toLowerCase());
      if (!sortColumn) throw badRequest('Unknown sort column.', `SortColumn must be one of: ${allowed.join(', ')}.`);
    }
    const sortType = optEnum(query.get('SortType'), SORT_TYPES, 'SortType');
    const rows = app.customers.view({ search: query.get('Search') ?? '', sortColumn, sortType });
    const page = pageOf(rows.length, (start, end) => rows.slice(start, end), paging, app.behaviour.answerFor('pageBeyondEnd'));
    // Spec-silent (behaviour point emptyList): no customer at all, or none matching the search.
    return emptyListAnswer(ctx, rows, 'no customer', { ...page, Content: page.Content.map(toResponse) });
  }),
  // Assumed (not shown in the specification; behaviour point customerBatchBadRow): all or nothing;
  // any bad element (checksum, missing Name/TaxNumber, existing tax number) rejects the array, with
  // a 400 naming each one by its property path (behaviour point customerBatchStatus: a 422 naming
  // them, or a 400 naming none). `createGood` instead stores the good elements and the answer names
  // the bad ones. Success is a JSON string saying how many were created.
  route('customers.create', async ({ app, json, res }) => {
    const list = expectArray(await json(), 'The customer list');
    if (list.length === 0) throw badRequest('The customer list is empty.');
    const rows = list.map((item, i) => readFields(expectObject(item, `Element ${i}`)));
    // All or nothing: collect every bad element, then reject the whole array.
    const problems: Problem[] = [];
    const seen = new Set<string>();
    const good: CustomerFields[] = [];
    // duplicateStatus `accept`: a tax number stored already, or twice in the list, is stored again.
    const unique = app.behaviour.answerFor('duplicateStatus') !== 'accept';
    rows.forEach((f, i) => {
      const texts = ruleProblems(f);
      if (unique && f.TaxNumber && texts.length === 0) {
        if (app.customers.getByTaxNumber(f.TaxNumber)) texts.push(DUPLICATE.exists);
        else if (seen.has(f.TaxNumber)) texts.push(DUPLICATE.twice);
        seen.add(f.TaxNumber);
      }
      if (texts.length === 0) good.push(f);
      for (const text of texts) problems.push({ text, detail: `index ${i}, TaxNumber ${f.TaxNumber ?? ''}`, index: i });
    });
    if (problems.length && app.behaviour.answerFor('customerBatchBadRow') === 'createGood' && good.length) {
      app.customers.create(good);
      app.changed();
    }
    if (problems.length) throw rejection(app, problems, true);
    const created = app.customers.create(rows);
    app.changed();
    // Spec-silent (behaviour point customerCreateAnswer): the export only says "a string".
    switch (app.behaviour.answerFor('customerCreateAnswer')) {
      case 'countText':
        return `${created.length} customer(s) created.`;
      case 'true':
        return true;
      case 'emptyBody':
        return send(res, 200);
    }
  }),
  route('customers.update', async ({ app, json }) => {
    const body = expectObject(await json(), 'UpdateCustomerCommand');
    const id = reqInt(body, 'ID');
    const fields = readFields(body);
    if (!app.customers.get(id)) throw notFound('Customer not found.', `ID ${id}`);
    const problems = ruleProblems(fields);
    const other = fields.TaxNumber ? app.customers.getByTaxNumber(fields.TaxNumber) : undefined;
    if (other && other.ID !== id && app.behaviour.answerFor('duplicateStatus') !== 'accept') problems.push(DUPLICATE.elsewhere);
    if (problems.length) throw rejection(app, problems.map((text) => ({ text, detail: `ID ${id}` })));
    app.customers.update(id, fields);
    app.changed();
    return true;
  }),
  route('customers.get', (ctx) => {
    const id = parseInt32(ctx.params.ID, 'ID');
    return recordOrMissing(ctx, ctx.app.customers.get(id), notFound('Customer not found.', `ID ${id}`));
  }),
  route('customers.delete', ({ app, params }) => {
    const id = parseInt32(params.ID, 'ID');
    if (!app.customers.get(id)) throw notFound('Customer not found.', `ID ${id}`);
    app.customers.delete([id]);
    app.changed();
    return true;
  }),
  route('customers.deleteBulk', async ({ app, json }) => {
    const ids = expectArray(await json(), 'The ID list');
    if (ids.length === 0 || !ids.every((v) => typeof v === 'number' && Number.isInteger(v))) throw badRequest('The request body is invalid.', 'Send a non-empty JSON array of integer IDs.');
    const missing = (ids as number[]).filter((id) => !app.customers.get(id));
    if (missing.length) throw notFound('Customer not found.', `IDs ${missing.join(', ')}`);
    app.customers.delete(ids as number[]);
    app.changed();
    return true;
  }),
  route('customers.search', ({ app, params }) => {
    const found = app.customers.view({ search: params.searchText }).slice(0, SEARCH_LIMIT);
    return noMatchAnswer(app.behaviour.answerFor('searchNoMatch'), found.map(toResponse));
  }),
  route('customers.getByTaxNumber', (ctx) =>
    recordOrMissing(ctx, ctx.app.customers.getByTaxNumber(ctx.params.TaxNumber.trim()),
      notFound('Customer not found.', `TaxNumber ${ctx.params.TaxNumber}`))),
];
