// Build script. Entries:
//   extension  src/extension.ts        -> dist/extension.mjs  (node, ESM, external vscode), each feature
//              loaded on first use (src/features/*.ts) -> dist/feature-*.mjs, shared code -> dist/chunk-*.mjs
//   sandbox    src/sandbox/main.ts     -> dist/sandbox.js     (node, cjs; loaded only when used)
//   workers    src/registry/indexWorker.ts -> dist/registryIndexWorker.js (a worker thread of the
//              registry index build, started by src/registry/indexSink.ts)
//   vendor     node-fetch, jszip       -> dist/vendor/*.js    (loaded on first use, see lazyVendor);
//              libxml2-wasm's lib/*.mjs copied as published -> dist/vendor/libxml2-wasm/ (see copyLibxml2)
//   gibWorker  src/gib/worker.ts       -> dist/gibWorker.js   (the GİB rules worker thread, src/gib/workerClient.ts;
//              ships in the VSIX with dist/vendor/libxml2-wasm, its WebAssembly inlined in libxml2raw.mjs)
//   validate   src/gib/cliMain.ts      -> dist/validate.js    (node, cjs: `npm run validate`, GİB's rules outside
//              VS Code; development builds only, never in the VSIX)
//   webview    src/webview-ui/*.ts     -> dist/webview/*.js   (browser, iife) when present
//   tests      test/{unit,suite,bench}/**/*.ts -> out/test/... (with --tests)
// The sandbox, the worker and the tests stay CommonJS: they are run by file name (`node dist/sandbox.js`,
// new Worker(file), node:test and mocha on out/**/*.js) in a package without "type", where .js is
// CommonJS. Webview scripts are classic <script> tags, hence iife.
// Flags: --production (minify, no maps), --watch, --tests, --only=<entry,...>
'use strict';
const esbuild = require('esbuild');
const fs = require('node:fs');
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
const LAZY_VENDOR = { 'node-fetch': 'node-fetch.js', jszip: 'jszip.js' };

/**
 * Keeps node-fetch and jszip out of every bundle that imports them: code uses `await import(...)`, which
 * becomes an import() of dist/vendor/<name>.js (relative to the output file) in the ES module build and a
 * deferred require in the CommonJS ones (see `supported` below), so nothing loads until first use.
 */
function lazyVendor(outDirOfBundle) {
  return {
    name: 'lazy-vendor',
    setup(build) {
      build.onResolve({ filter: /^(node-fetch|jszip)$/ }, (a) => {
        const rel = path.relative(outDirOfBundle, path.join(vendorDir, LAZY_VENDOR[a.path])).split(path.sep).join('/');
        return { path: rel.startsWith('.') ? rel : './' + rel, external: true };
      });
    },
  };
}

/**
 * libxml2-wasm (GİB's XSD) is an ES module whose files import each other in a circle and wait at top
 * level for their WebAssembly: bundled, those waits deadlock (esbuild's async module init). So it
 * ships as published, its lib/*.mjs copied to dist/vendor/libxml2-wasm/ (with its licences), and
 * src/gib/xsd.ts imports it from there by a real import().
 */
function copyLibxml2() {
  const from = path.dirname(require.resolve('libxml2-wasm/package.json'));
  const to = path.join(vendorDir, 'libxml2-wasm');
  fs.mkdirSync(to, { recursive: true });
  for (const f of fs.readdirSync(path.join(from, 'lib'))) {
    if (f.endsWith('.mjs')) fs.copyFileSync(path.join(from, 'lib', f), path.join(to, f));
  }
  for (const f of ['LICENSE', 'LICENSE.libxml2']) {
    if (fs.existsSync(path.join(from, f))) fs.copyFileSync(path.join(from, f), path.join(to, `${f}.txt`));
  }
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
  // Code shared with the ES module build finds its own file through import.meta.url.
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Turn `await import('node-fetch')` into a deferred require(): the extension host loads
  // CommonJS reliably, and the vendor module's `default` is then the export itself.
  supported: { 'dynamic-import': false },
};

/** The features loaded on first use (src/features/*.ts but index.ts): entry points of their own, with stable names. */
function featureEntries() {
  const dir = path.join(root, 'src/features');
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'index.ts') : [];
  return Object.fromEntries(names.map((f) => [`feature-${f.slice(0, -3)}`, path.join(dir, f)]));
}

/**
 * The extension as native ES modules (package.json "main": "./dist/extension.mjs"; VS Code loads an
 * .mjs main as ESM since 1.100, the oldest version `engines` allows): the main bundle, one per feature,
 * and shared chunks for code more than one of them uses, so every module exists once. node-fetch is
 * imported on first use from dist/vendor, which the sandbox uses too (one copy in the VSIX).
 * Bundled CommonJS dependencies still call require(), which an ES module lacks: the banner gives them one.
 */
function extensionOptions({ production: prod = production, outdir = distDir } = {}) {
  return {
    ...nodeCommon,
    format: 'esm',
    splitting: true,
    supported: {},
    define: {},
    absWorkingDir: root, // metafile inputs named from the repository root (src/...)
    minify: prod,
    sourcemap: prod ? false : 'linked',
    entryPoints: { extension: path.join(root, 'src/extension.ts'), ...featureEntries() },
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    plugins: [lazyVendor(outdir), problemMatcher],
    metafile: true,
  };
}

/** Builds the extension; returns its outputs named by file (relative to `outdir`) with their bytes, inputs and imports. */
async function buildExtension(options = {}) {
  const opts = extensionOptions(options);
  for (const f of fs.existsSync(opts.outdir) ? fs.readdirSync(opts.outdir, { withFileTypes: true }) : []) {
    if (f.isFile() && /^(extension|feature-.+|chunk-.+)\.mjs(\.map)?$/.test(f.name)) fs.rmSync(path.join(opts.outdir, f.name));
  }
  const { metafile } = await esbuild.build(opts);
  const outputs = {};
  for (const [file, out] of Object.entries(metafile.outputs)) {
    if (!file.endsWith('.mjs')) continue;
    outputs[path.basename(file)] = {
      bytes: out.bytes,
      inputs: Object.keys(out.inputs),
      imports: out.imports.filter((i) => !i.external).map((i) => ({ path: path.basename(i.path), kind: i.kind })),
      ...(out.entryPoint ? { entryPoint: out.entryPoint } : {}),
    };
  }
  return { outputs };
}

/**
 * The GİB rules worker (dist/gibWorker.js): fontoxpath, slimdom and the engine in one CommonJS bundle,
 * libxml2-wasm left out (imported at run time from dist/vendor/libxml2-wasm, see copyLibxml2).
 * slimdom-sax-parser picks its minified build by NODE_ENV; the other is left out of the bundle.
 */
function gibWorkerOptions({ production: prod = production, outdir = distDir } = {}) {
  return {
    ...nodeCommon,
    minify: prod,
    sourcemap: !prod,
    define: { ...nodeCommon.define, 'process.env.NODE_ENV': '"production"' },
    entryPoints: { gibWorker: path.join(root, 'src/gib/worker.ts') },
    outdir,
    absWorkingDir: root,
    plugins: [problemMatcher],
  };
}

/** Builds the GİB rules worker; returns its bytes and inputs (named from the repository root). */
async function buildGibWorker(options = {}) {
  const { metafile } = await esbuild.build({ ...gibWorkerOptions(options), metafile: true });
  const [, out] = Object.entries(metafile.outputs).find(([file]) => file.endsWith('gibWorker.js'));
  return { bytes: out.bytes, inputs: Object.keys(out.inputs) };
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
      entryPoints: { 'node-fetch': path.join(root, 'src/vendor/node-fetch.ts'), jszip: path.join(root, 'src/vendor/jszip.ts') },
      outdir: vendorDir,
    });
  }
  // The GİB rules worker ships (in the VSIX, with libxml2-wasm copied beside it: copyLibxml2); it is
  // started by src/gib/workerClient.ts on the first UBL-TR document, never at activation. The CLI is a
  // tool of the repository (`npm run validate`), not part of the VSIX: no production build.
  if (want('validate') || want('extension') || want('gibWorker')) list.push({ name: 'gibWorker', ...gibWorkerOptions() });
  if (!production && (want('validate') || want('extension'))) {
    list.push({
      name: 'validate',
      ...nodeCommon,
      define: { ...nodeCommon.define, 'process.env.NODE_ENV': '"production"' },
      entryPoints: { validate: path.join(root, 'src/gib/cliMain.ts') },
      outdir: distDir,
      plugins: [problemMatcher],
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
    // run plain JavaScript and see the same node-fetch wiring as the extension.
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
    copyLibxml2();
    if (withExtension) list.push({ name: 'extension', opts: extensionOptions() });
    for (const { name, opts } of list) {
      await (await esbuild.context(opts)).watch();
      console.log(`[watch] ${name}`);
    }
    return;
  }
  // Runners take every bundle under out/test/, so none may outlive its source (a test moved or removed).
  if (withTests) fs.rmSync(path.join(root, 'out', 'test'), { recursive: true, force: true });
  for (const { opts } of list) await esbuild.build(opts);
  if (list.some((c) => c.name === 'gibWorker' || c.name === 'validate')) copyLibxml2();
  if (withExtension) await buildAndReport();
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

module.exports = { buildExtension, buildGibWorker };
