// Building request paths and query strings exactly as the server expects them.

import { NilveraApiError } from './errors';
import { OPERATIONS, type OperationId } from './operations';
import type { RequestSpec } from './http';

/**
 * One path segment (or query name or value), percent-encoded so that Turkish letters, spaces, `/`,
 * `?`, `#` and `%` reach the server as part of the value. (A segment "." or ".." cannot be sent at
 * all: URL parsing resolves it even when encoded; the HTTP layer refuses such paths.) A lone UTF-16
 * surrogate (broken text, e.g. half of an emoji cut off) gives a clear error instead of a bare
 * "URIError: URI malformed".
 */
export function encodeSegment(value: string | number | boolean): string {
  // A whole number is digits and maybe "-", none of which is encoded: the common case (record IDs), spelled out.
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  try {
    return encodeURIComponent(value);
  } catch {
    throw new NilveraApiError({ kind: 'badRequest', operation: 'request', messages: [{ description: 'the text holds a broken character (a lone UTF-16 surrogate) and cannot be sent' }] });
  }
}

export type QueryValue = string | number | boolean | undefined | null;

/** `?A=1&B=x` with the names as given; undefined and null values are left out. */
export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    parts.push(`${encodeSegment(name)}=${encodeSegment(value)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

type PathValue = string | number | boolean;

/** Each operation's path split at its `{Name}` values (text at even places, names at odd ones), made on first use. */
const pathParts = new Map<OperationId, string[]>();

/** The encoded path of `id` with each `{Name}` replaced by `values[Name]`. */
export function operationPath(id: OperationId, values: Record<string, PathValue> = {}): string {
  let parts = pathParts.get(id);
  if (!parts) pathParts.set(id, (parts = OPERATIONS[id].path.split(/\{(\w+)\}/)));
  let path = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const value = values[parts[i]];
    if (value === undefined) throw new Error(`${id}: no value for {${parts[i]}}`);
    path += encodeSegment(value) + parts[i + 1];
  }
  return path;
}

/**
 * The request's name, method and path (and `readOnly` for a POST that only reads), for the HTTP
 * layer; `query` when given. A plain object built field by field: it is made on every call.
 */
export function requestOf(id: OperationId, values?: Record<string, PathValue>, query?: Record<string, QueryValue>): RequestSpec {
  const { method, access } = OPERATIONS[id];
  const spec: RequestSpec = { operation: id, method, path: operationPath(id, values) };
  if (access === 'read' && method !== 'GET') spec.readOnly = true;
  if (query) spec.query = query;
  return spec;
}
