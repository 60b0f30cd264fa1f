// Every webview of the extension for every user (issue 41): axe-core in each webview (the company,
// customer, certificate and settings forms; the preview with a design and as the structured view; the
// template studio) in each of the four theme kinds, with no violation of impact serious or critical;
// a screenshot of each in high contrast; and the company form, the customer form and a preview used
// with the keyboard alone.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import type { Workbench } from '../index';
import { nls, openFile, openWorkbench, repoRoot, runAsking, steps, waitUntil, workspaceFolder } from '../index';
import { checkTaxId } from '../../../src/domain/taxId';

const axeSource = fs.readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');
const samples = path.join(repoRoot, 'media', 'samples');

const open: Workbench[] = [];
after(async () => {
  for (const wb of open) await wb.close();
});

/** The four theme kinds, by the ids of VS Code's default themes, and the class VS Code puts on a webview's body for each. */
const THEMES = [
  { id: 'Dark 2026', kind: 'vscode-dark' },
  { id: 'Light Modern', kind: 'vscode-light' },
  { id: 'Default High Contrast', kind: 'vscode-high-contrast' },
  { id: 'Default High Contrast Light', kind: 'vscode-high-contrast-light' },
] as const;

/** The webviews, by the title of their tab, and an element each shows once it is ready. */
const WEBVIEWS = [
  { tab: 'Company Data', ready: '#field-City' },
  { tab: 'New Customer', ready: '#field-TaxNumber' },
  { tab: 'Add Certificate', ready: '#field-SerialNo' },
  { tab: 'Nilvera Settings', ready: '#field-EmailActive' },
  { tab: 'Preview invoice-TEMELFATURA.xml', ready: 'iframe#design:not([hidden])' },
  { tab: 'Preview invoice-line-and-payable-totals-wrong.xml', ready: '#structured .checks-failed' },
  { tab: 'Design sample-design.xslt', ready: 'iframe#design:not([hidden])' },
] as const;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** The page frame of a webview (the FrameLocator's frame), where axe can be injected. */
async function frameOf(locator: FrameLocator): Promise<Frame> {
  const handle = await locator.owner().elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the webview has no frame');
  return frame;
}

/** Runs axe in the webview's page (not in the design's own frame: that is the design author's page). */
async function axe(locator: FrameLocator): Promise<Violation[]> {
  const frame = await frameOf(locator);
  // Evaluated through the debugger protocol, which the page's policy (no eval) does not govern.
  if (!(await frame.evaluate('typeof window.axe === "object"'))) await frame.evaluate(axeSource);
  const results = (await frame.evaluate(`window.axe.run(document, { iframes: false, resultTypes: ['violations'] })`)) as { violations: Violation[] };
  return results.violations;
}

/**
 * The webview of the tab titled `title`: its tab is clicked, and of the visible webviews the one over
 * that tab's editor group is taken (the harness's webview() takes the last visible one, and here the
 * forms and the previews are shown side by side).
 */
async function webviewOfTab(page: Page, title: string): Promise<FrameLocator> {
  const tab = page.locator(`.tabs-container .tab[aria-label^="${title}"]`).first();
  await tab.click();
  const group = await page.locator('.editor-group-container', { has: tab }).first().boundingBox();
  if (!group) throw new Error(`no editor group shows ${title}`);
  const frames = page.locator('iframe.webview.ready');
  for (let i = 0; i < (await frames.count()); i++) {
    const box = (await frames.nth(i).isVisible()) ? await frames.nth(i).boundingBox() : null;
    if (!box) continue;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    if (x >= group.x && x <= group.x + group.width && y >= group.y && y <= group.y + group.height) return frames.nth(i).contentFrame().frameLocator('iframe#active-frame');
  }
  throw new Error(`no visible webview over the group of ${title}`);
}

async function themeClass(locator: FrameLocator): Promise<string> {
  return locator.locator('body').evaluate((b) => b.className);
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
    await page.locator('.notification-list-item-message', { hasText: 'API key saved' }).first().waitFor();

    // Company form: Tab to City, type, Enter saves; the focus stays on the field, not the page body.
    await command(page, `Nilvera: ${nls('%command.account.openCompany%')}`);
    let form = await wb.webview('Company Data');
    await form.locator('#field-City').waitFor();
    await tabUntil(page, form, (f) => f === 'vscode-textfield#field-City', 'the City field');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Kırşehir');
    await page.keyboard.press('Enter');
    await form.locator('#status', { hasText: 'Saved.' }).waitFor();
    const state = (await (await fetch(`${wb.sandbox!.url}/__sandbox/state`)).json()) as { company: { City: string } };
    assert.equal(state.company.City, 'Kırşehir', 'saved on the sandbox');
    assert.equal(await focused(form), 'vscode-textfield#field-City', 'after Save the focus is back on the field edited');
    await wb.screenshot('company form saved with the keyboard');

    // Customer form: a new customer, its tax number and name typed, saved with Enter.
    let vkn = '';
    for (let n = 4_200_000_000; !vkn; n++) {
      const candidate = String(n);
      if (checkTaxId(candidate).valid && (await sandboxGet(wb, `/general/Customers/GetCustomerInfo/${candidate}`)).status === 404) vkn = candidate;
    }
    await command(page, `Nilvera: ${nls('%command.customers.create%')}`);
    form = await wb.webview('New Customer');
    await form.locator('#field-TaxNumber').waitFor();
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
    form = await wb.webview('Customer: Klavye Ticaret A.Ş.');
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
    const preview = await wb.webview('Preview invoice-line-and-payable-totals-wrong.xml');
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

/** Opens every webview in a workbench in `theme` and runs axe in each; returns the report lines and the serious or critical findings. */
async function axeInTheme(theme: (typeof THEMES)[number]): Promise<{ report: string[]; serious: string[] }> {
  const wb = await openWorkbench({ scenario: `accessibility-axe-${theme.id}`, settings: { 'workbench.colorTheme': theme.id, 'workbench.editor.enablePreview': false } });
  const { page } = wb;
  const report: string[] = [];
  const serious: string[] = [];
  try {
    await steps(wb, async () => {
      await wb.runCommand(`Nilvera: ${nls('%command.apiKey.set%')}`);
      await wb.inputBox(wb.sandbox!.keys.full);
      await page.locator('.notification-list-item-message', { hasText: 'API key saved' }).first().waitFor();
      const workspace = workspaceFolder(page);
      fs.copyFileSync(path.join(samples, 'invoice-TEMELFATURA.xml'), path.join(workspace, 'invoice-TEMELFATURA.xml'));
      fs.copyFileSync(path.join(samples, 'sample-design.xslt'), path.join(workspace, 'sample-design.xslt'));
      fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'preview', 'invoice-line-and-payable-totals-wrong.xml'), path.join(workspace, 'invoice-line-and-payable-totals-wrong.xml'));

      // Every webview open, each in a tab of its own: the four forms, the preview, the studio.
      // A palette can close before it takes the text when a webview that just opened takes the focus: again, then.
      const run = (title: string, tab: string) =>
        waitUntil(async () => {
          if ((await page.locator(`.tabs-container .tab[aria-label^="${tab}"]`).count()) > 0) return true;
          await wb.runCommand(title).catch(() => page.keyboard.press('Escape'));
          await page.locator(`.tabs-container .tab[aria-label^="${tab}"]`).first().waitFor({ timeout: 10_000 }).catch(() => undefined);
          return undefined;
        }, `the ${tab} tab`, 90_000, 500);
      await run(`Nilvera: ${nls('%command.account.openCompany%')}`, 'Company Data');
      await run(`Nilvera: ${nls('%command.customers.create%')}`, 'New Customer');
      await run(`Nilvera: ${nls('%command.certificates.add%')}`, 'Add Certificate');
      await run('Nilvera: Mailing and Tax Office Settings', 'Nilvera Settings');
      await page.locator('.editor-group-container').first().locator('.tabs-container .tab.active').first().click();
      await openFile(page, 'invoice-TEMELFATURA.xml');
      await wb.runCommand('Nilvera: Preview Document');
      await page.locator('.tabs-container .tab[aria-label^="Preview invoice-TEMELFATURA.xml"]').first().waitFor({ timeout: 30_000 });

      for (const view of WEBVIEWS) {
        if (view.tab.startsWith('Design ')) {
          // The studio last: it opens beside, where the preview is.
          await page.locator('.editor-group-container').first().locator('.tabs-container .tab.active').first().click();
          await openFile(page, 'sample-design.xslt');
          await runAsking(page, 'Nilvera: Preview Design with Invoice…');
          await wb.quickPick('invoice-TICARIFATURA.xml');
        }
        if (view.tab.startsWith('Preview ')) {
          // The one preview follows the editor: show the document it is to preview.
          await page.locator('.editor-group-container').first().locator('.tabs-container .tab.active').first().click();
          await openFile(page, view.tab.slice('Preview '.length));
        }
        const frame = await waitUntil(async () => {
          const f = await webviewOfTab(page, view.tab).catch(() => undefined);
          const ok = f && (await f.locator(view.ready).first().isVisible().catch(() => false));
          return ok ? f : undefined;
        }, `${view.tab} shown`, 60_000, 500);
        assert.match(await themeClass(frame), new RegExp(`\\b${theme.kind}\\b`), `${view.tab} in ${theme.id}`);
        const violations = await axe(frame);
        report.push(`${theme.id} | ${view.tab} | ${violations.length === 0 ? 'no violations' : violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join(', ')}`);
        for (const v of violations) if (v.impact === 'serious' || v.impact === 'critical') serious.push(`${theme.id} / ${view.tab}: ${v.id} (${v.impact}): ${v.help}; ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join(' | ')}`);
        if (theme.kind.startsWith('vscode-high-contrast')) await wb.screenshot(`${view.tab}`);
      }
    });
  } finally {
    await wb.close();
  }
  return { report, serious };
}

test('axe-core in every webview, in each of the four theme kinds: no serious or critical violation; high-contrast screenshots', { timeout: 1_200_000 }, async () => {
  const report: string[] = [];
  const serious: string[] = [];
  for (const theme of THEMES) {
    try {
      const r = await axeInTheme(theme);
      report.push(...r.report);
      serious.push(...r.serious);
    } catch (e) {
      serious.push(`${theme.id}: not checked: ${e instanceof Error ? e.message.slice(0, 400) : String(e)}`);
    }
  }
  console.log(`[axe]\n${report.join('\n')}`);
  const out = path.join(repoRoot, 'test-results', 'e2e', 'accessibility-axe-results.txt');
  fs.writeFileSync(out, `${report.join('\n')}\n\nserious or critical:\n${serious.join('\n') || 'none'}\n`);
  assert.deepEqual(serious, [], 'no serious or critical violation');
});
