#!/usr/bin/env node
// `npm start`: VS Code in the browser with this extension against a local sandbox.
// Installs dependencies when missing (npm ci), builds the VSIX, starts the sandbox with a realistic
// data set, starts code-server (installed into the cache on first use) with the VSIX installed, the
// Sandbox environment selected and the sandbox's URL and key handed to the extension, then prints the
// URL to open. The workspace holds the sample UBL-TR invoices and the Turkish Excel customer CSV from
// test/fixtures/, so hovers and diagnostics show at once. Ctrl-C stops everything it started.
//
//   npm start [-- --port 8080] [--host 127.0.0.1] [--customers 2000] [--registry 100000] [--fresh] [--no-package]
//             [--profile default|alternate] [--quirk point[=answer]]... [--fault-phase before|after|either]
// --fresh forgets the sandbox's saved changes (.sandbox-data/start.json); --no-package reuses the VSIX.
// --profile, --quirk and --fault-phase go to the sandbox as they are (src/sandbox/cli.ts).
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { npmCommand, realVsCodeUnsupported } = require('./platform');

const root = path.resolve(__dirname, '..');

function option(argv, name, fallback) {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
}

/** Every `name value` (or `name=value`) pair of a repeatable option, passed on unchanged. */
function passThrough(argv, names) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const [flag] = argv[i].split('=', 1);
    if (!names.includes(flag)) continue;
    if (argv[i].includes('=')) out.push(argv[i]);
    else if (argv[i + 1] !== undefined) out.push(argv[i], argv[++i]);
  }
  return out;
}

/** The sample files a newcomer opens first (test/fixtures/): UBL-TR invoices and a customer CSV. */
const SAMPLE_FILE = /^(ubl-tr-invoice-.+\.xml|customers-.+\.csv)$/;

function copySamples(workspace) {
  const fixtures = path.join(root, 'test', 'fixtures');
  const names = fs.readdirSync(fixtures).filter((n) => SAMPLE_FILE.test(n)).sort();
  for (const name of names) fs.copyFileSync(path.join(fixtures, name), path.join(workspace, name));
  return names;
}

function ensureDependencies() {
  if (fs.existsSync(path.join(root, 'node_modules', 'esbuild')) && fs.existsSync(path.join(root, 'node_modules', '@vscode', 'vsce'))) return;
  console.log('[start] installing dependencies (npm ci)');
  const npm = npmCommand(['ci', '--no-audit', '--no-fund']);
  const r = spawnSync(npm.command, npm.args, { cwd: root, stdio: 'inherit', shell: npm.shell });
  if (r.status !== 0) throw new Error('npm ci failed');
}

/** Runs `node dist/sandbox.js --json ...` in its own process group; resolves with its listening event. */
function startSandbox(args) {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'sandbox.js'), '--json', ...args], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (d) => {
      buffered += d.toString();
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        try {
          const event = JSON.parse(line);
          if (event.event === 'listening') resolve({ child, url: event.url, keys: event.keys });
        } catch {
          /* not the JSON line */
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited (${code}) before listening`)));
  });
}

async function main() {
  const argv = process.argv.slice(2);
  const unsupported = realVsCodeUnsupported();
  if (unsupported) throw new Error(`npm start serves VS Code through code-server, and ${unsupported}.`);
  ensureDependencies();
  // Loaded after npm ci: they need nothing from node_modules at load time, but package.js runs vsce.
  const cs = require('./code-server');
  const { packageVsix, defaultVsixPath } = require('./package');

  const vsix = defaultVsixPath();
  if (argv.includes('--no-package') && fs.existsSync(vsix)) console.log(`[start] reusing ${path.basename(vsix)}`);
  else {
    console.log('[start] building the VSIX (production build)');
    packageVsix({ out: vsix, quiet: true });
  }
  cs.install(option(argv, '--version', cs.DEFAULT_VERSION));
  // The sandbox runs from the working tree's dist/ (the VSIX is built in a staging copy).
  const built = spawnSync(process.execPath, ['esbuild.js', '--only=sandbox'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the sandbox failed');

  const dataDir = path.join(root, '.sandbox-data');
  const dataFile = path.join(dataDir, 'start.json');
  fs.mkdirSync(dataDir, { recursive: true });
  if (argv.includes('--fresh')) fs.rmSync(dataFile, { force: true });
  const sandbox = await startSandbox([
    '--port', option(argv, '--sandbox-port', '0'),
    '--customers', option(argv, '--customers', '2000'),
    '--registry', option(argv, '--registry', '100000'),
    '--data', dataFile,
    ...passThrough(argv, ['--profile', '--quirk', '--fault-phase']),
  ]);

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-start-'));
  const stopAll = async () => {
    await cs.killGroup(sandbox.child).catch(() => undefined);
    if (server) await server.stop().catch(() => undefined);
    fs.rmSync(workDir, { recursive: true, force: true });
  };
  let server;
  try {
    const userDataDir = path.join(workDir, 'user-data');
    const extensionsDir = path.join(workDir, 'extensions');
    const workspace = path.join(workDir, 'workspace');
    fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
    fs.mkdirSync(workspace);
    const samples = copySamples(workspace);
    fs.writeFileSync(
      path.join(userDataDir, 'User', 'settings.json'),
      JSON.stringify(
        {
          'nilvera.environment': 'sandbox',
          'workbench.startupEditor': 'none',
          'workbench.secondarySideBar.defaultVisibility': 'hidden',
          'chat.disableAIFeatures': true,
          'telemetry.telemetryLevel': 'off',
          'extensions.autoCheckUpdates': false,
        },
        null,
        2,
      ),
    );
    cs.installExtension(vsix, { userDataDir, extensionsDir, env: cs.isolatedEnv(workDir) });
    const wanted = Number(option(argv, '--port', '8080'));
    const host = option(argv, '--host', '127.0.0.1');
    const port = (await portIsFree(wanted, host)) ? wanted : await cs.freePort(host);
    server = await cs.startServer({
      workDir, userDataDir, extensionsDir, host, port, folder: workspace,
      // The extension's development hook for an external sandbox (src/shell/sandboxLauncher.ts).
      env: { NILVERA_SANDBOX_URL: sandbox.url, NILVERA_SANDBOX_KEY: sandbox.keys.full },
    });
    console.log(`
  VS Code (code-server):  ${server.url}/?folder=${encodeURIComponent(workspace)}
  sandbox API:            ${sandbox.url}  (data kept in ${path.relative(root, dataFile)})
  sandbox keys:           full ${sandbox.keys.full}
                          read-only ${sandbox.keys.restricted}
  workspace files:        ${samples.join(', ')}
  In VS Code: the Nilvera icon in the activity bar, then "Try the Sandbox" (it takes the key above);
  open an invoice or the CSV for tax-number hovers and diagnostics.
  Ctrl-C stops VS Code and the sandbox.
`);
  } catch (e) {
    await stopAll();
    throw e;
  }

  let stopping = false;
  const shutdown = async (code) => {
    if (stopping) return;
    stopping = true;
    console.log('\n[start] stopping code-server and the sandbox');
    await stopAll();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  sandbox.child.on('exit', (code) => {
    if (!stopping) console.error(`[start] the sandbox exited (${code})`);
    void shutdown(1);
  });
  void server.exited.then((code) => {
    if (!stopping) console.error(`[start] code-server exited (${code}); log: ${server.logFile}`);
    void shutdown(1);
  });
}

function portIsFree(port, host) {
  return new Promise((resolve) => {
    const srv = require('node:net').createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

main().catch((e) => {
  console.error(`[start] ${e.message}`);
  process.exit(1);
});
