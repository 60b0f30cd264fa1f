// Walks every customer page (page size 100, six pages in flight) and classifies each tax number
// against the offline index, or online through the bulk lookup (POST GetGlobalCustomerInfo, 50 tax
// numbers per request). Plain Node: the VS Code side adds progress and cancellation.
import { lookupRegistryInBatches, type BulkRegistry } from '../api/bulk';
import { walkPages } from '../api/paging';
import type { Pagination } from '../api/types';
import type { CustomersApi } from '../api/areas/customers';
import type { OfflineTaxpayer } from '../registry/offlineLookup';
import { classifyChecksum, classifyOffline, classifyOnline, unchecked, type CustomerRef, type ReconRow } from './classify';

export const RECONCILIATION_PAGE_SIZE = 100;
export const LOOKUP_BATCH_SIZE = 50;

export type RegistrySource =
  | { kind: 'offline'; lookup(taxNumber: string): OfflineTaxpayer | undefined; downloadedAt?: string }
  | { kind: 'online'; registry: BulkRegistry; batchSize?: number };

export interface RunOptions {
  customers: Pick<CustomersApi, 'list'>;
  source: RegistrySource;
  pageSize?: number;
  /** Customer pages in flight at once (default 6). */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?(done: number, total: number): void;
}

export interface RunResult {
  /** One row per customer, in the server's order (customer ID). */
  rows: ReconRow[];
  source: 'offline' | 'online';
  /** Date of the offline lists consulted. */
  indexDate?: string;
  listRequests: number;
  lookupRequests: number;
  /** Valid tax numbers whose online lookup failed (rows with status "unchecked"). */
  unchecked: number;
  /** Milliseconds spent classifying (offline: the index lookups; online: the bulk requests). */
  classifyMs: number;
}

async function classifyPage(refs: CustomerRef[], source: RegistrySource, signal: AbortSignal | undefined, counters: { lookups: number; unchecked: number }): Promise<ReconRow[]> {
  if (source.kind === 'offline') return refs.map((c) => classifyOffline(c, source.lookup((c.TaxNumber ?? '').trim())));
  const valid = refs.filter((c) => !classifyChecksum(c)).map((c) => (c.TaxNumber ?? '').trim());
  const report = valid.length
    ? await lookupRegistryInBatches(source.registry, valid, { userType: 'Invoice', batchSize: source.batchSize ?? LOOKUP_BATCH_SIZE, concurrency: 1, signal })
    : undefined;
  counters.lookups += report?.requests ?? 0;
  const failed = new Set(report?.failed.flatMap((f) => f.taxNumbers));
  return refs.map((c) => {
    const tn = (c.TaxNumber ?? '').trim();
    if (failed.has(tn)) {
      counters.unchecked++;
      return unchecked(c);
    }
    return classifyOnline(c, report?.found.get(tn));
  });
}

/** Runs the whole reconciliation; throws the signal's AbortError when it aborts. */
export async function runReconciliation(options: RunOptions): Promise<RunResult> {
  const { customers, source, signal } = options;
  const pageSize = options.pageSize ?? RECONCILIATION_PAGE_SIZE;
  const counters = { lookups: 0, unchecked: 0, lists: 0, classifyMs: 0 };
  // Each page is classified as it arrives, inside the walk, so that pages in flight classify at once.
  const classified = async (page: number): Promise<Pagination<ReconRow>> => {
    counters.lists++;
    const query = { Page: page, PageSize: pageSize, SortColumn: 'ID', SortType: 'ASC' } as const;
    const result = await customers.list(query, { signal });
    const classifyStart = performance.now();
    const rows = await classifyPage(Array.isArray(result.Content) ? result.Content : [], source, signal, counters);
    counters.classifyMs += performance.now() - classifyStart;
    return { ...result, Content: rows };
  };
  // A customer can show up twice when the list shifts between pages: its first row counts.
  const rows: ReconRow[] = [];
  let total = 0;
  const walk = walkPages(classified, { keyOf: (row) => row.customerId, concurrency: Math.max(1, options.concurrency ?? 6), signal });
  for await (const step of walk) {
    rows.push(...step.rows);
    total = Math.max(total, step.totalCount ?? 0, rows.length);
    options.onProgress?.(rows.length, total);
  }
  return {
    rows,
    source: source.kind,
    ...(source.kind === 'offline' && source.downloadedAt ? { indexDate: source.downloadedAt } : {}),
    listRequests: counters.lists,
    lookupRequests: counters.lookups,
    unchecked: counters.unchecked,
    classifyMs: Math.round(counters.classifyMs),
  };
}
