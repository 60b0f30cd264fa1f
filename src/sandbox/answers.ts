// Answers written whole to the response: JSON, plain text, or no body at all.
import type { ServerResponse } from 'node:http';
import type { AnswerOf } from './behaviour';
import { notFound } from './errors';
import { RESPONDED, type RequestContext } from './router';

const JSON_TYPE = 'application/json; charset=utf-8';

/** `text` as `type`; without text, no body and no Content-Type (an empty answer). */
export function send(res: ServerResponse, status: number, text?: string, type = JSON_TYPE, extra = {}) {
  const contentType = text === undefined ? {} : { 'Content-Type': type };
  res.writeHead(status, { ...contentType, 'Content-Length': Buffer.byteLength(text ?? ''), ...extra });
  res.end(text);
  return RESPONDED;
}

export const sendJson = (res: ServerResponse, status: number, value: unknown, headers?: Record<string, string>) =>
  send(res, status, JSON.stringify(value), JSON_TYPE, headers);

/** Status, body and type of each answer to "nothing found" but the 404 error. */
const MISSING: Record<Exclude<AnswerOf<'registryLookupMissing'>, '404'>, [number, string?, string?]> = {
  emptyBody: [200],
  null: [200, 'null'],
  emptyObject: [200, '{}'],
  oddText: [200, 'Kayıt bulunamadı', 'text/plain; charset=utf-8'],
  // What ASP.NET Core answers when an action returns null.
  noContent: [204],
};

/** "Nothing found" for a single-record lookup, as the behaviour table answers it. */
export function answerMissing(res: ServerResponse, answer: AnswerOf<'registryLookupMissing'>, error: Error) {
  if (answer === '404') throw error;
  return send(res, ...MISSING[answer]);
}

/** A record looked up, or "nothing found" as behaviour point recordLookupMissing answers it. */
export function recordOrMissing(ctx: RequestContext, record: unknown, error: Error) {
  return record ?? answerMissing(ctx.res, ctx.app.behaviour.answerFor('recordLookupMissing'), error);
}

/**
 * `value` (the list itself unless given) when the list has something in it. An empty one (behaviour
 * point emptyList): as it is ([] or an empty page), a 404 with the service's error body, or a 404
 * with an empty body (what an unknown route answers).
 */
export function emptyListAnswer(ctx: RequestContext, list: readonly unknown[], what: string, value: unknown = list) {
  const answer = ctx.app.behaviour.answerFor('emptyList');
  if (list.length > 0 || answer === 'emptyArray') return value;
  if (answer === 'bareNotFound') return send(ctx.res, 404);
  throw notFound('No record found.', what);
}

/** A search with no match (spec-silent, behaviour point searchNoMatch): [] or a 404. */
export function noMatchAnswer<T>(answer: AnswerOf<'searchNoMatch'>, found: T[]): T[] {
  if (found.length === 0 && answer === 'notFound') throw notFound('No record matches the search.');
  return found;
}
