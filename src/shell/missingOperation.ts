// Telling "this server does not offer the operation" from "the record is gone" on an HTTP 404.
//
// Decision (behaviour point operations): a GET whose path names no record (a list, or the
// account's own singleton such as GET /Company or GET /InteractiveTaxOffice) cannot miss a record: its 404 can
// only mean the route does not exist on this deployment (an older API version, as the platform's
// older OpenAPI export lacks CompanyDocuments and InteractiveTaxOffice). A GET or change whose path
// names a record (Customers/{ID}, Company/Certificate/{SerialNumber}, …) answers 404 for a record
// that is not there; that 404 keeps the "no longer exists" reading. When such a 404 comes with no
// server message at all (an unknown route answers with an empty body), both readings remain, and
// the message says so and points to "Nilvera: Check Connection", which asks the server which it is.
// Four lists are the exception (emptyList): the real service answers 404 for an empty certificate list,
// so their 404 means "not offered" only when it says the route is unknown ("API not found"); a bare
// one is either, and the client reads the service's own 404 as an empty list (src/api/specSilent.ts).
import type * as vscode from 'vscode';
import { isApiError, type ApiErrorShape } from './apiContract';
import { hasFixedPath, OPERATION_IDS, OPERATIONS, ROUTE_NOT_FOUND_CODE, type EmptyListOperationId } from '../api/operations';

/** The lists whose 404 may stand for "nothing to list" (`emptyListMay404` in src/api/operations.ts). */
export const EMPTY_LIST_READS = OPERATION_IDS.filter((id): id is EmptyListRead => 'emptyListMay404' in OPERATIONS[id]);
export type EmptyListRead = EmptyListOperationId;
export type ListAvailability = 'offered' | 'missing';

/** GETs of a fixed path (src/api/operations.ts): their 404 means "not offered here". */
const FIXED_PATH_READS: ReadonlySet<string> = new Set(OPERATION_IDS.filter((id) => OPERATIONS[id].method === 'GET' && hasFixedPath(id)));

const LISTS: ReadonlySet<string> = new Set(EMPTY_LIST_READS);

function saysRouteMissing(error: ApiErrorShape): boolean {
  return error.messages.some((m) => Number(m.code) === ROUTE_NOT_FOUND_CODE);
}

/** A 404 on a fixed-path GET: the server does not have this operation. */
export function isOperationNotOffered(error: unknown): boolean {
  return isApiError(error) && error.kind === 'notFound' && FIXED_PATH_READS.has(error.operation) && (!LISTS.has(error.operation) || saysRouteMissing(error));
}

/** A list's 404 that does not say which it is: nothing to list, or no such operation here. */
export function isEmptyOrNotOffered(error: unknown): boolean {
  return isApiError(error) && error.kind === 'notFound' && LISTS.has(error.operation) && !saysRouteMissing(error);
}

/** A 404 naming a record, with no server message to say the record is what was missing. */
export function isBareRecordNotFound(error: unknown): boolean {
  return isApiError(error) && error.kind === 'notFound' && !FIXED_PATH_READS.has(error.operation) && error.messages.every((m) => !m.description.trim());
}

// What Check Connection found about the lists that may answer 404 when they are empty (README,
// "Where the API documentation is silent", emptyList): per server address, whether each list operation
// exists there ('offered') or not ('missing'). The views read it when a list answers a bare 404,
// which by itself cannot tell an empty list from a missing operation. Kept in global state, so every
// window and later session knows it; a new Check Connection replaces what it saw.
const STATE_KEY = 'nilvera.listAvailability';
/** Addresses remembered (a sandbox gets a new port every session): the most recent ones. */
const MAX_ORIGINS = 20;

type Stored = Array<[origin: string, found: Partial<Record<EmptyListRead, ListAvailability>>]>;

function read(memento: vscode.Memento): Stored {
  const value = memento.get<unknown>(STATE_KEY);
  return Array.isArray(value) ? (value.filter((e) => Array.isArray(e) && typeof e[0] === 'string' && e[1] && typeof e[1] === 'object') as Stored) : [];
}

function originOf(baseUrl: string): string {
  return URL.canParse(baseUrl) ? new URL(baseUrl).origin : baseUrl;
}

export function knownListAvailability(memento: vscode.Memento, baseUrl: string, operation: EmptyListRead): ListAvailability | undefined {
  const origin = originOf(baseUrl);
  const found = read(memento).find(([o]) => o === origin)?.[1][operation];
  return found === 'offered' || found === 'missing' ? found : undefined;
}

/** Stores what a Check Connection run found for `baseUrl` (operations it could not tell are forgotten). */
export async function rememberListAvailability(memento: vscode.Memento, baseUrl: string, found: Partial<Record<EmptyListRead, ListAvailability>>): Promise<void> {
  const origin = originOf(baseUrl);
  const others = read(memento).filter(([o]) => o !== origin);
  await memento.update(STATE_KEY, [[origin, found], ...others].slice(0, MAX_ORIGINS));
}
