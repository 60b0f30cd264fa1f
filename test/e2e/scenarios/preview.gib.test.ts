// GİB's verdict in the document preview as a person sees it: with GİB's rules installed in the
// extension's global storage (written there before the workbench starts, as "Use GİB Rules from a
// File…" leaves them), an invoice with a wrong invoice number and a zero-rate KDV subtotal without
// its exemption reason shows "GİB rules <release>: 2 errors" at the top of the structured view with
// GİB's own words, and axe finds nothing serious in it; a click on a finding, or Enter on it, selects
// its element in the editor. The extension-host suite (test/suite/gib.preview.test.ts) covers the
// host's side of the messages. A despatch advice then gets its own verdict, with GİB's despatch rules'
// words.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { EXTENSION_ID } from '../../../src/constants';
import { installGibPackage } from '../../../src/gib/ruleStore';
import { gibArchives, NO_GIB_DATA } from '../../support/gibPackages';
import type { Workbench } from '../index';
import { openFile, openWorkbench, repoRoot, steps, waitUntil, workspaceFolder } from '../index';

const open: Workbench[] = [];
after(async () => {
  for (const wb of open) await wb.close();
});

const archives = gibArchives();

/** axe-core's serious and critical violations in the preview's page (as the accessibility scenario runs it). */
async function axeViolations(preview: FrameLocator): Promise<string[]> {
  const frame = await (await preview.owner().elementHandle())?.contentFrame();
  if (!frame) throw new Error('the webview has no frame');
  // Evaluated through the debugger protocol, which the page's policy (no eval) does not govern.
  await frame.evaluate(fs.readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8'));
  const { violations } = (await frame.evaluate(`window.axe.run(document, { iframes: false, resultTypes: ['violations'] })`)) as { violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }> };
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('the structured view shows GİB\'s verdict, and a finding goes to its element', { timeout: 300_000, skip: archives ? false : NO_GIB_DATA }, async () => {
  let release = '';
  const wb = await openWorkbench({
    scenario: 'preview gib',
    settings: { 'workbench.editor.enablePreview': false },
    prepareUserData: async (userDataDir) => {
      release = await installGibPackage(path.join(userDataDir, 'User', 'globalStorage', EXTENSION_ID), archives!.rules, archives!.schemas);
    },
  });
  open.push(wb);
  await steps(wb, async () => {
    fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'gib', 'preview-invoice.xml'), path.join(workspaceFolder(wb.page), 'preview-invoice.xml'));
    await openFile(wb.page, 'preview-invoice.xml');
    const button = wb.page.locator('.editor-actions .action-item a[aria-label^="Preview Document"]').first();
    await button.waitFor({ timeout: 30_000 });
    await button.click();
    await wb.page.locator('.tabs-container .tab[aria-label^="Preview preview-invoice.xml"]').first().waitFor({ timeout: 30_000 });
    const preview = await waitUntil(() => wb.webview('Preview preview-invoice.xml').catch(() => undefined), 'the preview\'s webview', 30_000, 500);

    // The document has no design: the structured view, with the verdict at its top once the worker answers.
    const heading = preview.locator('#structured section.gib h2');
    await heading.filter({ hasText: `GİB rules ${release}: 2 errors` }).waitFor({ timeout: 60_000 });
    const findings = preview.locator('#structured section.gib ul.gib-findings li button');
    assert.equal(await findings.count(), 2);
    const texts = (await findings.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    assert.match(texts[0], /^✗ Error: Geçersiz cbc:ID elemanı değeri\. cbc:ID elemanı 'ABC2009123456789' formatında olmalıdır\. ?\/Invoice\/cbc:ID · line 19$/);
    assert.match(texts[1], /^✗ Error: Vergi miktarı 0 olan 0015 vergi kodlu KDV için cbc:TaxExemptionReason.*\/Invoice\/cac:TaxTotal\/cac:TaxSubtotal\[2\]\/cbc:TaxAmount · line 109$/);
    // The unsigned draft's signature finding is left out, and the view says so.
    assert.match(await preview.locator('#structured section.gib').innerText(), /One finding saying only that the document is not signed yet is not listed/);
    // The verdict comes first, the document's own view after it.
    assert.equal(await preview.locator('#structured > :first-child').getAttribute('class'), 'gib');
    await wb.screenshot('the structured view with GİB\'s verdict');
    assert.deepEqual(await axeViolations(preview), [], 'the verdict and its list of findings pass axe');

    const selection = wb.page.locator('[id="status.editor.selection"]');
    await findings.nth(0).click();
    await waitUntil(async () => (/Ln 19, Col 3 \(7 selected\)/.test(await selection.innerText().catch(() => '')) ? true : undefined), 'the invoice number selected in the editor', 30_000, 250);
    const active = wb.page.locator('.editor-group-container.active .tabs-container .tab.active');
    assert.match((await active.getAttribute('aria-label')) ?? '', /^preview-invoice\.xml/, 'the editor of the document has the focus');
    await wb.screenshot('a click on the invoice number finding selects cbc:ID');

    // The keyboard: the second finding focused and Enter pressed.
    await findings.nth(1).focus();
    await wb.page.keyboard.press('Enter');
    await waitUntil(async () => (/Ln 109, Col 7 \(14 selected\)/.test(await selection.innerText().catch(() => '')) ? true : undefined), 'the tax amount selected in the editor', 30_000, 250);
    await wb.screenshot('Enter on the exemption finding selects the subtotal\'s cbc:TaxAmount');

    // A despatch advice: its own verdict, with the delivery address findings of GİB's despatch rules.
    fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'gib', 'editor-despatch-broken.xml'), path.join(workspaceFolder(wb.page), 'editor-despatch-broken.xml'));
    await openFile(wb.page, 'editor-despatch-broken.xml');
    await button.click();
    await wb.page.locator('.tabs-container .tab[aria-label^="Preview editor-despatch-broken.xml"]').first().waitFor({ timeout: 30_000 });
    const despatch = await waitUntil(() => wb.webview('Preview editor-despatch-broken.xml').catch(() => undefined), 'the despatch preview\'s webview', 30_000, 500);
    await despatch.locator('#structured section.gib h2').filter({ hasText: new RegExp(`^GİB rules ${release}: \\d+ errors?`) }).waitFor({ timeout: 60_000 });
    const despatchFindings = (await despatch.locator('#structured section.gib ul.gib-findings li button').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    assert.ok(despatchFindings.some((t) => /CitySubdivisionName elemanı içermelidir/.test(t)), despatchFindings.join(' | '));
    assert.ok(despatchFindings.some((t) => /Hatalı Posta Kodu/.test(t)), despatchFindings.join(' | '));
    await wb.screenshot('the structured view of a despatch advice with GİB\'s verdict');
  });
});
