#!/usr/bin/env node
// `npm run test:e2e`: the browser UI suite (test/e2e/scenarios/*.test.ts, node:test + Playwright) over
// code-server with the packaged VSIX installed; each scenario starts its own sandbox and workbench.
//
//   node scripts/run-e2e.js [--no-package] [--version 4.139.1] [name-filter ...]
// --no-package reuses the VSIX when it is newer than every input; name filters pick scenario files.
// Screenshots: test-results/e2e/<scenario>/<nn>-<step>.png.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const cs = require('./code-server');
const { realVsCodeUnsupported } = require('./platform');
const { packageVsix, packageFixture, defaultVsixPath } = require('./package');

const root = path.resolve(__dirname, '..');

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((n) => newestMtime(path.join(p, n))));
}

/** The VSIX is fresh when nothing it is built from changed after it was made. */
function vsixIsFresh(vsix) {
  if (!fs.existsSync(vsix)) return false;
  const inputs = ['src', 'media', 'l10n', 'package.json', 'package.nls.json', 'package.nls.tr.json', 'README.md', 'CHANGELOG.md', '.vscodeignore'];
  return fs.statSync(vsix).mtimeMs > Math.max(...inputs.map((p) => newestMtime(path.join(root, p))));
}

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: env || process.env });
  return r.status ?? 1;
}

function scenarioFiles(filters) {
  const dir = path.join(root, 'out', 'test', 'e2e', 'scenarios');
  const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
  const all = fs.existsSync(dir) ? walk(dir).filter((f) => f.endsWith('.test.js')).sort() : [];
  return filters.length ? all.filter((f) => filters.some((x) => path.basename(f).includes(x))) : all;
}

async function main() {
  const argv = process.argv.slice(2);
  const unsupported = realVsCodeUnsupported();
  if (unsupported) {
    console.error(`[e2e] the UI suite drives code-server in Chromium, and ${unsupported}.`);
    process.exit(1);
  }
  const version = argv.includes('--version') ? argv[argv.indexOf('--version') + 1] : cs.DEFAULT_VERSION;
  const filters = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--version');
  const started = Date.now();

  const vsix = defaultVsixPath();
  if (argv.includes('--no-package') && vsixIsFresh(vsix)) console.log(`[e2e] reusing ${path.basename(vsix)}`);
  else packageVsix({ out: vsix, quiet: true });
  console.log(`[e2e] VSIX ${path.basename(vsix)}: ${(fs.statSync(vsix).size / 1024).toFixed(1)} KB`);

  // Test bundles (and the sandbox, which the harness runs as `node dist/sandbox.js`).
  if (run(process.execPath, ['esbuild.js', '--tests']) !== 0) process.exit(1);
  if (run(process.execPath, ['esbuild.js', '--only=sandbox']) !== 0) process.exit(1);

  cs.install(version);
  // Install the VSIX once; every scenario's code-server uses this extensions folder.
  const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-e2e-shared-'));
  const extensionsDir = path.join(shared, 'extensions');
  console.log(`[e2e] ${cs.installExtension(vsix, { version, userDataDir: path.join(shared, 'user-data'), extensionsDir, env: cs.isolatedEnv(shared) }).split('\n').pop()}`);

  // The fixture language packs (test/e2e/fixtures/language-pack-*), for scenarios with a locale.
  const fixtures = path.join(root, 'test', 'e2e', 'fixtures');
  for (const name of fs.existsSync(fixtures) ? fs.readdirSync(fixtures).filter((n) => n.startsWith('language-pack-')) : []) {
    const packVsix = packageFixture(path.join(fixtures, name), path.join(shared, `${name}.vsix`));
    cs.installExtension(packVsix, { version, userDataDir: path.join(shared, 'user-data'), extensionsDir, env: cs.isolatedEnv(shared) });
  }

  const files = scenarioFiles(filters);
  if (files.length === 0) {
    console.error('[e2e] no scenarios matched');
    process.exit(1);
  }
  const env = { ...process.env, NILVERA_E2E_EXTENSIONS_DIR: extensionsDir, NILVERA_E2E_VSIX: vsix, NILVERA_E2E_CS_VERSION: version };
  // One scenario at a time: each runs a code-server, a sandbox and a browser on 2 cores.
  const code = run(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...files], env);
  fs.rmSync(shared, { recursive: true, force: true });
  console.log(`[e2e] ${code === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${path.relative(root, path.join(root, 'test-results', 'e2e'))}/`);
  process.exit(code);
}

main().catch((e) => {
  console.error(`[e2e] ${e.stack || e.message}`);
  process.exit(1);
});
