// The client's answers to the points where the specification is silent (README's spec-silent table,
// the sandbox's src/sandbox/behaviour.ts). Each guess lives here, once, with the reason; the
// areas and helpers call these functions instead of deciding for themselves. Every function accepts
// all the answers the platform could plausibly give, so no single guess has to be right.

import { NilveraApiError } from './errors';
import type { CallOptions, HttpTransport, RequestSpec } from './http';
import { ROUTE_NOT_FOUND_CODE, type OperationId } from './operations';
import { requestOf, type QueryValue } from './paths';
import type { GlobalCustomerAliasesResponse } from './types';

// ---- Behaviour points registryLookupMissing, recordLookupMissing, bulkLookupMissing: what "not registered" / "not found" looks like ---

/** A field holding something: not undefined, null, '', an empty array, or .NET's default date/ID. */
function hasValue(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'string' && v.startsWith('0001-01-01')) return false;
  return true;
}

/**
 * Assumption (spec-silent): a single-record look-up of an unknown value may answer 404, an empty
 * 200, `null`, `{}`, or an object whose identifying fields are all empty. Every one of those means
 * "absent". `keyFields` are the fields that identify a real record (ID, TaxNumber, SerialNo, Title).
 */
export function isAbsentRecord(value: unknown, keyFields: readonly string[]): boolean {
  if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return true;
  const record = value as Record<string, unknown>;
  return !keyFields.some((f) => hasValue(record[f]));
}

/** The record, or the same notFound error a 404 gives when the answer is one of the "absent" shapes. */
export function requireRecord<T>(value: T | null | undefined, operation: string, keyFields: readonly string[]): T {
  if (isAbsentRecord(value, keyFields)) {
    throw new NilveraApiError({ kind: 'notFound', operation, status: 200, messages: [{ description: 'the server answered that no such record exists' }] });
  }
  return value as T;
}

/**
 * Assumption (spec-silent): the bulk registry look-up may leave an unregistered number out, list it
 * with no aliases (and no title), or put `null` in its place. An entry without a single alias for the
 * asked document type counts as "not registered for that type": a taxpayer that left keeps its
 * aliases with a DeletionTime, so a deregistered one is still told apart. (Its TaxNumber and Title are
 * nullable, so they do not decide.)
 */
export function isAbsentBulkEntry(entry: GlobalCustomerAliasesResponse | null | undefined): boolean {
  return isAbsentRecord(entry, ['Aliases']);
}

// ---- Lists whose answer shape the spec does not show --------------------------------------------

/**
 * Assumption (spec-silent): a list operation whose body the spec does not show (GET /Company/List)
 * may answer an empty 200 or `null` when there is nothing to list (the platform's OpenAPI export
 * gives no schema for it, and its mock answers an empty body). Both read as an empty list; any other
 * non-array answer is malformed.
 */
export function listOrEmpty<T>(value: T[] | null | undefined, operation: string): T[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  throw new NilveraApiError({ kind: 'malformed', operation, status: 200, messages: [{ description: 'the response is not a list' }] });
}

// ---- Behaviour point emptyList: an empty list answered 404 --------------------------------------

/**
 * Public evidence: a list with nothing in it may answer 404 instead of [] (an SDK's integration test
 * against the real test service got 404 from the certificate list of an account without
 * certificates). A 404 that carries the service's own error body (an `Errors` item with a code other
 * than 3030, "API not found") comes from the operation itself: the list is empty, and reads as [].
 * A bare 404 (no body, or one that is not the service's) is what a deployment without the operation
 * answers too, so it stays an error: the views say both are possible, and Check Connection tells which.
 */
export function isEmptyListNotFound(err: unknown): boolean {
  if (!(err instanceof NilveraApiError) || err.kind !== 'notFound') return false;
  const codes = err.messages.map((m) => m.code).filter((c) => c !== undefined && c !== '');
  return codes.length > 0 && codes.every((c) => Number(c) !== ROUTE_NOT_FOUND_CODE);
}

/** The list, or [] when the server said with its own 404 that there is nothing to list. */
export async function listOr404Empty<T>(http: HttpTransport, spec: RequestSpec, opts?: CallOptions): Promise<T[]> {
  try {
    return listOrEmpty(await http.json<T[] | null | undefined>(spec, opts), spec.operation);
  } catch (err) {
    if (isEmptyListNotFound(err)) return [];
    throw err;
  }
}

// ---- Behaviour point booleanAnswer: boolean answers ---------------------------------------------

/**
 * Operations documented as answering a boolean: `true` is success; `false` means the service declined
 * and changed nothing (spec-silent: it never says when `false` comes). An empty 200 is taken as
 * success, as ASP.NET answers a void action.
 */
export async function requireTrue(http: HttpTransport, spec: RequestSpec, opts?: CallOptions): Promise<boolean> {
  const value = await http.json<unknown>(spec, opts);
  if (value === false || value === 'false') {
    throw new NilveraApiError({ kind: 'declined', operation: spec.operation, status: 200, messages: [{ description: 'the service answered false: nothing was changed' }] });
  }
  return true;
}

/** Such a change of `id` with `cmd` as its JSON body, as an area's method. */
export function changeWith<C>(http: HttpTransport, id: OperationId): (cmd: C, opts?: CallOptions) => Promise<boolean> {
  return (cmd, opts) => requireTrue(http, { ...requestOf(id), body: cmd }, opts);
}

/** Such a change of the record with the ID given (a delete), as an area's method. */
export function changeById(http: HttpTransport, id: OperationId): (recordId: number, opts?: CallOptions) => Promise<boolean> {
  return (recordId, opts) => requireTrue(http, requestOf(id, { ID: recordId }), opts);
}

// ---- Behaviour points pageSizeLimit, nullableFields and pageBeyondEnd: paging (see paging.ts) ----

// ---- Behaviour point sortColumns: sort columns --------------------------------------------------

/**
 * Assumption (spec-silent): the documentation names only `Name` as a SortColumn (a public client
 * sends it) and `ID` is the record key; a server may refuse any other with 400. The extension offers
 * these two only, and a list whose sort is refused is asked again unsorted (CustomersApi.list).
 */
export const DOCUMENTED_SORT_COLUMNS: readonly string[] = ['Name', 'ID'];

// ---- Behaviour point encodedSlash: "/" inside a path value --------------------------------------

/**
 * Assumption (spec-silent): a `/` inside a path value is sent as %2F, which servers may decode into
 * the value, keep encoded, or refuse with 404 (many proxies reject %2F outright). None of these can be
 * told apart from "not found" afterwards, so a tax number holding `/` (or `\`, which some servers turn
 * into `/`) is refused before sending, with a clear message (a real one never has one). A certificate
 * serial number with a slash is looked up in the list instead (CertificatesApi.get), and a search
 * text is cut at the slash (pathSafeSearchText).
 */
export function hasSlash(value: string): boolean {
  return /[/\\]/.test(value);
}

export function refuseSlashInPathValue(value: string, operation: string): void {
  if (hasSlash(value)) {
    throw new NilveraApiError({ kind: 'badRequest', operation, messages: [{ description: 'the value cannot contain "/" or "\\": the service reads a slash in an address as a separator' }] });
  }
}

/** A search text without slashes: the longest slash-free part (a search for "A/B" finds what "A" or "B" finds). */
export function pathSafeSearchText(text: string): string {
  if (!hasSlash(text)) return text;
  const parts = text.split(/[/\\]/).map((p) => p.trim());
  return parts.reduce((best, p) => (p.length > best.length ? p : best), '');
}

/**
 * The object rows `id` answers for a text as its path value `param`, cut at a slash (pathSafeSearchText).
 * With `noMatchMay404` (spec-silent: a search with no match may answer 404 instead of []), a 404 is no rows.
 */
export async function rowsForText<T>(http: HttpTransport, id: OperationId, param: string, text: string, opts?: CallOptions, query?: Record<string, QueryValue>, noMatchMay404 = true): Promise<T[]> {
  const safe = pathSafeSearchText(text);
  if (safe === '' && text !== '') return [];
  try {
    const rows = await http.json<T[] | null | undefined>(requestOf(id, { [param]: safe }, query), opts);
    return Array.isArray(rows) ? rows.filter((r) => r !== null && typeof r === 'object') : [];
  } catch (err) {
    if (noMatchMay404 && err instanceof NilveraApiError && err.kind === 'notFound') return [];
    throw err;
  }
}
