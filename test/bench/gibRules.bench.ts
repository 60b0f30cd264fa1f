// GİB's rules (`npm run bench -- gibRules`), the engine in plain Node as the CLI and the worker run it:
//   - per document on GİB's 43 samples (UBL-TR1.2.1_Paketi xml/), XSD + Schematron, warm: median
//     (goal ≤ 15 ms) and p90;
//   - a generated invoice of 6,000 elements (the hand-written fixture's line repeated): goal ≤ 250 ms;
//   - cold start: a fresh process (dist/validate.js) from nothing to the first findings of one sample,
//     GİB's two archives read and the invoice XSD compiled on the way: goal ≤ 0.5 s.
// Judged by CPU time (process.cpuUsage; the machine is shared, so wall time mostly says how busy it is);
// wall time and the load average are in each line's note. The extension-host figures of issue 40
// (keystroke to diagnostics, the VSIX size added) wait for the extension side and say so.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { gibArchives, gibSamples } from '../support/gibPackages';
import { loadGibEngine } from '../../src/gib/engine';
import { printBench } from './benchLine';

const root = path.resolve(__dirname, '..', '..', '..');
const RUNS = 7;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];
const load = (): string => `load average ${loadavg()[0].toFixed(1)}`;

async function timed<T>(run: () => Promise<T>): Promise<{ cpuMs: number; wallMs: number; value: T }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await run();
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started, value };
}

/** The fixture invoice with its first line repeated until the document has `elements` elements. */
function invoiceOf(elements: number): string {
  const text = readFileSync(path.join(root, 'test/fixtures/gib/invoice.xml'), 'utf8');
  const start = text.indexOf('  <cac:InvoiceLine>');
  const end = text.indexOf('</cac:InvoiceLine>', start) + '</cac:InvoiceLine>\n'.length;
  const line = text.slice(start, end);
  const count = (s: string): number => (s.match(/<[A-Za-z]/g) ?? []).length;
  const lines: string[] = [];
  for (let n = 3, total = count(text); total < elements; n++, total += count(line)) lines.push(line.replace('<cbc:ID>1</cbc:ID>', `<cbc:ID>${n}</cbc:ID>`));
  return text.slice(0, end) + lines.join('') + text.slice(end);
}

async function main(): Promise<void> {
  const archives = gibArchives();
  if (!archives) {
    for (const figure of ['GİB rules: per document, median of GİB\'s samples', 'GİB rules: 6,000-element invoice', 'GİB rules: cold start to first findings']) {
      printBench({ figure, goal: 'report', skipped: "GİB's archives are not in ../shared/data/gib" });
    }
    return;
  }
  const engine = await loadGibEngine(archives);
  const samples = (await gibSamples()).filter((s) => s.name.startsWith('UBL-TR1.2.1_Paketi.zip/'));
  for (const s of samples) await engine.validate(s.text); // warm: schemas compiled, expressions compiled
  const cpu: number[] = [];
  const wall: number[] = [];
  for (const s of samples) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await timed(() => engine.validate(s.text)));
    cpu.push(median(runs.map((r) => r.cpuMs)));
    wall.push(median(runs.map((r) => r.wallMs)));
  }
  console.log(`GİB's ${samples.length} samples: CPU median ${median(cpu).toFixed(1)} ms, p90 ${p90(cpu).toFixed(1)} ms, max ${Math.max(...cpu).toFixed(1)} ms; wall median ${median(wall).toFixed(1)} ms (${load()})`);
  printBench({ figure: "GİB rules: per document, median of GİB's 43 samples (CPU)", goal: '≤ 15 ms', value: median(cpu), unit: 'ms', met: median(cpu) <= 15, note: `p90 ${p90(cpu).toFixed(1)} ms; wall median ${median(wall).toFixed(1)} ms; ${load()}` });

  const big = invoiceOf(6000);
  const elements = (big.match(/<[A-Za-z]/g) ?? []).length;
  await engine.validate(big);
  const bigRuns = [];
  for (let i = 0; i < RUNS; i++) bigRuns.push(await timed(() => engine.validate(big)));
  const bigCpu = median(bigRuns.map((r) => r.cpuMs));
  console.log(`${elements}-element invoice (${(big.length / 1024).toFixed(0)} KB): CPU ${bigCpu.toFixed(0)} ms, wall ${median(bigRuns.map((r) => r.wallMs)).toFixed(0)} ms, findings ${bigRuns[0].value.findings.length}`);
  printBench({ figure: 'GİB rules: 6,000-element invoice (CPU)', goal: '≤ 250 ms', value: bigCpu, unit: 'ms', met: bigCpu <= 250, note: `${elements} elements; wall median ${median(bigRuns.map((r) => r.wallMs)).toFixed(0)} ms; ${load()}` });

  const cli = path.join(root, 'dist/validate.js');
  if (!existsSync(cli)) {
    printBench({ figure: 'GİB rules: cold start to first findings', goal: '≤ 0.5 s', skipped: 'dist/validate.js is not built (npm run build)' });
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'gib-bench-'));
  try {
    const file = path.join(dir, 'TemelFaturaOrnegi.xml');
    writeFileSync(file, samples.find((s) => s.name.endsWith('/TemelFaturaOrnegi.xml'))!.text);
    const cold: { wall: number; cpu: number }[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      // The child reports its own CPU time (user + system) on stderr's last line.
      const r = spawnSync(process.execPath, ['-e', `process.argv.splice(1, 0, 'validate'); require(${JSON.stringify(cli)}); process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('CPU ' + (u.user + u.system) / 1000 + '\\n'); });`, '--', '--rules', archives.rules, '--schemas', archives.schemas, file], { encoding: 'utf8' });
      const wallMs = performance.now() - started;
      if (r.status !== 1 || !r.stdout.includes('TemelFaturaOrnegi.xml:14:2: error')) throw new Error(`the CLI did not report the sample's finding: ${r.status} ${r.stdout} ${r.stderr}`);
      cold.push({ wall: wallMs, cpu: Number(/CPU ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN) });
    }
    const coldCpu = median(cold.map((c) => c.cpu)) / 1000;
    const coldWall = median(cold.map((c) => c.wall)) / 1000;
    console.log(`cold start (fresh node process, both archives read, XSD compiled, first findings): CPU ${coldCpu.toFixed(2)} s, wall ${coldWall.toFixed(2)} s (${load()})`);
    printBench({ figure: 'GİB rules: cold start to first findings (CPU of a fresh process)', goal: '≤ 0.5 s', value: coldCpu, unit: 's', met: coldCpu <= 0.5, note: `wall median ${coldWall.toFixed(2)} s; ${load()}` });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const figure of ['GİB rules: keystroke to diagnostics, 600 KB invoice (extension host)', 'GİB rules: VSIX size added']) {
    printBench({ figure, goal: 'report', skipped: 'the extension side (worker, diagnostics) is not built yet' });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
