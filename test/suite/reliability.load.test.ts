// Load: 50 concurrent tree page loads, refreshes and lookups against a sandbox with 100,000
// customers, in a real extension host. Every request is counted in the sandbox's request log (path
// plus query) when its answer is finished, and the counts are taken only once the sandbox has no
// request in flight (and none arrived for 400 ms), so they are exact, not "at most".
//
// The design the counts follow (src/views/treeNode.ts, src/views/pagedNode.ts):
// - a parent has at most one load in flight; every expand while it runs shares it;
// - a refresh while a load is in flight does not start a second request: the answer under way is
//   dropped when it arrives and ONE follow-up load runs (its data may predate the change the refresh
//   announced). So N refreshes during one load cost 2 requests, refreshes on a settled tree cost 1;
// - the customers list fetches page k once per list: concurrent "Load more" clicks share the page in
//   flight, and a click on a "Load more" whose page has already arrived loads nothing more;
// - the API client does not merge identical lookups: 50 lookups are exactly 50 requests, no retries
//   (the sandbox injects no faults here).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Settings, TreeCommands } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import type { NilveraClient } from '../../src/api';
import type { NilveraTrees } from '../../src/views/trees';
import type { TreeNode } from '../../src/views/treeNode';
import type { NodeTreeProvider } from '../../src/views/treeProvider';
import { completeVkn } from '../../src/domain/taxId';
import { activateExtension } from '../support/extension';
import { sandboxIdle } from '../support/requestsSettled';
import { startTestSandbox, type SandboxHandle, type SandboxPage } from '../support/sandbox';
import { suiteLog } from './report';
import { leaveCustomEnvironment, useSandboxEnvironment } from '../support/sandboxSuite';
import { clearCustomersFilter, extensionTrees } from './treeWalk';

const CUSTOMERS = 100_000;
const REGISTRY = 20_000;
const PAGE_SIZE = 100;
const TARGET_PAGES = 20;
const CONCURRENCY = 50;
/** Latency of the sandbox for the "while a load is in flight" bursts: far longer than the burst. */
const SLOW_MS = 1500;

interface CustomerRow {
  ID: number;
  Name: string;
  TaxNumber: string;
}

const isCustomer = (n: TreeNode) => /\/customer-\d+$/.test(n.id);
const isMore = (n: TreeNode) => n.id.endsWith('/~more');
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(Settings.section);
}

/** Counts per key, e.g. per path or per page number. */
function tally(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

suite('Reliability: load', function () {
  this.timeout(180_000);
  let sandbox: SandboxHandle;
  let api: NilveraExtensionApi;
  let trees: NilveraTrees;

  async function sandboxGet<T>(apiPath: string): Promise<T> {
    const res = await fetch(sandbox.url + apiPath, { headers: { Authorization: `Bearer ${sandbox.keys.full}`, Accept: 'application/json' } });
    assert.equal(res.status, 200, `GET ${apiPath} answered ${res.status}`);
    return (await res.json()) as T;
  }

  /** The queries of the GET /general/Customers (list) requests logged since the last reset. */
  function customerListQueries(): URLSearchParams[] {
    return sandbox
      .requestLog()
      .filter((r) => r.method === 'GET' && /^\/general\/customers$/i.test(r.path))
      .map((r) => new URLSearchParams(r.query ?? ''));
  }

  /**
   * Resolves once the sandbox has no request in flight and none arrived or finished for 400 ms (a
   * request is logged only when its answer is finished, so an injected latency would otherwise hide
   * it from the count). Throws after 20 s: counts taken before that would not be exact.
   */
  async function requestsSettled(): Promise<void> {
    await sandboxIdle(sandbox, { quietMs: 400, maxMs: 20_000 });
  }

  /** What VS Code does when it shows a node: its children, then a TreeItem for each. */
  async function expand(provider: NodeTreeProvider, node?: TreeNode): Promise<TreeNode[]> {
    const nodes = await provider.getChildren(node);
    for (const n of nodes) provider.getTreeItem(n);
    return nodes;
  }

  function assertUniqueTreeItemIds(provider: NodeTreeProvider, nodes: readonly TreeNode[], what: string): void {
    const ids = nodes.map((n) => provider.getTreeItem(n).id);
    assert.ok(ids.every((id) => typeof id === 'string' && id.length > 0), `${what}: every TreeItem has an id`);
    const duplicated = ids.filter((id, i) => ids.indexOf(id) !== i);
    assert.deepEqual(duplicated, [], `${what}: duplicated TreeItem ids`);
  }

  /** The IDs of pages 1..n of the unfiltered list, straight from the sandbox (after the counts are taken). */
  async function expectedIds(pages: number, search = ''): Promise<string[]> {
    const ids: string[] = [];
    for (let p = 1; p <= pages; p++) {
      const page = await sandboxGet<SandboxPage<CustomerRow>>(`/general/Customers?Page=${p}&PageSize=${PAGE_SIZE}${search ? `&Search=${encodeURIComponent(search)}` : ''}`);
      ids.push(...page.Content.map((c) => `customers/customer-${c.ID}`));
    }
    return ids;
  }

  suiteSetup(async () => {
    const started = performance.now();
    sandbox = await startTestSandbox({ customers: CUSTOMERS, registry: REGISTRY });
    suiteLog(`[load] sandbox with ${CUSTOMERS} customers and ${REGISTRY} taxpayers started in ${Math.round(performance.now() - started)} ms`);
    api = await activateExtension();
    trees = await extensionTrees();
    assert.ok(trees, 'the trees test hook returned nothing');
    await config().update(Settings.pageSize, PAGE_SIZE, vscode.ConfigurationTarget.Global);
    await useSandboxEnvironment(api, sandbox);
  });

  suiteTeardown(async () => {
    if (api) await leaveCustomEnvironment(api, Settings.pageSize);
    clearCustomersFilter(trees);
    await sandbox?.close();
  });

  setup(async () => {
    sandbox.clearFaults();
    // Loads that the settings changes or an earlier test started: let them finish before counting.
    await requestsSettled();
    sandbox.resetRequestLog();
  });

  test('customers: 50 concurrent expands and Load-more clicks fetch each page once; the rows are pages 1..20 with unique ids', async () => {
    const provider = trees.customers;
    provider.refresh();
    // Burst 1, on a list with nothing loaded: 25 expands and 25 "Load more" at once share one first page.
    const first = await Promise.all(range(CONCURRENCY).map((i) => (i % 2 === 0 ? expand(provider) : provider.root.loadMore().then(() => expand(provider)))));
    const firstIds = first[0].map((n) => n.id);
    for (const rows of first) assert.deepEqual(rows.map((n) => n.id), firstIds, 'every caller sees the same first page');
    assert.equal(first[0].filter(isCustomer).length, PAGE_SIZE);

    // Burst 2: 50 users click the "Load more" they see, over and over, until 20 pages are shown.
    let clicks = 0;
    const user = async () => {
      for (;;) {
        const rows = await expand(provider);
        if (rows.filter(isCustomer).length >= TARGET_PAGES * PAGE_SIZE) return;
        const more = rows.find(isMore);
        assert.ok(more, `no "Load more" after ${rows.length} rows`);
        clicks++;
        await vscode.commands.executeCommand(TreeCommands.loadMore, more);
      }
    };
    await Promise.all(range(CONCURRENCY).map(user));
    await requestsSettled();

    const pages = customerListQueries().map((q) => q.get('Page') ?? '?');
    const perPage = tally(pages);
    const rows = await expand(provider);
    const shownPages = rows.filter(isCustomer).length / PAGE_SIZE;
    suiteLog(
      `[load] customers paging: ${CONCURRENCY * 2} callers, ${clicks} "Load more" clicks, pages shown ${shownPages}, GET /Customers requests ${pages.length}, distinct pages ${perPage.size}, pages fetched more than once ${[...perPage].filter(([, n]) => n > 1).map(([p, n]) => `${p}×${n}`).join(' ') || 'none'}`,
    );
    assert.deepEqual(
      [...perPage].filter(([, n]) => n !== 1),
      [],
      'each page must be fetched exactly once',
    );
    assert.deepEqual(
      [...perPage.keys()].map(Number).sort((a, b) => a - b),
      range(TARGET_PAGES).map((i) => i + 1),
      'pages 1..20 are fetched, no other',
    );
    assert.ok(customerListQueries().every((q) => q.get('PageSize') === String(PAGE_SIZE)));
    assertUniqueTreeItemIds(provider, rows, 'customers');
    assert.deepEqual(rows.filter(isCustomer).map((n) => n.id), await expectedIds(TARGET_PAGES), 'the rows are exactly pages 1..20, in order, without gaps');
    assert.ok(isMore(rows[rows.length - 1]), 'more pages remain: the last row is "Load more"');

    // A late click on the first page's "Load more" (answered long ago) loads nothing: one click, one page.
    sandbox.resetRequestLog();
    await vscode.commands.executeCommand(TreeCommands.loadMore, first[0].find(isMore));
    await requestsSettled();
    assert.equal(customerListQueries().length, 0, 'a click on an answered "Load more" must not fetch another page');
    assert.equal((await expand(provider)).filter(isCustomer).length, TARGET_PAGES * PAGE_SIZE);
  });

  test('customers: 50 refreshes at once make one request; 50 refreshes and stale "Load more" clicks during a slow load make two, and the rows are page 1', async () => {
    const provider = trees.customers;
    // At once on a settled list: the refreshes happen before any load starts, so one request.
    const atOnce = await Promise.all(
      range(CONCURRENCY).map(() => {
        provider.refresh();
        return expand(provider);
      }),
    );
    await requestsSettled();
    const atOncePages = customerListQueries().map((q) => q.get('Page'));
    for (const rows of atOnce) assert.deepEqual(rows.map((n) => n.id), atOnce[0].map((n) => n.id));
    assert.deepEqual(atOncePages, ['1'], 'refreshes at once: one request for page 1');

    // Three pages shown, and the "Load more" the user sees.
    for (let p = 2; p <= 3; p++) await vscode.commands.executeCommand(TreeCommands.loadMore, (await expand(provider)).find(isMore));
    const staleMore = (await expand(provider)).find(isMore);
    assert.ok(staleMore);
    assert.equal((await expand(provider)).filter(isCustomer).length, 3 * PAGE_SIZE);
    await requestsSettled();
    sandbox.resetRequestLog();

    // A slow server; one reload in flight, then 25 refreshes and 25 clicks on the old "Load more".
    sandbox.setFaults({ latencyMs: SLOW_MS, match: { method: 'GET', path: '^/general/customers$' } });
    provider.refresh();
    const inFlight = expand(provider);
    await sleep(300);
    const burst = await Promise.all(
      range(CONCURRENCY).map(async (i) => {
        await sleep(i * 2);
        if (i % 2 === 0) provider.refresh();
        else await vscode.commands.executeCommand(TreeCommands.loadMore, staleMore);
        return expand(provider);
      }),
    );
    await inFlight;
    await requestsSettled();
    sandbox.clearFaults();
    const pages = customerListQueries().map((q) => q.get('Page') ?? '?');
    const rows = await expand(provider);
    const rowIds = rows.filter(isCustomer).map((n) => n.id);
    const page1 = await expectedIds(1);
    const callersWithFinalRows = burst.filter((r) => JSON.stringify(r.map((n) => n.id)) === JSON.stringify(rows.map((n) => n.id))).length;
    // The list continues with page 2, not with a page after a gap.
    sandbox.resetRequestLog();
    await vscode.commands.executeCommand(TreeCommands.loadMore, rows.find(isMore));
    const nextPages = customerListQueries().map((q) => q.get('Page'));
    const afterMore = (await expand(provider)).filter(isCustomer).map((n) => n.id);
    suiteLog(
      `[load] customers refresh: at once ${CONCURRENCY} refreshes → ${atOncePages.length} request(s); during a slow load ${CONCURRENCY / 2} refreshes + ${CONCURRENCY / 2} stale clicks → ${pages.length} request(s) (pages ${pages.join(',')}); rows are page 1: ${JSON.stringify(rowIds) === JSON.stringify(page1)} (${rowIds.length} rows); callers given the final rows ${callersWithFinalRows}/${burst.length}; next "Load more" fetched page ${nextPages.join(',')}`,
    );
    assertUniqueTreeItemIds(provider, rows, 'customers');
    assert.deepEqual(rowIds, page1, 'the rows are page 1 of the list');
    assert.ok(isMore(rows[rows.length - 1]));
    assert.equal(callersWithFinalRows, burst.length, 'every caller ends with the list of the last reload');
    assert.deepEqual(nextPages, ['2'], 'the next "Load more" fetches page 2');
    assert.deepEqual(afterMore, await expectedIds(2));
    assert.deepEqual(pages, ['1', '1'], 'the load in flight plus one follow-up, both page 1');
  });

  test('customers: 50 searches typed fast during a slow load make two requests, and the rows answer the last search', async () => {
    const provider = trees.customers;
    const names = (await sandboxGet<SandboxPage<CustomerRow>>(`/general/Customers?Page=1&PageSize=${CONCURRENCY}`)).Content.map((c) => c.Name.split(' ')[0]);
    const last = names[CONCURRENCY - 1];
    sandbox.resetRequestLog();
    sandbox.setFaults({ latencyMs: SLOW_MS, match: { method: 'GET', path: '^/general/customers$' } });
    provider.root.setFilter({ search: names[0] });
    const inFlight = expand(provider);
    await sleep(300);
    await Promise.all(
      range(CONCURRENCY - 1).map(async (i) => {
        await sleep(i * 2);
        provider.root.setFilter({ search: names[i + 1] });
        return expand(provider);
      }),
    );
    await inFlight;
    await requestsSettled();
    sandbox.clearFaults();
    const searches = customerListQueries().map((q) => q.get('Search') ?? '');
    try {
      const rows = await expand(provider);
      const expected = await sandboxGet<SandboxPage<CustomerRow>>(`/general/Customers?Page=1&PageSize=${PAGE_SIZE}&Search=${encodeURIComponent(last)}`);
      const rowIds = rows.filter(isCustomer).map((n) => n.id);
      const expectedRowIds = expected.Content.map((c) => `customers/customer-${c.ID}`);
      const foreign = rowIds.filter((id) => !expectedRowIds.includes(id)).length;
      suiteLog(`[load] customers search: ${CONCURRENCY} searches typed during a slow load → ${searches.length} request(s); rows shown ${rowIds.length}, of them not matching the last search ${foreign}; title total ${trees.customers.root.total} vs ${expected.TotalCount}`);
      assertUniqueTreeItemIds(provider, rows, 'customers');
      assert.ok(expected.TotalCount > 0);
      assert.deepEqual(rowIds, expectedRowIds, 'the rows answer the last search only');
      assert.equal(trees.customers.root.total, expected.TotalCount);
      assert.deepEqual(searches, [names[0], last], 'the search in flight plus one for the last text');
    } finally {
      provider.root.setFilter({ search: '' });
    }
  });

  test('50 concurrent lookups (registry by tax number, customer by tax number, name search) all answer right with exactly 50 requests', async () => {
    const client = (await api.testing.services.client()) as unknown as NilveraClient;
    const registered = (await sandboxGet<SandboxPage<{ TaxNumber: string }>>('/general/GlobalCompany?Page=1&PageSize=8')).Content.map((e) => e.TaxNumber);
    // Valid checksums the seed never uses (its numbers never start with 99999): "not registered" answers.
    const unregistered = [completeVkn('999999997'), completeVkn('999999996')];
    const customers = (await sandboxGet<SandboxPage<CustomerRow>>('/general/Customers?Page=3&PageSize=8')).Content;
    const words = [...new Set(customers.map((c) => c.Name.split(' ')[0]))];

    // 17 registry checks, 17 customer lookups, 16 name searches; repeats included on purpose.
    type Lookup = { path: string; run: () => Promise<unknown> };
    const lookups: Lookup[] = range(CONCURRENCY).map((i) => {
      if (i % 3 === 0) {
        const tax = i % 9 === 0 ? unregistered[(i / 9) % 2] : registered[i % registered.length];
        return { path: `/general/GlobalCompany/Check/TaxNumber/${tax}`, run: () => client.registry.checkTaxNumber(tax) };
      }
      if (i % 3 === 1) {
        const tax = customers[i % customers.length].TaxNumber;
        return { path: `/general/Customers/GetCustomerInfo/${tax}`, run: () => client.customers.getByTaxNumber(tax) };
      }
      const word = words[i % words.length];
      return { path: `/general/Customers/Search/${encodeURIComponent(word)}`, run: () => client.customers.search(word) };
    });
    const expected = new Map<string, unknown>();
    for (const path of new Set(lookups.map((l) => l.path))) expected.set(path, await sandboxGet(path));
    assert.ok(unregistered.every((t) => (expected.get(`/general/GlobalCompany/Check/TaxNumber/${t}`) as unknown[]).length === 0));
    assert.ok(registered.every((t) => (expected.get(`/general/GlobalCompany/Check/TaxNumber/${t}`) as unknown[] | undefined)?.length !== 0));
    sandbox.resetRequestLog();

    const answers = await Promise.all(lookups.map((l) => l.run()));
    await requestsSettled();
    const log = sandbox.requestLog();
    const identical = lookups.length - new Set(lookups.map((l) => l.path)).size;
    suiteLog(`[load] lookups: ${lookups.length} issued (${identical} repeats of another), ${log.length} request(s), statuses ${[...tally(log.map((r) => String(r.status)))].map(([s, n]) => `${s}×${n}`).join(' ')}`);
    lookups.forEach((l, i) => assert.deepEqual(answers[i], expected.get(l.path), `answer of ${l.path}`));
    assert.equal(log.length, CONCURRENCY, 'one request per lookup: the client merges nothing and repeats nothing');
    assert.ok(log.every((r) => r.method === 'GET' && r.status === 200));
    const decode = (p: string) => decodeURIComponent(p).toLowerCase();
    assert.deepEqual(
      [...tally(log.map((r) => decode(r.path)))].sort(),
      [...tally(lookups.map((l) => decode(l.path)))].sort(),
      'each lookup asked its own path once',
    );
  });

  test('documents, certificates, identifications and account: 50 refreshes at once make one request per endpoint; 50 during slow loads make two', async () => {
    const others = [trees.documents, trees.certificates, trees.identifications, trees.account] as NodeTreeProvider[];
    /** One user action: refresh the four views, then show them with every account group expanded. */
    const refreshAndShow = async (refresh: boolean): Promise<TreeNode[][]> => {
      if (refresh) for (const p of others) p.refresh();
      // The account's groups expand as soon as they are known, while the other views still load.
      const showAccount = async (): Promise<TreeNode[][]> => {
        const groups = await expand(trees.account);
        return [groups, ...(await Promise.all(groups.map((g) => expand(trees.account, g))))];
      };
      const [documents, certificates, identifications, account] = await Promise.all([expand(others[0]), expand(others[1]), expand(others[2]), showAccount()]);
      return [documents, certificates, identifications, ...account];
    };
    const perEndpoint = () => tally(sandbox.requestLog().map((r) => `${r.method} ${r.path}`));

    const atOnce = await Promise.all(range(CONCURRENCY).map(() => refreshAndShow(true)));
    await requestsSettled();
    const atOnceCounts = perEndpoint();
    const groupCount = atOnce[0][3].length;
    for (const views of atOnce) assert.deepEqual(views.map((v) => v.map((n) => n.id)), atOnce[0].map((v) => v.map((n) => n.id)));
    for (const [i, v] of atOnce[0].entries()) assertUniqueTreeItemIds(i < 3 ? others[i] : trees.account, v, `view part ${i}`);
    assert.ok(atOnce[0].every((v) => v.every((n) => !n.id.endsWith('/~error'))), 'no load failed');

    // Slow server: the first loads are in flight when 50 refreshes arrive over the next 100 ms.
    sandbox.resetRequestLog();
    sandbox.setFaults({ latencyMs: SLOW_MS, match: { method: 'GET', path: '^/general/(?!customers)' } });
    const first = refreshAndShow(true);
    await sleep(300);
    const burst = await Promise.all(
      range(CONCURRENCY).map(async (i) => {
        await sleep(i * 2);
        return refreshAndShow(true);
      }),
    );
    await first;
    await requestsSettled();
    sandbox.clearFaults();
    const slowCounts = perEndpoint();
    suiteLog(
      `[load] other views: ${CONCURRENCY} refreshes at once → ${[...atOnceCounts.values()].reduce((a, b) => a + b, 0)} requests over ${atOnceCounts.size} endpoints (max ${Math.max(...atOnceCounts.values())} each); during slow loads → ${[...slowCounts.values()].reduce((a, b) => a + b, 0)} requests over ${slowCounts.size} endpoints (max ${Math.max(...slowCounts.values())} each)`,
    );
    assert.equal(atOnceCounts.size, 3 + groupCount, `one endpoint per list and account group: ${[...atOnceCounts.keys()].join(', ')}`);
    assert.deepEqual([...atOnceCounts].filter(([, n]) => n !== 1), [], 'refreshes at once: one request per endpoint');
    assert.deepEqual([...slowCounts.keys()].sort(), [...atOnceCounts.keys()].sort());
    assert.deepEqual([...slowCounts].filter(([, n]) => n !== 2), [], 'refreshes during a load: the load in flight plus one follow-up per endpoint');
    const settled = await refreshAndShow(false);
    for (const views of burst) assert.deepEqual(views.map((v) => v.map((n) => n.id)), settled.map((v) => v.map((n) => n.id)), 'every caller ends with the current rows');
  });
});
