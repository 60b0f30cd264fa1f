// Answers that are not a JSON body of the handler's result: an empty 200, plain text, raw bytes.
// A handler writes them itself and returns RESPONDED.
import type { ServerResponse } from 'node:http';
import { notFound } from './errors';
import { RESPONDED } from './router';

/** Status with no body at all (no Content-Type). */
export function sendEmpty(res: ServerResponse, status = 200): typeof RESPONDED {
  res.writeHead(status, { 'Content-Length': '0' });
  res.end();
  return RESPONDED;
}

export function sendText(res: ServerResponse, text: string, status = 200): typeof RESPONDED {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
  return RESPONDED;
}

/** A JSON value written as is (for `null`, which a handler cannot return as its result). */
export function sendJsonValue(res: ServerResponse, value: unknown, status = 200): typeof RESPONDED {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
  return RESPONDED;
}

/**
 * "Nothing found" for a single-record lookup, as the behaviour table answers it: the 404 error,
 * an empty 200, 200 `null`, 200 `{}`, a Turkish plain-text sentence, or 204 No Content (what
 * ASP.NET Core answers when an action returns null).
 */
export function answerMissing(res: ServerResponse, answer: '404' | 'emptyBody' | 'null' | 'emptyObject' | 'oddText' | 'noContent', error: Error): typeof RESPONDED {
  switch (answer) {
    case '404':
      throw error;
    case 'emptyBody':
      return sendEmpty(res);
    case 'null':
      return sendJsonValue(res, null);
    case 'emptyObject':
      return sendJsonValue(res, {});
    case 'oddText':
      return sendText(res, 'Kayıt bulunamadı');
    case 'noContent':
      return sendEmpty(res, 204);
  }
}

/**
 * A list with nothing in it (behaviour point emptyList): as it is ([] or an empty page), a 404 with
 * the service's error body, or a 404 with an empty body (what an unknown route answers).
 */
export function emptyListAnswer<T>(res: ServerResponse, answer: 'notFound' | 'emptyArray' | 'bareNotFound', empty: boolean, list: T, what: string): T | typeof RESPONDED {
  if (!empty || answer === 'emptyArray') return list;
  if (answer === 'bareNotFound') return sendEmpty(res, 404);
  throw notFound('No record found.', what);
}

/** A search with no match (spec-silent, behaviour point searchNoMatch): [] or a 404. */
export function noMatchAnswer<T>(answer: 'emptyArray' | 'notFound', found: T[]): T[] {
  if (found.length === 0 && answer === 'notFound') throw notFound('No record matches the search.');
  return found;
}
