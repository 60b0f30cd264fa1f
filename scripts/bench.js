#!/usr/bin/env node
// `npm run bench [-- name]`: builds the test bundles, then runs every out/test/bench/**/*.bench.js
// (or those whose path contains `name`) in its own `node --expose-gc` process, one after another,
// printing each one's output. Exit code 1 when any benchmark fails.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));

function walk(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : p.endsWith('.bench.js') ? [p] : [];
  });
}

const build = spawnSync(process.execPath, ['esbuild.js', '--tests'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('bench: build failed');
  process.exit(1);
}

const all = walk(path.join(root, 'out/test/bench')).sort();
const chosen = filters.length ? all.filter((f) => filters.some((name) => path.relative(root, f).includes(name))) : all;
if (chosen.length === 0) {
  console.error(`bench: no benchmark matches ${filters.join(', ') || '(none built)'}; found: ${all.map((f) => path.basename(f)).join(', ') || 'none'}`);
  process.exit(1);
}

const results = [];
for (const file of chosen) {
  const name = path.relative(path.join(root, 'out/test/bench'), file);
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--expose-gc', file], { cwd: root, stdio: 'inherit' });
  results.push({ name, ok: r.status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) });
}

console.log('\n=== benchmarks ===');
for (const r of results) console.log(`${r.ok ? 'ok    ' : 'FAILED'} ${r.name} (${r.seconds} s)`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
