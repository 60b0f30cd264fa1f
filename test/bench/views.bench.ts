// Sidebar tree budgets with 100,000 customers, measured in a real extension host (code-server) by
// test/bench/host/views.test.ts: expand → first page and "Load more" → next page, each ≤ 200 ms on
// the local sandbox; extension-host heap after 20 pages growing with the rows loaded only (a bound
// per row); after a refresh the dropped rows are collectable (a WeakRef to one is cleared) and the
// heap does not creep up over further rounds. Each figure is also a BENCH line (scripts/bench-report.js),
// skipped when code-server is not installed.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { printBench } from './benchLine';

const root = path.resolve(__dirname, '..', '..', '..');
const PAGE_BUDGET_MS = 200;
/** A row keeps its record (14 short fields) and its node; 4 KB each is generous and still catches a leak of pages. */
const BYTES_PER_ROW_BUDGET = 4096;

const FIGURES = {
  firstPage: ['views: expand → first page, median', `≤ ${PAGE_BUDGET_MS} ms`],
  loadMore: ['views: "Load more" → next page, p95', `≤ ${PAGE_BUDGET_MS} ms`],
  perRow: ['views: extension-host heap growth per row loaded', `≤ ${BYTES_PER_ROW_BUDGET} B`],
  released: ['views: rows of a dropped page still reachable after a refresh (1 checked)', '= 0'],
  creep: ['views: heap creep over two more rounds of 20 pages', '≤ 2 MB'],
} as const;

/** The machine-readable line `npm run bench` collects. */
function benchLine([figure, goal]: readonly [string, string], value: number, unit: string, met: boolean): void {
  printBench({ figure, goal, value, unit, met });
}

interface Figures {
  customers: number;
  pageSize: number;
  firstPageMedianMs: number;
  firstPageMaxMs: number;
  loadMoreMedianMs: number;
  loadMoreP95Ms: number;
  loadMoreMaxMs: number;
  rowsLoaded: number;
  heapBaselineMb: number;
  heapAfter20PagesMb: number;
  heapGrowthBytesPerRow: number;
  heapAfterRefreshMb: number;
  rowReleasedAfterRefresh: boolean;
  heapAfterMoreRoundsMb: number[];
}

function main(): void {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'run-suite.js'), '--grep', 'views benchmark'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, NILVERA_VIEWS_BENCH: '1' },
  });
  const output = `${r.stdout}\n${r.stderr}`;
  if (/is not installed/.test(output)) {
    console.log('views bench skipped: code-server is not installed (node scripts/code-server.js install)');
    for (const [figure, goal] of Object.values(FIGURES)) printBench({ figure, goal, skipped: 'code-server is not installed' });
    return;
  }
  const m = /\[views-bench\] (\{.*\})/.exec(output);
  if (r.status !== 0 || !m) {
    console.error(output.slice(-3000));
    throw new Error(`the extension-host measurement failed (exit ${r.status})`);
  }
  const f = JSON.parse(m[1]) as Figures;
  console.log(`customers in the sandbox         ${f.customers.toLocaleString('en')} (page size ${f.pageSize})`);
  console.log(`expand → first page              median ${f.firstPageMedianMs} ms, max ${f.firstPageMaxMs} ms   (budget ${PAGE_BUDGET_MS} ms)`);
  console.log(`"Load more" → next page          median ${f.loadMoreMedianMs} ms, p95 ${f.loadMoreP95Ms} ms, max ${f.loadMoreMaxMs} ms   (budget ${PAGE_BUDGET_MS} ms)`);
  console.log(`extension-host heap              ${f.heapBaselineMb} MB with 1 page → ${f.heapAfter20PagesMb} MB with ${f.rowsLoaded} rows (${f.heapGrowthBytesPerRow} B/row, budget ${BYTES_PER_ROW_BUDGET}) → ${f.heapAfterRefreshMb} MB after refresh`);
  console.log(`after refresh                    row of page 10 released: ${f.rowReleasedAfterRefresh}; heap after two more rounds: ${f.heapAfterMoreRoundsMb.join(' MB, ')} MB`);
  const failures: string[] = [];
  if (f.firstPageMedianMs > PAGE_BUDGET_MS) failures.push(`first page median ${f.firstPageMedianMs} ms > ${PAGE_BUDGET_MS} ms`);
  if (f.loadMoreP95Ms > PAGE_BUDGET_MS) failures.push(`load more p95 ${f.loadMoreP95Ms} ms > ${PAGE_BUDGET_MS} ms`);
  if (f.heapGrowthBytesPerRow > BYTES_PER_ROW_BUDGET) failures.push(`heap grows ${f.heapGrowthBytesPerRow} B per row > ${BYTES_PER_ROW_BUDGET}`);
  // After a refresh the loaded rows must be collectable, and repeated rounds must not creep up.
  if (!f.rowReleasedAfterRefresh) failures.push('a row of a dropped page is still reachable after a refresh');
  const creep = Math.max(...f.heapAfterMoreRoundsMb) - f.heapAfterRefreshMb;
  if (creep > 2) failures.push(`heap after refresh grows by ${creep.toFixed(1)} MB over two more rounds of 20 pages`);
  benchLine(FIGURES.firstPage, f.firstPageMedianMs, 'ms', f.firstPageMedianMs <= PAGE_BUDGET_MS);
  benchLine(FIGURES.loadMore, f.loadMoreP95Ms, 'ms', f.loadMoreP95Ms <= PAGE_BUDGET_MS);
  benchLine(FIGURES.perRow, f.heapGrowthBytesPerRow, 'B', f.heapGrowthBytesPerRow <= BYTES_PER_ROW_BUDGET);
  benchLine(FIGURES.released, f.rowReleasedAfterRefresh ? 0 : 1, 'rows', f.rowReleasedAfterRefresh);
  benchLine(FIGURES.creep, creep, 'MB', creep <= 2);
  if (failures.length) throw new Error(failures.join('; '));
  console.log('views bench: within budget');
}

main();
