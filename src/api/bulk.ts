// Bulk helpers above the raw operations: many rows in batches, bounded concurrency, and a report
// per item of what succeeded, what failed and what has an unknown outcome.

import { NilveraApiError } from './errors';
import type { ApiMessage } from './errors';
import type { CallOptions } from './http';
import type { CustomersApi } from './areas/customers';
import type { RegistryApi } from './areas/registry';
import type { CustomerDto, GlobalCustomerAliasesResponse, GlobalUserType } from './types';

export interface BulkOptions extends CallOptions {
  /** Items per request (default 100 for customers, 50 for registry lookups). */
  batchSize?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Called after each request with the number of items settled so far. */
  onProgress?: (settled: number, total: number) => void;
}

/**
 * A work queue drained by `concurrency` workers. A worker may push follow-up work (customer
 * batches split after a 422), which the other workers pick up too.
 */
async function drain<T>(queue: T[], concurrency: number, work: (item: T, queue: T[]) => Promise<void>): Promise<void> {
  let active = 0;
  await new Promise<void>((resolve, reject) => {
    const next = () => {
      if (queue.length === 0 && active === 0) return resolve();
      while (active < concurrency && queue.length > 0) {
        const item = queue.shift() as T;
        active++;
        work(item, queue).then(
          () => {
            active--;
            next();
          },
          (err) => reject(err),
        );
      }
    };
    next();
  });
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// ---- Customer import -------------------------------------------------------------------------

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
  /** HTTP requests made. */
  requests: number;
}

/** Failures after which the server's answer cannot tell whether the rows were stored. */
const OUTCOME_UNKNOWN = new Set(['network', 'timeout', 'server', 'malformed', 'cancelled']);

/**
 * Creates many customers. POST /Customers is all-or-nothing per request, so a batch answered with
 * 422 is split in halves and each half sent as a new request until the bad rows stand alone; good
 * rows still get created. A batch that fails on the way (network, timeout, 5xx) is never resent:
 * its rows are reported as unknown outcome.
 */
export async function createCustomersInBatches(customers: CustomersApi, rows: CustomerDto[], options: BulkOptions = {}): Promise<CustomerImportReport> {
  const report: CustomerImportReport = { created: [], rejected: [], unknown: [], notSent: [], requests: 0 };
  const batchSize = Math.max(1, options.batchSize ?? 100);
  const queue = chunk(
    rows.map((row, index) => ({ index, row })),
    batchSize,
  );
  let settled = 0;
  let stopped = false;
  const settle = (n: number) => {
    settled += n;
    options.onProgress?.(settled, rows.length);
  };
  const callOpts: CallOptions = { signal: options.signal, timeoutMs: options.timeoutMs };

  await drain(queue, Math.max(1, options.concurrency ?? 4), async (batch, q) => {
    if (stopped || options.signal?.aborted) {
      report.notSent.push(...batch);
      settle(batch.length);
      return;
    }
    report.requests++;
    try {
      await customers.create(
        batch.map((b) => b.row),
        callOpts,
      );
      report.created.push(...batch);
      settle(batch.length);
    } catch (err) {
      if (!(err instanceof NilveraApiError)) throw err;
      if (err.kind === 'validation' && batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        // Put the halves first so the bad rows of this batch are settled before new batches start.
        q.unshift(batch.slice(0, half), batch.slice(half));
        return;
      }
      if (OUTCOME_UNKNOWN.has(err.kind)) {
        report.unknown.push(...batch.map((b) => ({ ...b, error: err })));
      } else {
        report.rejected.push(...batch.map((b) => ({ ...b, messages: err.messages, ...(err.status !== undefined ? { status: err.status } : {}) })));
        // Every further request would get the same answer for a bad or under-permitted key.
        if (err.kind === 'auth' || err.kind === 'forbidden') stopped = true;
      }
      settle(batch.length);
    }
  });
  for (const list of [report.created, report.rejected, report.unknown, report.notSent]) list.sort((a, b) => a.index - b.index);
  return report;
}

// ---- Registry lookup -------------------------------------------------------------------------

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
 * Looks up many tax numbers with POST /GlobalCompany/GetGlobalCustomerInfo in batches (duplicates
 * are asked once). Failed batches are reported, not repeated: the caller decides.
 */
export async function lookupRegistryInBatches(
  registry: RegistryApi,
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
      report.requests++;
      try {
        const results = await registry.infoBulk(batch, options.userType, callOpts);
        const asked = new Set(batch);
        for (const r of results ?? []) {
          if (r.TaxNumber && asked.has(r.TaxNumber)) report.found.set(r.TaxNumber, r);
        }
        for (const t of batch) if (!report.found.has(t)) report.notRegistered.push(t);
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
