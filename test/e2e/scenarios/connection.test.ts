// A person runs "Nilvera: Check Connection" against a sandbox with the alternate profile and a quirk
// the check does not know: the report opens rendered (the Markdown preview: headings and tables, not
// pipes), the warning names the row that differs from both profiles, "Copy Report" sits in the
// preview's title bar, and the Markdown source is one click away (the preview's own source button).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Workbench } from '../index';
import { nls, openWorkbench, steps, waitUntil } from '../index';

let wb: Workbench;

before(async () => {
  wb = await openWorkbench({ scenario: 'connection', sandbox: { customers: 40, registry: 200, args: ['--profile', 'alternate', '--quirk', 'registryLookupMissing=oddText'] } });
});
after(async () => {
  await wb?.close();
});

test('Check Connection shows its report rendered, a warning for the row that differs, and the source one click away', async () => {
  await steps(wb, async () => {
    const { page } = wb;
    await wb.runCommand(nls('%command.sandbox.start%'));
    await page.waitForTimeout(1000);
    await wb.runCommand(`Nilvera: ${nls('%command.connection.check%')}`);
    // The Markdown preview of the report, as the active tab.
    const previewTab = page.locator('.tabs-container .tab.active', { hasText: 'Preview check-connection-1.md' });
    await previewTab.waitFor({ timeout: 30_000 });
    const preview = await wb.webview('Preview check-connection-1.md');
    await preview.locator('h2', { hasText: 'Behaviour rows' }).waitFor({ timeout: 30_000 });
    // Rendered: headings and tables, no Markdown pipes as text.
    assert.equal(await preview.locator('h1').first().innerText(), 'Nilvera: Check Connection');
    assert.ok((await preview.locator('table').count()) >= 2, 'the behaviour rows and the calls are tables');
    const registryRow = preview.locator('table tr', { has: preview.locator('td code', { hasText: /^registryLookupMissing$/ }) });
    assert.match(await registryRow.innerText(), /differs/);
    assert.match(await preview.locator('blockquote').first().innerText(), /differs from both sandbox profiles in these rows/);
    const rendered = await preview.locator('body').innerText();
    assert.doesNotMatch(rendered, /\|---\|/, 'no Markdown table source in the rendered report');
    assert.ok(!rendered.includes(wb.sandbox!.keys.full), 'no key in the report');
    const warning = await waitUntil(async () => (await wb.notifications()).find((n) => /differs from both sandbox profiles/.test(n)), 'the summary notification');
    assert.match(warning, /in 1 row\(s\): registryLookupMissing\./);
    await wb.screenshot('report rendered, with the warning');

    // "Copy Report" in the preview's title bar, and the source one click away.
    await page.locator('.editor-actions .action-label[aria-label^="Copy Report"]').first().waitFor();
    const source = page.locator('.editor-actions .action-label[aria-label^="Open Source File"], .editor-actions .action-label[aria-label^="Show Source"]').first();
    await source.click();
    await page.locator('.tabs-container .tab.active', { hasText: /^check-connection-1\.md/ }).waitFor();
    // Monaco draws only the lines in view, with non-breaking spaces: read what is drawn.
    const text = await waitUntil(async () => {
      const t = (await page.locator('.monaco-editor .view-lines').allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
      return t.includes('## Behaviour rows') ? t : undefined;
    }, 'the report source');
    assert.match(text, /\| Point \| Service showed \| Default \| Alternate \| Verdict \|/);
    await page.locator('.editor-actions .action-label[aria-label^="Copy Report"]').first().waitFor();
    await wb.screenshot('report source, one click away');
  });
});
