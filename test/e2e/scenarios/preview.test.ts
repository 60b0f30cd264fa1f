// The document preview and the template studio as a person uses them: a UBL-TR invoice rendered through
// the design embedded in it (supplier, customer, a line and the payable amount on screen); the structured
// view marking totals that do not add up; a design edited in the editor and the studio following it; a
// hostile design that tries to read local files and reach the network and gets nothing; Upload sending
// the design to the sandbox; the structured view saying what the editor says about tax numbers (GİB's
// placeholder for a buyer abroad as information); the preview and the studio back after "Developer:
// Reload Window"; and, in a browser with XSLT turned off, the structured view with the message.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { Workbench } from '../index';
import { designShows, focusFirstGroup, frameText, openFile, openInFirstGroup, openStudio, openWorkbench, previewPage, repoRoot, steps, waitUntil, workspaceFolder } from '../index';

const samples = path.join(repoRoot, 'media', 'samples');
const open: Workbench[] = [];
after(async () => {
  for (const wb of open) await wb.close();
});

/** A server on the loopback that counts every request: a design must never reach it. */
let listener: http.Server;
const hits: string[] = [];
before(async () => {
  listener = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/xml');
    res.setHeader('access-control-allow-origin', '*');
    res.end('<leak>LEAKED-FROM-SERVER</leak>');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
});
after(() => new Promise<void>((resolve) => listener.close(() => resolve())));
const port = () => (listener.address() as { port: number }).port;

/** The editor that has the focus (the design or invoice being edited). */
const activeEditorLines = (wb: Workbench) => wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();

async function copyToWorkspace(wb: Workbench, from: string, name = path.basename(from)): Promise<string> {
  const target = path.join(workspaceFolder(wb.page), name);
  fs.copyFileSync(from, target);
  return target;
}

test('an invoice with its embedded design: rendered through it, with supplier, customer, a line and the payable amount', { timeout: 240_000 }, async () => {
  // Auto save off, as a person may have it: Upload must save the edited design itself.
  const wb = await openWorkbench({ scenario: 'preview', settings: { 'files.autoSave': 'off' } });
  open.push(wb);
  await steps(wb, async () => {
    await copyToWorkspace(wb, path.join(samples, 'invoice-TEMELFATURA.xml'));
    await openFile(wb.page, 'invoice-TEMELFATURA.xml');
    // The editor title's button, shown on UBL-TR documents only.
    const button = wb.page.locator('.editor-actions .action-item a[aria-label^="Preview Document"]').first();
    await button.waitFor({ timeout: 30_000 });
    await button.click();
    const preview = await previewPage(wb, 'Preview invoice-TEMELFATURA.xml');
    const text = await designShows(preview, ['Örnek Yazılım ve Danışmanlık A.Ş.', 'Anadolu Gıda Sanayi ve Ticaret A.Ş.', 'Danışmanlık hizmeti (saat)', '24.000,00 TRY']);
    assert.match(text, /Ödenecek Tutar 24\.000,00 TRY/, 'the payable amount, formatted by the design\'s decimal format');
    assert.ok(!text.includes('NaN'), 'amounts, not NaN');
    // The design's inline script (it draws a mark from the ETTN, as designs draw their QR code) does not
    // run in the preview: where it stood, the frame says so, with the ETTN; the banner says why.
    assert.match(text, /Not shown: scripts are off \(ETTN [0-9a-f-]{36}\)/);
    assert.equal(await preview.frameLocator('iframe#design').locator('#mark').getAttribute('data-drawn'), null);
    assert.equal(await preview.locator('iframe#design').getAttribute('sandbox'), '');
    assert.match(await preview.locator('#banner').innerText(), /This design has 1 script\(s\); the preview does not run a design's scripts/);
    await wb.screenshot('invoice rendered through its embedded design');

    // The structured view is one click away.
    await preview.locator('button[data-mode="structured"]').click();
    await preview.locator('#structured', { hasText: 'All 5 totals checks add up.' }).waitFor();
    await wb.screenshot('the same invoice in the structured view');
    await preview.locator('button[data-mode="design"]').click();
    await designShows(preview, ['24.000,00 TRY']);
  });
});

test('the structured view marks totals that do not add up (line sum and payable amount)', { timeout: 120_000 }, async () => {
  const wb = open[0];
  await steps(wb, async () => {
    await copyToWorkspace(wb, path.join(repoRoot, 'test', 'fixtures', 'preview', 'invoice-line-and-payable-totals-wrong.xml'));
    await openInFirstGroup(wb, 'invoice-line-and-payable-totals-wrong.xml');
    // The open preview follows the editor: this document has no design, so the structured view shows.
    const preview = await previewPage(wb, 'Preview invoice-line-and-payable-totals-wrong.xml');
    const alert = preview.locator('.checks-failed');
    await alert.waitFor({ timeout: 30_000 });
    const text = (await alert.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /line amounts add up to 1,500\.00 TRY, but the line extension amount says 1,400\.00 TRY \(difference -100\.00 TRY\)/);
    assert.match(text, /payable amount says 1,800\.00 TRY \(difference 100\.00 TRY\)/);
    const marked = await preview.locator('#structured td.num .bad').allInnerTexts();
    assert.deepEqual(marked.map((t) => t.trim()), ['1,400.00 TRY ✗', '1,800.00 TRY ✗'], 'the two totals are marked in the totals table');
    assert.ok(await preview.locator('button[data-mode="design"]').isDisabled(), 'no design to show');
    await wb.screenshot('structured view with totals that do not add up');
    await preview.locator('#structured h2', { hasText: 'Totals' }).scrollIntoViewIfNeeded();
    await wb.screenshot('structured view: the totals that do not add up are marked');
  });
});

test('template studio: the design rendered with a built-in sample, following its edits', { timeout: 180_000 }, async () => {
  const wb = open[0];
  await steps(wb, async () => {
    await copyToWorkspace(wb, path.join(samples, 'sample-design.xslt'), 'my-design.xslt');
    const preview = await openStudio(wb, 'my-design.xslt', 'invoice-TICARIFATURA.xml');
    await designShows(preview, ['Ayçiçek yağı 5 L', 'Ödenecek Tutar']);
    // Edit the design as a person would: find the payable row's label and type over it.
    await focusFirstGroup(wb);
    await activeEditorLines(wb).click();
    await wb.page.keyboard.press('Control+F');
    await wb.page.keyboard.type('Ödenecek Tutar');
    await wb.page.keyboard.press('Escape');
    await wb.page.keyboard.type('Genel Toplam (düzenlendi)');
    const text = await designShows(preview, ['Genel Toplam (düzenlendi)']);
    assert.ok(!text.includes('Ödenecek Tutar'));
    await wb.screenshot('studio after an edit of the design');

    // A mistake in the design: the engine's parser message is shown, and fixing it brings the rendering back.
    await wb.page.keyboard.type('<broken');
    await preview.locator('#problem', { hasText: 'The design is not well-formed XML' }).waitFor({ timeout: 30_000 });
    assert.match(await preview.locator('#problem').innerText(), /line \d+ at column \d+/i, 'where the parser stopped');
    await wb.screenshot('studio showing what the engine reported');
    for (let i = 0; i < '<broken'.length; i++) await wb.page.keyboard.press('Backspace');
    await designShows(preview, ['Genel Toplam (düzenlendi)']);
  });
});

test('a design that tries to read local files or reach the network gets nothing', { timeout: 180_000 }, async () => {
  const wb = open[0];
  await steps(wb, async () => {
    const workspace = workspaceFolder(wb.page);
    fs.writeFileSync(path.join(workspace, 'secret.xml'), '<secret>TOP-SECRET-4711</secret>\n');
    fs.writeFileSync(path.join(workspace, 'included.xsl'), '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template name="x">INCLUDED-FROM-DISK</xsl:template></xsl:stylesheet>\n');
    // How the webview names a local file: its own script's address, with the workspace's path instead.
    const any = await previewPage(wb, 'Design my-design.xslt');
    const scriptSrc = (await any.locator('script[src*="preview/main.js"]').getAttribute('src')) ?? '';
    const extensionPart = scriptSrc.indexOf('/dist/webview/preview/main.js');
    assert.ok(scriptSrc.startsWith('http') && extensionPart > 0, scriptSrc);
    const extensionRoot = new URL(scriptSrc.slice(0, extensionPart)).pathname;
    const resource = scriptSrc.slice(0, scriptSrc.indexOf(extensionRoot)) + encodeURI(`${workspace}/secret.xml`);
    const server = `http://127.0.0.1:${port()}`;
    const hostile = fs
      .readFileSync(path.join(repoRoot, 'test', 'fixtures', 'preview', 'hostile-design.xslt'), 'utf8')
      .replaceAll('SERVER', server)
      .replaceAll('WORKSPACE', workspace)
      .replaceAll('RESOURCE', resource);
    fs.writeFileSync(path.join(workspace, 'hostile.xslt'), hostile);
    const requestsBefore = ((await wb.sandbox!.control('requests')) as unknown[]).length;
    hits.length = 0;

    const preview = await openStudio(wb, 'hostile.xslt', 'invoice-TEMELFATURA.xml');
    // Its scripts run only once the studio's user turns them on; then the policies still hold.
    await designShows(preview, ['script:not run']);
    await preview.locator('#scripts').click();
    const text = await designShows(preview, ['script:ran', 'post:']);
    for (const expected of ['file:0:', 'passwd:0', 'url:0:', 'resource:0:', 'fetch:blocked', 'xhr:blocked', 'parent:blocked', 'host:blocked']) assert.ok(text.includes(expected), `${expected} in: ${text}`);
    for (const leak of ['TOP-SECRET-4711', 'LEAKED']) assert.ok(!text.includes(leak), `${leak} in: ${text}`);
    await wb.screenshot('hostile design: every read and request came back empty');
    // Its messages to the page above it (an upload, a forged update) are ignored: no prompt, no request to
    // the API, and the page still shows what the host sent.
    await wb.page.waitForTimeout(4_000); // also lets its delayed navigation attempt happen
    assert.equal(await preview.locator('#title').innerText(), 'hostile.xslt with invoice-TEMELFATURA.xml');
    assert.equal(await wb.page.locator('.quick-input-widget:visible').count(), 0, 'no upload prompt opened');
    const requests = (await wb.sandbox!.control('requests')) as Array<{ method: string; path: string }>;
    assert.deepEqual(requests.slice(requestsBefore).filter((r) => r.method !== 'GET'), []);
    assert.deepEqual(hits, [], 'the loopback server saw no request from the design');

    // xsl:include of a local file and xsl:import of a URL: nothing is loaded, and the studio says the design failed.
    fs.writeFileSync(path.join(workspace, 'importing.xslt'), fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'preview', 'importing-design.xslt'), 'utf8').replaceAll('SERVER', server).replaceAll('WORKSPACE', workspace));
    const importing = await openStudio(wb, 'importing.xslt', 'invoice-TEMELFATURA.xml');
    await importing.locator('#problem', { hasText: 'The design could not be applied' }).waitFor({ timeout: 30_000 });
    assert.match(await importing.locator('#banner').innerText(), /asks for other files .*included\.xsl/s);
    assert.ok(!(await frameText(importing)).includes('INCLUDED-FROM-DISK'));
    assert.deepEqual(hits, [], 'no request for the imported stylesheet either');
    await wb.screenshot('design with xsl:include and xsl:import: nothing loaded');
  });
});

test('Upload as e-Invoice Template… sends the design through the template update to the sandbox', { timeout: 180_000 }, async () => {
  const wb = open[0];
  await steps(wb, async () => {
    // "Try the Sandbox" stores the sandbox's key for the Sandbox environment.
    await wb.runCommand('Nilvera: Try the Sandbox');
    await wb.page.locator('.part.statusbar .statusbar-item', { hasText: /\d\s*credits/ }).first().waitFor({ timeout: 30_000 });
    const preview = await previewPage(wb, 'Design my-design.xslt');
    await preview.locator('#upload').click();
    // The template update's own questions: which template (no ID remembered yet), then its flags.
    await wb.inputBox('2');
    await wb.quickPick('Active');
    const done = await waitUntil(async () => (await wb.notifications()).find((n) => n.includes('The file of Template #2 was replaced.')), 'the done message', 30_000);
    assert.ok(done);
    const file = path.join(workspaceFolder(wb.page), 'my-design.xslt');
    const saved = fs.readFileSync(file);
    assert.match(saved.toString('utf8'), /Genel Toplam \(düzenlendi\)/, 'the edited design was saved before it was sent');
    const state = (await wb.sandbox!.control('state')) as { templates: Array<{ ID: number; IsActive: boolean; FileSize: number; FileSha256?: string }> };
    const template = state.templates.find((t) => t.ID === 2);
    assert.deepEqual([template?.FileSize, template?.FileSha256, template?.IsActive], [saved.length, createHash('sha256').update(saved).digest('hex'), true]);
    await wb.screenshot('design uploaded as template 2');
  });
});

test("the structured view says what the editor says: the goods owner on an HKS line checked; GİB's placeholder for the buyer abroad is information, not an error", { timeout: 120_000 }, async () => {
  const wb = open[0];
  await steps(wb, async () => {
    // An HKS invoice: the owner of the goods is named on each line, and checked there.
    await copyToWorkspace(wb, path.join(repoRoot, 'test', 'fixtures', 'ubl', 'invoice-hks.xml'));
    await openInFirstGroup(wb, 'invoice-hks.xml');
    const hks = await previewPage(wb, 'Preview invoice-hks.xml');
    const owners = hks.locator('#structured td .identification');
    await owners.first().waitFor({ timeout: 30_000 });
    assert.deepEqual((await owners.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()), [
      'Owner of the goods: MALSAHIBIVKNTCKN 23456789138 ✓ valid TCKN',
      'Owner of the goods: MALSAHIBIVKNTCKN 45678912317 ✗ Invalid TCKN 45678912317: the 11th digit should be 6 for these first ten digits.',
    ]);
    await hks.locator('#structured h2', { hasText: 'Lines' }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
    await wb.screenshot('structured view: the owner of the goods checked on each HKS line');

    await copyToWorkspace(wb, path.join(repoRoot, 'test', 'fixtures', 'ubl', 'invoice-ihracat.xml'));
    await openInFirstGroup(wb, 'invoice-ihracat.xml');
    // The open preview follows the editor; this export invoice has no design of its own.
    const preview = await previewPage(wb, 'Preview invoice-ihracat.xml');
    const buyer = preview.locator('.party[data-role="buyer"]');
    await buyer.waitFor({ timeout: 30_000 });
    const placeholder = buyer.locator('.identification[data-verdict="placeholder"]');
    assert.match((await placeholder.innerText()).replace(/\s+/g, ' '), /VKN 2222222222 ℹ 2222222222 is GİB's placeholder VKN for a company abroad: accepted for the buyer of an e-Arşiv, export or tax-free invoice\./);
    assert.equal(await placeholder.locator('.finding').getAttribute('data-severity'), 'information');
    assert.equal(await preview.locator('.parties .bad').count(), 0, 'no party number is marked invalid');
    // The customs office (the customer) carries the editor's note about the missing registry list; the signer is checked too.
    assert.match(await preview.locator('.party[data-role="customer"]').innerText(), /Registry list not downloaded: e-invoice status not checked\./);
    assert.match(await preview.locator('.party[data-role="signatory"]').innerText(), /VKN_TCKN\s+4540536920\s+✓ valid VKN/);
    await buyer.scrollIntoViewIfNeeded();
    await wb.screenshot('structured view: the placeholder buyer abroad as information');
  });
});

test('after "Developer: Reload Window" the preview and the studio come back, showing the same document and design', { timeout: 240_000 }, async () => {
  const wb = open[0];
  await steps(wb, async () => {
    // What is open now: the preview of invoice-ihracat.xml and the studio of my-design.xslt (edited, saved by Upload).
    await previewPage(wb, 'Preview invoice-ihracat.xml');
    await wb.runCommand('Developer: Reload Window');
    await wb.page.waitForURL(/./);
    await wb.page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });

    const preview = await waitUntil(() => previewPage(wb, 'Preview invoice-ihracat.xml').catch(() => undefined), 'the preview tab back after the reload', 90_000, 1_000);
    await preview.locator('#title', { hasText: 'invoice-ihracat.xml' }).waitFor({ timeout: 60_000 });
    const placeholder = preview.locator('.party[data-role="buyer"] .identification[data-verdict="placeholder"]');
    await placeholder.waitFor({ timeout: 60_000 });
    assert.match(await placeholder.innerText(), /GİB's placeholder VKN for a company abroad/);
    await preview.locator('.party[data-role="buyer"]').scrollIntoViewIfNeeded();
    await wb.screenshot('preview restored after a window reload');

    const studio = await previewPage(wb, 'Design my-design.xslt');
    await studio.locator('#title', { hasText: 'my-design.xslt with invoice-TICARIFATURA.xml' }).waitFor({ timeout: 60_000 });
    await designShows(studio, ['Genel Toplam (düzenlendi)', 'Ayçiçek yağı 5 L']);
    await wb.screenshot('studio restored after a window reload');

    // Still the live preview: it follows the editor to another document. Opened from the Explorer: while
    // the restored panels start, Quick Open can lose the focus and close before it takes the name.
    await focusFirstGroup(wb);
    await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'invoice-line-and-payable-totals-wrong.xml' }).first().click();
    await wb.page.locator('.tabs-container .tab.active', { hasText: 'invoice-line-and-payable-totals-wrong.xml' }).first().waitFor();
    const followed = await previewPage(wb, 'Preview invoice-line-and-payable-totals-wrong.xml');
    await followed.locator('.checks-failed').waitFor({ timeout: 30_000 });
  });
});

test('with the browser\'s XSLT turned off: the structured view and the message, once', { timeout: 240_000 }, async () => {
  const wb = await openWorkbench({ scenario: 'preview-no-xslt', chromiumArgs: ['--disable-features=XSLT'] });
  open.push(wb);
  await steps(wb, async () => {
    await copyToWorkspace(wb, path.join(samples, 'invoice-EARSIVFATURA.xml'));
    await openFile(wb.page, 'invoice-EARSIVFATURA.xml');
    await wb.runCommand('Nilvera: Preview Document');
    const preview = await previewPage(wb, 'Preview invoice-EARSIVFATURA.xml');
    await preview.locator('#banner', { hasText: 'cannot run XSLT' }).waitFor({ timeout: 30_000 });
    assert.match(await preview.locator('#banner').innerText(), /webview \(Chromium \d+\) cannot run XSLT, so the document's own design cannot be shown here\. Showing the structured view\./);
    await preview.locator('#structured', { hasText: 'Ayşe Yılmaz' }).waitFor();
    assert.match(await preview.locator('#structured').innerText(), /All 5 totals checks add up/);
    assert.ok(await preview.locator('button[data-mode="design"]').isDisabled());
    assert.ok(await preview.locator('iframe#design').isHidden());
    await wb.screenshot('no XSLT: structured view with the message');
    // Closed, it stays closed while the document is edited.
    await preview.locator('#banner .dismiss').click();
    await focusFirstGroup(wb);
    await activeEditorLines(wb).click();
    await wb.page.keyboard.press('Control+End');
    await wb.page.keyboard.type('\n\n'); // an edit that keeps the document well-formed
    await wb.page.waitForTimeout(1_500);
    assert.ok(await preview.locator('#banner').isHidden(), 'the message is said once');

    await copyToWorkspace(wb, path.join(samples, 'sample-design.xslt'));
    const studio = await openStudio(wb, 'sample-design.xslt', 'invoice-EARSIVFATURA.xml');
    await studio.locator('#banner', { hasText: 'Chromium turns XSLT off from version 158' }).waitFor({ timeout: 30_000 });
    await wb.screenshot('no XSLT: the studio says which versions render designs');
  });
});
