#!/usr/bin/env node
// `npm test`: every check a change must pass, in order. Steps whose suite does not exist yet
// say so and are skipped; a failing step fails the whole run (exit code 1) after the rest ran.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const steps = [
  { name: 'build', cmd: [npm, 'run', 'build'] },
  { name: 'typecheck', cmd: [npm, 'run', 'typecheck'] },
  { name: 'lint', cmd: [npm, 'run', 'lint'] },
  { name: 'unit', cmd: [npm, 'run', 'test:unit'] },
  { name: 'extension host', cmd: [npm, 'run', 'test:suite'], needs: 'test/suite' },
  { name: 'UI (browser)', cmd: [npm, 'run', 'test:e2e'], needs: 'test/e2e' },
];

const only = process.argv.slice(2);
const results = [];
for (const step of steps) {
  if (only.length && !only.some((o) => step.name.startsWith(o))) continue;
  if (step.needs && !fs.existsSync(path.join(root, step.needs, 'index.ts')) && !fs.existsSync(path.join(root, step.needs, 'run.ts'))) {
    console.log(`\n=== ${step.name}: not there yet (skipped) ===`);
    results.push({ name: step.name, status: 'skipped' });
    continue;
  }
  console.log(`\n=== ${step.name} ===`);
  const started = Date.now();
  const r = spawnSync(step.cmd[0], step.cmd.slice(1), { cwd: root, stdio: 'inherit', env: process.env });
  const ok = r.status === 0;
  results.push({ name: step.name, status: ok ? 'passed' : 'failed', seconds: ((Date.now() - started) / 1000).toFixed(1) });
}

console.log('\n=== summary ===');
for (const r of results) console.log(`${r.status.padEnd(8)} ${r.name}${r.seconds ? ` (${r.seconds} s)` : ''}`);
const failed = results.filter((r) => r.status === 'failed').length;
const passed = results.filter((r) => r.status === 'passed').length;
console.log(`steps: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
