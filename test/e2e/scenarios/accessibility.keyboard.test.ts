// Every screen for every user (issue 41), with the keyboard alone: the status bar entries read by what
// they are; the company form and the customer form edited and saved; a preview opened and its
// structured view reached and scrolled. (accessibility.axe.test.ts runs axe-core in every webview.)
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import type { Workbench } from '../index';
import { nls, openWorkbench, repoRoot, steps, waitUntil, workspaceFolder } from '../index';
import { checkTaxId } from '../../../src/domain/taxId';

const open: Workbench[] = [];
after(async () => {
  for (const wb of open) await wb.close();
});

/** The page frame of a webview (the FrameLocator's frame), where axe can be injected. */
async function frameOf(locator: FrameLocator): Promise<Frame> {
  const handle = await locator.owner().elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the webview has no frame');
  return frame;
}

/** The element that has the keyboard focus inside a webview page: its id, tag and role. */
async function focused(locator: FrameLocator): Promise<string> {
  const frame = await frameOf(locator);
  return frame.evaluate(() => {
    const e = document.activeElement;
    return e ? `${e.localName}#${e.id}${e.getAttribute('role') ? `[${e.getAttribute('role')}]` : ''}` : 'none';
  });
}

/** Presses Tab (inside the webview that has the focus) until `want` holds for the focused element. */
async function tabUntil(page: Page, locator: FrameLocator, want: (f: string) => boolean, what: string, max = 40): Promise<string> {
  for (let i = 0; i < max; i++) {
    const f = await focused(locator);
    if (want(f)) return f;
    await page.keyboard.press('Tab');
    await page.waitForTimeout(80);
  }
  throw new Error(`Tab never reached ${what} (last: ${await focused(locator)})`);
}

/** Runs a palette command by keyboard: F1, its title, Enter. */
async function command(page: Page, title: string): Promise<void> {
  const box = page.locator('.quick-input-widget .quick-input-box input');
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: title }).first();
  // The palette can close before it takes the text when a webview takes the focus as it opens: again, then.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const listed = await box
      .waitFor({ state: 'visible', timeout: 5_000 })
      .then(() => page.keyboard.type(`>${title}`))
      .then(() => row.waitFor({ timeout: 8_000 }))
      .then(() => true, () => false);
    if (listed) break;
    if (attempt === 3) throw new Error(`the palette never listed "${title}"`);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(500);
  }
  await page.keyboard.press('Enter');
}

/** The webview of a tab, once it is there (a panel just opened shows its webview a moment after its tab). */
function shown(wb: Workbench, title: string): Promise<FrameLocator> {
  return waitUntil(() => wb.webview(title).catch(() => undefined), `the webview of "${title}"`, 30_000, 500);
}

async function sandboxGet<T>(wb: Workbench, p: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${wb.sandbox!.url}${p}`, { headers: { Authorization: `Bearer ${wb.sandbox!.keys.full}`, Accept: 'application/json' } });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as T };
}

test('keyboard only: the company form and the customer form edited and saved, a preview opened and its structured view reached', { timeout: 300_000 }, async () => {
  const wb = await openWorkbench({ scenario: 'accessibility-keyboard', settings: { 'workbench.colorTheme': 'Default High Contrast' } });
  open.push(wb);
  const { page } = wb;
  await steps(wb, async () => {
    // The key, by keyboard too.
    await command(page, `Nilvera: ${nls('%command.apiKey.set%')}`);
    // The command's own input box replaces the palette (its text no longer starts with ">").
    const box = page.locator('.quick-input-widget .quick-input-box input');
    await waitUntil(async () => ((await box.isVisible()) && !(await box.inputValue()).startsWith('>') ? true : undefined), 'the API key input box', 10_000);
    await page.keyboard.type(wb.sandbox!.keys.full);
    await page.keyboard.press('Enter');
    await page.locator('.notification-list-item-message', { hasText: 'API key saved' }).first().waitFor({ timeout: 60_000 });
    // The status bar entries are read out by what they are, not by an icon's name or a Markdown table.
    const credits = page.locator('.part.statusbar [aria-label^="Nilvera credits: "]').first();
    await waitUntil(async () => (/^Nilvera credits: [\d,.]+ remaining/.test((await credits.getAttribute('aria-label').catch(() => null)) ?? '') ? true : undefined), 'the credits entry read as a count', 30_000, 250);
    const environment = (await page.locator('.part.statusbar [aria-label^="Nilvera environment: "]').first().getAttribute('aria-label')) ?? '';
    assert.match(environment, /^Nilvera environment: Sandbox(, .+)?$/);
    assert.ok(!/server-environment|\||&nbsp;/.test(`${environment} ${await credits.getAttribute('aria-label')}`), environment);

    // Company form: Tab to City, type, Tab to Save and press it; the focus goes back to the field, not the page body.
    await command(page, `Nilvera: ${nls('%command.account.openCompany%')}`);
    let form = await shown(wb, 'Company Data');
    await form.locator('#field-City').waitFor();
    await tabUntil(page, form, (f) => f === 'vscode-textfield#field-City', 'the City field');
    // A key pressed right after Ctrl+A can be lost on a loaded machine: typed again until the field holds it.
    await waitUntil(async () => {
      await page.keyboard.press('Control+A');
      await page.waitForTimeout(100);
      await page.keyboard.type('Kırşehir');
      return (await form.locator('#field-City').evaluate((el) => (el as HTMLInputElement).value)) === 'Kırşehir' ? true : undefined;
    }, 'Kırşehir in the City field', 20_000, 200);
    // On to Save and press it: Save turns disabled once saved, and the focus must not fall to the body.
    await tabUntil(page, form, (f) => f.startsWith('vscode-button#save'), 'the Save button');
    await page.keyboard.press('Space');
    await form.locator('#status', { hasText: 'Saved.' }).waitFor();
    const state = (await (await fetch(`${wb.sandbox!.url}/__sandbox/state`)).json()) as { company: { City: string } };
    assert.equal(state.company.City, 'Kırşehir', 'saved on the sandbox');
    assert.equal(await focused(form), 'vscode-textfield#field-City', 'after Save the focus is back on the field edited');
    await wb.screenshot('company form saved with the keyboard');

    // Customer form: a new customer, its tax number and name typed, saved with Enter in the name field.
    let vkn = '';
    for (let n = 4_200_000_000; !vkn; n++) {
      const candidate = String(n);
      if (checkTaxId(candidate).valid && (await sandboxGet(wb, `/general/Customers/GetCustomerInfo/${candidate}`)).status === 404) vkn = candidate;
    }
    await command(page, `Nilvera: ${nls('%command.customers.create%')}`);
    form = await shown(wb, 'New Customer');
    await form.locator('#field-TaxNumber').waitFor();
    // A required field is described as required to a screen reader, not only by the label's "*".
    const describedBy = ((await form.locator('#field-TaxNumber').getAttribute('aria-describedby')) ?? '').split(' ');
    const descriptions = await Promise.all(describedBy.map(async (id) => (await form.locator(`[id="${id}"]`).textContent()) ?? ''));
    assert.ok(descriptions.includes('This field is required.'), `the tax number's description: ${JSON.stringify(descriptions)}`);
    await tabUntil(page, form, (f) => f === 'vscode-textfield#field-TaxNumber', 'the tax number field');
    await page.keyboard.type(vkn);
    await tabUntil(page, form, (f) => f === 'vscode-textfield#field-Name', 'the name field');
    await page.keyboard.type('Klavye Ticaret A.Ş.');
    await page.keyboard.press('Enter');
    const created = await waitUntil(async () => {
      const r = await sandboxGet<{ Name: string }>(wb, `/general/Customers/GetCustomerInfo/${vkn}`);
      return r.status === 200 ? r.body : undefined;
    }, 'the new customer on the sandbox');
    assert.equal(created.Name, 'Klavye Ticaret A.Ş.');
    form = await shown(wb, 'Customer: Klavye Ticaret A.Ş.');
    await form.locator('#status', { hasText: 'Saved.' }).waitFor();
    assert.notEqual(await focused(form), 'body#', 'after Save the focus is not left on the page body');
    await wb.screenshot('customer form saved with the keyboard');

    // A preview, opened from the keyboard: Quick Open, the command, then into the preview with the
    // editor-group keys; Tab reaches the mode buttons and the structured view's scrolling region.
    fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'preview', 'invoice-line-and-payable-totals-wrong.xml'), path.join(workspaceFolder(page), 'invoice-line-and-payable-totals-wrong.xml'));
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget .quick-input-box input').waitFor({ state: 'visible' });
    await page.keyboard.type('invoice-line-and-payable-totals-wrong.xml');
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'invoice-line-and-payable' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab.active', { hasText: 'invoice-line-and-payable-totals-wrong.xml' }).first().waitFor();
    await command(page, 'Nilvera: Preview Document');
    const preview = await shown(wb, 'Preview invoice-line-and-payable-totals-wrong.xml');
    await preview.locator('#structured .checks-failed').waitFor({ timeout: 30_000 });
    // Into the preview beside the editor: the second editor group's key.
    await page.keyboard.press('Control+2');
    const region = await tabUntil(page, preview, (f) => f === 'div#structured[region]', "the structured view's region");
    assert.equal(region, 'div#structured[region]');
    assert.equal(await preview.locator('#structured').getAttribute('aria-label'), 'Structured view of the document');
    await page.keyboard.press('PageDown');
    await waitUntil(async () => ((await preview.locator('#structured').evaluate((e) => e.scrollTop)) > 0 ? true : undefined), 'the region to scroll with PageDown', 5_000);
    await wb.screenshot('preview reached and scrolled with the keyboard');
  });
});

