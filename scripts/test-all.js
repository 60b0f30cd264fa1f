#!/usr/bin/env node
// `npm test`: every check a change must pass, in order. Steps whose suite does not exist yet
// say so and are skipped; a failing step fails the whole run (exit code 1) after the rest ran.
// The output of each step is passed through as it comes and also read for its test counts, so
// the run ends with one line of totals over all suites.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const steps = [
  { name: 'build', cmd: [npm, 'run', 'build'] },
  { name: 'typecheck', cmd: [npm, 'run', 'typecheck'] },
  { name: 'lint', cmd: [npm, 'run', 'lint'] },
  { name: 'unit', cmd: [npm, 'run', 'test:unit'] },
  // The API suite again with every sandbox behind `prism proxy --errors`: the sandbox's answers checked
  // against the platform's OpenAPI export (test/support/prismProxy.ts).
  { name: 'API suite through prism', cmd: [process.execPath, 'scripts/test-prism.js'] },
  { name: 'extension host', cmd: [npm, 'run', 'test:suite'], needs: 'test/suite' },
  // The same suite on the oldest VS Code the extension supports (engines.vscode ^1.100.0).
  { name: 'extension host, VS Code 1.100', cmd: [npm, 'run', 'test:suite:min', '--', '--no-build'], needs: 'test/suite' },
  { name: 'UI (browser)', cmd: [npm, 'run', 'test:e2e'], needs: 'test/e2e' },
];

/**
 * Test counts as the runners print them: node:test (`ℹ pass N`, `ℹ fail N`, `ℹ cancelled N`,
 * `ℹ skipped N`, `ℹ todo N`, or with `#`) and mocha (`N passing`, `N failing`, `N pending`).
 * Skipped, todo and pending tests are counted apart: they neither passed nor failed.
 */
function countTests(output) {
  const last = (re) => {
    let m;
    let value;
    while ((m = re.exec(output)) !== null) value = Number(m[1]);
    return value;
  };
  const node = (word) => last(new RegExp(`^(?:ℹ|#) ${word} (\\d+)$`, 'gm'));
  const nodePass = node('pass');
  if (nodePass !== undefined) {
    return { passed: nodePass, failed: (node('fail') ?? 0) + (node('cancelled') ?? 0), skipped: (node('skipped') ?? 0) + (node('todo') ?? 0) };
  }
  const mochaPass = last(/^\s*(\d+) passing/gm);
  if (mochaPass !== undefined) return { passed: mochaPass, failed: last(/^\s*(\d+) failing/gm) ?? 0, skipped: last(/^\s*(\d+) pending/gm) ?? 0 };
  return undefined;
}

function run(cmd) {
  return new Promise((resolve) => {
    const child = spawn(cmd[0], cmd.slice(1), { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function main() {
  const only = process.argv.slice(2);
  const results = [];
  for (const step of steps) {
    if (only.length && !only.some((o) => step.name.startsWith(o))) continue;
    if (step.needs && !fs.existsSync(path.join(root, step.needs, 'index.ts'))) {
      console.log(`\n=== ${step.name}: not there yet (skipped) ===`);
      results.push({ name: step.name, status: 'skipped' });
      continue;
    }
    console.log(`\n=== ${step.name} ===`);
    const started = Date.now();
    const { code, output } = await run(step.cmd);
    results.push({ name: step.name, status: code === 0 ? 'passed' : 'failed', seconds: ((Date.now() - started) / 1000).toFixed(1), tests: countTests(output) });
  }

  console.log('\n=== summary ===');
  for (const r of results) {
    const tests = r.tests ? `: ${r.tests.passed} passed, ${r.tests.failed} failed, ${r.tests.skipped} skipped` : '';
    console.log(`${r.status.padEnd(8)} ${r.name}${r.seconds ? ` (${r.seconds} s)` : ''}${tests}`);
  }
  const failedSteps = results.filter((r) => r.status === 'failed').length;
  const passed = results.reduce((n, r) => n + (r.tests?.passed ?? 0), 0);
  // A step that failed without printing counts (a build or lint error) still counts as a failure.
  const failed = results.reduce((n, r) => n + (r.tests ? r.tests.failed : r.status === 'failed' ? 1 : 0), 0);
  const skipped = results.reduce((n, r) => n + (r.tests?.skipped ?? 0), 0);
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(failedSteps > 0 ? 1 : 0);
}

main();
