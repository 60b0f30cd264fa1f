// The one walk through a paged list (GET …?Page=&PageSize=, pages from 1): the customers view takes
// one step per "Load more" (stepPage); the export, the reconciliation and the customer look-up by ID
// walk the whole list (walkPages).
// Assumption (spec-silent: behaviour points pageSizeLimit, nullableFields, pageBeyondEnd): the server
// may cap or ignore the PageSize asked for, send a page other than the one asked (the last one again
// past the end), and leave TotalCount/TotalPages null, missing or negative. So the answer's own Page,
// PageSize and totals decide what comes next, never the request's; without a usable total the walk
// goes on until a page comes back short, empty, not the one asked, or with nothing new.
import { drain } from './pool';
import type { Pagination } from './types';

type PageAnswer<T> = Partial<Pagination<T>> | null | undefined;

export interface PageStep<T> {
  /** The page asked for. */
  page: number;
  /** Its rows, less those an earlier page of the walk brought. */
  rows: T[];
  /** The total the server gave (TotalCount), or null. */
  totalCount: number | null;
  /** Known from TotalPages or TotalCount; null when neither is usable. */
  totalPages: number | null;
  /** Whether a page after this one may exist. */
  more: boolean;
  /** The page to ask for next (the server may have sent another one than asked). */
  next: number;
}

/** The keys of the rows a walk has seen, and how a row's key is read. */
export interface SeenRows<T> {
  keys: Set<unknown>;
  keyOf(row: T): unknown;
}

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);

/** One page's answer as the walk reads it; with `seen`, rows seen before are left out (and remembered). */
export function stepPage<T>(answer: PageAnswer<T>, page: number, seen?: SeenRows<T>): PageStep<T> {
  const content = Array.isArray(answer?.Content) ? answer.Content : [];
  const rows = seen
    ? content.filter((row) => {
        const key = seen.keyOf(row);
        const fresh = !seen.keys.has(key);
        seen.keys.add(key);
        return fresh;
      })
    : content;
  const sent = count(answer?.Page) || page;
  const pageSize = count(answer?.PageSize) || Math.max(content.length, 1);
  const totalCount = count(answer?.TotalCount);
  const totalPages = count(answer?.TotalPages) ?? (totalCount === null ? null : Math.ceil(totalCount / pageSize));
  // A page that sent nothing, nothing new, or not the one asked (the server went back to its last
  // page) ends the list; else the server's totals, or without them a full page, say more may come.
  const more = rows.length > 0 && sent >= page && (totalPages !== null ? sent < totalPages : content.length >= pageSize);
  return { page, rows, totalCount, totalPages, more, next: Math.max(sent, page) + 1 };
}

/** A guard against a server that never says the list ended (1 000 000 rows at 100 a page). */
const MAX_PAGES = 10_000;

export interface WalkOptions<T> {
  /** A row's identity: a row an earlier page brought again is left out. */
  keyOf?: (row: T) => unknown;
  /** Pages asked at once, through the one pool (pool.ts), after the first page told the page count. */
  concurrency?: number;
  /** Ends the walk with the signal's AbortError, also in place of a request's own "cancelled" failure. */
  signal?: AbortSignal;
}

/**
 * Every page of a list, in page order, each as stepPage reads it. With `concurrency` above 1 and a
 * page count in the first answer, the pages after it are asked that many at a time; whatever ends
 * the walk (the last page, a failure, the reader stopping) leaves the pages not yet asked unasked.
 */
export async function* walkPages<T>(ask: (page: number) => Promise<PageAnswer<T>>, { keyOf, concurrency = 1, signal }: WalkOptions<T> = {}): AsyncGenerator<PageStep<T>> {
  const seen = keyOf ? { keys: new Set<unknown>(), keyOf } : undefined;
  const fetch = async (page: number): Promise<PageAnswer<T>> => {
    signal?.throwIfAborted();
    const answer = await ask(page).catch((error: unknown) => {
      signal?.throwIfAborted();
      throw error;
    });
    signal?.throwIfAborted();
    return answer;
  };
  let step = stepPage(await fetch(1), 1, seen);
  yield step;
  const queue = Array.from({ length: Math.min(step.totalPages ?? 0, MAX_PAGES) - 1 }, (_, i) => i + 2);
  if (concurrency > 1 && queue.length > 0 && step.more) {
    const arrived: Array<(answer: Promise<PageAnswer<T>>) => void> = [];
    const answers = queue.map((page) => new Promise<PageAnswer<T>>((resolve) => (arrived[page] = resolve)));
    for (const answer of answers) answer.catch(() => undefined); // thrown where its page is read
    void drain(queue, concurrency, async (page) => {
      const answer = fetch(page);
      arrived[page](answer);
      await answer.catch(() => undefined);
    });
    try {
      for (let i = 0; i < answers.length && step.more; i++) yield (step = stepPage(await answers[i], i + 2, seen));
    } finally {
      queue.length = 0;
    }
    return;
  }
  while (step.more && step.next <= MAX_PAGES) yield (step = stepPage(await fetch(step.next), step.next, seen));
}
