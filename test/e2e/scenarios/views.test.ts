// The sidebar trees as a person uses them, against the sandbox: browsing and paging customers,
// search, sort, create and edit (through the customer form), delete one and several, CSV import
// with bad rows and export; documents, certificates, identifications, the account view, and an
// API error shown as an error item with Retry. The sandbox's state is checked after each change.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import type { Workbench } from '../index';
import { answerFileDialog, chooseMenuItem, dialogButton, notificationGone, openWorkbench, setViewExpanded, steps, viewHeader, waitUntil, workspaceFolder } from '../index';
import { repoRoot } from '../repo';
import { parseCsv } from '../../../src/domain/csv';

const CSV_FIXTURE = path.join(repoRoot, 'test/fixtures/customers-tr-excel.csv');

interface SandboxState {
  counts: { customers: number };
  documents: Array<{ ID: number; Name: string }>;
  identifications: Array<{ ID: number; Name: string; Value: string }>;
  mailing: Array<{ ModuleID: string; IsActive: boolean }>;
  company: { Name: string };
}

interface Page<T> {
  TotalCount: number;
  Content: T[];
}

interface Customer {
  ID: number;
  Name: string;
  TaxNumber: string;
  City: string;
}

const open: Workbench[] = [];
after(async () => {
  for (const wb of open) await wb.close();
});

async function state(wb: Workbench): Promise<SandboxState> {
  return (await wb.sandbox!.control('state')) as SandboxState;
}

async function apiGet<T>(wb: Workbench, apiPath: string): Promise<T> {
  const response = await fetch(`${wb.sandbox!.url}${apiPath}`, { headers: { Authorization: `Bearer ${wb.sandbox!.keys.full}`, Accept: 'application/json' } });
  assert.equal(response.status, 200, `GET ${apiPath}`);
  return (await response.json()) as T;
}

/** This file's waits: 15_000 ms by default, polled every 200 ms. */
const until = <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> => waitUntil(probe, what, timeoutMs, 200);

/** Clicks a view's title-bar action by its title (hovering first: VS Code shows them on hover). */
async function titleAction(wb: Workbench, view: string, title: string): Promise<void> {
  const h = viewHeader(wb, view);
  await h.hover();
  await h.locator(`.actions .action-label[aria-label^="${title}"]`).first().click();
}

function row(wb: Workbench, view: string, text: string | RegExp): Locator {
  return wb.view(view).locator('.monaco-list-row', { hasText: text }).first();
}

async function rowCount(wb: Workbench, view: string): Promise<number> {
  return wb.view(view).locator('.monaco-list-row').count();
}

/** Right-clicks a row and runs `action` from its context menu. */
async function menu(wb: Workbench, view: string, rowText: string | RegExp, action: string): Promise<void> {
  await chooseMenuItem(wb.page, action, () => row(wb, view, rowText).click({ button: 'right' }));
}

/** "Set API Key" with the sandbox's key, as a person does; the views then load. */
async function setKey(wb: Workbench): Promise<void> {
  await wb.runCommand('Nilvera: Set API Key');
  await wb.inputBox(wb.sandbox!.keys.full);
  await wb.page.locator('.notification-list-item-message', { hasText: 'API key saved' }).first().waitFor();
}

/**
 * Runs a palette command that opens its own quick input (a file dialog): the harness's runCommand
 * waits for the palette to close, which such a command never lets happen.
 */
async function runCommandWithDialog(wb: Workbench, title: string): Promise<void> {
  const box = wb.page.locator('.quick-input-widget .quick-input-box input');
  await wb.page.keyboard.press('F1');
  await box.waitFor({ state: 'visible' });
  await box.fill(`>${title}`);
  await wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name', { hasText: title }).first().waitFor();
  await box.press('Enter');
}

test('customers: page, load more, search, sort, create and edit, delete one and several', { timeout: 180_000 }, async () => {
  const wb = await openWorkbench({ scenario: 'views-customers' });
  open.push(wb);
  await steps(wb, async () => {
    const { page } = wb;
    await wb.openContainer('Nilvera');
    await setKey(wb);
    const first = await apiGet<Page<Customer>>(wb, '/general/Customers?Page=1&PageSize=20');
    await row(wb, 'Customers', first.Content[0].Name).waitFor();
    await viewHeader(wb, 'Customers').filter({ hasText: '(300)' }).waitFor();
    await setViewExpanded(wb, 'Account', false);
    await row(wb, 'Customers', 'Load more').waitFor();
    await wb.screenshot('first page with total in the title');
    const shown = await wb.treeRows('Customers');
    assert.ok(shown.some((r) => r.includes(first.Content[0].TaxNumber)), 'rows show the tax number');

    // Load more: the second page's first customer appears below the first page.
    const second = await apiGet<Page<Customer>>(wb, '/general/Customers?Page=2&PageSize=20');
    await row(wb, 'Customers', 'Load more').click();
    await row(wb, 'Customers', second.Content[0].Name).waitFor();
    // The list draws only the rows in sight: go to its end to see the new "Load more".
    await row(wb, 'Customers', second.Content[0].Name).click();
    await page.keyboard.press('End');
    await row(wb, 'Customers', '40 of 300 shown').waitFor();
    await wb.screenshot('second page loaded');

    // Search from the title bar: the description shows the filter; Clear Search removes it.
    const word = first.Content[1].Name.split(' ')[0];
    await titleAction(wb, 'Customers', 'Search Customers');
    await wb.inputBox(word);
    const filtered = await apiGet<Page<Customer>>(wb, `/general/Customers?Page=1&PageSize=20&Search=${encodeURIComponent(word)}`);
    await viewHeader(wb, 'Customers').filter({ hasText: `search: "${word}"` }).waitFor();
    await viewHeader(wb, 'Customers').filter({ hasText: `(${filtered.TotalCount})` }).waitFor();
    await row(wb, 'Customers', filtered.Content[0].Name).waitFor();
    await wb.screenshot('search active in the description');
    await titleAction(wb, 'Customers', 'Clear Customer Search');
    await viewHeader(wb, 'Customers').filter({ hasText: '(300)' }).waitFor();

    // Sort by name, descending.
    await titleAction(wb, 'Customers', 'Sort Customers');
    await wb.quickPick('Name');
    await wb.quickPick('Descending');
    const sorted = await apiGet<Page<Customer>>(wb, '/general/Customers?Page=1&PageSize=20&SortColumn=Name&SortType=DESC');
    await viewHeader(wb, 'Customers').filter({ hasText: 'sorted by Name ↓' }).waitFor();
    await until(async () => ((await wb.treeRows('Customers'))[0]?.includes(sorted.Content[0].Name) ? true : undefined), 'the sorted first row');
    await wb.screenshot('sorted by name descending');

    // New customer through the form; the tree refreshes and shows it.
    await titleAction(wb, 'Customers', 'New Customer');
    let form = await wb.webview('New Customer');
    await form.locator('#field-TaxNumber').waitFor();
    await form.locator('#field-TaxNumber').locator('input').first().fill('6656437912');
    await form.locator('#field-Name').locator('input').first().fill('Zeytin Dalı Test Ltd. Şti.');
    await form.locator('#save').click();
    const created = await until(async () => {
      const r = await fetch(`${wb.sandbox!.url}/general/Customers/GetCustomerInfo/6656437912`, { headers: { Authorization: `Bearer ${wb.sandbox!.keys.full}` } });
      return r.status === 200 ? ((await r.json()) as Customer) : undefined;
    }, 'the new customer in the sandbox');
    assert.equal(created.Name, 'Zeytin Dalı Test Ltd. Şti.');
    await row(wb, 'Customers', 'Zeytin Dalı Test').waitFor();
    await wb.screenshot('new customer created and listed');

    // Edit from the context menu: the form for that customer; the new city shows in the row.
    await page.keyboard.press('Escape');
    await menu(wb, 'Customers', 'Zeytin Dalı Test', 'Edit Customer');
    form = await wb.webview('Customer: Zeytin Dalı Test');
    await form.locator('#field-City').waitFor();
    await form.locator('#field-City').locator('input').first().fill('Trabzon');
    await form.locator('#save').click();
    await form.locator('#status').filter({ hasText: 'Saved.' }).waitFor();
    assert.equal((await apiGet<Customer>(wb, `/general/Customers/${created.ID}`)).City, 'Trabzon');
    await row(wb, 'Customers', /6656437912 · Trabzon/).waitFor();
    await wb.screenshot('customer edited, row shows the new city');
    await wb.runCommand('View: Close All Editors');

    // Delete one: a modal confirmation that says it cannot be undone.
    const before = (await state(wb)).counts.customers;
    await menu(wb, 'Customers', 'Zeytin Dalı Test', 'Delete Customer');
    const question = await dialogButton(wb, 'Delete');
    assert.match(question, /cannot be undone/);
    await until(async () => ((await state(wb)).counts.customers === before - 1 ? true : undefined), 'the customer to be deleted');
    await row(wb, 'Customers', 'Zeytin Dalı Test').waitFor({ state: 'detached' });
    // The title's count is set once the refreshed first page is in: the rows are settled.
    await viewHeader(wb, 'Customers').filter({ hasText: `(${before - 1})` }).waitFor();

    // Delete several: select two rows, "Delete Selected Customers" names the count.
    const listRows = wb.view('Customers').locator('.monaco-list-row');
    await chooseMenuItem(wb.page, 'Delete Selected Customers', async () => {
      await listRows.nth(0).click();
      await listRows.nth(1).click({ modifiers: ['Control'] });
      await listRows.nth(1).click({ button: 'right' });
    });
    await wb.screenshot('bulk delete confirmation');
    const bulk = await dialogButton(wb, 'Delete');
    assert.match(bulk, /Delete 2 customers\?/);
    await until(async () => ((await state(wb)).counts.customers === before - 3 ? true : undefined), 'two customers to be deleted');
    await viewHeader(wb, 'Customers').filter({ hasText: `(${before - 3})` }).waitFor();
    await wb.screenshot('after deleting two');
  });
});

test('customers: import a Turkish Excel CSV with bad rows, then export the filtered list', { timeout: 180_000 }, async () => {
  const wb = await openWorkbench({ scenario: 'views-import-export' });
  open.push(wb);
  await steps(wb, async () => {
    const folder = workspaceFolder(wb.page);
    const source = path.join(folder, 'musteriler.csv');
    fs.copyFileSync(CSV_FIXTURE, source);
    await wb.openContainer('Nilvera');
    await setKey(wb);
    await viewHeader(wb, 'Customers').filter({ hasText: '(300)' }).waitFor();
    await setViewExpanded(wb, 'Account', false);

    await runCommandWithDialog(wb, 'Nilvera: Import Customers from Excel, CSV or JSON…');
    await answerFileDialog(wb.page, source);
    const done = wb.page.locator('.notification-list-item-message', { hasText: 'Import finished: 16 created, 4 rejected' }).first();
    await done.waitFor({ timeout: 30_000 });
    await wb.screenshot('import summary');
    assert.equal((await state(wb)).counts.customers, 316);
    await viewHeader(wb, 'Customers').filter({ hasText: '(316)' }).waitFor();
    const rejected = fs.readFileSync(path.join(folder, 'musteriler.rejected.csv'), 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    assert.equal(rejected.length, 5, rejected.join('\n'));
    assert.match(rejected[0], /;Reason$/);
    for (const tax of ['2940095702', '2596120531', '905978176', '49798834353']) assert.ok(rejected.some((l) => l.includes(tax)), tax);

    // The good rows are there: search finds an imported one.
    await titleAction(wb, 'Customers', 'Search Customers');
    await wb.inputBox('Anadolu Gıda');
    await row(wb, 'Customers', 'Anadolu Gıda Sanayi').waitFor();
    await wb.screenshot('an imported customer found');

    // Export the current filter (all pages) to a CSV in the workspace.
    const target = path.join(folder, 'export.csv');
    await runCommandWithDialog(wb, 'Nilvera: Export Customers to CSV…');
    await answerFileDialog(wb.page, target);
    const expected = await apiGet<Page<Customer>>(wb, '/general/Customers?Page=1&PageSize=1&Search=Anadolu%20G%C4%B1da');
    // One customer matches: English says "1 customer", not "1 customers".
    assert.equal(expected.TotalCount, 1);
    await wb.page.locator('.notification-list-item-message', { hasText: /^Exported 1 customer to / }).first().waitFor({ timeout: 30_000 });
    // The export is over: its progress notification has gone before the screenshot.
    await notificationGone(wb, 'Exporting customers');
    // Parsed as CSV: an imported address holds a line break inside quotes.
    const records = parseCsv(fs.readFileSync(target, 'utf8')).records;
    assert.equal(records[0].cells[0], 'TaxNumber', 'the header comes first');
    const exported = records.slice(1).map((r) => r.cells[1]);
    assert.equal(exported.length, expected.TotalCount, `exported: ${exported.join(' | ')}`);
    assert.ok(exported.includes('Anadolu Gıda Sanayi ve Ticaret A.Ş.'), `exported: ${exported.join(' | ')}`);
    await wb.screenshot('export finished');
  });
});

test('documents, certificates, identifications, account; an API error becomes an error item with Retry', { timeout: 180_000 }, async () => {
  const wb = await openWorkbench({ scenario: 'views-records' });
  open.push(wb);
  await steps(wb, async () => {
    const { page } = wb;
    const folder = workspaceFolder(wb.page);
    await wb.openContainer('Nilvera');
    await setKey(wb);
    await setViewExpanded(wb, 'Customers', false);
    await setViewExpanded(wb, 'Account', false);

    // Documents: add a file, see it, then the error item, then delete it.
    await setViewExpanded(wb, 'Company Documents', true);
    const file = path.join(folder, 'faaliyet-belgesi.pdf');
    fs.writeFileSync(file, Buffer.from('%PDF-1.4 faaliyet belgesi'));
    await titleAction(wb, 'Company Documents', 'Add Company Document');
    await answerFileDialog(wb.page, file);
    await row(wb, 'Company Documents', 'faaliyet-belgesi.pdf').waitFor();
    assert.ok((await state(wb)).documents.some((d) => d.Name === 'faaliyet-belgesi.pdf'));
    await wb.screenshot('document added');

    await wb.sandbox!.control('faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ queue: ['500'], match: { method: 'GET', path: '^/general/companydocuments$' } }) });
    await titleAction(wb, 'Company Documents', 'Refresh Documents');
    const errorRow = row(wb, 'Company Documents', 'Could not load');
    await errorRow.waitFor();
    assert.equal(await rowCount(wb, 'Company Documents'), 1, 'one error item instead of the list');
    await wb.screenshot('error item with retry');
    await errorRow.click();
    await row(wb, 'Company Documents', 'faaliyet-belgesi.pdf').waitFor();
    // The pointer leaves the first row, whose hover card would otherwise cover the rows below it.
    await page.mouse.move(700, 450);

    await menu(wb, 'Company Documents', 'faaliyet-belgesi.pdf', 'Delete Document');
    await dialogButton(wb, 'Delete');
    await row(wb, 'Company Documents', 'faaliyet-belgesi.pdf').waitFor({ state: 'detached' });
    assert.equal((await state(wb)).documents.some((d) => d.Name === 'faaliyet-belgesi.pdf'), false);
    await setViewExpanded(wb, 'Company Documents', false);

    // Certificates: expired and expiring ones are marked.
    await setViewExpanded(wb, 'Certificates', true);
    await row(wb, 'Certificates', 'expired').waitFor();
    assert.ok((await wb.view('Certificates').locator('.monaco-list-row .codicon-warning').count()) >= 1, 'an expiring certificate has a warning icon');
    assert.ok((await wb.view('Certificates').locator('.monaco-list-row .codicon-error').count()) >= 1, 'an expired certificate has an error icon');
    await wb.screenshot('certificates with validity');
    // A click on a certificate opens its details in a read-only tab (no unsaved-changes dot, no "Untitled").
    await row(wb, 'Certificates', 'expired').click();
    const detailsTab = page.locator('.tabs-container .tab.active', { hasText: /\.json$/ });
    await detailsTab.waitFor();
    assert.equal(await page.locator('.tabs-container .tab.active.dirty').count(), 0, 'the details tab is dirty');
    assert.doesNotMatch((await detailsTab.textContent()) ?? '', /Untitled/);
    await wb.screenshot('certificate details, read-only');
    await wb.runCommand('View: Close All Editors');
    await setViewExpanded(wb, 'Certificates', false);

    // Identifications: add one of the 21 types, then delete it.
    await setViewExpanded(wb, 'Identifications', true);
    await titleAction(wb, 'Identifications', 'Add Identification');
    await wb.quickPick('TICARETSICILNO');
    await wb.inputBox('987654-3');
    await row(wb, 'Identifications', '987654-3').waitFor();
    const added = (await state(wb)).identifications.find((i) => i.Value === '987654-3');
    assert.equal(added?.Name, 'TICARETSICILNO');
    await wb.screenshot('identification added');
    await menu(wb, 'Identifications', '987654-3', 'Delete Identification');
    await dialogButton(wb, 'Delete');
    await row(wb, 'Identifications', '987654-3').waitFor({ state: 'detached' });
    assert.equal((await state(wb)).identifications.some((i) => i.Value === '987654-3'), false);
    await setViewExpanded(wb, 'Identifications', false);

    // Account: the company row, then the mailing group with a switch.
    await setViewExpanded(wb, 'Account', true);
    const s = await state(wb);
    await row(wb, 'Account', s.company.Name).waitFor();
    for (const group of ['Credits', 'Alerts', 'Mailing']) await row(wb, 'Account', group).click();
    await row(wb, 'Account', 'WhatsApp').waitFor();
    await wb.screenshot('account groups expanded');
    const was = s.mailing.find((m) => m.ModuleID === 'WhatsApp')!.IsActive;
    await menu(wb, 'Account', 'WhatsApp', 'Switch On/Off');
    await until(async () => ((await state(wb)).mailing.find((m) => m.ModuleID === 'WhatsApp')!.IsActive === !was ? true : undefined), 'WhatsApp to switch');
    await row(wb, 'Account', new RegExp(`WhatsApp.*${!was ? 'on' : 'off'}`)).waitFor();
    await wb.screenshot('whatsapp switched');
    // The switch is a checkbox: one click on it switches back (the sandbox is not the live account: no question).
    await row(wb, 'Account', 'WhatsApp').locator('.custom-view-tree-node-item-checkbox').first().click();
    await until(async () => ((await state(wb)).mailing.find((m) => m.ModuleID === 'WhatsApp')!.IsActive === was ? true : undefined), 'the WhatsApp checkbox to switch back');
    await row(wb, 'Account', new RegExp(`WhatsApp.*${was ? 'on' : 'off'}`)).waitFor();
    await wb.screenshot('whatsapp checkbox clicked');
    await page.keyboard.press('Escape');
  });
});
