#!/usr/bin/env node
// The API suite (test/unit/api/*.test.ts) and the schema tour (test/unit/sandbox/schemaTour.test.ts) with every sandbox behind `prism proxy --errors`, so the
// sandbox's answers are checked against the platform's own OpenAPI export (test/support/prismProxy.ts).
// Test files that import src/sandbox/server directly are built with that import pointing at
// test/support/sandboxServerViaPrism.ts, so their sandboxes go through prism too.
//
//   node scripts/test-prism.js [file-filter]      e.g. node scripts/test-prism.js api/client
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const outdir = path.join(root, 'out/test-prism/unit');
const vendorDir = path.join(root, 'dist/vendor');
const serverModule = path.join(root, 'src/sandbox/server.ts');
const viaPrismModule = path.join(root, 'test/support/sandboxServerViaPrism.ts');

/** node-fetch and jszip stay outside the bundle, as in esbuild.js (required lazily from dist/vendor). */
const lazyVendor = {
  name: 'lazy-vendor',
  setup(build) {
    build.onResolve({ filter: /^(node-fetch|jszip)$/ }, (a) => {
      const rel = path.relative(outdir, path.join(vendorDir, `${a.path}.js`)).split(path.sep).join('/');
      return { path: rel.startsWith('.') ? rel : './' + rel, external: true };
    });
  },
};

/** Imports of the sandbox server from test code resolve to the prism wrapper (except the wrapper's own). */
const sandboxViaPrism = {
  name: 'sandbox-via-prism',
  setup(build) {
    build.onResolve({ filter: /sandbox\/server$/ }, async (a) => {
      if (a.pluginData === 'no-redirect' || a.importer === viaPrismModule || a.importer.startsWith(path.join(root, 'src') + path.sep)) return undefined;
      const resolved = await build.resolve(a.path, { resolveDir: a.resolveDir, kind: a.kind, pluginData: 'no-redirect' });
      if (resolved.path !== serverModule) return undefined;
      return { path: viaPrismModule };
    });
  },
};

async function main() {
  const filter = process.argv[2] ?? '';
  const vendor = spawnSync(process.execPath, ['esbuild.js', '--only=vendor'], { cwd: root, stdio: 'inherit' });
  if (vendor.status !== 0) process.exit(1);
  const entries = [
    ...fs.readdirSync(path.join(root, 'test/unit/api')).map((f) => `api/${f}`),
    'sandbox/schemaTour.test.ts',
  ]
    // specSilent.test.ts and serviceEvidence.test.ts play the answers the export does not describe (the
    // alternate profile and single quirks) on purpose, so prism's --errors would refuse them; their
    // default-profile answers are the same ones the other API suite files check here. contract.test.ts
    // runs prism itself (mock mode), faultMatrix.test.ts and pathsBadInput.test.ts are the reliability suites.
    .filter((f) => f.endsWith('.test.ts') && !['specSilent', 'serviceEvidence', 'contract', 'faultMatrix', 'pathsBadInput'].includes(path.basename(f, '.test.ts')) && f.includes(filter))
    .map((f) => path.join(root, 'test/unit', f));
  if (entries.length === 0) throw new Error(`no API suite file matches "${filter}"`);
  fs.rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: entries,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    sourcesContent: false,
    external: ['vscode', 'mocha', 'playwright-core', 'esbuild'],
    logLevel: 'warning',
    supported: { 'dynamic-import': false },
    entryNames: '[name]', // one folder, so the lazy-vendor path above holds for every bundle
    plugins: [sandboxViaPrism, lazyVendor],
  });

  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-prism-report-')), 'report.jsonl');
  const files = fs.readdirSync(outdir).filter((f) => f.endsWith('.test.js')).map((f) => path.join(outdir, f));
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', ...files], {
      cwd: root,
      env: { ...process.env, NILVERA_VIA_PRISM: '1', NILVERA_PRISM_REPORT: report },
      stdio: 'inherit',
    });
    child.on('close', resolve);
  });
  const lines = fs.existsSync(report) ? fs.readFileSync(report, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  const sum = (k) => lines.reduce((n, l) => n + (l[k] ?? 0), 0);
  console.log(
    `\nprism proxy over ${lines.length} test file(s): ${sum('checked')} answers checked against the export, ${sum('violations')} with schema violations (default behaviour), ${sum('forkViolations')} under a deliberately switched behaviour; ` +
      `unchecked: ${sum('notInExport')} not in the export, ${sum('noKey')} without a key, ${sum('faultPlan')} under a fault plan, ${sum('control')} control calls`,
  );
  const exportDoc = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/general.swagger.json'), 'utf8'));
  const all = Object.entries(exportDoc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
  const seen = new Set(lines.flatMap((l) => Object.keys(l.operations ?? {})));
  const unchecked = all.filter((o) => !seen.has(o));
  console.log(`export operations with an answer checked: ${all.length - unchecked.length} of ${all.length}`);
  if (unchecked.length) console.log(`  not exercised by these tests: ${unchecked.join(', ')}`);
  if (sum('checked') === 0) {
    console.error('prism proxy: no answer was checked; the mechanism is not working');
    process.exit(1);
  }
  process.exit(code === 0 && sum('violations') === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
