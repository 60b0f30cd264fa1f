// Measurement for test/bench/views.bench.ts, run inside the real extension host: with 100,000
// customers in a sandbox (its own process, so its memory is not counted here), the time from
// expanding the customers view to the first page, from "Load more" to the next page, and the
// extension host's heap after 20 pages and after a refresh. Skipped unless NILVERA_VIEWS_BENCH=1.
import * as assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import { EXTENSION_ID, Settings, TreeCommands } from '../../../src/constants';
import type { NilveraExtensionApi } from '../../../src/extension';
import type { NilveraTrees } from '../../../src/views/trees';
import type { TreeNode } from '../../../src/views/treeNode';
import { startBenchSandbox } from './benchSandbox';
import { suiteLog } from '../../suite/report';

const CUSTOMERS = 100_000;
const PAGE_SIZE = 100;
const PAGES = 20;
const FIRST_PAGE_RUNS = 7;

function collectGarbage(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

function heapMb(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / (1024 * 1024);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

suite('Sidebar trees: views benchmark', function () {
  this.timeout(300_000);

  test('views benchmark: 100,000 customers, first page, load more, heap after 20 pages', async function () {
    if (process.env.NILVERA_VIEWS_BENCH !== '1') this.skip();
    const sandbox = await startBenchSandbox(['--customers', String(CUSTOMERS)]);
    const ext = vscode.extensions.getExtension<NilveraExtensionApi>(EXTENSION_ID)!;
    const api = await ext.activate();
    const services = api.testing.services;
    const config = vscode.workspace.getConfiguration(Settings.section);
    const trees = (await vscode.commands.executeCommand<NilveraTrees>('nilvera.internal.trees'))!;
    try {
      await config.update(Settings.customUrl, sandbox.url, vscode.ConfigurationTarget.Global);
      await config.update(Settings.environment, 'custom', vscode.ConfigurationTarget.Global);
      await config.update(Settings.pageSize, PAGE_SIZE, vscode.ConfigurationTarget.Global);
      await services.keys.store(services.secretName('custom'), sandbox.key);
      const gc = collectGarbage();
      const provider = trees.customers;
      /** What VS Code does on expand: the children, then a TreeItem for each. */
      const expand = async (): Promise<TreeNode[]> => {
        const nodes = await provider.getChildren();
        for (const n of nodes) provider.getTreeItem(n);
        return nodes;
      };

      // Warm-up (connection, the sandbox's sorted view, JIT), then timed first pages.
      provider.refresh();
      await expand();
      const firstPage: number[] = [];
      for (let i = 0; i < FIRST_PAGE_RUNS; i++) {
        provider.refresh();
        const t0 = performance.now();
        const rows = await expand();
        firstPage.push(performance.now() - t0);
        assert.equal(rows.filter((n) => /\/customer-\d+$/.test(n.id)).length, PAGE_SIZE);
      }

      provider.refresh();
      await expand();
      const baseline = heapMb(gc);
      const loadMore: number[] = [];
      let rows = await expand();
      for (let page = 2; page <= PAGES; page++) {
        const more = rows.find((n) => n.id.endsWith('/~more'));
        assert.ok(more, `no "Load more" after page ${page - 1}`);
        const t0 = performance.now();
        await vscode.commands.executeCommand(TreeCommands.loadMore, more);
        rows = await expand();
        loadMore.push(performance.now() - t0);
      }
      const loaded = rows.filter((n) => /\/customer-\d+$/.test(n.id)).length;
      assert.equal(loaded, PAGE_SIZE * PAGES);
      const after20 = heapMb(gc);
      // A row from page 10: after a refresh nothing may hold it any more.
      const probe = new WeakRef(rows[PAGE_SIZE * 10]);
      rows = [];
      provider.refresh();
      await expand();
      const afterReset = heapMb(gc);
      const rowReleased = probe.deref() === undefined;
      // Two more rounds of 20 pages and a refresh: the heap after each refresh must not creep up.
      const afterRounds: number[] = [];
      for (let round = 0; round < 2; round++) {
        let r = await expand();
        for (let page = 2; page <= PAGES; page++) {
          await vscode.commands.executeCommand(TreeCommands.loadMore, r.find((n) => n.id.endsWith('/~more')));
          r = await expand();
        }
        r = [];
        provider.refresh();
        await expand();
        afterRounds.push(+heapMb(gc).toFixed(1));
      }

      const figures = {
        customers: CUSTOMERS,
        pageSize: PAGE_SIZE,
        firstPageMedianMs: +percentile(firstPage, 50).toFixed(1),
        firstPageMaxMs: +Math.max(...firstPage).toFixed(1),
        loadMoreMedianMs: +percentile(loadMore, 50).toFixed(1),
        loadMoreP95Ms: +percentile(loadMore, 95).toFixed(1),
        loadMoreMaxMs: +Math.max(...loadMore).toFixed(1),
        rowsLoaded: loaded,
        heapBaselineMb: +baseline.toFixed(1),
        heapAfter20PagesMb: +after20.toFixed(1),
        heapGrowthBytesPerRow: Math.round(((after20 - baseline) * 1024 * 1024) / (loaded - PAGE_SIZE)),
        heapAfterRefreshMb: +afterReset.toFixed(1),
        rowReleasedAfterRefresh: rowReleased,
        heapAfterMoreRoundsMb: afterRounds,
      };
      suiteLog(`[views-bench] ${JSON.stringify(figures)}`);
    } finally {
      await services.keys.delete(services.secretName('custom'));
      for (const key of [Settings.environment, Settings.customUrl, Settings.pageSize]) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
      sandbox.child.kill();
    }
  });
});
