// The extension's page in the Extensions view of a VS Code that installed the VSIX, with no network: its
// icon, name and README, and README's screenshots. They travel inside the VSIX, as data: URIs of the
// PNGs in media/readme/ (scripts/package.js readmeForVsix), because the page lets no relative image
// source through and the project has no public address to serve them from. VS Code 1.100 to 1.102
// shows them; from 1.103 on VS Code drops data: image sources on this page (only https: images remain,
// which need the network), so there each screenshot's alt text stands in its place. Run on both:
// `npm run test:e2e -- extensionPage` and `npm run test:e2e -- --version 4.100.3 extensionPage`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Workbench } from '../index';
import { manifest, nls, openWorkbench, repoRoot, waitUntil } from '../index';

const pkg = manifest() as unknown as { displayName: string };
const displayName = nls(pkg.displayName);
/** The code-server version the runner chose; 4.100.3 is VS Code 1.100, 4.139.1 is 1.139. */
const codeServer = process.env.NILVERA_E2E_CS_VERSION || '4.139.1';
const showsDataImages = Number(codeServer.split('.')[1]) < 103;

/** README's screenshots, as the repository's README names them: alt text and file. */
const screenshots = [...fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8').matchAll(/!\[([^\]]*)\]\((media\/readme\/[\w.-]+\.png)\)/g)].map((m) => ({ alt: m[1], file: m[2] }));
let wb: Workbench;

before(async () => {
  wb = await openWorkbench({ scenario: `extension-page-${codeServer}`, withKey: false, sandbox: false });
});

after(async () => {
  await wb?.close();
});

test("the Extensions view shows the extension's page: icon, name, README and its screenshots from inside the VSIX", { timeout: 120_000 }, async () => {
  const { page } = wb;
  // The Extensions view (Ctrl+Shift+X), filtered to the installed extensions as its "…" menu does.
  await page.keyboard.press('Control+Shift+X');
  const search = page.locator('.extensions-viewlet .suggest-input-container .monaco-editor textarea, .extensions-viewlet .monaco-inputbox input').first();
  await search.waitFor({ state: 'attached' });
  await search.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('@installed nilvera');
  const item = page.locator('.extensions-viewlet .monaco-list-row', { hasText: displayName }).first();
  await item.waitFor({ timeout: 30_000 });
  await item.click();
  const editor = page.locator('.extension-editor');
  await editor.locator('.header .name', { hasText: displayName }).waitFor({ timeout: 30_000 });
  // The icon is the packaged PNG, loaded (not the default placeholder).
  const icon = editor.locator('.header .icon-container img.icon');
  await waitUntil(async () => ((await icon.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))) > 0 ? true : undefined), 'the icon to load');
  assert.match((await icon.getAttribute('src')) ?? '', /icon\.png/);
  // The README is the page's body, in a webview.
  const readme = await wb.webview(0);
  await readme.locator('h2', { hasText: 'Install' }).first().waitFor({ timeout: 30_000 });
  await readme.locator('h2', { hasText: 'Reporting a problem' }).waitFor({ state: 'attached' });
  const images = readme.locator('img');
  assert.ok(screenshots.length >= 4, `README names ${screenshots.length} screenshots`);
  await waitUntil(async () => ((await images.count()) === screenshots.length ? true : undefined), `${screenshots.length} images on the page`);
  const shown = await images.evaluateAll((imgs) => imgs.map((i) => ({ alt: i.getAttribute('alt') ?? '', src: i.getAttribute('src') ?? '' })));
  assert.deepEqual(shown.map((i) => i.alt), screenshots.map((s) => s.alt), 'every screenshot in README order, with its alt text');
  // Nothing on the page asks the network for an image.
  assert.deepEqual(shown.filter((i) => /^https?:/.test(i.src)), []);
  if (showsDataImages) {
    for (const [i, s] of screenshots.entries()) {
      const expected = `data:image/png;base64,${fs.readFileSync(path.join(repoRoot, s.file)).toString('base64')}`;
      assert.ok(shown[i].src === expected, `${s.file} is the VSIX's own copy`);
    }
    // Loaded and drawn: the browser decoded each PNG.
    await waitUntil(async () => ((await images.evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0))) ? true : undefined), 'every screenshot to be decoded');
    await readme.locator('img').first().scrollIntoViewIfNeeded();
    await wb.screenshot('extension page with the first screenshot');
    await readme.locator('img').nth(1).scrollIntoViewIfNeeded();
    await wb.screenshot('extension page with the hover and invoice screenshots');
  } else {
    // VS Code drops the data: sources here: the alt texts stand in for the pictures.
    assert.deepEqual(shown.map((i) => i.src), screenshots.map(() => ''), 'VS Code 1.103+ keeps no data: image source on this page');
    await readme.locator('img').first().scrollIntoViewIfNeeded();
    await wb.screenshot('extension page, screenshots dropped by VS Code (alt text)');
  }
});
