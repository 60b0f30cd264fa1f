// The one paging walk (src/api/paging.ts) over real HTTP against the sandbox: whatever the server does
// with PageSize, the page past the end and the totals, every customer comes once, in the server's
// order, and the walk asks no page it does not need; in parallel the pages still come in order;
// stopping early or cancelling asks nothing more.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../../../src/api';
import type { CustomerResponse, NilveraClient } from '../../../src/api';
import { stepPage, walkPages } from '../../../src/api/paging';
import { startTestSandbox, type SandboxHandle } from '../../support/sandbox';

const CUSTOMERS = 230;

describe('walkPages over the customer list', () => {
  let sb: SandboxHandle;
  let api: NilveraClient;
  let ids: number[];
  before(async () => {
    sb = await startTestSandbox({ customers: CUSTOMERS, registry: 10, seed: 5, behaviour: { profile: 'default' } });
    api = createClient({ baseUrl: sb.url, getApiKey: async () => sb.keys.full, retry: { baseDelayMs: 5, maxDelayMs: 20 } });
    // The expected list, read without the walk: plain answers, 100 a page, until a short page.
    sb.setBehaviour({ quirks: { pageSizeLimit: 'cap100', pageBeyondEnd: 'emptyContent', nullableFields: 'filled' } });
    ids = [];
    for (let page = 1, rows = 100; rows === 100; page++) {
      const content = (await api.customers.list({ Page: page, PageSize: 100, SortColumn: 'ID', SortType: 'ASC' })).Content ?? [];
      ids.push(...content.map((c) => c.ID));
      rows = content.length;
    }
    assert.equal(ids.length, CUSTOMERS);
  });
  after(async () => sb?.close());

  /** Walks the list by ID at `pageSize`, counting the pages asked and the most asked at once. */
  async function walk(pageSize: number, options: Parameters<typeof walkPages<CustomerResponse>>[1] = {}, stopAfter = Infinity) {
    const asked: number[] = [];
    let inFlight = 0;
    let mostAtOnce = 0;
    const ask = async (page: number) => {
      asked.push(page);
      mostAtOnce = Math.max(mostAtOnce, ++inFlight);
      try {
        return await api.customers.list({ Page: page, PageSize: pageSize, SortColumn: 'ID', SortType: 'ASC' });
      } finally {
        inFlight--;
      }
    };
    const seen: number[] = [];
    const pages: number[] = [];
    for await (const step of walkPages(ask, { keyOf: (c) => c.ID, ...options })) {
      seen.push(...step.rows.map((c) => c.ID));
      pages.push(step.page);
      if (pages.length >= stopAfter) break;
    }
    return { seen, pages, asked, mostAtOnce };
  }

  const servers = [
    { pageSizeLimit: 'cap50', pageBeyondEnd: 'lastPage', nullableFields: 'nulls' },
    { pageSizeLimit: 'ignore', pageBeyondEnd: 'emptyContent', nullableFields: 'nulls' },
    { pageSizeLimit: 'cap100', pageBeyondEnd: 'notFound', nullableFields: 'filled' },
    { pageSizeLimit: 'cap50', pageBeyondEnd: 'lastPage', nullableFields: 'filled' },
  ] as const;
  for (const quirks of servers) {
    test(`every customer once, in order, no page asked twice (${Object.values(quirks).join(', ')})`, async () => {
      sb.setBehaviour({ quirks });
      for (const concurrency of [1, 4]) {
        const { seen, asked } = await walk(100, { concurrency });
        assert.deepEqual(seen, ids, `concurrency ${concurrency}`);
        assert.equal(new Set(asked).size, asked.length, `pages asked: ${asked.join(' ')}`);
        // At most one page past the end (when nothing tells where the end is).
        const served = quirks.pageSizeLimit === 'ignore' ? 25 : quirks.pageSizeLimit === 'cap50' ? 50 : 100;
        const needed = Math.ceil(CUSTOMERS / served);
        if (quirks.nullableFields === 'filled') assert.equal(asked.length, needed, `pages asked at ${served} a page, with totals`);
        else assert.ok(asked.length <= needed + 1, `${asked.length} pages asked at ${served} a page`);
      }
    });
  }

  test('in parallel: pages asked at once once the total is known, read in page order', async () => {
    sb.setBehaviour({ quirks: { pageSizeLimit: 'cap50', pageBeyondEnd: 'emptyContent', nullableFields: 'filled' } });
    const parallel = await walk(50, { concurrency: 3 });
    assert.deepEqual(parallel.pages, [1, 2, 3, 4, 5]);
    assert.deepEqual(parallel.seen, ids);
    assert.equal(parallel.mostAtOnce, 3);
    assert.equal((await walk(50)).mostAtOnce, 1);
  });

  test('a reader that stops leaves the pages not yet asked unasked; a cancel ends the walk with the AbortError', async () => {
    sb.setBehaviour({ quirks: { pageSizeLimit: 'cap50', pageBeyondEnd: 'emptyContent', nullableFields: 'filled' } });
    const stopped = await walk(10, { concurrency: 2 }, 2);
    assert.ok(stopped.asked.length <= 4, `asked ${stopped.asked.join(' ')} of 23 pages`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(stopped.asked.length <= 4, `asked later ${stopped.asked.join(' ')}`);

    const controller = new AbortController();
    let asked = 0;
    const ask = (page: number) => {
      asked++;
      return api.customers.list({ Page: page, PageSize: 10 }, { signal: controller.signal });
    };
    await assert.rejects(async () => {
      for await (const step of walkPages(ask, { signal: controller.signal })) if (step.page === 2) controller.abort();
    }, (e: Error) => e.name === 'AbortError');
    assert.equal(asked, 2);
  });
});

test('stepPage: the server\'s own page number says what comes next; rows seen before are left out; a page of nothing new, or not the one asked, ends the list', () => {
  const seen = { keys: new Set<unknown>(), keyOf: (row: { ID: number }) => row.ID };
  const first = stepPage({ Page: 1, PageSize: 2, TotalCount: null, TotalPages: null, Content: [{ ID: 1 }, { ID: 1 }] }, 1, seen);
  assert.deepEqual(first.rows, [{ ID: 1 }]);
  assert.equal(first.more, true);
  // Asked page 2, the server sent page 3 (it skipped one): page 4 is next.
  const skipped = stepPage({ Page: 3, PageSize: 2, Content: [{ ID: 5 }, { ID: 6 }] }, 2, seen);
  assert.deepEqual([skipped.rows.length, skipped.more, skipped.next], [2, true, 4]);
  // A full page of rows already seen (a server that ignores Page) ends the walk.
  const again = stepPage({ Page: 4, PageSize: 2, Content: [{ ID: 5 }, { ID: 6 }] }, 4, seen);
  assert.deepEqual([again.rows.length, again.more], [0, false]);
  // Without `seen` nothing is left out; the totals end the list on their last page.
  const last = stepPage({ Page: 2, PageSize: 2, TotalCount: 4, TotalPages: 2, Content: [{ ID: 5 }, { ID: 6 }] }, 2);
  assert.deepEqual([last.rows.length, last.more, last.next], [2, false, 3]);
  // Asked page 3, the server sent its last page (2) again, full and without totals: the list has ended.
  assert.equal(stepPage({ Page: 2, PageSize: 2, Content: [{ ID: 5 }, { ID: 6 }] }, 3).more, false);
});
