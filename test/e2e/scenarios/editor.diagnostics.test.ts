// Tax-number diagnostics as a person sees them: the UBL-TR invoice with a wrong customer VKN digit
// shows a red squiggle at that number and an entry in the Problems panel; the quick fix (Ctrl+.)
// puts in the check digit the first nine digits call for, and the error gives way to the note that
// no registry list is downloaded; a Turkish Excel customer CSV shows one error per bad cell.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Workbench } from '../index';
import { goToLine, openFile, openWorkbench, problems, repoRoot, waitUntil } from '../index';

/** This file's waits: longer (30_000 ms), polled every 200 ms. */
const waitUntilHere = <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> => waitUntil(probe, what, timeoutMs, 200);

let wb: Workbench;
let workspace = '';

const activeEditor = () => wb.page.locator('.editor-group-container.active .monaco-editor').first();

before(async () => {
  wb = await openWorkbench({ scenario: 'editor-diagnostics', sandbox: { customers: 5, registry: 1_000, seed: 3 } });
  const folder = new URL(wb.page.url()).searchParams.get('folder');
  assert.ok(folder);
  workspace = folder;
  for (const name of ['ubl-tr-invoice-bad-customer-vkn.xml', 'customers-tr-excel.csv']) fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', name), path.join(workspace, name));
});

after(async () => {
  await wb?.close();
});

test('bad customer VKN: squiggle at the number, Problems entry, quick fix puts in the right check digit', { timeout: 180_000 }, async () => {
  const { page } = wb;
  await openFile(wb.page, 'ubl-tr-invoice-bad-customer-vkn.xml');
  await activeEditor().locator('.squiggly-error').first().waitFor({ timeout: 60_000 });
  // The squiggle is drawn under the text: point at the number itself.
  const number = activeEditor().locator('.view-lines span span', { hasText: /^1234567891$/ }).first();
  await number.hover();
  const hover = page.locator('.monaco-hover', { hasText: 'Invalid VKN 1234567891' }).first();
  await hover.waitFor();
  assert.match(await hover.innerText(), /the 10th digit should be 0 for these first nine digits/);
  await wb.screenshot('squiggle at the customer VKN with its message');

  const rows = await waitUntilHere(async () => {
    const r = await problems(wb.page);
    return r.some((t) => t.includes('Invalid VKN 1234567891')) ? r : undefined;
  }, 'the Problems entry');
  assert.equal(rows.filter((t) => /Invalid VKN/.test(t)).length, 1, rows.join(' | '));
  await wb.screenshot('Problems panel lists the error');

  // The cursor onto the number (Ctrl+G to the problem's line and column), then Ctrl+. for the fixes.
  await goToLine(page, 38, 32);
  await page.keyboard.press('Control+.');
  const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Change to 1234567890' }).first();
  await fix.waitFor();
  await wb.screenshot('quick fix offered under Ctrl+.');
  await fix.hover();
  await page.keyboard.press('Enter');
  await waitUntilHere(async () => ((await activeEditor().locator('.squiggly-error').count()) === 0 ? true : undefined), 'the squiggle to go');
  const text = (await activeEditor().locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
  assert.ok(text.includes('<cbc:ID schemeID="VKN">1234567890</cbc:ID>'), 'the number was corrected');
  const after = await waitUntilHere(async () => {
    const r = await problems(wb.page);
    return r.some((t) => t.includes('Registry list not downloaded')) ? r : undefined;
  }, 'the registry note');
  assert.ok(!after.some((t) => t.includes('Invalid VKN')), after.join(' | '));
  await wb.screenshot('fixed: the error is gone, the registry note remains');
});

test('customers CSV: one error per bad cell of the VKN/TCKN column', { timeout: 120_000 }, async () => {
  await openFile(wb.page, 'customers-tr-excel.csv');
  await waitUntilHere(async () => ((await activeEditor().locator('.squiggly-error').count()) >= 4 ? true : undefined), 'four squiggles');
  await wb.screenshot('customers CSV with a squiggle per bad cell');
  // Only this file's problems, in a panel tall enough to show them all.
  await problems(wb.page);
  await wb.runCommand('View: Toggle Maximized Panel');
  const filter = wb.page.locator('.markers-panel-container .viewpane-filter input, .panel .viewpane-filter input').first();
  await filter.fill('**/*.csv');
  const rows = await waitUntilHere(async () => {
    const r = (await problems(wb.page)).filter((t) => /Invalid (VKN|TCKN|tax number)/.test(t));
    return r.length === 4 ? r : undefined;
  }, 'four CSV problems');
  for (const n of ['2940095702', '2596120531', '905978176', '49798834353']) assert.ok(rows.some((t) => t.includes(n)), `${n} not listed: ${rows.join(' | ')}`);
  await wb.screenshot('Problems panel, CSV only: four cell errors');
});
