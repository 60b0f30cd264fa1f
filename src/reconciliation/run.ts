// Walks every customer page (page size 100, six pages in flight) and classifies each tax number
// against the offline index, or online through the bulk lookup (POST GetGlobalCustomerInfo, 50 tax
// numbers per request). Plain Node: the VS Code side adds progress and cancellation.
import { lookupRegistryInBatches, type BulkRegistry } from '../api/bulk';
import { hasPageAfter, readPaging, type PagingRead } from '../api/specSilent';
import type { CustomersApi } from '../api/areas/customers';
import type { OfflineTaxpayer } from '../registry/offlineLookup';
import { classifyChecksum, classifyOffline, classifyOnline, unchecked, type CustomerRef, type ReconRow } from './classify';

export const RECONCILIATION_PAGE_SIZE = 100;
export const LOOKUP_BATCH_SIZE = 50;
/** A guard against a server that never says the list ended (1 000 000 customers at 100 a page). */
const MAX_PAGES_WITHOUT_TOTAL = 10_000;

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
  const pages = new Map<number, ReconRow[]>();
  let done = 0;
  let total = 0;
  // The server's own Page, PageSize and totals count, never the ones asked for (it may cap or ignore
  // PageSize, leave totals out or negative, or send its last page again: src/api/specSilent.ts).
  const fetchPage = async (page: number): Promise<{ read: PagingRead; rows: number }> => {
    signal?.throwIfAborted();
    counters.lists++;
    const query = { Page: page, PageSize: pageSize, SortColumn: 'ID', SortType: 'ASC' } as const;
    const result = await customers.list(query, { signal }).catch((e: unknown) => {
      signal?.throwIfAborted();
      throw e;
    });
    const content = Array.isArray(result.Content) ? result.Content : [];
    const classifyStart = performance.now();
    const rows = await classifyPage(content, source, signal, counters);
    counters.classifyMs += performance.now() - classifyStart;
    signal?.throwIfAborted();
    pages.set(page, rows);
    done += rows.length;
    options.onProgress?.(done, Math.max(total, done));
    return { read: readPaging(result, page, pageSize), rows: content.length };
  };

  const first = await fetchPage(1);
  total = first.read.totalCount ?? first.rows;
  options.onProgress?.(done, Math.max(total, done));
  const totalPages = first.read.totalPages;
  if (totalPages !== null) {
    // Known page count: fetch the rest in parallel.
    let next = 2;
    const worker = async () => {
      while (next <= totalPages) await fetchPage(next++);
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 6) }, worker));
  } else {
    // Unknown: one page after the other until one comes back short, empty, or not the one asked.
    for (let page = 1, last = first; hasPageAfter(last.read, page, last.rows) && page < MAX_PAGES_WITHOUT_TOTAL; ) {
      last = await fetchPage(++page);
      total = Math.max(total, done);
    }
  }

  // A customer can show up twice when the list shifts between pages: keep its first row.
  const seen = new Set<number>();
  const rows: ReconRow[] = [];
  for (const page of [...pages.keys()].sort((a, b) => a - b)) {
    for (const row of pages.get(page) ?? []) {
      if (seen.has(row.customerId)) continue;
      seen.add(row.customerId);
      rows.push(row);
    }
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
