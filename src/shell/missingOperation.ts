// Telling "this server does not offer the operation" from "the record is gone" on an HTTP 404.
//
// Decision (issue 15, row 13): a GET whose path names no record (a list, or the account's own
// singleton such as GET /Company or GET /InteractiveTaxOffice) cannot miss a record: its 404 can
// only mean the route does not exist on this deployment (an older API version, as the platform's
// older OpenAPI export lacks CompanyDocuments and InteractiveTaxOffice). A GET or change whose path
// names a record (Customers/{ID}, Company/Certificate/{SerialNumber}, …) answers 404 for a record
// that is not there; that 404 keeps the "no longer exists" reading. When such a 404 comes with no
// server message at all (an unknown route answers with an empty body), both readings remain, and
// the message says so and points to "Nilvera: Check Connection", which asks the server which it is.
import { isApiError } from './apiContract';

/** Client operations (src/api/areas) that GET a fixed path: their 404 means "not offered here". */
const FIXED_PATH_READS = new Set([
  'account.alerts',
  'account.campaigns',
  'account.credits',
  'account.exchangeRate',
  'certificates.list',
  'company.get',
  'company.list',
  'company.modules',
  'customers.list',
  'documents.list',
  'identifications.list',
  'mailing.settings',
  'registry.list',
  'taxOffice.get',
]);

/** A 404 on a fixed-path GET: the server does not have this operation. */
export function isOperationNotOffered(error: unknown): boolean {
  return isApiError(error) && error.kind === 'notFound' && FIXED_PATH_READS.has(error.operation);
}

/** A 404 naming a record, with no server message to say the record is what was missing. */
export function isBareRecordNotFound(error: unknown): boolean {
  return isApiError(error) && error.kind === 'notFound' && !FIXED_PATH_READS.has(error.operation) && error.messages.every((m) => !m.description.trim());
}
