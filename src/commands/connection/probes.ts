// The read-only calls Check Connection makes, in order, and what each found. Plain Node. Never a write:
// every request is a GET, except the bulk registry look-up, a POST that only reads. Each is one raw
// exchange, not the API client's (which turns a 404 into an error and retries a 503): the check wants
// exactly what the server said, once. Values found on the way (the company's tax number, a customer ID)
// only build the next calls; the report shows path templates and answer shapes, never those values.
import { randomBytes } from 'node:crypto';
import { loadNodeFetch, type FetchLike } from '../../api/http';
import { buildQuery, operationPath, type QueryValue } from '../../api/paths';
import { fetchWithinOrigin, hopInit } from '../../api/redirects';
import { completeVkn } from '../../domain/taxId';
import { isPlainRead, OPERATION_IDS, OPERATIONS, type OperationId, type PlainReadId, type ReadOperationId } from '../../api/operations';

export interface ProbeTarget {
  /** Host root without /general. */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** A fetch to use instead of node-fetch (tests record the exchanges with it). */
  fetch?: FetchLike;
  /** Told about every exchange: method, the path *template* (no tax numbers or IDs), status, time. */
  log?: (method: string, pathTemplate: string, status: number | undefined, ms: number) => void;
}

export interface ProbeRequest {
  method: 'GET' | 'POST';
  /** The encoded path sent, from the host root. */
  path: string;
  /** The path as the report and the log show it, e.g. `/general/Customers/{ID}`. */
  template: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** A POST is sent only when it is a look-up that changes nothing (the bulk registry look-up). */
  readOnlyPost?: true;
  /** Another key than the target's (the wrong-key probe's generated fake). */
  key?: string;
  /** Stop reading (and abort) after this many bytes; default 256 KB. */
  maxBytes?: number;
  headers?: Record<string, string>;
}

export type ProbeBody =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'binary'; head: Uint8Array };

export interface ProbeAnswer {
  /** Undefined when no answer came (network failure, time limit). */
  status?: number;
  ms: number;
  contentType?: string;
  /** Bytes read (at most maxBytes). */
  bytes: number;
  /** Reading stopped at maxBytes: the answer is longer. */
  truncated: boolean;
  body: ProbeBody;
  /** Why no answer came: a short reason (an error code), never a URL. */
  failure?: string;
}

const DEFAULT_MAX_BYTES = 256 * 1024;

function failureReason(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown }; type?: unknown };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return typeof e?.type === 'string' ? e.type : 'connection failed';
}

function looksBinary(bytes: Uint8Array, contentType: string | undefined): boolean {
  if (contentType && /zip|octet-stream/i.test(contentType)) return true;
  if (bytes.subarray(0, 512).includes(0)) return true;
  return bytes.length >= 2 && bytes[0] === 0x50 && bytes[1] === 0x4b; // "PK": a ZIP
}

function parseBody(bytes: Uint8Array, truncated: boolean, contentType: string | undefined): ProbeBody {
  if (bytes.length === 0) return { kind: 'empty' };
  if (looksBinary(bytes, contentType)) return { kind: 'binary', head: bytes.slice(0, 64) };
  const text = Buffer.from(bytes).toString('utf8');
  if (text.trim() === '') return { kind: 'empty' };
  if (!truncated) {
    try {
      return { kind: 'json', value: JSON.parse(text) };
    } catch {
      // Not JSON: kept as text (its shape in the report is its type and length, never the text).
    }
  }
  return { kind: 'text', text };
}

/** Sends one read-only request and reads at most maxBytes of the answer. */
export async function sendProbe(target: ProbeTarget, request: ProbeRequest, signal: AbortSignal): Promise<ProbeAnswer> {
  if (request.method !== 'GET' && !(request.method === 'POST' && request.readOnlyPost)) {
    throw new Error(`Check Connection sends only read-only requests, not ${request.method} ${request.template}`);
  }
  // Cancelled: the signal's AbortError, which the command runner ends silently.
  signal.throwIfAborted();
  const fetchFn = target.fetch ?? (await loadNodeFetch());
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, target.timeoutMs);
  const started = performance.now();
  const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const headers = { Authorization: `Bearer ${request.key ?? target.apiKey}`, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...request.headers };
  let status: number | undefined;
  let contentType: string | undefined;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let truncated = false;
  let failure: string | undefined;
  try {
    // Redirects only within the target's origin: the key never goes elsewhere (api/redirects.ts).
    const url = target.baseUrl.replace(/\/+$/, '') + request.path + buildQuery(request.query);
    const response = await fetchWithinOrigin(fetchFn, url, hopInit(request.method, headers, body, controller.signal));
    status = response.status;
    contentType = response.headers.get('content-type') ?? undefined;
    if (response.body) {
      for await (const chunk of response.body) {
        const room = maxBytes - bytes;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        bytes += Math.min(chunk.length, room);
        if (chunk.length >= room) {
          // Enough seen: stop the download (the registry list is megabytes).
          truncated = true;
          controller.abort();
          break;
        }
      }
    }
  } catch (err) {
    signal.throwIfAborted();
    if (!truncated) failure = timedOut ? 'timeout' : failureReason(err);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
  const ms = Math.round(performance.now() - started);
  try {
    target.log?.(request.method, request.template, status, ms);
  } catch {
    // A failing logger must not fail the check.
  }
  const all = Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
  return {
    ...(status !== undefined ? { status } : {}),
    ms,
    ...(contentType ? { contentType } : {}),
    bytes,
    truncated,
    body: parseBody(all, truncated, contentType),
    ...(failure ? { failure } : {}),
  };
}

/** A plain read's own GET, made for a plain read without a decision in PROBE_DECISIONS. */
type PlainReadProbeId = `read:${PlainReadId}`;

/** Every call the check can make: a step of the plan, or the search for an unregistered tax number. */
export type ProbeId = keyof ReturnType<typeof plan> | 'findUnregistered' | PlainReadProbeId;

type SkipReason = 'noCompanyTaxNumber' | 'noUnregisteredNumber' | 'noCustomer';

export interface ProbeResult {
  id: ProbeId;
  method: 'GET' | 'POST';
  /** The path as shown: values replaced by `{…}` names. */
  template: string;
  /** The query as shown (no values from the account). */
  query?: string;
  answer?: ProbeAnswer;
  /** Why the call was not made (a value it needs was not found). */
  skipped?: SkipReason;
}

export interface ProbeFacts {
  /** The company's own tax number (from GET /Company); never reported. */
  ownTaxNumber?: string;
  /** A valid VKN the registry check answered [] for. */
  unregistered?: string;
  /** The first customer's ID (for GET /Customers/{ID}). */
  customerId?: number;
  /** The list calls that answered 404 (an empty list, or no such operation here). */
  listsNotFound?: Set<string>;
}

export interface CheckRun {
  results: ProbeResult[];
  facts: ProbeFacts;
}

/** Page size sent to see the limit: one above the documented 100. */
export const PAGE_SIZE_ABOVE_LIMIT = 101;
/** A customer field the documentation never names as a sort column (it names Name). */
export const UNLISTED_SORT_COLUMN = 'PostalCode';
export const UNKNOWN_SORT_COLUMN = 'NilveraCheckNoSuchColumn';
/** A certificate serial number no account has, with and without an encoded slash. */
export const UNKNOWN_SERIAL = 'NILVERA-CHECK-0000';
export const SLASH_SERIAL = 'NILVERA-CHECK/0000';
/** First bytes read of the registry list (it is megabytes). */
export const REGISTRY_HEAD_BYTES = 1024;
/** A page number past the end of any real customer list. */
export const PAGE_BEYOND_END = 1_000_000;
/** A customer search text no record holds. */
export const NO_MATCH_TEXT = 'NILVERA-CHECK-NO-MATCH-7Q';

/**
 * Candidates for "a valid but unregistered tax number": checksum-valid VKNs in a range unlikely to
 * be issued. Each is checked with GET GlobalCompany/Check/TaxNumber first (an empty list = not
 * registered); the first unregistered one is used.
 */
export const UNREGISTERED_CANDIDATES: readonly string[] = ['000000001', '000000002', '000000003'].map(completeVkn);

export interface RunOptions {
  signal: AbortSignal;
  /** Called before each call, with how many are done and the total planned. */
  onProgress?: (done: number, total: number, template: string) => void;
}

interface Planned {
  /** Made only when this holds (else neither called nor listed). */
  when?: (facts: ProbeFacts) => boolean;
  request: (facts: ProbeFacts) => ProbeRequest | SkipReason;
  /** The path shown when the call is skipped. */
  skipTemplate?: string;
  /** Stores what later calls need. */
  learn?: (answer: ProbeAnswer, facts: ProbeFacts) => void;
}

const get = (path: string, template = path, query?: ProbeRequest['query']): ProbeRequest => ({ method: 'GET', path, template, ...(query ? { query } : {}) });
/** An operation's path as the report shows it: each `{Name}` filled with `values` as written (not encoded), or left. */
const shownPath = (id: OperationId, values: Record<string, string> = {}) => OPERATIONS[id].path.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);
/** The GET of operation `id` with `values` in its path, shown with `shown` in place of them. */
const getOperation = (id: OperationId, values: Record<string, string | number>, shown = values as Record<string, string>) => get(operationPath(id, values), shownPath(id, shown));
/** The plain GET of a plain read, its path from the table of operations. */
const plain = (id: PlainReadId): Planned => ({ request: () => get(OPERATIONS[id].path) });

function jsonObject(answer: ProbeAnswer): Record<string, unknown> | undefined {
  if (answer.status !== 200 || answer.body.kind !== 'json') return undefined;
  const v = answer.body.value;
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The lists that may answer 404 when they are empty, each with its wrong-key call. */
export const EMPTY_LIST_PROBES = [
  { list: 'certificates', wrongKey: 'certificatesWrongKey', operation: 'certificates.list' },
  { list: 'identifications', wrongKey: 'identificationsWrongKey', operation: 'identifications.list' },
  { list: 'documents', wrongKey: 'documentsWrongKey', operation: 'documents.list' },
  { list: 'customersPage', wrongKey: 'customersWrongKey', operation: 'customers.list' },
] as const;

const COMPANY = OPERATIONS['company.get'].path;
const UNREGISTERED = { TaxNumber: '{unregistered VKN}' };

function plan(realKey: string) {
  // A key of the platform's shape (64 hex digits) made from random bytes: no relation to the real key.
  let fakeKey = realKey;
  while (fakeKey.toUpperCase() === realKey.toUpperCase()) fakeKey = randomBytes(32).toString('hex').toUpperCase();
  const customers = (query: ProbeRequest['query']) => get(OPERATIONS['customers.list'].path, undefined, query);
  const sorted = (column: string) => customers({ Page: 1, PageSize: 1, SortColumn: column, SortType: 'ASC' });
  /** The same GET of a list with the made-up key, made only when the list answered 404. */
  const listWithFakeKey = ({ list, operation }: (typeof EMPTY_LIST_PROBES)[number]): Planned => ({
    when: (f) => f.listsNotFound?.has(list) === true,
    request: () => ({ ...get(OPERATIONS[operation].path, undefined, list === 'customersPage' ? { Page: 1, PageSize: 1 } : undefined), key: fakeKey }),
  });
  return {
    company: {
      request: () => get(COMPANY),
      learn: (a, f) => {
        const tn = jsonObject(a)?.TaxNumber;
        if (typeof tn === 'string' && /^\d{10,11}$/.test(tn)) f.ownTaxNumber = tn;
      },
    },
    credits: plain('account.credits'),
    modules: plain('company.modules'),
    certificates: plain('certificates.list'),
    identifications: plain('identifications.list'),
    alerts: plain('account.alerts'),
    campaigns: plain('account.campaigns'),
    mailing: plain('mailing.settings'),
    exchangeRate: plain('account.exchangeRate'),
    customersPage: {
      request: () => customers({ Page: 1, PageSize: 1 }),
      learn: (a, f) => {
        const content = jsonObject(a)?.Content;
        const first = Array.isArray(content) ? (content[0] as { ID?: unknown } | undefined) : undefined;
        if (first && typeof first.ID === 'number') f.customerId = first.ID;
      },
    },
    pageSizeAbove: { request: () => customers({ Page: 1, PageSize: PAGE_SIZE_ABOVE_LIMIT }) },
    sortUnlisted: { request: () => sorted(UNLISTED_SORT_COLUMN) },
    sortUnknown: { request: () => sorted(UNKNOWN_SORT_COLUMN) },
    pageBeyondEnd: { request: () => customers({ Page: PAGE_BEYOND_END, PageSize: 1 }) },
    searchNoMatch: { request: () => getOperation('customers.search', { searchText: NO_MATCH_TEXT }) },
    // findUnregistered is run by runChecks itself (it may try several candidates).
    registryLookupMissing: lookUpUnregistered('registry.info'),
    customerLookupMissing: lookUpUnregistered('customers.getByTaxNumber'),
    certificateLookupMissing: { request: () => getOperation('certificates.get', { SerialNumber: UNKNOWN_SERIAL }) },
    // The path encodes "/" as %2F.
    encodedSlash: { request: () => get(operationPath('certificates.get', { SerialNumber: SLASH_SERIAL })) },
    bulkLookup: {
      skipTemplate: OPERATIONS['registry.infoBulk'].path,
      request: (f) => {
        if (!f.unregistered) return 'noUnregisteredNumber';
        if (!f.ownTaxNumber) return 'noCompanyTaxNumber';
        return { ...get(OPERATIONS['registry.infoBulk'].path, undefined, { globalUserType: 'Invoice' }), method: 'POST', readOnlyPost: true, body: [f.unregistered, f.ownTaxNumber] };
      },
    },
    registryList: {
      request: () => ({ ...get(operationPath('registry.downloadList', { AliasType: 'PK', GlobalUserType: 'Invoice' })), maxBytes: REGISTRY_HEAD_BYTES, headers: { Range: `bytes=0-${REGISTRY_HEAD_BYTES - 1}` } }),
    },
    wrongKey: { request: () => ({ ...get(COMPANY), key: fakeKey }) },
    documents: plain('documents.list'),
    taxOffice: plain('taxOffice.get'),
    customerById: {
      skipTemplate: shownPath('customers.get'),
      request: (f) => (f.customerId !== undefined ? getOperation('customers.get', { ID: f.customerId }, {}) : 'noCustomer'),
    },
    unknownRoute: { request: () => get('/general/NilveraCheckNoSuchOperation') },
    // Only when a list answered 404: the same GET with a made-up key (a route that exists answers
    // 401/403, a missing one 404), and a made-up route with it (that this server tells them apart).
    unknownRouteWrongKey: {
      when: (f) => (f.listsNotFound?.size ?? 0) > 0,
      request: () => ({ ...get('/general/NilveraCheckNoSuchOperation'), key: fakeKey }),
    },
    ...(Object.fromEntries(EMPTY_LIST_PROBES.map((p) => [p.wrongKey, listWithFakeKey(p)])) as Record<(typeof EMPTY_LIST_PROBES)[number]['wrongKey'], Planned>),
  } satisfies Record<string, Planned>;
}

/** A look-up of the unregistered tax number runChecks found (skipped when none was). */
function lookUpUnregistered(id: 'registry.info' | 'customers.getByTaxNumber'): Planned {
  return {
    skipTemplate: shownPath(id, UNREGISTERED),
    request: (f) => (f.unregistered ? getOperation(id, { TaxNumber: f.unregistered }, UNREGISTERED) : 'noUnregisteredNumber'),
  };
}

function resultOf(id: ProbeId, request: ProbeRequest, answer: ProbeAnswer): ProbeResult {
  // The query as the report shows it; only the check's own values are in it.
  const query = Object.entries(request.query ?? {})
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('&');
  return { id, method: request.method, template: request.template, ...(query ? { query } : {}), answer };
}

/** Runs every call in order; throws the signal's AbortError when it fires. */
export async function runChecks(target: ProbeTarget, options: RunOptions): Promise<CheckRun> {
  const facts: ProbeFacts = {};
  const results: ProbeResult[] = [];
  const steps: Partial<Record<ProbeId, Planned>> = { ...plan(target.apiKey), ...plainReadProbes() };
  const total = Object.keys(steps).length + 1;
  let done = 0;
  const send = async (request: ProbeRequest) => {
    options.onProgress?.(done, total, request.template);
    const answer = await sendProbe(target, request, options.signal);
    done++;
    return answer;
  };
  for (const [id, step] of Object.entries(steps) as Array<[ProbeId, Planned]>) {
    if (step.when && !step.when(facts)) {
      done++;
      continue;
    }
    if (id === 'registryLookupMissing') {
      // Before the look-ups: find a valid VKN the registry does not have.
      let last: { request: ProbeRequest; answer: ProbeAnswer } | undefined;
      for (const candidate of UNREGISTERED_CANDIDATES) {
        const request = getOperation('registry.checkTaxNumber', { TaxNumber: candidate }, UNREGISTERED);
        const answer = await send(request);
        last = { request, answer };
        if (answer.status === 200 && answer.body.kind === 'json' && Array.isArray(answer.body.value) && answer.body.value.length === 0) {
          facts.unregistered = candidate;
          break;
        }
        if (answer.status !== 200) break; // the check itself is not available: trying more changes nothing
      }
      if (last) results.push(resultOf('findUnregistered', last.request, last.answer));
    }
    const request = step.request(facts);
    if (typeof request === 'string') {
      results.push({ id, method: id === 'bulkLookup' ? 'POST' : 'GET', template: step.skipTemplate ?? '', skipped: request });
      done++;
      continue;
    }
    const answer = await send(request);
    step.learn?.(answer, facts);
    // Remembered for the wrong-key calls at the end of the plan.
    if (answer.status === 404 && EMPTY_LIST_PROBES.some((p) => p.list === id)) (facts.listsNotFound ??= new Set()).add(id);
    results.push(resultOf(id, request, answer));
  }
  options.onProgress?.(total, total, '');
  return { results, facts };
}

export type ProbeDecision = { probes: readonly ProbeId[] } | { notProbed: string };

/**
 * For the operations of src/api/operations.ts that change nothing: the calls above that make it, or
 * why the check leaves it out. A plain read (a GET of a fixed path) without an entry is called once as
 * it is (probeDecision); any other read operation added to the table without a decision here fails
 * the type check and test/unit/commands/connection/probeDecisions.test.ts.
 */
export const PROBE_DECISIONS: Record<Exclude<ReadOperationId, PlainReadId>, ProbeDecision> & Partial<Record<PlainReadId, ProbeDecision>> = {
  'account.alerts': { probes: ['alerts'] },
  'account.campaigns': { probes: ['campaigns'] },
  'account.credits': { probes: ['credits'] },
  'account.exchangeRate': { probes: ['exchangeRate'] },
  'company.get': { probes: ['company', 'wrongKey'] },
  'company.modules': { probes: ['modules'] },
  'company.list': { notProbed: 'its answer depends on the user, not on a point where the specification is silent' },
  'certificates.list': { probes: ['certificates', 'certificatesWrongKey'] },
  'certificates.get': { probes: ['certificateLookupMissing', 'encodedSlash'] },
  'documents.list': { probes: ['documents', 'documentsWrongKey'] },
  'identifications.list': { probes: ['identifications', 'identificationsWrongKey'] },
  'mailing.settings': { probes: ['mailing'] },
  'taxOffice.get': { probes: ['taxOffice'] },
  'customers.list': { probes: ['customersPage', 'pageSizeAbove', 'sortUnlisted', 'sortUnknown', 'pageBeyondEnd', 'customersWrongKey'] },
  'customers.get': { probes: ['customerById'] },
  'customers.search': { probes: ['searchNoMatch'] },
  'customers.getByTaxNumber': { probes: ['customerLookupMissing'] },
  'registry.list': { notProbed: 'its paging is the customer list\'s, which customersPage and pageBeyondEnd see' },
  'registry.search': { notProbed: 'a search with no match is seen on the customer search (searchNoMatch)' },
  'registry.info': { probes: ['registryLookupMissing'] },
  'registry.infoBulk': { probes: ['bulkLookup'] },
  'registry.checkTaxNumber': { probes: ['findUnregistered'] },
  'registry.checkName': { notProbed: 'it answers rows like Check/TaxNumber, which findUnregistered sees' },
  'registry.downloadList': { probes: ['registryList'] },
};

/** The decision for read operation `id`: its entry in PROBE_DECISIONS, or for a plain read its own GET. */
export function probeDecision(id: ReadOperationId): ProbeDecision | undefined {
  const decided = (PROBE_DECISIONS as Partial<Record<ReadOperationId, ProbeDecision>>)[id];
  return decided ?? (isPlainRead(id) ? { probes: [`read:${id}`] } : undefined);
}

/** One GET of each plain read that has no decision of its own, at the end of the plan. */
function plainReadProbes(): Partial<Record<PlainReadProbeId, Planned>> {
  return Object.fromEntries(OPERATION_IDS.filter(isPlainRead).filter((id) => !(id in PROBE_DECISIONS)).map((id) => [`read:${id}`, plain(id)]));
}
