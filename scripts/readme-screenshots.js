#!/usr/bin/env node
// `npm run readme-screenshots`: refreshes README's screenshots (media/readme/*.png) from the real
// editor. Runs the UI scenarios that take them (scripts/run-e2e.js), then copies the chosen shots from
// test-results/e2e/ into media/readme/, cropped to what they show, scaled to at most 960 px wide and
// reduced to 64 colours (no dithering) with ImageMagick so the VSIX stays small.
//
//   node scripts/readme-screenshots.js [--no-run] [--no-package]
// --no-run copies from the screenshots a previous UI run left in test-results/e2e/.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const resultsDir = path.join(root, 'test-results', 'e2e');
const outDir = path.join(root, 'media', 'readme');
const WIDTH = 960;

/**
 * README's images: which scenario file takes them, its screenshot folder, the step's file name, and the
 * part of the 1400×900 screenshot to keep (ImageMagick geometry; none: all of it).
 */
const SHOTS = [
  { file: 'views', scenario: 'views-customers', step: 'first-page-with-total-in-the-title', out: 'customers.png', crop: '480x900+0+0' },
  { file: 'editor.hover', scenario: 'editor-hover', step: 'registered-vkn-from-the-offline-list', out: 'hover.png', crop: '1120x520+0+0' },
  { file: 'editor.diagnostics', scenario: 'editor-diagnostics', step: 'quick-fix-offered-under-ctrl', out: 'invoice-diagnostics.png', crop: '1400x660+0+0' },
  { file: 'walkthrough', scenario: 'walkthrough', step: 'walkthrough-with-every-step-checked', out: 'walkthrough.png' },
];

/** test-results/e2e/<scenario>/<nn>-<step>.png, as the harness names it; undefined when not taken. */
function findShot(shot) {
  const dir = path.join(resultsDir, shot.scenario);
  if (!fs.existsSync(dir)) return undefined;
  const name = fs.readdirSync(dir).find((n) => n === `${n.slice(0, n.indexOf('-'))}-${shot.step}.png` && /^\d+-/.test(n));
  return name && path.join(dir, name);
}

function hasImageMagick() {
  return spawnSync('convert', ['-version'], { encoding: 'utf8' }).status === 0;
}

function main() {
  const argv = process.argv.slice(2);
  let runFailed = false;
  if (!argv.includes('--no-run')) {
    const args = [path.join(root, 'scripts', 'run-e2e.js'), ...(argv.includes('--no-package') ? ['--no-package'] : []), ...new Set(SHOTS.map((s) => s.file))];
    runFailed = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status !== 0;
  }
  const magick = hasImageMagick();
  if (!magick) console.warn('[readme-screenshots] ImageMagick (convert) not found: copying the screenshots unreduced (apt-get install imagemagick)');
  fs.mkdirSync(outDir, { recursive: true });
  const missing = [];
  for (const shot of SHOTS) {
    const from = findShot(shot);
    if (!from) {
      missing.push(`${shot.scenario}/*-${shot.step}.png`);
      continue;
    }
    const to = path.join(outDir, shot.out);
    if (magick) {
      const crop = shot.crop ? ['-crop', shot.crop, '+repage'] : [];
      const r = spawnSync('convert', [from, ...crop, '-resize', `${WIDTH}x>`, '-strip', '+dither', '-colors', '64', '-define', 'png:compression-level=9', `PNG8:${to}`], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`convert failed for ${from}: ${r.stderr}`);
    } else fs.copyFileSync(from, to);
    console.log(`[readme-screenshots] ${path.relative(root, from)} -> ${path.relative(root, to)} (${(fs.statSync(to).size / 1024).toFixed(0)} KB)`);
  }
  if (missing.length) console.error(`[readme-screenshots] not taken (did the scenario fail?): ${missing.join(', ')}`);
  if (runFailed) console.error('[readme-screenshots] the UI run failed; check the copied screenshots before committing them');
  process.exit(missing.length || runFailed ? 1 : 0);
}

main();
