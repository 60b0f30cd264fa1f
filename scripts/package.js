#!/usr/bin/env node
// `npm run package`: production build (minified, no source maps) and the VSIX, made by @vscode/vsce with
// everything bundled (--no-dependencies); .vscodeignore decides what ships. Both run in a staging copy
// of the sources (see stage()), with README made for the VSIX (readmeForVsix); --no-build packages the
// working tree's dist/ as it is.
//
//   node scripts/package.js [--out file.vsix] [--no-build] [--quiet]
// Prints the VSIX path, its size and its entries. The module API packageVsix({ out, build, without })
// returns { file, bytes } (used by the VSIX test and the UI-suite runner); `without` names files or
// folders of dist/ to leave out (the GİB benchmark's same-run VSIX without the rules engine).
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { folderLinkType } = require('./platform');

const root = path.resolve(__dirname, '..');

function defaultVsixPath() {
  const { name, version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  return path.join(root, `${name}-${version}.vsix`);
}

function run(cmd, args, quiet, cwd = root) {
  const r = spawnSync(cmd, args, { cwd, stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
  if (r.status !== 0) {
    if (quiet) process.stderr.write(`${r.stdout || ''}${r.stderr || ''}`);
    throw new Error(`${path.basename(cmd)} ${args.join(' ')} failed with exit code ${r.status}`);
  }
  return r.stdout;
}

/**
 * README as it goes into the VSIX. The Extensions page of an installed VSIX shows README from the
 * extension's own folder, in a webview whose sanitizer and CSP let no relative image through (VS Code
 * 1.100 and 1.139) and only https: and data: sources load. The project has no public home whose
 * https address could serve the screenshots, so they are inlined as data: URIs of the PNGs in
 * media/readme/ (those show with no network on VS Code up to 1.102; from 1.103 on VS Code drops
 * data: image sources on this page too and shows each screenshot's alt text; see CONTRIBUTING). Links
 * to other files of the source tree (CONTRIBUTING.md, LICENSE…) become their text: the VSIX does not
 * ship those files and the page opens only http(s) links.
 */
function readmeForVsix(markdown, dir = root) {
  const image = /!\[([^\]]*)\]\((media\/readme\/[\w.-]+\.png)\)/g;
  const inlined = markdown.replace(image, (_, alt, file) => `![${alt}](data:image/png;base64,${fs.readFileSync(path.join(dir, file)).toString('base64')})`);
  return inlined.replace(/(?<!!)\[([^\]]+)\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)/gi, '$1');
}

/** What the production build and vsce need from the working tree (node_modules is linked, not copied). */
const STAGED = ['package.json', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore', 'esbuild.js', 'tsconfig.json', 'src', 'media', 'l10n'];

/**
 * Builds in a staging copy, so the VSIX never picks up stale files from dist/ and packaging does not
 * rewrite the dist/ that the development build, the tests and other tools are using at the time.
 */
function stage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-package-'));
  const names = [...STAGED, ...fs.readdirSync(root).filter((n) => /^package\.nls\..+\.json$/.test(n))];
  for (const name of names) {
    const from = path.join(root, name);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(dir, name), { recursive: true });
  }
  // A junction on Windows: a 'dir' symlink there needs Developer Mode or an administrator.
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), folderLinkType());
  fs.writeFileSync(path.join(dir, 'README.md'), readmeForVsix(fs.readFileSync(path.join(root, 'README.md'), 'utf8')));
  return dir;
}

function packageVsix({ out = defaultVsixPath(), build = true, quiet = false, without = [] } = {}) {
  const dir = stage();
  try {
    if (build) run(process.execPath, ['esbuild.js', '--production'], quiet, dir);
    else fs.cpSync(path.join(root, 'dist'), path.join(dir, 'dist'), { recursive: true });
    for (const rel of without) fs.rmSync(path.join(dir, 'dist', rel), { recursive: true, force: true });
    fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
    run(
      process.execPath,
      [
        vsce, 'package',
        '--no-dependencies',
        // README is already made for the VSIX (readmeForVsix): nothing for vsce to point at a repository,
        // which the project does not have (package.json names none; test/unit/project/vsix.test.ts).
        '--no-rewrite-relative-links',
        '--allow-missing-repository',
        '--out', path.resolve(out),
      ],
      quiet,
      dir,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { file: path.resolve(out), bytes: fs.statSync(out).size };
}

/** Packages a test-fixture extension folder (e.g. test/e2e/fixtures/language-pack-tr) as it is. */
function packageFixture(dir, out) {
  const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  run(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', path.resolve(out)], true, dir);
  return path.resolve(out);
}

/** Lists a VSIX (a ZIP) with `unzip -Z1`-like output using jszip, which the project already ships. */
async function listVsix(file) {
  const JSZip = require(path.join(root, 'node_modules', 'jszip'));
  const zip = await JSZip.loadAsync(fs.readFileSync(file));
  return Object.values(zip.files)
    .filter((f) => !f.dir)
    .map((f) => ({ name: f.name, bytes: f._data && typeof f._data.uncompressedSize === 'number' ? f._data.uncompressedSize : undefined }));
}

async function cli() {
  const argv = process.argv.slice(2);
  const outIdx = argv.indexOf('--out');
  const out = outIdx >= 0 ? argv[outIdx + 1] : undefined;
  const { file, bytes } = packageVsix({ out, build: !argv.includes('--no-build'), quiet: argv.includes('--quiet') });
  console.log(`\nVSIX: ${path.relative(process.cwd(), file)} (${(bytes / 1024).toFixed(1)} KB)`);
  for (const e of await listVsix(file)) console.log(`  ${e.name}${e.bytes !== undefined ? `  ${(e.bytes / 1024).toFixed(1)} KB` : ''}`);
}

module.exports = { packageVsix, packageFixture, listVsix, defaultVsixPath, readmeForVsix };

if (require.main === module) {
  cli().catch((e) => {
    console.error(`[package] ${e.message}`);
    process.exit(1);
  });
}
