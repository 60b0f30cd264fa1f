// Measurement for test/bench/reconciliation.bench.ts, run inside the real extension host: 100,000
// customers on a sandbox process (seed 1, 1.5 million taxpayers) reconciled through the command,
// against the offline index the bench built beforehand (NILVERA_RECON_BENCH_INDEX, linked in as
// the PK/Invoice list) and online through the bulk lookup. Skipped unless NILVERA_RECON_BENCH=1.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import { EXTENSION_ID, ReconciliationCommands, Settings } from '../../../src/constants';
import type { NilveraExtensionApi } from '../../../src/extension';
import type { ReconciliationTestHook } from '../../../src/reconciliation/register';
import type { ReconciliationReport } from '../../../src/reconciliation/report';
import { startBenchSandbox } from './benchSandbox';
import { suiteLog } from '../../suite/report';

const CUSTOMERS = 100_000;
const INVALID = 200;
const REGISTRY = 1_500_000;

function heapMb(): number {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
  return Math.round(process.memoryUsage().heapUsed / (1024 * 1024));
}

async function requestCount(url: string): Promise<{ list: number; bulk: number }> {
  const log = (await (await fetch(`${url}/__sandbox/requests`)).json()) as Array<{ method: string; path: string }>;
  return { list: log.filter((r) => r.method === 'GET' && /\/Customers$/.test(r.path)).length, bulk: log.filter((r) => r.method === 'POST' && /GetGlobalCustomerInfo$/.test(r.path)).length };
}

suite('Reconciliation benchmark', function () {
  this.timeout(900_000);

  test('reconciliation benchmark: 100,000 customers, offline index of 1.5 million, then online', async function () {
    const indexDir = process.env.NILVERA_RECON_BENCH_INDEX;
    if (process.env.NILVERA_RECON_BENCH !== '1' || !indexDir) this.skip();
    const sandbox = await startBenchSandbox(['--seed', '1', '--customers', String(CUSTOMERS), '--invalid-customers', String(INVALID), '--registry', String(REGISTRY)]);
    const ext = vscode.extensions.getExtension<NilveraExtensionApi>(EXTENSION_ID)!;
    const api = await ext.activate();
    const config = vscode.workspace.getConfiguration(Settings.section);
    try {
      await config.update(Settings.customUrl, sandbox.url, vscode.ConfigurationTarget.Global);
      await config.update(Settings.environment, 'custom', vscode.ConfigurationTarget.Global);
      await api.testing.services.keys.store(api.testing.services.secretName('custom'), sandbox.key);
      const hook = (await vscode.commands.executeCommand<ReconciliationTestHook>(ReconciliationCommands.testHook))!;
      // The bench's index becomes the only Invoice list (a GB list from another run would be merged in).
      fs.mkdirSync(hook.indexRoot, { recursive: true });
      for (const list of ['PK-Invoice', 'GB-Invoice']) fs.rmSync(path.join(hook.indexRoot, list), { recursive: true, force: true });
      fs.symlinkSync(indexDir, path.join(hook.indexRoot, 'PK-Invoice'), 'dir');
      fs.rmSync(hook.snapshotFile(sandbox.url), { force: true });
      // The shared lookup re-reads the list pointers at most once a second.
      await new Promise((r) => setTimeout(r, 1100));
      const heapBefore = heapMb();

      // Only summaries are kept here, so the heap figure counts the one report the view holds.
      const runs: Array<{ source: string; ms: number; classifyMs: number; total: number; users: number; notUsers: number; invalid: number; changes: number; requests: { list: number; bulk: number } }> = [];
      for (const source of ['offline', 'offline', 'online'] as const) {
        await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
        const started = performance.now();
        const report = await vscode.commands.executeCommand<ReconciliationReport>(ReconciliationCommands.run, { source });
        const ms = Math.round(performance.now() - started);
        assert.ok(report, `the ${source} run failed`);
        const c = report.changes;
        runs.push({
          source, ms, classifyMs: report.classifyMs, total: report.totalCustomers, users: report.users.length, notUsers: report.notUsers.length, invalid: report.invalid.length,
          changes: (c?.newlyRegistered.length ?? 0) + (c?.aliasChanged.length ?? 0) + (c?.deregistered.length ?? 0),
          requests: await requestCount(sandbox.url),
        });
      }
      const heapAfter = heapMb();
      const [first, second, online] = runs;
      assert.equal(first.total, CUSTOMERS + INVALID);
      assert.equal(first.invalid, INVALID);
      // Index and online lookups agree.
      assert.equal(online.users, first.users);
      assert.equal(online.notUsers, first.notUsers);
      const figures = {
        customers: first.total,
        registry: REGISTRY,
        users: first.users,
        notUsers: first.notUsers,
        invalid: first.invalid,
        runs: runs.map((r) => ({ source: r.source, ms: r.ms, classifyMs: r.classifyMs, listRequests: r.requests.list, bulkRequests: r.requests.bulk })),
        secondRunChanges: second.changes,
        heapBeforeMb: heapBefore,
        heapAfterMb: heapAfter,
      };
      suiteLog(`[recon-bench] ${JSON.stringify(figures)}`);
    } finally {
      sandbox.child.kill('SIGTERM');
      await api.testing.services.keys.delete(api.testing.services.secretName('custom'));
    }
  });
});
