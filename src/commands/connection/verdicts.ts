// Which answer of the sandbox behaviour table (src/sandbox/behaviour.ts) the service showed, point by
// point, read from Check Connection's calls. Pure. An answer the readers below do not recognise (such
// as the sandbox's registryLookupMissing=oddText) is reported as "differs", with what was seen.
import { BEHAVIOUR_POINTS, POINT_IDS, type PointId } from '../../sandbox/behaviour';
import { EMPTY_LIST_PROBES, PAGE_BEYOND_END, PAGE_SIZE_ABOVE_LIMIT, SLASH_SERIAL, UNKNOWN_SERIAL, type CheckRun, type ProbeAnswer, type ProbeId, type ProbeResult } from './probes';
import { isIsoDateTime } from '../../domain/isoDate';
import { ROUTE_NOT_FOUND_CODE } from '../../api/operations';
import type { EmptyListRead, ListAvailability } from '../../shell/missingOperation';

/** The answers of the sandbox's two profiles for a point. */
export function profileAnswers(point: PointId): { default: string; alternate: string } {
  return { default: BEHAVIOUR_POINTS[point].answers[0], alternate: BEHAVIOUR_POINTS[point].alternate };
}

export type NoAnswerReason = 'wouldWrite' | 'callFailed' | 'noUnregisteredNumber' | 'noCustomer' | 'cannotTell' | 'noEmptyList';

export type Verdict =
  | { kind: 'answer'; answer: string }
  /** Seen, but none of the known answers: `seen` says what it was (status, type, size; never a value). */
  | { kind: 'differs'; seen: string }
  | { kind: 'none'; reason: NoAnswerReason; seen?: string };

export interface RowVerdict {
  point: PointId;
  verdict: Verdict;
  /** How the verdict compares with the sandbox's profiles. */
  match: 'default' | 'alternate' | 'both' | 'neither' | 'unknown';
}

/**
 * The media type of a Content-Type (`text/html` of `text/html; charset=utf-8`) when it is one: a
 * server chooses the header, so anything but `type/subtype` tokens is not repeated.
 */
export function mediaTypeShown(contentType: string): string {
  const type = contentType.split(';')[0].trim();
  return /^[A-Za-z0-9!#$&^_.+-]{1,64}\/[A-Za-z0-9!#$&^_.+-]{1,64}$/.test(type) ? type : 'an unusual content type (not shown)';
}

/** "404 application/json, 120 bytes": status, content type and size, never the content. */
export function seenText(answer: ProbeAnswer | undefined): string {
  if (!answer) return 'no call';
  if (answer.status === undefined) return `no answer (${answer.failure ?? 'failed'})`;
  const type = answer.contentType ? mediaTypeShown(answer.contentType) : 'no content type';
  const size = answer.body.kind === 'empty' ? 'empty body' : `${answer.bytes}${answer.truncated ? '+' : ''} bytes`;
  return `${answer.status} ${type}, ${size}`;
}

function byId(run: CheckRun, id: ProbeId): ProbeResult | undefined {
  return run.results.find((r) => r.id === id);
}

function answerOf(run: CheckRun, id: ProbeId): ProbeAnswer | undefined {
  return byId(run, id)?.answer;
}

const answer = (a: string): Verdict => ({ kind: 'answer', answer: a });
const differs = (a: ProbeAnswer | undefined, extra?: string): Verdict => ({ kind: 'differs', seen: seenText(a) + (extra ? `; ${extra}` : '') });
const none = (reason: NoAnswerReason, a?: ProbeAnswer): Verdict => ({ kind: 'none', reason, ...(a ? { seen: seenText(a) } : {}) });

function json(a: ProbeAnswer | undefined): unknown {
  return a?.body.kind === 'json' ? a.body.value : undefined;
}

/** An answer's body as text to search: JSON written out ('' when it nests too deep for JSON.stringify, a RangeError), text as it came. */
function bodyText(a: ProbeAnswer): string {
  try {
    return a.body.kind === 'json' ? (JSON.stringify(a.body.value) ?? '') : a.body.kind === 'text' ? a.body.text : '';
  } catch {
    return '';
  }
}

/** A call that never answered, or answered with an auth or server failure: nothing to read from it. */
function unusable(a: ProbeAnswer | undefined): boolean {
  return !a || a.status === undefined || a.status === 401 || a.status === 403 || a.status === 429 || a.status >= 500;
}

/** "Nothing found" of a single-record look-up: 404, an empty 200, 200 null, 200 {}, 204. */
function missingAnswer(a: ProbeAnswer): string | undefined {
  if (a.status === 404) return '404';
  if (a.status === 204) return 'noContent';
  if (a.status !== 200) return undefined;
  if (a.body.kind === 'empty') return 'emptyBody';
  if (a.body.kind === 'json' && a.body.value === null) return 'null';
  if (a.body.kind === 'json' && typeof a.body.value === 'object' && !Array.isArray(a.body.value) && Object.keys(a.body.value as object).length === 0) return 'emptyObject';
  return undefined;
}

function registryLookupMissing(run: CheckRun): Verdict {
  const result = byId(run, 'registryLookupMissing');
  if (result?.skipped) return none('noUnregisteredNumber');
  const a = result?.answer;
  if (unusable(a)) return none('callFailed', a);
  const found = missingAnswer(a!);
  return found ? answer(found) : differs(a);
}

function recordLookupMissing(run: CheckRun): Verdict {
  const seen: Array<{ answer: string | undefined; a: ProbeAnswer }> = [];
  // A customer record for the number means it is a customer: that call proves nothing here.
  const customerAnswer = answerOf(run, 'customerLookupMissing');
  const isRecord = customerAnswer?.status === 200 && json(customerAnswer) !== null && typeof json(customerAnswer) === 'object' && Object.keys(json(customerAnswer) as object).length > 0;
  if (customerAnswer && !unusable(customerAnswer) && !isRecord) seen.push({ answer: missingAnswer(customerAnswer), a: customerAnswer });
  const cert = answerOf(run, 'certificateLookupMissing');
  if (cert && !unusable(cert)) seen.push({ answer: missingAnswer(cert), a: cert });
  if (seen.length === 0) return none('callFailed', customerAnswer ?? cert);
  const known: readonly string[] = BEHAVIOUR_POINTS.recordLookupMissing.answers;
  const odd = seen.find((s) => !s.answer || !known.includes(s.answer));
  if (odd) return differs(odd.a);
  if (seen.some((s) => s.answer !== seen[0].answer)) return differs(seen[0].a, `the customer and certificate look-ups answered differently (${seen.map((s) => s.answer).join(' / ')})`);
  return answer(seen[0].answer!);
}

function bulkLookupMissing(run: CheckRun): Verdict {
  const result = byId(run, 'bulkLookup');
  if (result?.skipped) return none(result.skipped === 'noUnregisteredNumber' ? 'noUnregisteredNumber' : 'cannotTell');
  const a = result?.answer;
  if (unusable(a)) return none('callFailed', a);
  const value = json(a);
  if (a!.status !== 200 || !Array.isArray(value)) return differs(a);
  if (value.some((e) => e === null)) return answer('nullEntry');
  const { unregistered, ownTaxNumber } = run.facts;
  const entries = value as Array<{ TaxNumber?: unknown; Aliases?: unknown }>;
  // By its number; or, when both numbers were answered, the one that is not the company's (an
  // entry's TaxNumber may itself come as null).
  const entry =
    entries.find((e) => e && typeof e === 'object' && e.TaxNumber === unregistered) ??
    (entries.length >= 2 ? entries.find((e) => e && typeof e === 'object' && e.TaxNumber !== ownTaxNumber) : undefined);
  if (!entry) return answer('omit');
  if (Array.isArray(entry.Aliases) && entry.Aliases.length === 0) return answer('emptyAliases');
  return differs(a, 'the unregistered number came back with aliases');
}

function badKeyStatus(run: CheckRun): Verdict {
  const a = answerOf(run, 'wrongKey');
  if (!a || a.status === undefined) return none('callFailed', a);
  if (a.status === 401 || a.status === 403) return answer(String(a.status));
  return differs(a, a.status === 200 ? 'a made-up key was accepted' : undefined);
}

/** The customer list has nothing in it (then its 404s say nothing about paging or sorting). */
function noCustomers(run: CheckRun, a: ProbeAnswer | undefined): boolean {
  return a?.status === 404 && readListFindings(run).find((f) => f.operation === 'customers.list')?.emptyAnswer !== undefined;
}

function pageSizeLimit(run: CheckRun): Verdict {
  const a = answerOf(run, 'pageSizeAbove');
  if (unusable(a)) return none('callFailed', a);
  if (noCustomers(run, a)) return none('noCustomer', a);
  const page = json(a) as { PageSize?: unknown; Content?: unknown; TotalCount?: unknown } | undefined;
  if (a!.status !== 200 || !page || typeof page !== 'object') return differs(a);
  const size = page.PageSize;
  const count = Array.isArray(page.Content) ? page.Content.length : undefined;
  if (size === 100) return answer('cap100');
  if (size === 50) return answer('cap50');
  if (size === 25) return answer('ignore');
  if (count !== undefined && count > 100) return differs(a, `${count} records in one page: no limit at 100`);
  if (size === PAGE_SIZE_ABOVE_LIMIT && typeof page.TotalCount === 'number' && page.TotalCount <= 100) return none('cannotTell', a);
  return differs(a, `PageSize ${typeof size === 'number' ? size : typeof size} in the answer`);
}

const BASE64_START = /^[A-Za-z0-9+/]{4}/;

function registryZipEncoding(run: CheckRun): Verdict {
  const a = answerOf(run, 'registryList');
  if (unusable(a)) return none('callFailed', a);
  if (a!.status !== 200 && a!.status !== 206) return differs(a);
  const body = a!.body;
  if (body.kind === 'binary') return body.head[0] === 0x50 && body.head[1] === 0x4b ? answer('rawZip') : differs(a, 'binary, not a ZIP');
  const trimmed = bodyText(a!).trimStart();
  if (trimmed.startsWith('"') && BASE64_START.test(trimmed.slice(1))) return answer('jsonBase64');
  if (BASE64_START.test(trimmed)) return answer('textBase64');
  return differs(a);
}

function sortColumns(run: CheckRun): Verdict {
  const a = answerOf(run, 'sortUnlisted');
  if (unusable(a)) return none('callFailed', a);
  if (noCustomers(run, a)) return none('noCustomer', a);
  if (a!.status === 200) return answer('anyField');
  if (a!.status === 400) return answer('fixedList');
  return differs(a);
}

/**
 * Compares the certificate look-up of a serial with "/" (sent as %2F) with the same look-up
 * without one. notFound: a 404 where the plain look-up was not one, or an answer about the route
 * (it names the path) rather than the record. Otherwise the value reached the route, and the
 * server's messages tell how when they repeat it (decoded "/" or "%2F").
 */
function encodedSlash(run: CheckRun): Verdict {
  const slash = answerOf(run, 'encodedSlash');
  const plain = answerOf(run, 'certificateLookupMissing');
  if (unusable(slash) || unusable(plain)) return none('callFailed', slash);
  const slashText = bodyText(slash!);
  if (slash!.status === 404 && plain!.status !== 404) return answer('notFound');
  if (slash!.status === 404 && /\/Company\/Certificate\//i.test(slashText)) return answer('notFound');
  if (slashText.includes(SLASH_SERIAL)) return answer('decoded');
  if (slashText.toUpperCase().includes(SLASH_SERIAL.replace('/', '%2F'))) return answer('keptEncoded');
  if (slash!.status === 404 && bodyText(plain!).includes(UNKNOWN_SERIAL)) return answer('notFound');
  if (slash!.status === plain!.status) return none('cannotTell', slash);
  return differs(slash);
}

function operations(run: CheckRun): Verdict {
  const answers = (['documents', 'taxOffice', 'customerById'] as const).map((id) => answerOf(run, id)).filter((a): a is ProbeAnswer => a !== undefined);
  if (answers.length === 0 || answers.some(unusable)) return none('callFailed', answers.find(unusable));
  // An account without documents may answer their list with 404 (emptyList): the list says whether the operation is there.
  const documents = readListFindings(run).find((f) => f.operation === 'documents.list')?.availability;
  const present = (a: ProbeAnswer) => a.status === 200 || (a === answerOf(run, 'documents') && documents === 'offered');
  const ok = answers.filter(present).length;
  const missing = answers.filter((a) => a.status === 404 && !present(a)).length;
  if (ok === answers.length) return answer('all');
  if (missing === answers.length) return answer('olderExport');
  return differs(answers.find((a) => !present(a)), `${ok} of ${answers.length} operations the export lacks answered 200`);
}

/** What the check found about one of the lists that may answer 404 when empty (emptyList). */
export interface ListFinding {
  operation: EmptyListRead;
  /** Whether this server has the operation; undefined when the answers cannot tell. */
  availability?: ListAvailability;
  /** How it answered with nothing to list: the known answers, `other` (a 404 of another shape), `cannotTell`. */
  emptyAnswer?: 'notFound' | 'emptyArray' | 'bareNotFound' | 'other' | 'cannotTell';
  /** The list call it was read from. */
  answer?: ProbeAnswer;
}

/** The codes of the service's error body ({"Errors":[{"Code"…}]}), if it is one. */
function errorCodes(a: ProbeAnswer): number[] | undefined {
  const v = json(a) as { Errors?: unknown } | undefined;
  if (!v || typeof v !== 'object' || !Array.isArray(v.Errors)) return undefined;
  const codes = v.Errors.map((e: unknown) => Number((e as { Code?: unknown } | null)?.Code)).filter((c) => Number.isFinite(c));
  return codes.length ? codes : undefined;
}

function isEmptyAnswer(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  const page = value as { Content?: unknown; TotalCount?: unknown } | null;
  return typeof page === 'object' && page !== null && (page.Content === null || (Array.isArray(page.Content) && page.Content.length === 0)) && (page.TotalCount ?? 0) === 0;
}

/**
 * Per list: an answer (200, or a 404 with the service's own error body) shows the operation is there;
 * "API not found" (3030) that it is not. A bare 404 is told apart by the same GET with a made-up key:
 * a route that exists checks the key first (401/403), a missing one answers 404, provided a made-up
 * route with that key answers 404 too (a gateway that checks keys before routing answers 401 to all).
 */
export function readListFindings(run: CheckRun): ListFinding[] {
  const calibration = answerOf(run, 'unknownRouteWrongKey');
  return EMPTY_LIST_PROBES.map((p): ListFinding => {
    const a = answerOf(run, p.list);
    const finding: ListFinding = { operation: p.operation, ...(a ? { answer: a } : {}) };
    if (!a || unusable(a)) return finding;
    if (a.status === 200) return { ...finding, availability: 'offered', ...(isEmptyAnswer(json(a)) ? { emptyAnswer: 'emptyArray' as const } : {}) };
    if (a.status !== 404) return finding;
    const codes = errorCodes(a);
    if (codes?.includes(ROUTE_NOT_FOUND_CODE)) return { ...finding, availability: 'missing' };
    if (codes) return { ...finding, availability: 'offered', emptyAnswer: 'notFound' };
    const wrongKey = answerOf(run, p.wrongKey);
    if (calibration?.status !== 404 || !wrongKey) return { ...finding, emptyAnswer: 'cannotTell' };
    if (wrongKey.status === 401 || wrongKey.status === 403) return { ...finding, availability: 'offered', emptyAnswer: a.body.kind === 'empty' ? 'bareNotFound' : 'other' };
    if (wrongKey.status === 404) return { ...finding, availability: 'missing' };
    return { ...finding, emptyAnswer: 'cannotTell' };
  });
}

/** Behaviour point emptyList: how the lists that had nothing to list answered (all four are read; any empty one tells). */
function emptyList(run: CheckRun): Verdict {
  const findings = readListFindings(run);
  const empty = findings.filter((f) => f.emptyAnswer !== undefined);
  if (empty.length === 0) return findings.some((f) => f.availability) ? none('noEmptyList') : none('callFailed', findings[0]?.answer);
  const known = empty.filter((f) => f.emptyAnswer !== 'cannotTell');
  if (known.length === 0) return none('cannotTell', empty[0].answer);
  const other = known.find((f) => f.emptyAnswer === 'other');
  if (other) return differs(other.answer, "a 404 whose body is not the service's error");
  const seen = [...new Set(known.map((f) => f.emptyAnswer))];
  if (seen.length > 1) return differs(known[0].answer, `the empty lists answered differently (${seen.join(' / ')})`);
  return answer(seen[0]!);
}

/** Fields the schema allows to be null that the views show (names, values, tax numbers, content, totals). */
const WATCHED_FIELDS = new Set(['Name', 'Title', 'Value', 'TaxNumber', 'Content', 'Message', 'Subject', 'SerialNo', 'TotalCredit', 'UsedCredit', 'RemainingCredit']);
const PAGING_FIELDS = ['Page', 'PageSize', 'TotalCount', 'TotalPages'];

function findNulls(value: unknown, depth = 0): boolean {
  if (depth > 4 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => findNulls(v, depth + 1));
  return Object.entries(value).some(([k, v]) => (v === null && WATCHED_FIELDS.has(k)) || findNulls(v, depth + 1));
}

function nullableFields(run: CheckRun): Verdict {
  const read = (['company', 'credits', 'modules', 'certificates', 'identifications', 'alerts', 'campaigns', 'customersPage', 'pageSizeAbove'] as const).map((id) => answerOf(run, id)).filter((a): a is ProbeAnswer => !!a && a.status === 200 && a.body.kind === 'json');
  if (read.length === 0) return none('callFailed');
  if (read.some((a) => findNulls(json(a)))) return answer('nulls');
  for (const id of ['customersPage', 'pageSizeAbove'] as const) {
    const page = json(answerOf(run, id)) as Record<string, unknown> | null | undefined;
    if (page && typeof page === 'object' && !Array.isArray(page) && PAGING_FIELDS.some((f) => typeof page[f] !== 'number' || (page[f] as number) < 0)) return answer('nulls');
  }
  return answer('filled');
}

function pageBeyondEnd(run: CheckRun): Verdict {
  const a = answerOf(run, 'pageBeyondEnd');
  if (unusable(a)) return none('callFailed', a);
  if (noCustomers(run, a)) return none('noCustomer', a);
  if (a!.status === 404) return answer('notFound');
  const page = json(a) as { Page?: unknown; Content?: unknown } | undefined;
  if (a!.status !== 200 || !page || typeof page !== 'object' || Array.isArray(page)) return differs(a);
  const content = page.Content;
  if (content === null || content === undefined || (Array.isArray(content) && content.length === 0)) return answer('emptyContent');
  if (Array.isArray(content) && page.Page !== PAGE_BEYOND_END) return answer('lastPage');
  return differs(a, 'records on a page past the end');
}

function searchNoMatch(run: CheckRun): Verdict {
  const a = answerOf(run, 'searchNoMatch');
  if (unusable(a)) return none('callFailed', a);
  if (a!.status === 404) return answer('notFound');
  const value = json(a);
  if (a!.status === 200 && Array.isArray(value) && value.length === 0) return answer('emptyArray');
  return differs(a);
}

const DATE_LOCAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;
const DATE_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/;
const DATE_ANY = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;
/**
 * What the report may say about a date-like value that is neither form the profiles know: the form
 * of a real ISO date-time (digits as 9), else only that it is not a date. Never the value, nor any of
 * its text (a string that starts like a date may go on with a record's words).
 */
export function oddDateText(value: string): string {
  return isIsoDateTime(value) ? `date-times like ${value.replace(/\d/g, '9')}` : 'a value that starts like a date-time but is not a date (not shown)';
}

function collectDates(value: unknown, into: string[], depth = 0): void {
  if (depth > 5 || into.length > 200) return;
  if (typeof value === 'string') {
    if (DATE_ANY.test(value)) into.push(value);
  } else if (value && typeof value === 'object') for (const v of Object.values(value)) collectDates(v, into, depth + 1);
}

/** The form of the date-times in every answer read: all without offset, all with one, or neither. */
function dateFormat(run: CheckRun): Verdict {
  const dates: string[] = [];
  for (const r of run.results) if (r.id !== 'wrongKey' && r.answer?.status === 200) collectDates(json(r.answer), dates);
  if (dates.length === 0) return none('cannotTell');
  const local = (d: string) => DATE_LOCAL.test(d) && isIsoDateTime(d);
  const offset = (d: string) => DATE_OFFSET.test(d) && isIsoDateTime(d);
  if (dates.every(local)) return answer('local');
  if (dates.every(offset)) return answer('offset');
  const odd = dates.find((d) => !local(d) && !offset(d));
  // The form only (digits replaced) of a real date-time, never the date itself or any other text.
  return { kind: 'differs', seen: odd ? oddDateText(odd) : 'date-times with and without an offset' };
}

/** The reader of each row the check can observe (the others would need a write, which it never makes). */
const READERS: Partial<Record<PointId, (run: CheckRun) => Verdict>> = {
  registryLookupMissing,
  recordLookupMissing,
  bulkLookupMissing,
  badKeyStatus,
  pageSizeLimit,
  registryZipEncoding,
  sortColumns,
  encodedSlash,
  operations,
  nullableFields,
  pageBeyondEnd,
  dateFormat,
  searchNoMatch,
  emptyList,
};

function matchOf(point: PointId, verdict: Verdict): RowVerdict['match'] {
  if (verdict.kind === 'none') return 'unknown';
  if (verdict.kind === 'differs') return 'neither';
  const row = profileAnswers(point);
  if (verdict.answer === row.default && verdict.answer === row.alternate) return 'both';
  if (verdict.answer === row.default) return 'default';
  if (verdict.answer === row.alternate) return 'alternate';
  return 'neither';
}

/** One verdict per point of the behaviour table, in its order. */
export function readVerdicts(run: CheckRun): RowVerdict[] {
  return POINT_IDS.map((point) => {
    const reader = READERS[point];
    const verdict: Verdict = reader ? reader(run) : none('wouldWrite');
    return { point, verdict, match: matchOf(point, verdict) };
  });
}
