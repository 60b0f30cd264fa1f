// The one walk through a paged list (GET …?Page=&PageSize=, pages from 1). The server's own Page,
// PageSize and totals decide what comes next, never the ones asked for: it may cap or ignore PageSize,
// send its last page again past the end, or leave the totals out (specSilent.ts, readPaging). The
// customers view takes one step per "Load more" (stepPage); the export, the reconciliation and the
// customer look-up by ID walk the whole list (walkPages).
import { drain } from './pool';
import { hasPageAfter, readPaging, type PagingRead } from './specSilent';
import type { Pagination } from './types';

type PageAnswer<T> = Partial<Pagination<T>> | null | undefined;

export interface PageStep<T> {
  /** The page asked for. */
  page: number;
  /** Its rows, less those an earlier page of the walk brought. */
  rows: T[];
  read: PagingRead;
  /** Whether a page after this one may exist. A page that brought no new row ends the list too. */
  more: boolean;
  /** The page to ask for next (the server may have sent another one than asked). */
  next: number;
}

/** The keys of the rows a walk has seen, and how a row's key is read. */
export interface SeenRows<T> {
  keys: Set<unknown>;
  keyOf(row: T): unknown;
}

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
  const read = readPaging(answer, page, 0);
  return { page, rows, read, more: rows.length > 0 && hasPageAfter(read, page, content.length), next: Math.max(read.page, page) + 1 };
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
  const queue = Array.from({ length: Math.min(step.read.totalPages ?? 0, MAX_PAGES) - 1 }, (_, i) => i + 2);
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
