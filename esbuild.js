// Build script. Entries:
//   extension  src/extension.ts        -> dist/extension.js   (node, cjs, external vscode), and each
//              feature loaded on first use (src/features/*.ts, reached through import()) with the code
//              features share -> dist/lazy-*.js (see buildExtension)
//   sandbox    src/sandbox/main.ts     -> dist/sandbox.js     (node, cjs; loaded only when used)
//   workers    src/registry/indexWorker.ts -> dist/registryIndexWorker.js (a worker thread of the
//              registry index build, started by src/registry/indexSink.ts)
//   vendor     node-fetch              -> dist/vendor/*.js    (loaded on first use, see lazyVendor)
//   webview    src/webview-ui/*.ts     -> dist/webview/*.js   (browser, iife) when present
//   tests      test/{unit,suite,bench}/**/*.ts -> out/test/... (with --tests)
// Flags: --production (minify, no maps), --watch, --tests, --only=<entry,...>
'use strict';
const esbuild = require('esbuild');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const args = process.argv.slice(2);
const production = args.includes('--production');
const watch = args.includes('--watch');
const withTests = args.includes('--tests');
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? onlyArg.slice('--only='.length).split(',') : undefined;

const root = __dirname;
const distDir = path.join(root, 'dist');
const vendorDir = path.join(distDir, 'vendor');

/** Packages that are bundled on their own and required lazily at first use. */
const LAZY_VENDOR = { 'node-fetch': 'node-fetch.js' };

/**
 * Keeps node-fetch out of every bundle that imports them: the import becomes a
 * require of dist/vendor/<name>.js, relative to the output file. Code uses `await import(...)`,
 * which esbuild turns into a deferred require (see `supported` below), so nothing loads until first use.
 */
function lazyVendor(outDirOfBundle) {
  return {
    name: 'lazy-vendor',
    setup(build) {
      build.onResolve({ filter: /^node-fetch$/ }, (a) => {
        const rel = path.relative(outDirOfBundle, path.join(vendorDir, LAZY_VENDOR[a.path])).split(path.sep).join('/');
        return { path: rel.startsWith('.') ? rel : './' + rel, external: true };
      });
    },
  };
}

/** Prints errors in the "file:line:col: error:" form the problem matchers understand. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
    });
  },
};

const nodeCommon = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  external: ['vscode'],
  logLevel: 'warning',
  legalComments: 'none',
  // Turn `await import('node-fetch')` into a deferred require(): the extension host loads
  // CommonJS reliably, and the vendor module's `default` is then the export itself.
  supported: { 'dynamic-import': false },
};

/**
 * The extension as a main bundle plus one bundle per feature loaded on first use. esbuild splits code
 * only in ESM output: it builds ESM with splitting (each `import()` becomes a bundle, code shared by
 * bundles goes into shared ones, so every module exists once and its state and classes are shared), then
 * each file is turned into CommonJS, which the extension host loads; `import()` becomes a deferred
 * require. Returns the ESM pass's metafile with outputs named relative to `outdir` and their final bytes.
 */
async function buildExtension({ production: prod = production, outdir = distDir } = {}) {
  const esmDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-esm-'));
  try {
    // `supported` (import() as require) belongs to the CommonJS pass below.
    const common = { ...nodeCommon };
    delete common.supported;
    const esm = await esbuild.build({
      ...common,
      format: 'esm',
      splitting: true,
      absWorkingDir: root, // metafile inputs named from the repository root (src/...)
      minify: prod,
      sourcemap: prod ? false : 'linked',
      entryPoints: { extension: path.join(root, 'src/extension.ts') },
      outdir: esmDir,
      chunkNames: 'lazy-[name]-[hash]',
      plugins: [lazyVendor(outdir), problemMatcher],
      metafile: true,
    });
    for (const f of fs.readdirSync(outdir, { withFileTypes: true })) {
      if (f.isFile() && /^(extension|lazy-.+)\.js(\.map)?$/.test(f.name)) fs.rmSync(path.join(outdir, f.name));
    }
    const files = fs.readdirSync(esmDir).filter((f) => f.endsWith('.js')).map((f) => path.join(esmDir, f));
    await esbuild.build({
      entryPoints: files,
      outdir,
      bundle: false,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      minify: prod,
      sourcemap: !prod,
      sourcesContent: false,
      legalComments: 'none',
      logLevel: 'warning',
      supported: { 'dynamic-import': false },
    });
    const outputs = {};
    for (const [file, out] of Object.entries(esm.metafile.outputs)) {
      if (!file.endsWith('.js')) continue;
      const name = path.basename(file);
      outputs[name] = {
        bytes: fs.statSync(path.join(outdir, name)).size,
        inputs: Object.keys(out.inputs),
        imports: out.imports.filter((i) => !i.external).map((i) => ({ path: path.basename(i.path), kind: i.kind })),
        ...(out.entryPoint ? { entryPoint: out.entryPoint } : {}),
      };
    }
    return { outputs };
  } finally {
    fs.rmSync(esmDir, { recursive: true, force: true });
  }
}

function walk(dir, pred) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(p, pred));
    else if (pred(p)) out.push(p);
  }
  return out;
}

function configs() {
  const list = [];
  const want = (name) => !only || only.includes(name);
  if (want('vendor') || want('extension') || want('sandbox') || withTests) {
    list.push({
      name: 'vendor',
      ...nodeCommon,
      sourcemap: false,
      minify: true,
      entryPoints: { 'node-fetch': path.join(root, 'src/vendor/node-fetch.ts') },
      outdir: vendorDir,
    });
  }
  if (want('sandbox') && fs.existsSync(path.join(root, 'src/sandbox/main.ts'))) {
    list.push({
      name: 'sandbox',
      ...nodeCommon,
      entryPoints: [path.join(root, 'src/sandbox/main.ts')],
      outfile: path.join(distDir, 'sandbox.js'),
      plugins: [lazyVendor(distDir), problemMatcher],
    });
  }
  if (want('workers') || want('extension') || withTests) {
    list.push({
      name: 'workers',
      ...nodeCommon,
      entryPoints: { registryIndexWorker: path.join(root, 'src/registry/indexWorker.ts') },
      outdir: distDir,
      plugins: [problemMatcher],
    });
  }
  const webviewEntries = walk(path.join(root, 'src/webview-ui'), (p) => /[/\\]main\.ts$/.test(p) || /[/\\]entries[/\\][^/\\]+\.ts$/.test(p));
  if (want('webview') && webviewEntries.length > 0) {
    list.push({
      name: 'webview',
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      minify: production,
      sourcemap: !production,
      sourcesContent: false,
      entryPoints: webviewEntries,
      outbase: path.join(root, 'src/webview-ui'),
      outdir: path.join(distDir, 'webview'),
      loader: { '.css': 'text' },
      logLevel: 'warning',
      plugins: [problemMatcher],
    });
  }
  if (withTests) {
    // Each test file becomes one bundle under out/, so node:test, mocha and the benchmarks
    // run plain JavaScript and see the same node-fetch/jszip wiring as the extension.
    for (const kind of ['unit', 'suite', 'bench', 'e2e', 'support']) {
      const dir = path.join(root, 'test', kind);
      const entries = walk(dir, (p) => p.endsWith('.ts') && !p.endsWith('.d.ts'));
      if (entries.length === 0) continue;
      const outdir = path.join(root, 'out/test', kind);
      // The lazy-vendor path is relative to each output file's folder, so group entries by folder.
      const byDir = new Map();
      for (const e of entries) {
        const rel = path.relative(dir, path.dirname(e));
        if (!byDir.has(rel)) byDir.set(rel, []);
        byDir.get(rel).push(e);
      }
      for (const [rel, files] of byDir) {
        const od = path.join(outdir, rel);
        list.push({
          name: `test-${kind}${rel ? '/' + rel : ''}`,
          ...nodeCommon,
          minify: false,
          sourcemap: 'inline',
          entryPoints: files,
          outdir: od,
          external: ['vscode', 'mocha', 'playwright-core', 'esbuild'],
          plugins: [lazyVendor(od), problemMatcher],
        });
      }
    }
  }
  return list;
}

async function main() {
  const list = configs().map(({ name, ...opts }) => ({ name, opts }));
  const withExtension = !only || only.includes('extension');
  if (watch) {
    for (const { name, opts } of list) {
      const ctx = await esbuild.context(opts);
      await ctx.watch();
      console.log(`[watch] ${name}`);
    }
    // Splitting and the CommonJS pass do not fit esbuild's watch mode: rebuild on every change of src/.
    if (withExtension) {
      let queued = Promise.resolve();
      const rebuild = () => (queued = queued.then(() => buildExtension().then(() => console.log('[watch] extension rebuilt'), (e) => console.error(e))));
      rebuild();
      fs.watch(path.join(root, 'src'), { recursive: true }, () => rebuild());
    }
    return;
  }
  // Runners take every bundle under out/test/, so none may outlive its source (a test moved or removed).
  if (withTests) fs.rmSync(path.join(root, 'out', 'test'), { recursive: true, force: true });
  for (const { name, opts } of list) {
    // The vendor bundles first: the extension's bundles require them.
    await esbuild.build(opts);
    if (name === 'vendor' && withExtension) await buildAndReport();
  }
  if (withExtension && !list.some((c) => c.name === 'vendor')) await buildAndReport();
}

async function buildAndReport() {
  const meta = await buildExtension();
  if (args.includes('--analyze')) {
    for (const [name, out] of Object.entries(meta.outputs).sort((a, b) => b[1].bytes - a[1].bytes)) {
      console.log(`${name.padEnd(40)} ${(out.bytes / 1024).toFixed(1).padStart(7)} KB  ${out.imports.map((i) => (i.kind === 'dynamic-import' ? `${i.path} (on first use)` : i.path)).join(', ')}`);
    }
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

module.exports = { buildExtension };
