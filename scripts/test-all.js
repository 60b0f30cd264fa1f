#!/usr/bin/env node
// `npm test`: every check a change must pass, in order. It starts by making sure the machine has what
// the real-VS-Code suites need (scripts/ensure-test-deps.js: installs it, or stops at once with the
// command to run), so a fresh clone needs only `npm ci` before it. Steps whose suite does not exist yet
// say so and are skipped; a failing step fails the whole run (exit code 1) after the rest ran.
// The output of each step is passed through as it comes and also read for its test counts, so
// the run ends with one line of totals over all suites.
//
// On macOS, Windows and Linux other than x64, the suites in code-server are skipped, and the run says
// so and why (scripts/platform.js); build, type check, lint, unit and the prism-checked API suite run.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { npmCommand, realVsCodeUnsupported } = require('./platform');

const root = path.resolve(__dirname, '..');

const npmRun = (...args) => ({ npm: ['run', ...args] });

const steps = [
  { name: 'build', ...npmRun('build') },
  { name: 'typecheck', ...npmRun('typecheck') },
  { name: 'lint', ...npmRun('lint') },
  { name: 'unit', ...npmRun('test:unit') },
  // The API suite again with every sandbox behind `prism proxy --errors`: the sandbox's answers checked
  // against the platform's OpenAPI export (test/support/prismProxy.ts).
  { name: 'API suite through prism', cmd: [process.execPath, 'scripts/test-prism.js'] },
  { name: 'extension host', ...npmRun('test:suite'), needs: 'test/suite', realVsCode: true },
  // The same suite on the oldest VS Code the extension supports (engines.vscode ^1.100.0).
  { name: 'extension host, VS Code 1.100', ...npmRun('test:suite:min', '--', '--no-build'), needs: 'test/suite', realVsCode: true },
  // The suites that depend on VS Code's display language once more, with VS Code in Turkish (the
  // others assert English messages): the export's separator must be `;` there.
  { name: 'extension host, in Turkish', ...npmRun('test:suite', '--', '--no-build', '--locale', 'tr', '--grep', 'Excel separator'), needs: 'test/suite', realVsCode: true },
  { name: 'UI (browser)', ...npmRun('test:e2e'), needs: 'test/e2e', realVsCode: true },
];

/**
 * The steps to run (those named by `only`, or all), each with its command ({ command, args, shell }) or
 * the reason it is skipped on this machine.
 */
function plannedSteps({ only = [], platform = process.platform, arch = process.arch, env = process.env, exists = (p) => fs.existsSync(path.join(root, p)) } = {}) {
  const unsupported = realVsCodeUnsupported(platform, arch);
  return steps
    .filter((step) => !only.length || only.some((o) => step.name.startsWith(o)))
    .map((step) => {
      if (step.needs && !exists(path.join(step.needs, 'index.ts'))) return { name: step.name, skip: 'not there yet' };
      if (step.realVsCode && unsupported) return { name: step.name, skip: unsupported };
      const run = step.npm ? npmCommand(step.npm, env, platform) : { command: step.cmd[0], args: step.cmd.slice(1), shell: false };
      return { name: step.name, realVsCode: !!step.realVsCode, run };
    });
}

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

function run({ command, args, shell }, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, shell, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const chosen = plannedSteps({ only: process.argv.slice(2) });
  const env = { ...process.env };
  if (chosen.some((step) => step.realVsCode)) {
    console.log('=== test dependencies ===');
    try {
      Object.assign(env, require('./ensure-test-deps').ensureTestDeps());
    } catch (e) {
      console.error(`\n${e.message}`);
      process.exit(1);
    }
  }
  const results = [];
  for (const step of chosen) {
    if (step.skip) {
      console.log(`\n=== ${step.name}: skipped, ${step.skip} ===`);
      results.push({ name: step.name, status: 'skipped', reason: step.skip });
      continue;
    }
    console.log(`\n=== ${step.name} ===`);
    const started = Date.now();
    const { code, output } = await run(step.run, env);
    results.push({ name: step.name, status: code === 0 ? 'passed' : 'failed', seconds: ((Date.now() - started) / 1000).toFixed(1), tests: countTests(output) });
  }

  console.log('\n=== summary ===');
  for (const r of results) {
    const tests = r.tests ? `: ${r.tests.passed} passed, ${r.tests.failed} failed, ${r.tests.skipped} skipped` : '';
    console.log(`${r.status.padEnd(8)} ${r.name}${r.seconds ? ` (${r.seconds} s)` : ''}${tests}${r.reason ? `: ${r.reason}` : ''}`);
  }
  const failedSteps = results.filter((r) => r.status === 'failed').length;
  const passed = results.reduce((n, r) => n + (r.tests?.passed ?? 0), 0);
  // A step that failed without printing counts (a build or lint error) still counts as a failure.
  const failed = results.reduce((n, r) => n + (r.tests ? r.tests.failed : r.status === 'failed' ? 1 : 0), 0);
  const skipped = results.reduce((n, r) => n + (r.tests?.skipped ?? 0), 0);
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(failedSteps > 0 ? 1 : 0);
}

module.exports = { plannedSteps, countTests };

if (require.main === module) main();
