// Bulk helpers above the raw operations: many rows in batches, bounded concurrency, and a report
// per item of what succeeded, what failed and what has an unknown outcome.

import { NilveraApiError, type ApiMessage } from './errors';
import type { CallOptions } from './http';
import type { CustomersApi } from './areas/customers';
import type { RegistryApi } from './areas/registry';
import type { CustomerDto, GlobalCustomerAliasesResponse, GlobalUserType } from './types';
import { isAbsentBulkEntry } from './specSilent';
import { drain } from './pool';
import { retrying } from './retrying';

export type BulkRegistry = Pick<RegistryApi, 'infoBulk'>;

export interface BulkOptions extends CallOptions {
  /** Items per request (default 100 for customers, 50 for registry lookups). */
  batchSize?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Called after each request with the number of items settled so far. */
  onProgress?: (settled: number, total: number) => void;
}

function chunk<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

export interface CustomerRow {
  /** Position in the caller's input. */
  index: number;
  row: CustomerDto;
}

export interface RejectedCustomerRow extends CustomerRow {
  /** The server's messages for this row (422), or for its whole batch (other refusals). */
  messages: ApiMessage[];
  status?: number;
}

export interface UnknownCustomerRow extends CustomerRow {
  /** Why the outcome is unknown (network failure, timeout, 5xx, unreadable answer, cancel in flight). */
  error: NilveraApiError;
}

export interface CustomerImportReport {
  created: CustomerRow[];
  /** The server refused these; nothing was created for them. */
  rejected: RejectedCustomerRow[];
  /** The request may or may not have been applied: check (e.g. getByTaxNumber) before re-importing. */
  unknown: UnknownCustomerRow[];
  /** Never sent (cancelled, or stopped after a key/permission error). */
  notSent: CustomerRow[];
  requests: number;
}

/** Failures after which the server's answer cannot tell whether the rows were stored. */
const OUTCOME_UNKNOWN = new Set(['network', 'timeout', 'server', 'malformed', 'rateLimited', 'tooLarge']);
/**
 * Refusals of a batch that may name single rows (and, spec-silent, may have stored the others): 422,
 * 409, and 400, the only refusal the specification lists for creating customers (behaviour point
 * customerBatchStatus). Other 4xx (405, 413, 415…) refuse the request itself.
 */
function isRowRefusal(error: NilveraApiError): boolean {
  return error.kind === 'validation' || error.kind === 'conflict' || (error.kind === 'badRequest' && error.status === 400);
}
/** Times one row is sent before its outcome stays "unknown" (each resend follows a look-up). */
const MAX_SENDS = 6;
/** Look-ups in flight at once while a batch is resolved. */
const LOOKUP_CONCURRENCY = 8;
/**
 * Times one look-up is asked before its row waits for a later round. A read is safe to repeat, and
 * the HTTP layer does not repeat a 500 or an unreadable answer by itself.
 */
const LOOKUP_ATTEMPTS = 3;

interface PendingBatch {
  rows: CustomerRow[];
  /** Rounds these rows went through already (sends, and look-ups that failed). */
  sends: number;
  /** Rows whose look-up failed: look them up again before anything is sent (the error is the last one). */
  verify?: NilveraApiError;
}

/** `other`: a customer with the row's tax number exists, but not with the row's name: it was there before. */
type RowPresence = 'present' | 'absent' | 'other' | { error: NilveraApiError };

/** Names compared as the server may store them: trimmed, spaces collapsed, case folded (Turkish). */
function sameName(a: string, b: string): boolean {
  const fold = (s: string) => s.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('tr');
  return fold(a) === fold(b);
}

/**
 * Which rows exist on the server now (GET /Customers/GetCustomerInfo/{TaxNumber}, a read that is
 * safe to repeat). A row without a tax number cannot be looked up. A record under the row's tax
 * number with another name is not the row's (it existed before: a refusal that named no row may be
 * about it); a record without a name cannot be told apart and counts as the row's.
 */
async function presenceOf(customers: CustomersApi, rows: CustomerRow[], callOpts: CallOptions): Promise<Map<CustomerRow, RowPresence>> {
  const byTaxNumber = new Map<string, CustomerRow[]>();
  const out = new Map<CustomerRow, RowPresence>();
  for (const r of rows) {
    const tn = (r.row.TaxNumber ?? '').trim();
    if (!tn) out.set(r, { error: new NilveraApiError({ kind: 'badRequest', operation: 'customers.getByTaxNumber', messages: [{ description: 'the row has no tax number to look up' }] }) });
    else byTaxNumber.set(tn, [...(byTaxNumber.get(tn) ?? []), r]);
  }
  const numbers = [...byTaxNumber.keys()];
  await drain(numbers, LOOKUP_CONCURRENCY, async (tn) => {
    let found: { Name?: string | null } | undefined;
    let failed: RowPresence | undefined;
    try {
      found = await retrying(() => customers.getByTaxNumber(tn, callOpts), {
        retriable: (err) => err instanceof NilveraApiError && OUTCOME_UNKNOWN.has(err.kind) && !callOpts.signal?.aborted,
        waitMs: (attempt) => (attempt < LOOKUP_ATTEMPTS ? 0 : undefined),
      });
    } catch (err) {
      if (!(err instanceof NilveraApiError)) throw err;
      failed = err.kind === 'notFound' ? 'absent' : { error: err };
    }
    for (const r of byTaxNumber.get(tn) ?? []) {
      const storedName = found?.Name?.trim();
      out.set(r, failed ?? (storedName && r.row.Name?.trim() && !sameName(storedName, r.row.Name) ? 'other' : 'present'));
    }
  });
  return out;
}

/** A position in the sent array: "index 3", or a property path such as `[3].TaxNumber` (a model-validation message). */
const ROW_INDEX = /\bindex\s+(\d+)\b/i;
const ROW_PATH = /(?:^|[\s$:'"(\w])\[(\d+)\](?=\.|:|'|\s|$)/;
/** The position part of a path at the start of a message ("[3].", "$[3].", "'x[3]."): it means nothing outside the batch. */
const LEADING_POSITION = /^(\s*'?)(?:\$|\w+)?\[\d+\]\.?/;

/**
 * The rows a 400/422/409 names, by the positions ("index 3", "[3].TaxNumber") or tax numbers its
 * messages quote, each with the messages about it. Empty when the answer names no row.
 */
function rowsNamed(rows: CustomerRow[], messages: ApiMessage[]): Map<CustomerRow, ApiMessage[]> {
  const named = new Map<CustomerRow, ApiMessage[]>();
  const add = (r: CustomerRow, m: ApiMessage) => named.set(r, [...(named.get(r) ?? []), m]);
  for (const m of messages) {
    const text = `${m.description} ${m.detail ?? ''}`;
    const index = ROW_INDEX.exec(text);
    if (index && rows[Number(index[1])]) {
      add(rows[Number(index[1])], m);
      continue;
    }
    const path = ROW_PATH.exec(text);
    if (path && rows[Number(path[1])]) {
      add(rows[Number(path[1])], { ...m, description: m.description.replace(LEADING_POSITION, '$1') });
      continue;
    }
    for (const r of rows) {
      const tn = (r.row.TaxNumber ?? '').trim();
      if (tn && text.includes(tn)) add(r, m);
    }
  }
  return named;
}

/**
 * Creates many customers in batches (POST /Customers), and reports each row exactly once as created,
 * rejected, unknown or not sent. Two things the specification leaves open are resolved by asking the
 * server which rows exist (GET /Customers/GetCustomerInfo/{TaxNumber}) before anything is sent again:
 *  - a batch refused with 400/422/409 may have stored its good rows or none of them (behaviour point
 *    customerBatchBadRow): rows that exist now and that the answer does not name were created; named
 *    rows are rejected with the messages about them; the rest are sent again as a new batch (halved
 *    when the answer named nobody, so a bad row ends up alone and gets its own reason);
 *  - a batch whose answer was lost (connection broken, time limit, 5xx, unreadable answer) may or may
 *    not have been stored: rows that exist now count as created, absent rows are sent again (safe,
 *    since they were checked; after MAX_SENDS lost answers they are rejected as not stored), and only
 *    rows whose look-up also keeps failing stay "unknown".
 * A customer that exists under a row's tax number with another name existed before: the row is sent
 * again alone, and the server's answer about it is its outcome. Limit: a row whose tax number
 * already existed before the import under the same name (or no name) counts as created; the
 * server's records are right either way (nothing doubled, nothing lost).
 */
export async function createCustomersInBatches(customers: CustomersApi, rows: CustomerDto[], options: BulkOptions = {}): Promise<CustomerImportReport> {
  const run = new CustomerImport(customers, rows.length, options);
  const batches = chunk(
    rows.map((row, index) => ({ index, row })),
    Math.max(1, options.batchSize ?? 100),
  );
  await drain<PendingBatch>(
    batches.map((b) => ({ rows: b, sends: 0 })),
    Math.max(1, options.concurrency ?? 4),
    (batch, queue) => run.take(batch, queue),
  );
  return run.finish();
}

/** One import's state: the report so far, the progress count, and whether a key error stopped it. */
class CustomerImport {
  private readonly report: CustomerImportReport = { created: [], rejected: [], unknown: [], notSent: [], requests: 0 };
  private readonly callOpts: CallOptions;
  private settled = 0;
  private stopped = false;

  constructor(
    private readonly customers: CustomersApi,
    private readonly total: number,
    private readonly options: BulkOptions,
  ) {
    this.callOpts = { signal: options.signal, timeoutMs: options.timeoutMs };
  }

  /** Every row settled, in input order. */
  finish(): CustomerImportReport {
    for (const list of [this.report.created, this.report.rejected, this.report.unknown, this.report.notSent]) list.sort((a, b) => a.index - b.index);
    return this.report;
  }

  /** The queue's worker: sends a batch (or looks it up again first) and settles or requeues its rows. */
  async take(batch: PendingBatch, queue: PendingBatch[]): Promise<void> {
    if (this.stopped || this.options.signal?.aborted) {
      this.report.notSent.push(...batch.rows);
      return this.settle(batch.rows.length);
    }
    if (batch.verify) return this.resolve(batch, batch.verify, false, queue);
    this.report.requests++;
    try {
      await this.customers.create(batch.rows.map((b) => b.row), this.callOpts);
    } catch (err) {
      if (!(err instanceof NilveraApiError)) throw err;
      return this.failed(batch, err, queue);
    }
    this.created(batch.rows);
  }

  /** A send that failed: what the error tells about its rows. */
  private failed(batch: PendingBatch, error: NilveraApiError, queue: PendingBatch[]): Promise<void> | void {
    // Cancelled while the request was under way: it may have been stored; nothing more is asked.
    if (error.kind === 'cancelled') return this.unknown(batch.rows, error);
    // Every further request would get the same answer for a bad or under-permitted key.
    if (error.kind === 'auth' || error.kind === 'forbidden') this.stopped = true;
    const refusal = isRowRefusal(error);
    if (!refusal && !OUTCOME_UNKNOWN.has(error.kind)) {
      // Other refusals of the whole request (and key errors): nothing was stored.
      for (const r of batch.rows) this.rejected(r, error.messages, error.status);
      return;
    }
    // A lone row refused on its first send: nothing of it was stored (after a lost answer, look it
    // up). Its reason: the messages about it when the answer names it, else all of them.
    if (refusal && batch.rows.length === 1 && batch.sends === 0) {
      const row = batch.rows[0];
      return this.rejected(row, rowsNamed(batch.rows, error.messages).get(row) ?? error.messages, error.status);
    }
    // Only lost answers count towards MAX_SENDS: a refusal always narrows the rows down.
    const sends = OUTCOME_UNKNOWN.has(error.kind) ? batch.sends + 1 : batch.sends;
    return this.resolve({ rows: batch.rows, sends }, error, refusal, queue);
  }

  /** Looks the rows up, settles what the answer tells, and queues the rest (see createCustomersInBatches). */
  private async resolve(batch: PendingBatch, error: NilveraApiError, refusal: boolean, queue: PendingBatch[]): Promise<void> {
    if (this.options.signal?.aborted) return this.unknown(batch.rows, error);
    this.report.requests += new Set(batch.rows.map((r) => r.row.TaxNumber)).size;
    const presence = await presenceOf(this.customers, batch.rows, this.callOpts);
    const named = refusal ? rowsNamed(batch.rows, error.messages) : new Map<CustomerRow, ApiMessage[]>();
    const again: CustomerRow[] = [];
    const recheck: CustomerRow[] = [];
    let lookupError: NilveraApiError | undefined;
    for (const r of batch.rows) {
      const p = presence.get(r) as RowPresence;
      const aboutRow = named.get(r);
      // A named row that exists after an earlier send of ours whose answer was lost is ours: the
      // refusal only says the earlier request had stored it.
      if (aboutRow && !(p === 'present' && batch.sends > 0)) this.rejected(r, aboutRow, error.status);
      else if (p === 'present') this.created([r]);
      // A lone row refused and not stored: the refusal is its answer (sending it again would get the same).
      else if (refusal && batch.rows.length === 1 && (p === 'absent' || p === 'other')) this.rejected(r, error.messages, error.status);
      else if (p === 'absent') again.push(r);
      // Someone else's record under this tax number: sent again alone, the server says what it makes of it.
      else if (p === 'other') this.sendAgain([r], batch.sends, error, queue);
      else if (!(r.row.TaxNumber ?? '').trim()) this.unknown([r], error);
      else {
        recheck.push(r);
        lookupError = p.error;
      }
    }
    if (recheck.length) {
      // The look-up failed too: ask again in a later round, never send blind.
      if (batch.sends + 1 >= MAX_SENDS) this.unknown(recheck, lookupError ?? error);
      else queue.push({ rows: recheck, sends: batch.sends + 1, verify: error });
    }
    // After a refusal that named nobody, halve so a bad row ends up alone; else resend them together.
    const half = refusal && named.size === 0 && again.length > 1 ? Math.ceil(again.length / 2) : again.length;
    this.sendAgain(again.slice(half), batch.sends, error, queue);
    this.sendAgain(again.slice(0, half), batch.sends, error, queue);
  }

  /**
   * Puts rows that a look-up has just found absent at the front of the queue. Once they were sent
   * MAX_SENDS times they stop there, and since the look-up answered that none of them is stored,
   * they are rejected (not stored, the server's last failure as the reason), never "unknown": only a
   * row whose look-up keeps failing stays unconfirmed (README row 3b).
   */
  private sendAgain(rows: CustomerRow[], sends: number, error: NilveraApiError, queue: PendingBatch[]): void {
    if (rows.length === 0) return;
    if (sends < MAX_SENDS) {
      queue.unshift({ rows, sends });
      return;
    }
    const gaveUp: ApiMessage = { description: `not stored: the server failed this row's ${sends} sends (the look-up found no record of it); import it again later` };
    for (const r of rows) this.rejected(r, [gaveUp, ...error.messages], error.status);
  }

  private settle(n: number): void {
    this.settled += n;
    this.options.onProgress?.(this.settled, this.total);
  }

  private created(rows: CustomerRow[]): void {
    this.report.created.push(...rows);
    this.settle(rows.length);
  }

  private unknown(rows: CustomerRow[], error: NilveraApiError): void {
    this.report.unknown.push(...rows.map((r) => ({ ...r, error })));
    this.settle(rows.length);
  }

  private rejected(r: CustomerRow, messages: ApiMessage[], status: number | undefined): void {
    this.report.rejected.push({ ...r, messages, ...(status !== undefined ? { status } : {}) });
    this.settle(1);
  }
}

export interface RegistryLookupReport {
  /** Registered taxpayers, by tax number. */
  found: Map<string, GlobalCustomerAliasesResponse>;
  /** Looked up successfully but not in the registry. */
  notRegistered: string[];
  /** Batches whose lookup failed; the numbers can be looked up again. */
  failed: Array<{ taxNumbers: string[]; error: NilveraApiError }>;
  requests: number;
}

/**
 * One bulk request. Entries that stand for "not registered" (left out, empty aliases, `null`: see
 * specSilent.ts) count as not registered. An entry whose TaxNumber is missing (nullable in the
 * schema) cannot be matched by number: when the answer has one entry per number asked, its position
 * tells; otherwise the unmatched numbers are asked again one at a time, where the single entry is theirs.
 */
async function lookupBatch(
  registry: BulkRegistry,
  batch: string[],
  userType: GlobalUserType | undefined,
  callOpts: CallOptions,
  report: RegistryLookupReport,
): Promise<void> {
  report.requests++;
  const answer = await registry.infoBulk(batch, userType, callOpts);
  const results: Array<GlobalCustomerAliasesResponse | null> = Array.isArray(answer) ? answer : [];
  const asked = new Set(batch);
  const settledHere = new Set<string>();
  let unnamed = false;
  results.forEach((entry, i) => {
    const named = entry && typeof entry === 'object' && typeof entry.TaxNumber === 'string' && asked.has(entry.TaxNumber.trim()) ? entry.TaxNumber.trim() : undefined;
    const taxNumber = named ?? (results.length === batch.length ? batch[i] : undefined);
    if (taxNumber === undefined) {
      if (!isAbsentBulkEntry(entry)) unnamed = true;
      return;
    }
    settledHere.add(taxNumber);
    if (!isAbsentBulkEntry(entry)) report.found.set(taxNumber, { ...(entry as GlobalCustomerAliasesResponse), TaxNumber: taxNumber });
  });
  for (const t of batch) {
    if (report.found.has(t) || settledHere.has(t)) continue;
    if (unnamed && batch.length > 1) {
      await lookupBatch(registry, [t], userType, callOpts, report);
      continue;
    }
    report.notRegistered.push(t);
  }
  for (const t of settledHere) if (!report.found.has(t) && !report.notRegistered.includes(t)) report.notRegistered.push(t);
}

/**
 * Looks up many tax numbers with POST /GlobalCompany/GetGlobalCustomerInfo in batches (duplicates
 * are asked once). Failed batches are reported, not repeated: the caller decides.
 */
export async function lookupRegistryInBatches(
  registry: BulkRegistry,
  taxNumbers: string[],
  options: BulkOptions & { userType?: GlobalUserType } = {},
): Promise<RegistryLookupReport> {
  const unique = [...new Set(taxNumbers)];
  const report: RegistryLookupReport = { found: new Map(), notRegistered: [], failed: [], requests: 0 };
  const batches = chunk(unique, Math.max(1, options.batchSize ?? 50));
  let settled = 0;
  const callOpts: CallOptions = { signal: options.signal, timeoutMs: options.timeoutMs };
  await drain(batches, Math.max(1, options.concurrency ?? 4), async (batch) => {
    if (options.signal?.aborted) {
      report.failed.push({ taxNumbers: batch, error: new NilveraApiError({ kind: 'cancelled', operation: 'registry.infoBulk' }) });
    } else {
      try {
        await lookupBatch(registry, batch, options.userType, callOpts, report);
      } catch (err) {
        if (!(err instanceof NilveraApiError)) throw err;
        report.failed.push({ taxNumbers: batch, error: err });
      }
    }
    settled += batch.length;
    options.onProgress?.(settled, unique.length);
  });
  return report;
}
