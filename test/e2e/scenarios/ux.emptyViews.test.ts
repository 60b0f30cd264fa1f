// An empty Customers view offers its main actions instead of a blank pane: "No customers yet" with
// New Customer and Import buttons, and the first button opens the customer form.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Workbench } from '../index';
import { nls, openWorkbench } from '../index';

let wb: Workbench;

before(async () => {
  wb = await openWorkbench({ scenario: 'ux-empty-views', sandbox: { customers: 0, registry: 10, seed: 16 } });
});

after(async () => {
  await wb?.close();
});

test('an empty Customers view shows "No customers yet" with New Customer and Import; New Customer opens the form', { timeout: 180_000 }, async () => {
  const { page } = wb;
  await wb.runCommand(`Nilvera: ${nls('%command.sandbox.start%')}`);
  await wb.openContainer(nls('%viewContainer.nilvera%'));
  const customers = wb.view(nls('%view.customers%'));
  const welcome = customers.locator('.welcome-view-content');
  await welcome.locator('p', { hasText: 'No customers yet.' }).waitFor({ timeout: 30_000 });
  const buttons = (await welcome.locator('.monaco-button').allTextContents()).map((t) => t.trim());
  assert.deepEqual(buttons, ['New Customer', 'Import Customers from Excel, CSV or JSON'], `buttons: ${buttons.join(' | ')}`);
  await wb.screenshot('empty customers view offers New Customer and Import');
  await welcome.locator('.monaco-button', { hasText: 'New Customer' }).click();
  await wb.webview('New Customer');
  await page.locator('.tabs-container .tab.active', { hasText: 'New Customer' }).waitFor();
  await wb.screenshot('New Customer form from the welcome button');
});
