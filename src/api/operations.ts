// The table of the API's operations: the one place an operation's name, method and path are written.
// The client's areas (src/api/areas/), the sandbox's routes (src/sandbox/routes/, which refuse to start
// without a route for each), the reading of a 404 (src/shell/missingOperation.ts), Check Connection's
// probe decisions (src/commands/connection/probes.ts) and the contract test (test/unit/api/contract.test.ts)
// all take it from here. Plain Node, no `vscode`, no imports: the shell reads it at activation.
// Requests are built from it by `requestOf` (src/api/paths.ts).

/** What a 200 carries: one record, a list, a page of a list, true/false, a message text, or the registry ZIP. */
export type AnswerKind = 'record' | 'list' | 'page' | 'boolean' | 'text' | 'zip';

export interface OperationSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The specification's path template from the host root, e.g. `/general/Customers/{ID}`. */
  readonly path: string;
  readonly answer: AnswerKind;
  /** `read` changes nothing (the read-only key may call it, it is retried like a GET); `write` changes data. */
  readonly access: 'read' | 'write';
  /** The service's own 404 may stand for an empty list (behaviour point emptyList). */
  readonly emptyListMay404?: true;
  /** Missing from the platform's older OpenAPI export (behaviour point operations). */
  readonly notInOlderExport?: true;
}

type Extra = Pick<OperationSpec, 'emptyListMay404' | 'notInOlderExport'>;
// Generic, so the table keeps each entry's path, answer, access and flags as types (ReadOperationId,
// PlainReadId, EmptyListOperationId).
function read<const P extends string, const A extends AnswerKind, const X extends Extra = Record<never, never>>(path: P, answer: A, extra?: X) {
  return { method: 'GET' as const, path, answer, access: 'read' as const, ...(extra as X) };
}
function write<const X extends Extra = Record<never, never>>(method: OperationSpec['method'], path: string, answer: AnswerKind, extra?: X) {
  return { method, path, answer, access: 'write' as const, ...(extra as X) };
}
const newer = { notInOlderExport: true } as const;
const emptyList = { emptyListMay404: true } as const;

export const OPERATIONS = {
  'account.alerts': read('/general/Alerts', 'list'),
  'account.campaigns': read('/general/Campaigns', 'list'),
  'account.credits': read('/general/Credits', 'list'),
  'account.exchangeRate': read('/general/ExchangeRate', 'record'),
  'company.get': read('/general/Company', 'record'),
  'company.update': write('PUT', '/general/Company', 'record'),
  'company.modules': read('/general/Company/Modules', 'list'),
  'company.list': read('/general/Company/List', 'list'),
  'certificates.list': read('/general/Company/Certificate', 'list', emptyList),
  'certificates.get': read('/general/Company/Certificate/{SerialNumber}', 'record'),
  'certificates.create': write('POST', '/general/Company/Certificate', 'boolean'),
  'certificates.update': write('PUT', '/general/Company/Certificate', 'boolean'),
  'certificates.delete': write('DELETE', '/general/Company/Certificate/{ID}', 'boolean'),
  'documents.list': read('/general/CompanyDocuments', 'list', { ...emptyList, ...newer }),
  'documents.create': write('POST', '/general/CompanyDocuments', 'record', newer),
  'documents.delete': write('DELETE', '/general/CompanyDocuments/{ID}', 'boolean', newer),
  'identifications.list': read('/general/CompanyIdentification', 'list', emptyList),
  'identifications.create': write('POST', '/general/CompanyIdentification', 'record'),
  'identifications.delete': write('DELETE', '/general/CompanyIdentification/{ID}', 'boolean'),
  'mailing.settings': read('/general/Mailing/Setting', 'list'),
  'mailing.setChat': write('POST', '/general/Mailing/Whatsapp/Setting/{IsActive}', 'boolean'),
  'mailing.setEmail': write('POST', '/general/Mailing/Email/Setting', 'boolean', newer),
  'taxOffice.get': read('/general/InteractiveTaxOffice', 'record', newer),
  'taxOffice.update': write('PUT', '/general/InteractiveTaxOffice', 'boolean', newer),
  // /ebill and /evoucher belong to other APIs, which the older export does not describe at all.
  'ebill.updateTemplate': write('PUT', '/ebill/Templates', 'boolean'),
  'evoucher.updateSeries': write('PUT', '/evoucher/Series', 'boolean'),
  'customers.list': read('/general/Customers', 'page', emptyList),
  'customers.create': write('POST', '/general/Customers', 'text'),
  'customers.update': write('PUT', '/general/Customers', 'boolean'),
  'customers.get': read('/general/Customers/{ID}', 'record', newer),
  'customers.delete': write('DELETE', '/general/Customers/{ID}', 'boolean'),
  'customers.deleteBulk': write('DELETE', '/general/Customers/Bulk', 'boolean'),
  'customers.search': read('/general/Customers/Search/{searchText}', 'list'),
  'customers.getByTaxNumber': read('/general/Customers/GetCustomerInfo/{TaxNumber}', 'record'),
  'registry.list': read('/general/GlobalCompany', 'page'),
  'registry.search': read('/general/GlobalCompany/Search/{searchText}', 'list'),
  'registry.info': read('/general/GlobalCompany/GetGlobalCustomerInfo/{TaxNumber}', 'record'),
  // A POST that only looks up.
  'registry.infoBulk': { method: 'POST', path: '/general/GlobalCompany/GetGlobalCustomerInfo', answer: 'list', access: 'read' as const },
  'registry.checkTaxNumber': read('/general/GlobalCompany/Check/TaxNumber/{TaxNumber}', 'list'),
  'registry.checkName': read('/general/GlobalCompany/Check/Name/{Name}', 'list'),
  'registry.downloadList': read('/general/GlobalCompany/{AliasType}/{GlobalUserType}', 'zip'),
} as const satisfies Record<string, OperationSpec>;

export type OperationId = keyof typeof OPERATIONS;
export const OPERATION_IDS = Object.keys(OPERATIONS) as OperationId[];

/** Operations that change nothing: each needs a probe decision in Check Connection. */
export type ReadOperationId = { [K in OperationId]: (typeof OPERATIONS)[K]['access'] extends 'read' ? K : never }[OperationId];
/**
 * Reads of a fixed path that answer one record or a list: `client.read(id)` calls them, typed by
 * `OperationAnswers` (src/api/types.ts); the sandbox serves its seed data for them, and the contract
 * test calls each through `client.read` unless it has a case of its own.
 */
export type PlainReadId = {
  [K in OperationId]: (typeof OPERATIONS)[K] extends { method: 'GET'; access: 'read'; answer: 'record' | 'list'; path: infer P }
    ? P extends `${string}{${string}` ? never : K
    : never;
}[OperationId];
/** Lists whose empty answer may be the service's own 404. */
export type EmptyListOperationId = { [K in OperationId]: (typeof OPERATIONS)[K] extends { emptyListMay404: true } ? K : never }[OperationId];

/** `id` is a PlainReadId: a GET of a fixed path answering a record or a list. */
export function isPlainRead(id: OperationId): id is PlainReadId {
  const op = OPERATIONS[id];
  return op.method === 'GET' && op.access === 'read' && (op.answer === 'record' || op.answer === 'list') && hasFixedPath(id);
}

/** The platform's error code for "API not found" (the route does not exist): no operation's own 404 carries it. */
export const ROUTE_NOT_FOUND_CODE = 3030;

/** Its path names no record (no `{…}` value in it). */
export function hasFixedPath(id: OperationId): boolean {
  return !OPERATIONS[id].path.includes('{');
}
