// Diagnostics on a 5 MB UBL-TR invoice (aim: ≤ 100 ms per update after the first). Two parts:
// 1. plain Node, the pure work of one update: scan + rules on the whole text, first run and 30 runs
//    after one-character edits (median, p95);
// 2. the real extension host (code-server), by test/bench/host/diagnostics.test.ts: the scan time per
//    update there and the edit → diagnostics round trip (which includes the 200 ms debounce).
// The budget is held on CPU time (exit 1 when over); wall times are reported beside it. Each figure is
// also a BENCH line (scripts/bench-report.js); without code-server the extension-host ones are skipped.
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { scanUbl } from '../../src/editor/diagnostics/ublScan';
import { documentFindings } from '../../src/editor/diagnostics/rules';
import { largeInvoice } from '../support/largeInvoice';
import { printBench } from './benchLine';

const root = path.resolve(__dirname, '..', '..', '..');
const UPDATE_BUDGET_MS = 100;
const RUNS = 30;

/** The machine-readable line `npm run bench` collects. */
function benchLine(figure: string, goal: number | 'report', value: number, unit = 'ms'): void {
  printBench({ figure, goal: goal === 'report' ? goal : `≤ ${goal} ms`, value, unit, ...(goal === 'report' ? {} : { met: value <= goal }) });
}

const HOST_FIGURES = ['diagnostics update after an edit, extension host, CPU p95', 'diagnostics update after an edit, extension host, wall p95', 'diagnostics edit → shown, extension host, median (debounce included)'];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function pureUpdate(text: string): { ms: number; cpuMs: number; errors: number } {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const findings = documentFindings(scanUbl(text), undefined);
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, errors: findings.filter((f) => f.severity === 'error').length };
}

function plainNode(): number {
  let text = largeInvoice(path.join(root, 'test', 'fixtures', 'ubl-tr-invoice-bad-customer-vkn.xml'), 5 * 1024 * 1024);
  const first = pureUpdate(text);
  if (first.errors !== 1) throw new Error(`expected the one checksum error, got ${first.errors}`);
  const supplier = text.indexOf('4540536920');
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // One character changes, as with typing; every run must see it (the supplier error comes and goes).
    const wrong = i % 2 === 0;
    text = text.slice(0, supplier + 9) + (wrong ? '7' : '0') + text.slice(supplier + 10);
    const r = pureUpdate(text);
    if (r.errors !== (wrong ? 2 : 1)) throw new Error(`run ${i}: ${r.errors} errors`);
    times.push(r.ms);
    cpuTimes.push(r.cpuMs);
  }
  const f = (n: number) => n.toFixed(1);
  console.log(`load average ${os.loadavg().map(f).join(', ')} on ${os.cpus().length} cores (wall times include waiting for a core; CPU times do not)`);
  console.log(`plain Node, ${(Buffer.byteLength(text) / 1048576).toFixed(1)} MB invoice: first scan ${f(first.ms)} ms wall, ${f(first.cpuMs)} ms CPU`);
  console.log(`  after a one-character edit (${RUNS} runs): wall median ${f(percentile(times, 50))} ms, p95 ${f(percentile(times, 95))} ms; CPU median ${f(percentile(cpuTimes, 50))} ms, p95 ${f(percentile(cpuTimes, 95))} ms (budget ${UPDATE_BUDGET_MS} ms)`);
  benchLine('diagnostics update after an edit, 5 MB invoice, plain Node, CPU p95', UPDATE_BUDGET_MS, percentile(cpuTimes, 95));
  benchLine('diagnostics update after an edit, 5 MB invoice, plain Node, wall p95', 'report', percentile(times, 95));
  return percentile(cpuTimes, 95);
}

interface HostFigures {
  bytes: number;
  firstScanMs: number;
  firstScanCpuMs: number;
  updateCpuMedianMs: number;
  updateCpuP95Ms: number;
  loadAverage: number[];
  openToDiagnosticsMs: number;
  updateScanMedianMs: number;
  updateScanP95Ms: number;
  updateScanMaxMs: number;
  roundTripMedianMs: number;
  roundTripP95Ms: number;
  debounceMs: number;
}

function extensionHost(): number | undefined {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'run-suite.js'), '--grep', 'diagnostics benchmark'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, NILVERA_DIAGNOSTICS_BENCH: '1' },
  });
  const output = `${r.stdout}\n${r.stderr}`;
  if (/is not installed/.test(output)) {
    console.log('extension host: skipped, code-server is not installed (node scripts/code-server.js install)');
    for (const figure of HOST_FIGURES) printBench({ figure, goal: figure.includes('CPU') ? `≤ ${UPDATE_BUDGET_MS} ms` : 'report', skipped: 'code-server is not installed' });
    return undefined;
  }
  const m = /\[diagnostics-bench\] (\{.*\})/.exec(output);
  if (r.status !== 0 || !m) {
    console.error(output.slice(-3000));
    throw new Error(`the extension-host measurement failed (exit ${r.status})`);
  }
  const f = JSON.parse(m[1]) as HostFigures;
  console.log(`extension host (code-server, load average then ${f.loadAverage.join(', ')}), ${(f.bytes / 1048576).toFixed(1)} MB: first update ${f.firstScanMs} ms wall, ${f.firstScanCpuMs} ms CPU (open → diagnostics shown ${f.openToDiagnosticsMs} ms)`);
  console.log(`  update after an edit (getText + scan + rules + publish): wall median ${f.updateScanMedianMs} ms, p95 ${f.updateScanP95Ms} ms, max ${f.updateScanMaxMs} ms; CPU median ${f.updateCpuMedianMs} ms, p95 ${f.updateCpuP95Ms} ms (budget ${UPDATE_BUDGET_MS} ms)`);
  console.log(`  edit → diagnostics changed: median ${f.roundTripMedianMs} ms, p95 ${f.roundTripP95Ms} ms (includes the ${f.debounceMs} ms debounce)`);
  benchLine(HOST_FIGURES[0], UPDATE_BUDGET_MS, f.updateCpuP95Ms);
  benchLine(HOST_FIGURES[1], 'report', f.updateScanP95Ms);
  benchLine(HOST_FIGURES[2], 'report', f.roundTripMedianMs);
  return f.updateCpuP95Ms;
}

function main(): void {
  const failures: string[] = [];
  const nodeP95 = plainNode();
  // Gated on CPU time: on a shared machine the wall time mostly measures the wait for a core.
  if (nodeP95 > UPDATE_BUDGET_MS) failures.push(`plain Node update CPU p95 ${nodeP95.toFixed(1)} ms > ${UPDATE_BUDGET_MS} ms`);
  const hostP95 = extensionHost();
  if (hostP95 !== undefined && hostP95 > UPDATE_BUDGET_MS) failures.push(`extension-host update CPU p95 ${hostP95} ms > ${UPDATE_BUDGET_MS} ms`);
  if (failures.length) {
    console.log(`over budget: ${failures.join('; ')}`);
    process.exit(1);
  }
}

main();
