// Every webview for every user (issue 41): axe-core in each webview (the company, customer,
// certificate and settings forms; the preview with a design and as the structured view; the template
// studio) in each of the four theme kinds, with no violation of impact serious or critical, and a
// screenshot of each in high contrast. (accessibility.keyboard.test.ts uses them with the keyboard.)
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import type { Workbench } from '../index';
import { nls, openFile, openWorkbench, repoRoot, runAsking, steps, waitUntil, workspaceFolder } from '../index';

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

/** Opens a workspace file in the first editor group; once more when Quick Open lost the focus to a webview. */
async function openInFirstGroup(page: Page, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.locator('.editor-group-container').first().locator('.tabs-container .tab.active').first().click();
    try {
      await openFile(page, name);
      return;
    } catch (e) {
      if (attempt === 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
}

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
      await page.locator('.notification-list-item-message', { hasText: 'API key saved' }).first().waitFor({ timeout: 60_000 });
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
      await openInFirstGroup(page, 'invoice-TEMELFATURA.xml');
      await wb.runCommand('Nilvera: Preview Document');
      await page.locator('.tabs-container .tab[aria-label^="Preview invoice-TEMELFATURA.xml"]').first().waitFor({ timeout: 30_000 });

      for (const view of WEBVIEWS) {
        if (view.tab.startsWith('Design ')) {
          // The studio last: it opens beside, where the preview is.
          await openInFirstGroup(page, 'sample-design.xslt');
          await runAsking(page, 'Nilvera: Preview Design with Invoice…');
          await wb.quickPick('invoice-TICARIFATURA.xml');
        }
        if (view.tab.startsWith('Preview ')) {
          // The one preview follows the editor: show the document it is to preview.
          await openInFirstGroup(page, view.tab.slice('Preview '.length));
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
