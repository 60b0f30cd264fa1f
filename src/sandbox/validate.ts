// Type checks for request bodies and parameters: wrong JSON types are 400 (the model binder's
// answer), values that parse but break a rule (unknown enum name, bad checksum) are 422.
import type { AnswerOf } from './behaviour';
import { badRequest, ErrorCode, notFound, unprocessable } from './errors';

/** Query parameters; names are matched case-insensitively. */
export type QueryParams = Pick<URLSearchParams, 'get'>;

export type JsonObject = Record<string, unknown>;

export function expectObject(body: unknown, what: string): JsonObject {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The request body is invalid.', `${what} must be a JSON object.`);
  return body as JsonObject;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64.test(text);
}

export function expectArray(body: unknown, what: string): unknown[] {
  if (!Array.isArray(body)) throw badRequest('The request body is invalid.', `${what} must be a JSON array.`);
  return body;
}

/** A field of this type that may be absent or null; any other type is a 400. */
function optional<T>(o: JsonObject, field: string, type: 'string' | 'boolean'): T | null | undefined {
  const v = o[field];
  if (v === undefined || v === null || typeof v === type) return v as T | null | undefined;
  throw badRequest('The request body is invalid.', `${field} must be a ${type}.`);
}

export const optString = (o: JsonObject, field: string) => optional<string>(o, field, 'string');
export const optBool = (o: JsonObject, field: string) => optional<boolean>(o, field, 'boolean');

export function reqInt(o: JsonObject, field: string): number {
  const v = o[field];
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 2 ** 31) return v;
  throw badRequest('The request body is invalid.', `${field} must be a 32-bit integer.`);
}

/** An int32 from a path or query string. */
export function parseInt32(text: string, name: string): number {
  if (!/^-?\d{1,10}$/.test(text)) throw badRequest('The request is invalid.', `${name} must be an integer.`);
  const n = Number(text);
  if (n > 2 ** 31 - 1 || n < -(2 ** 31)) throw badRequest('The request is invalid.', `${name} is out of range.`);
  return n;
}

export function parseBoolParam(text: string, name: string): boolean {
  const t = text.toLowerCase();
  if (t === 'true' || t === 'false') return t === 'true';
  throw badRequest('The request is invalid.', `${name} must be true or false.`);
}

/** Enum names are matched case-insensitively (as ASP.NET does) and returned in their declared case. */
export function parseEnum<T extends string>(value: unknown, allowed: readonly T[], name: string): T {
  if (typeof value !== 'string') throw badRequest('The request is invalid.', `${name} must be a string.`);
  const found = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (!found) throw unprocessable(`Unknown ${name} value.`, `${name} must be one of: ${allowed.join(', ')}.`, ErrorCode.unknownEnum);
  return found;
}

export function optEnum<T extends string>(value: unknown, allowed: readonly T[], name: string): T | undefined {
  return value === undefined || value === null || value === '' ? undefined : parseEnum(value, allowed, name);
}

type Paging = Record<'page' | 'pageSize', number>;

/**
 * Page is 1-based; PageSize defaults to 20. Above the limit (spec-silent, behaviour point
 * pageSizeLimit) it is capped at 100 or 50, or PageSize is ignored and every page has 25.
 * The response shows the value used.
 */
export function parsePaging(query: QueryParams, limit: AnswerOf<'pageSizeLimit'> = 'cap100'): Paging {
  const pageText = query.get('Page');
  const sizeText = query.get('PageSize');
  const page = pageText ? parseInt32(pageText, 'Page') : 1;
  const size = sizeText ? parseInt32(sizeText, 'PageSize') : 20;
  if (page < 1) throw badRequest('The request is invalid.', 'Page starts at 1.');
  if (size < 1) throw badRequest('The request is invalid.', 'PageSize must be at least 1.');
  if (limit === 'ignore') return { page, pageSize: 25 };
  return { page, pageSize: Math.min(size, limit === 'cap50' ? 50 : 100) };
}

/**
 * One page of `total` items, `slice(start, end)` giving the items of a range. A page past the end
 * (spec-silent, behaviour point pageBeyondEnd) has empty Content, or is the last page (Page says
 * which), or is a 404.
 */
export function pageOf<T>(total: number, slice: (start: number, end: number) => T[], p: Paging, beyond: AnswerOf<'pageBeyondEnd'> = 'emptyContent') {
  const totalPages = Math.ceil(total / p.pageSize);
  let page = p.page;
  if (page > totalPages && page > 1) {
    if (beyond === 'notFound') throw notFound('The page does not exist.', `Page ${page} of ${totalPages}`);
    if (beyond === 'lastPage') page = Math.max(totalPages, 1);
  }
  const start = (page - 1) * p.pageSize;
  return { Page: page, PageSize: p.pageSize, TotalCount: total, TotalPages: totalPages, Content: start < total ? slice(start, Math.min(start + p.pageSize, total)) : [] };
}
