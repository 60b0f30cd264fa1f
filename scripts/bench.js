#!/usr/bin/env node
// `npm run bench [-- name]`: builds the test bundles, then runs every out/test/bench/**/*.bench.js
// (or those whose path contains `name`) in its own `node --expose-gc` process, one after another,
// printing each one's output. Each benchmark prints a `BENCH {...}` line per figure
// (scripts/bench-report.js); the run ends with one table of them all: figure, value, same-run
// baseline, goal, met / NOT MET / report / skipped.
//
// `npm run bench -- --list [name]` lists them (quick ones marked) without running any.
//
// `npm run bench -- --summary` runs only the quick benchmarks (QUICK below, each about a minute or
// less on the 2-core machine), some at a smaller size, which their rows say.
//
// Exit code 1 when a benchmark fails, a figure with a goal is not met, or a BENCH line is malformed.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { collectBenchLines, formatTable, isNotMet } = require('./bench-report');

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const summary = args.includes('--summary');
const filters = args.filter((a) => !a.startsWith('-'));

/**
 * The benchmarks `--summary` runs, with the arguments that keep them quick. Left out: reconciliation
 * (builds a 1.5 million taxpayer index, then reconciles 100,000 customers twice in the extension
 * host: several minutes).
 */
const QUICK = {
  'shell.bench.js': [],
  'registryIndex.bench.js': ['--registry', '300000'],
  'client.bench.js': ['--registry', '300000'],
  'sandbox.bench.js': ['--registry', '300000'],
  'domain.bench.js': [],
  'badInputCsv.bench.js': [],
  'diagnostics.bench.js': [],
  'views.bench.js': [],
  'profileSwitch.bench.js': [],
  'adversarial.bench.js': [],
  // GİB's rules (issue 40): about a minute; its figures are skipped without GİB's archives.
  'gibRules.bench.js': [],
};

function walk(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : p.endsWith('.bench.js') ? [p] : [];
  });
}

/** Runs one benchmark, passing its output through as it comes; resolves with its exit code and output. */
function runBench(file, benchArgs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', file, ...benchArgs], { cwd: root, stdio: ['inherit', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.on('error', (e) => {
      console.error(`bench: ${e.message}`);
      resolve({ status: 1, output });
    });
    child.on('close', (status, signal) => resolve({ status: signal ? 1 : status, output }));
  });
}

async function main() {
  const build = spawnSync(process.execPath, ['esbuild.js', '--tests'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('bench: build failed');
    return 1;
  }

  const benchDir = path.join(root, 'out/test/bench');
  const all = walk(benchDir).sort();
  let chosen = summary ? all.filter((f) => path.relative(benchDir, f) in QUICK) : all;
  if (filters.length) chosen = chosen.filter((f) => filters.some((name) => path.relative(root, f).includes(name)));
  if (args.includes('--list')) {
    for (const name of chosen.map((f) => path.relative(benchDir, f))) console.log(name in QUICK ? `${name}  (quick)` : name);
    return 0;
  }
  if (chosen.length === 0) {
    console.error(`bench: no ${summary ? 'quick ' : ''}benchmark matches ${filters.join(', ') || '(none built)'}; found: ${all.map((f) => path.basename(f)).join(', ') || 'none'}`);
    return 1;
  }
  console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} (a busy machine makes the times noisy)`);

  const results = [];
  const figures = [];
  const malformed = [];
  const silent = [];
  for (const file of chosen) {
    const name = path.relative(benchDir, file);
    const benchArgs = summary ? QUICK[name] : [];
    console.log(`\n=== ${name}${benchArgs.length ? ' ' + benchArgs.join(' ') : ''} ===`);
    const started = Date.now();
    const r = await runBench(file, benchArgs);
    const ok = r.status === 0;
    results.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1) });
    const bench = name.replace(/\.bench\.js$/, '');
    const found = collectBenchLines(r.output, bench);
    figures.push(...found.figures);
    malformed.push(...found.malformed);
    if (found.figures.length === 0) silent.push([bench, '(printed no BENCH line)', '—', '', '—', ok ? '—' : 'bench FAILED']);
  }

  console.log('\n=== benchmarks ===');
  for (const r of results) console.log(`${r.ok ? 'ok    ' : 'FAILED'} ${r.name} (${r.seconds} s)`);
  console.log(`\n=== figures${summary ? ' (quick benchmarks; see each row for the size measured)' : ''} ===`);
  console.log(formatTable(figures, malformed, silent));
  return results.every((r) => r.ok) && !figures.some(isNotMet) && malformed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
