// When the extension wakes, as a person sees it in a fresh window: not at start-up (its status-bar
// item stays away, although VS Code opens its chat input as a plaintext document in every window),
// but as soon as a customer CSV is opened, which then shows as "CSV" with its tax-number errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Workbench } from '../index';
import { openFile, openWorkbench, repoRoot, waitUntil } from '../index';

let wb: Workbench;

before(async () => {
  wb = await openWorkbench({ scenario: 'editor-activation', sandbox: { customers: 5, registry: 100, seed: 5 } });
  const folder = new URL(wb.page.url()).searchParams.get('folder');
  assert.ok(folder);
  fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'customers-tr-excel.csv'), path.join(folder, 'customers-tr-excel.csv'));
});

after(async () => {
  await wb?.close();
});

test('a fresh window does not wake the extension; opening a customer CSV does, with its diagnostics', { timeout: 120_000 }, async () => {
  const { page } = wb;
  const statusItem = page.locator('.part.statusbar .statusbar-item', { hasText: 'Nilvera:' });
  // Long enough for start-up activation (the chat input, restored editors) to have happened if it were going to.
  await page.waitForTimeout(5_000);
  await wb.screenshot('fresh window: no Nilvera status-bar item');
  assert.equal(await statusItem.count(), 0, 'the extension woke up at start-up (its status-bar item is shown)');

  await openFile(page, 'customers-tr-excel.csv');
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  await waitUntil(async () => ((await editor.locator('.squiggly-error').count()) >= 4 ? true : undefined), 'four squiggles in the CSV', 30_000, 200);
  await statusItem.first().waitFor();
  await page.locator('.part.statusbar .statusbar-item', { hasText: /^CSV$/ }).first().waitFor();
  await wb.screenshot('CSV opened: language CSV, extension awake, a squiggle per bad cell');
});
