// Switching profiles with all views open: the time from "Switch Profile" until the customers view has
// the new company's first page, in a real extension host (code-server), measured by
// test/bench/host/profileSwitch.test.ts against one sandbox serving two companies (A → B → A …, 30
// timed switches). Reported, no budget yet: median and p95.
// Run: npm run bench -- profileSwitch
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { printBench } from './benchLine';

const root = path.resolve(__dirname, '..', '..', '..');

interface Figures {
  customersPerCompany: number;
  pageSize: number;
  switches: number;
  firstPageMedianMs: number;
  firstPageP95Ms: number;
  firstPageMinMs: number;
  firstPageMaxMs: number;
  cachedMedianMs: number;
  cachedP95Ms: number;
  samplesMs: number[];
  /** The untimed first switch, to the profile already active right after the views opened. */
  firstSwitchMs: number;
}

/** The machine-readable line `npm run bench` collects (scripts/bench-report.js); these figures are reported, no goal. */
function benchLine(figure: string, value: number, unit: string): void {
  printBench({ figure, goal: 'report', value, unit });
}

function main(): void {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'run-suite.js'), '--grep', 'profile switch benchmark'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 900_000,
    env: { ...process.env, NILVERA_PROFILE_SWITCH_BENCH: '1' },
  });
  const output = `${r.stdout}\n${r.stderr}`;
  if (/is not installed/.test(output)) {
    console.log('profile switch bench skipped: code-server is not installed (node scripts/code-server.js install)');
    return;
  }
  const m = /\[profile-switch-bench\] (\{.*\})/.exec(output);
  if (r.status !== 0 || !m) {
    console.error(output.slice(-3000));
    throw new Error(`the extension-host measurement failed (exit ${r.status})`);
  }
  const f = JSON.parse(m[1]) as Figures;
  console.log(`two companies at one sandbox      ${f.customersPerCompany.toLocaleString('en')} customers each (page size ${f.pageSize}), five views open`);
  console.log(`switch → new first customers page median ${f.firstPageMedianMs} ms, p95 ${f.firstPageP95Ms} ms, min ${f.firstPageMinMs} ms, max ${f.firstPageMaxMs} ms (${f.switches} switches)`);
  console.log(`switch → page in the tree's cache median ${f.cachedMedianMs} ms, p95 ${f.cachedP95Ms} ms`);
  console.log(`samples (ms)                      ${f.samplesMs.join(', ')}`);
  console.log(`first switch, views just opened   ${f.firstSwitchMs} ms (untimed; about 1 s when VS Code kept a view's first answer and the second notice brought the page)`);
  benchLine('profile switch to first customers page (median)', f.firstPageMedianMs, 'ms');
  benchLine('profile switch to first customers page (p95)', f.firstPageP95Ms, 'ms');
}

main();
