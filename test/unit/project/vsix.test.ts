// Packages the extension the way `npm run package` does and checks what the VSIX ships: only the
// bundles, media, l10n, the nls files, README (with its screenshots inside it), CHANGELOG and LICENSE;
// nothing else (sources, maps, tests, node_modules), everything the manifest points at, no link to an
// address that does not exist, and a size within budget. GİB's rules worker as it ships: unpacked
// alone (no node_modules anywhere above it) and started in plain Node, it validates a document with
// the rules installed the way the extension installs them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ZipArchive } from '../../../src/domain/zip';
import { installGibPackage } from '../../../src/gib/ruleStore';
import { GibWorkerClient } from '../../../src/gib/workerClient';
import { gibArchives, NO_GIB_DATA } from '../../support/gibPackages';

/**
 * A small download. README's screenshots travel inside the VSIX (as data: URIs in readme.md,
 * scripts/package.js readmeForVsix) and are counted apart: the budget holds the rest, the preview's
 * built-in samples among it (nine documents and a design; three of them carry an embedded design).
 * 430 KB until GİB's rules engine shipped (issue 40), which added 563 KB measured against ba225ac:
 * libxml2 compiled to WebAssembly for GİB's XSD (dist/vendor/libxml2-wasm, 416 KB zipped) and the
 * worker bundle (dist/gibWorker.js: fontoxpath, slimdom and the Schematron runner, about 140 KB);
 * 600 KB more leaves the rest of the extension the room it had; 30 KB more is the VS Code side of GİB's
 * rules (the rules commands, the folder report, the editor's findings and the preview's verdict,
 * about 25 KB zipped). GİB's engine has its own ceiling below. This test prints the sizes.
 */
const SIZE_BUDGET_BYTES = (430 + 630) * 1024;
/** Issue 40's goal: GİB's engine (the worker bundle and libxml2-wasm) adds at most 700 KB to the VSIX. */
const GIB_ENGINE_BUDGET_BYTES = 700 * 1024;
const isGibEngine = (name: string): boolean => name === 'extension/dist/gibWorker.js' || name.startsWith('extension/dist/vendor/libxml2-wasm/');

/**
 * The hosts an address in what ships may name: the service's own, and example.com (reserved for
 * examples, RFC 2606). The project has no public home yet, so no repository or issue tracker.
 */
// GİB's own address of its validation packages (the default of nilvera.gibRules.*Url, ../shared/data/gib/SOURCES.md).
const KNOWN_HOSTS = /^(ebelge\.gib\.gov\.tr|nilvera\.com|api\.nilvera\.com|apitest\.nilvera\.com|([\w-]+\.)?example\.com)$/;

// This bundle runs from out/test/unit/.
const root = path.resolve(__dirname, '..', '..', '..', '..');

/** What may ship, relative to the VSIX root (vsce adds the manifest files and renames LICENSE). */
const ALLOWED = [
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
  /^extension\/package\.json$/,
  /^extension\/package\.nls(\.[a-z]{2}(-[a-z]{2})?)?\.json$/,
  /^extension\/(readme|changelog)\.md$/,
  /^extension\/LICENSE\.txt$/,
  /^extension\/dist\/[\w./-]+\.(m?js|css)$/,
  /^extension\/dist\/vendor\/libxml2-wasm\/LICENSE(\.libxml2)?\.txt$/,
  /^extension\/media\/[\w./-]+$/,
  /^extension\/l10n\/bundle\.l10n(\.[a-z]{2}(-[a-z]{2})?)?\.json$/,
];

let vsixBytes = 0;
let readmeCompressedBytes = 0;
/** Compressed bytes of GİB's engine in the VSIX (its entries' data; their headers are a few hundred bytes more). */
let gibEngineBytes = 0;
/** The VSIX's extension/ folder unpacked (the worker and its vendor modules), removed after the tests. */
let unpacked = '';
let entries: string[] = [];
let shippedManifest: {
  main?: string;
  icon?: string;
  repository?: unknown;
  bugs?: unknown;
  homepage?: unknown;
  contributes?: { viewsContainers?: Record<string, Array<{ icon?: string }>> };
} = {};
let shippedReadme = '';
/** Text of every shipped file a person reads or VS Code shows: README, CHANGELOG, manifest, nls, walkthrough pages. */
const shippedTexts = new Map<string, string>();
const shippedPngSizes = new Map<string, { width: number; height: number }>();

/** Width and height from a PNG's IHDR chunk; throws when the bytes are not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  assert.ok(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'not a PNG');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

before(async () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-vsix-')), 'test.vsix');
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'package.js'), '--out', out, '--quiet'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, `packaging failed:\n${r.stdout}\n${r.stderr}`);
  vsixBytes = fs.statSync(out).size;
  const zip = await ZipArchive.open(fs.readFileSync(out));
  const read = async (name: string): Promise<Buffer> => {
    const parts: Buffer[] = [];
    for await (const c of await zip.open(zip.entries.find((e) => e.name === name)!)) parts.push(c as Buffer);
    return Buffer.concat(parts);
  };
  entries = zip.files().map((f) => f.name).sort();
  shippedManifest = JSON.parse((await read('extension/package.json')).toString('utf8'));
  shippedReadme = (await read('extension/readme.md')).toString('utf8');
  readmeCompressedBytes = zip.entries.find((e) => e.name === 'extension/readme.md')?.compressedSize ?? 0;
  gibEngineBytes = zip.entries.filter((e) => isGibEngine(e.name)).reduce((sum, e) => sum + e.compressedSize, 0);
  unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-vsix-unpacked-'));
  for (const name of entries.filter((n) => n.startsWith('extension/dist/'))) {
    const to = path.join(unpacked, ...name.split('/'));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, await read(name));
  }
  for (const name of entries.filter((n) => /\.(md|json)$/.test(n) && !n.startsWith('extension/dist/'))) shippedTexts.set(name, (await read(name)).toString('utf8'));
  for (const name of entries.filter((n) => n.endsWith('.png'))) shippedPngSizes.set(name, pngSize(await read(name)));
  await zip.close();
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
});

test('the VSIX ships nothing but the allowed files', () => {
  const unexpected = entries.filter((name) => !ALLOWED.some((re) => re.test(name)));
  assert.deepEqual(unexpected, [], `unexpected files in the VSIX:\n${unexpected.join('\n')}`);
  // The allow-list must not let these through under another name.
  const forbidden = entries.filter((name) => /\.map$|\.ts$|(^|\/)(node_modules|src|test|out|\.vscode-test)\//.test(name));
  assert.deepEqual(forbidden, []);
});

test('the VSIX ships what the manifest and the runtime need', () => {
  const required = [
    'extension/package.json',
    'extension/readme.md',
    'extension/changelog.md',
    'extension/LICENSE.txt',
    'extension/dist/vendor/node-fetch.js',
    'extension/dist/vendor/jszip.js',
  ];
  assert.ok(shippedManifest.main, 'package.json has no main');
  required.push(path.posix.join('extension', shippedManifest.main));
  if (shippedManifest.icon) required.push(path.posix.join('extension', shippedManifest.icon));
  for (const containers of Object.values(shippedManifest.contributes?.viewsContainers ?? {})) {
    for (const c of containers) if (c.icon && !c.icon.startsWith('$(')) required.push(path.posix.join('extension', c.icon));
  }
  // Every translation in the repository ships.
  for (const f of fs.readdirSync(root).filter((n) => /^package\.nls(\..+)?\.json$/.test(n))) required.push(`extension/${f}`);
  for (const f of fs.readdirSync(path.join(root, 'l10n'))) required.push(`extension/l10n/${f}`);
  const missing = required.map((p) => path.posix.normalize(p)).filter((p) => !entries.includes(p));
  assert.deepEqual(missing, [], `missing from the VSIX: ${missing.join(', ')}`);
});

after(() => {
  if (unpacked) fs.rmSync(unpacked, { recursive: true, force: true });
});

test(`the VSIX stays within ${SIZE_BUDGET_BYTES / 1024} KB besides README's screenshots`, () => {
  assert.ok(vsixBytes > 0);
  assert.ok(readmeCompressedBytes > 0, 'the VSIX entry of readme.md has a size');
  const rest = vsixBytes - readmeCompressedBytes;
  console.log(`VSIX ${(vsixBytes / 1024).toFixed(1)} KB: readme.md with its screenshots ${(readmeCompressedBytes / 1024).toFixed(1)} KB, the rest ${(rest / 1024).toFixed(1)} KB`);
  assert.ok(rest <= SIZE_BUDGET_BYTES, `VSIX without readme.md is ${(rest / 1024).toFixed(1)} KB, budget ${SIZE_BUDGET_BYTES / 1024} KB`);
});

test(`GİB's rules engine adds at most ${GIB_ENGINE_BUDGET_BYTES / 1024} KB to the VSIX; the CLI is not in it`, () => {
  for (const f of ['extension/dist/gibWorker.js', 'extension/dist/vendor/libxml2-wasm/index.mjs', 'extension/dist/vendor/libxml2-wasm/libxml2raw.mjs', 'extension/dist/vendor/libxml2-wasm/LICENSE.txt']) {
    assert.ok(entries.includes(f), `${f} is not in the VSIX`);
  }
  // libxml2-wasm carries its WebAssembly inside libxml2raw.mjs: no .wasm file is loaded apart.
  assert.deepEqual(entries.filter((n) => n.endsWith('.wasm')), []);
  assert.ok(!entries.includes('extension/dist/validate.js'), 'the CLI (npm run validate) ships in the VSIX');
  console.log(`GİB's engine in the VSIX: ${(gibEngineBytes / 1024).toFixed(1)} KB`);
  assert.ok(gibEngineBytes <= GIB_ENGINE_BUDGET_BYTES, `GİB's engine takes ${(gibEngineBytes / 1024).toFixed(1)} KB of the VSIX, budget ${GIB_ENGINE_BUDGET_BYTES / 1024} KB`);
});

test("the shipped GİB worker, unpacked alone, validates a document with rules installed as the extension installs them", { skip: !gibArchives() && NO_GIB_DATA }, async () => {
  const archives = gibArchives()!;
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-vsix-gib-'));
  const workerFile = path.join(unpacked, 'extension', 'dist', 'gibWorker.js');
  let client: GibWorkerClient | undefined;
  try {
    await installGibPackage(storage, archives.rules, archives.schemas);
    client = await GibWorkerClient.start({ storageRoot: storage }, { workerFile });
    assert.equal(client.inWorker, true);
    assert.deepEqual(client.info, { release: '20260312', hasRules: true, hasSchemas: true });
    const invoice = fs.readFileSync(path.join(root, 'test', 'fixtures', 'gib', 'invoice.xml'), 'utf8').replace('<cbc:ID>NLV2026000000001</cbc:ID>', '<cbc:ID>NLV-1</cbc:ID>');
    const result = await client.validate('invoice.xml', invoice);
    // The Schematron (fontoxpath in the bundle) and the XSD (libxml2-wasm from dist/vendor) both ran.
    assert.ok(result?.findings.some((f) => f.kind === 'rule' && f.source === 'GİB rules 20260312' && /ABC2009123456789/.test(f.message)), JSON.stringify(result?.findings));
    assert.ok(result?.findings.some((f) => f.kind === 'xsd' && f.source === 'GİB XSD'), JSON.stringify(result?.findings));
  } finally {
    await client?.dispose();
    fs.rmSync(storage, { recursive: true, force: true });
  }
});

test('the VSIX has the icon as a 128×128 PNG (and the 256×256 one beside it)', () => {
  assert.equal(shippedManifest.icon, 'media/icon.png');
  assert.deepEqual(shippedPngSizes.get('extension/media/icon.png'), { width: 128, height: 128 });
  assert.deepEqual(shippedPngSizes.get('extension/media/icon-256.png'), { width: 256, height: 256 });
});

test("README's screenshots are inside it, as data: URIs of the repository's PNGs: no network, no relative source", () => {
  // The repository's README names them relatively (GitHub shows them); the VSIX's carries their bytes.
  const source = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const named = [...source.matchAll(/!\[([^\]]*)\]\((media\/readme\/[\w.-]+\.png)\)/g)].map((m) => ({ alt: m[1], file: m[2] }));
  assert.ok(named.length >= 4, `README names ${named.length} screenshots`);
  const images = [...shippedReadme.matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g), ...shippedReadme.matchAll(/<img[^>]+src="([^"]+)"/g)].map((m) => ({ alt: m[1], src: m[2] }));
  assert.deepEqual(images.map((i) => i.alt), named.map((n) => n.alt), 'every screenshot, in order, with its alt text');
  for (const [i, n] of named.entries()) {
    const bytes = fs.readFileSync(path.join(root, n.file));
    assert.equal(images[i].src, `data:image/png;base64,${bytes.toString('base64')}`, `${n.file} is inlined as it is`);
    const size = pngSize(bytes);
    assert.ok(size.width <= 1400, `${n.file} is ${size.width} px wide`);
    assert.ok(bytes.length <= 80 * 1024, `${n.file} is over 80 KB: npm run readme-screenshots shrinks it`);
    // Once inside readme.md, not twice.
    assert.ok(!entries.includes(path.posix.join('extension', n.file)), `${n.file} is also shipped as a file`);
  }
  // Links: web addresses, mail, or anchors of the page itself; a file of the source tree is not shipped
  // and the page opens only http(s) links, so none stays relative.
  const links = [...shippedReadme.matchAll(/(?<!!)\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)].map((m) => m[1]);
  const relative = links.filter((href) => !/^(https?:|mailto:|#)/.test(href));
  assert.deepEqual(relative, [], `README links left relative: ${relative.join(', ')}`);
  const headings = new Set([...shippedReadme.matchAll(/^#+ (.+)$/gm)].map((m) => m[1].trim().toLowerCase().replace(/[^\p{L}\p{N} -]/gu, '').replace(/ /g, '-')));
  for (const anchor of links.filter((href) => href.startsWith('#'))) assert.ok(headings.has(anchor.slice(1)), `README links to ${anchor}, which is no heading`);
});

test('no address in what ships points anywhere that does not exist: no repository, no issue tracker; README says how to report a problem', () => {
  // The project has no public home yet (the repository the manifest named before does not exist).
  assert.equal(shippedManifest.repository, undefined);
  assert.equal(shippedManifest.bugs, undefined);
  assert.equal(shippedManifest.homepage, undefined);
  const unknown: string[] = [];
  for (const [name, text] of shippedTexts) {
    for (const m of text.replace(/data:image\/png;base64,[A-Za-z0-9+/=]+/g, '').matchAll(/https?:\/\/([^/\s)"'>`\]]+)[^\s)"'>`\]]*/g)) {
      if (!KNOWN_HOSTS.test(m[1].toLowerCase())) unknown.push(`${name}: ${m[0]}`);
    }
  }
  assert.ok(shippedTexts.has('extension/readme.md') && shippedTexts.has('extension/package.json') && shippedTexts.has('extension/changelog.md'));
  assert.deepEqual(unknown, [], 'addresses outside the known hosts');
  assert.match(shippedReadme, /^## Reporting a problem$/m);
  assert.match(shippedReadme, /Check Connection/);
});
