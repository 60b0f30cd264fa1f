// Packages the extension the way `npm run package` does and checks what the VSIX ships: only the
// bundles, media (not README's screenshots), l10n, the nls files, README, CHANGELOG and LICENSE;
// nothing else (sources, maps, tests, node_modules), everything the manifest points at, and a size
// within budget.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type JSZipType from 'jszip';

/** A small download: 400 KB before the preview's built-in samples (nine documents and a design, about 20 KB packed). */
const SIZE_BUDGET_BYTES = 420 * 1024;

// This bundle runs from out/test/unit/.
const root = path.resolve(__dirname, '..', '..', '..');

/** What may ship, relative to the VSIX root (vsce adds the manifest files and renames LICENSE). */
const ALLOWED = [
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
  /^extension\/package\.json$/,
  /^extension\/package\.nls(\.[a-z]{2}(-[a-z]{2})?)?\.json$/,
  /^extension\/(readme|changelog)\.md$/,
  /^extension\/LICENSE\.txt$/,
  /^extension\/dist\/[\w./-]+\.(js|css)$/,
  /^extension\/media\/[\w./-]+$/,
  /^extension\/l10n\/bundle\.l10n(\.[a-z]{2}(-[a-z]{2})?)?\.json$/,
];

let vsixBytes = 0;
let entries: string[] = [];
let shippedManifest: {
  main?: string;
  icon?: string;
  repository?: { url?: string } | string;
  contributes?: { viewsContainers?: Record<string, Array<{ icon?: string }>> };
} = {};
let shippedReadme = '';
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
  // esbuild leaves this import() in place, so Node's CJS interop wraps dist/vendor/jszip.js's exports once more.
  const vendored = (await import('jszip')) as unknown as { default: typeof JSZipType | { default: typeof JSZipType } };
  const JSZip = 'default' in vendored.default ? vendored.default.default : vendored.default;
  const zip = await JSZip.loadAsync(fs.readFileSync(out));
  entries = Object.values(zip.files).filter((f) => !f.dir).map((f) => f.name).sort();
  shippedManifest = JSON.parse(await zip.file('extension/package.json')!.async('string'));
  shippedReadme = await zip.file('extension/readme.md')!.async('string');
  for (const name of entries.filter((n) => n.endsWith('.png'))) shippedPngSizes.set(name, pngSize(await zip.file(name)!.async('nodebuffer')));
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

test(`the VSIX stays within ${SIZE_BUDGET_BYTES / 1024} KB`, () => {
  assert.ok(vsixBytes > 0);
  assert.ok(vsixBytes <= SIZE_BUDGET_BYTES, `VSIX is ${(vsixBytes / 1024).toFixed(1)} KB, budget ${SIZE_BUDGET_BYTES / 1024} KB`);
});

test('the VSIX has the icon as a 128×128 PNG (and the 256×256 one beside it)', () => {
  assert.equal(shippedManifest.icon, 'media/icon.png');
  assert.deepEqual(shippedPngSizes.get('extension/media/icon.png'), { width: 128, height: 128 });
  assert.deepEqual(shippedPngSizes.get('extension/media/icon-256.png'), { width: 256, height: 256 });
});

test("README's screenshots point at PNGs of the repository, which the VSIX leaves out; no link is left relative", () => {
  const repo = (typeof shippedManifest.repository === 'string' ? shippedManifest.repository : shippedManifest.repository?.url ?? '').replace(/\.git$/, '');
  assert.ok(repo, 'no repository in package.json');
  // Markdown images, and HTML <img src>.
  const images = [...shippedReadme.matchAll(/!\[[^\]]*\]\(([^)\s]+)[^)]*\)/g), ...shippedReadme.matchAll(/<img[^>]+src="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(images.length >= 3, `README shows only ${images.length} images`);
  // VS Code's extension page drops relative image sources (test/e2e/scenarios/walkthrough.test.ts), so
  // vsce rewrites them to <repo>/raw/HEAD/<path> (scripts/package.js): the page shows the repository's
  // copy, and shipping them too would only make the download bigger.
  const rawPrefix = `${repo}/raw/HEAD/`;
  const foreign = images.filter((src) => !src.startsWith(rawPrefix));
  assert.deepEqual(foreign, [], `README images not from ${rawPrefix}: ${foreign.join(', ')}`);
  for (const src of images) {
    const file = src.slice(rawPrefix.length);
    assert.ok(fs.existsSync(path.join(root, file)), `${src} names no file of the repository`);
    const size = pngSize(fs.readFileSync(path.join(root, file)));
    assert.ok(size.width <= 1400, `${file} is ${size.width} px wide`);
    assert.ok(fs.statSync(path.join(root, file)).size <= 80 * 1024, `${file} is over 80 KB: npm run readme-screenshots shrinks it`);
    assert.ok(!entries.includes(path.posix.join('extension', file)), `${file} is in the VSIX`);
  }
  // Links to other files (CONTRIBUTING.md, LICENSE) become <repo>/blob/HEAD/...; none stays relative.
  const links = [...shippedReadme.matchAll(/(?<!!)\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)].map((m) => m[1]);
  const relative = links.filter((href) => !/^(https?:|mailto:|#)/.test(href));
  assert.deepEqual(relative, [], `README links left relative: ${relative.join(', ')}`);
  assert.ok(links.includes(`${repo}/blob/HEAD/CONTRIBUTING.md`), 'README does not link CONTRIBUTING.md');
});

test('the manifest names the repository, so the Extensions view links to it', () => {
  const repo = typeof shippedManifest.repository === 'string' ? shippedManifest.repository : shippedManifest.repository?.url;
  assert.match(repo ?? '', /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+(\.git)?$/);
});
