// A person runs "Nilvera: Check Connection" against a sandbox with the alternate profile and a quirk
// the check does not know: the report opens as a read-only Markdown document, the warning names
// the row that differs from both profiles, and the document's title bar offers "Copy Report".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Workbench } from '../index';
import { nls, openWorkbench, waitUntil } from '../index';

let wb: Workbench;

before(async () => {
  wb = await openWorkbench({ scenario: 'connection', sandbox: { customers: 40, registry: 200, args: ['--profile', 'alternate', '--quirk', 'registryLookupMissing=oddText'] } });
});
after(async () => {
  await wb?.close();
});

test('Check Connection shows its report and a warning for the row that differs', async () => {
  await wb.runCommand(nls('%command.sandbox.start%'));
  await wb.page.waitForTimeout(1000);
  await wb.runCommand(`Nilvera: ${nls('%command.connection.check%')}`);
  const tab = wb.page.locator('.tabs-container .tab', { hasText: 'check-connection-1.md' });
  await tab.waitFor({ timeout: 30_000 });
  await wb.screenshot('report opened');
  // Monaco draws only the lines in view, with non-breaking spaces: read what is drawn.
  const text = await waitUntil(async () => {
    const t = (await wb.page.locator('.monaco-editor .view-lines').allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
    return t.includes('Behaviour rows') ? t : undefined;
  }, 'the report text');
  const warning = await waitUntil(async () => (await wb.notifications()).find((n) => /differs from both sandbox profiles/.test(n)), 'the summary notification');
  await wb.screenshot('report and warning');
  assert.match(warning, /1 registryLookupMissing/);
  assert.match(text, /differs from both sandbox profiles in these rows/);
  assert.ok(!text.includes(wb.sandbox!.keys.full), 'no key in the report');
  // "Copy Report" sits in the editor title bar of the report.
  await wb.page.locator('.editor-actions a[aria-label^="Copy Report"], .editor-actions .action-label[aria-label^="Copy Report"]').first().waitFor();
  await wb.page.keyboard.press('Control+End');
  await wb.screenshot('end of the report');
});
