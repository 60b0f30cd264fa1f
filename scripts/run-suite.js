#!/usr/bin/env node
// Runs the extension-host suite (test/suite/, mocha) inside a real VS Code.
//
//   node scripts/run-suite.js                      offline: code-server + headless Chromium (npm test, CI)
//   node scripts/run-suite.js --version 4.100.3    the same on the oldest supported VS Code
//   node scripts/run-suite.js --electron           @vscode/test-electron (downloads VS Code unless
//                                                  $VSCODE_EXECUTABLE points at one)
// Options: --no-build (reuse dist/ and out/), --grep <text>, --timeout <seconds> (default 900), --verbose,
// --extension <dir> (the extension under test, default this repository: the shell benchmark's floor),
// --locale <lang> (VS Code's display language, e.g. tr, with the UI suite's fixture language pack:
// scripts/language-pack.js; the suite sees it as NILVERA_SUITE_LOCALE).
//
// Offline: the workbench is opened with a `payload` that names the extension under development and the
// compiled suite index; VS Code calls window.codeAutomationExit(code) when the suite's run() settles.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const cs = require('./code-server');
const { realVsCodeUnsupported } = require('./platform');

const root = path.resolve(__dirname, '..');
const suiteIndex = path.join(root, 'out', 'test', 'suite', 'index.js');

function parseArgs(argv) {
  const o = { version: cs.DEFAULT_VERSION, build: true, timeoutSec: 900, electron: false, verbose: false, extension: root };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--version') o.version = argv[++i];
    else if (a === '--no-build') o.build = false;
    else if (a === '--grep') o.grep = argv[++i];
    else if (a === '--timeout') o.timeoutSec = Number(argv[++i]);
    else if (a === '--electron') o.electron = true;
    else if (a === '--verbose') o.verbose = true;
    else if (a === '--extension') o.extension = path.resolve(argv[++i]);
    else if (a === '--locale') o.locale = argv[++i];
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

function build() {
  // The development build (with source maps) of the extension, plus every test bundle.
  const r = spawnSync(process.execPath, ['esbuild.js', '--tests'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('build failed');
  const r2 = spawnSync(process.execPath, ['esbuild.js'], { cwd: root, stdio: 'inherit' });
  if (r2.status !== 0) throw new Error('build failed');
}

async function runElectron(o) {
  const { runTests } = require('@vscode/test-electron');
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-suite-ws-'));
  return runTests({
    extensionDevelopmentPath: o.extension,
    extensionTestsPath: suiteIndex,
    vscodeExecutablePath: process.env.VSCODE_EXECUTABLE || undefined,
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', ...(o.locale ? ['--locale', o.locale] : [])],
    extensionTestsEnv: { ...(o.grep ? { NILVERA_SUITE_GREP: o.grep } : {}), ...(o.locale ? { NILVERA_SUITE_LOCALE: o.locale } : {}) },
  }).then(
    () => 0,
    (e) => {
      console.error(e && e.message ? e.message : e);
      return 1;
    },
  );
}

/** Chromium with the flags that keep a headless run quiet and offline. */
async function launchBrowser() {
  const { chromium } = require('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

/** Harmless lines of an offline run (marketplace and GitHub lookups, account policy). */
const OFFLINE_NOISE = /open-vsx\.org|api\.github\.com|AgentHost|AccountPolicyGate|ENOTFOUND|ChatModelSelection/;

async function runOffline(o) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-suite-'));
  const workspace = path.join(workDir, 'workspace');
  fs.mkdirSync(workspace);
  const reportFile = path.join(workDir, 'suite-report.txt');
  const started = Date.now();
  const userDataDir = path.join(workDir, 'user-data');
  const extensionsDir = path.join(workDir, 'extensions');
  if (o.locale && o.locale !== 'en') require('./language-pack').installLanguagePack(o.locale, { version: o.version, workDir, userDataDir, extensionsDir });
  const server = await cs.startServer({
    version: o.version,
    workDir,
    userDataDir,
    extensionsDir,
    smokeTestDriver: true,
    locale: o.locale,
    env: { NILVERA_SUITE_REPORT: reportFile, ...(o.grep ? { NILVERA_SUITE_GREP: o.grep } : {}), ...(o.locale ? { NILVERA_SUITE_LOCALE: o.locale } : {}) },
  });
  console.log(`[suite] code-server ${o.version}${o.locale ? ` (display language ${o.locale})` : ''} ready at ${server.url} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  let browser;
  let exitCode;
  try {
    browser = await launchBrowser();
    const page = await browser.newPage();
    const logs = [];
    let settle;
    const exited = new Promise((resolve) => (settle = resolve));
    await page.exposeFunction('codeAutomationExit', (code) => settle(Number(code)));
    await page.exposeFunction('codeAutomationLog', (type, args) => logs.push(`[${type}] ${Array.isArray(args) ? args.join(' ') : args}`));
    // The workbench's own log arrives through codeAutomationLog; the page console only adds duplicates.
    page.on('pageerror', (e) => logs.push(`[pageerror] ${e.message}`));

    // Paths must be vscode-remote URIs: the extension and the tests live on the server side.
    const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(o.extension)],
      ['extensionTestsPath', remote(suiteIndex)],
      ['skipWelcome', 'true'],
    ];
    const url = `${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await page.goto(url);
    const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), o.timeoutSec * 1000).unref());
    const result = await Promise.race([exited, timeout]);
    if (fs.existsSync(reportFile)) process.stdout.write(fs.readFileSync(reportFile, 'utf8'));
    if (result === 'timeout') {
      console.error(`[suite] no exit code from the workbench within ${o.timeoutSec} s`);
      await page.screenshot({ path: path.join(root, 'test-results', 'suite-timeout.png') }).catch(() => undefined);
      exitCode = 1;
    } else {
      exitCode = result;
    }
    if (exitCode !== 0 || o.verbose) {
      console.log('[suite] workbench log (tail, known offline noise left out):');
      console.log(logs.filter((l) => !OFFLINE_NOISE.test(l)).slice(-40).join('\n'));
      console.log(`[suite] code-server log: ${server.logFile}`);
    }
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    await server.stop();
  }
  console.log(`[suite] exit code ${exitCode} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (exitCode === 0) fs.rmSync(workDir, { recursive: true, force: true });
  return exitCode;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.build) build();
  if (!fs.existsSync(suiteIndex)) throw new Error(`${suiteIndex} is missing: build with \`node esbuild.js --tests\``);
  fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });
  const unsupported = o.electron ? undefined : realVsCodeUnsupported();
  if (unsupported) throw new Error(`this suite runs in code-server, and ${unsupported}.`);
  const code = o.electron ? await runElectron(o) : await runOffline(o);
  process.exit(code);
}

main().catch((e) => {
  console.error(`[suite] ${e.stack || e.message}`);
  process.exit(1);
});
