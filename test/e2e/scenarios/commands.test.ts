// The palette commands as a person uses them: tax-number checks (a wrong digit refused while typing,
// registered and unregistered), a name search leading to "Add as Customer" through the customer form,
// a bulk check of a file from the explorer, a registry-list download cancelled halfway and one
// completed and searched offline, and the template, series, mailing and tax-office switches. The
// sandbox's state is checked after each change; a screenshot is taken at every step.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Workbench } from '../index';
import { chooseMenuItem, nls, openWorkbench, runAsking, waitUntil, workspaceFolder } from '../index';
import { completeVkn } from '../../../src/domain/taxId';

interface RegistryRow {
  TaxNumber: string;
  Title: string;
}

interface SandboxState {
  templates: Array<{ ID: number; IsDefault: boolean }>;
  series: Array<{ ID: number; IsActive: boolean }>;
  mailing: Array<{ ModuleID: string; IsActive: boolean }>;
  taxOffice: { UserName: string; Password: string };
}

let wb: Workbench;
let registered: RegistryRow[] = [];
let unregistered = '';

async function apiGet<T>(apiPath: string): Promise<{ status: number; body: T }> {
  const sandbox = wb.sandbox!;
  const res = await fetch(sandbox.url + apiPath, { headers: { Authorization: `Bearer ${sandbox.keys.full}`, Accept: 'application/json' } });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as T };
}

async function state(): Promise<SandboxState> {
  return (await wb.sandbox!.control('state')) as SandboxState;
}

function globalStorage(): string {
  return path.join(path.dirname(workspaceFolder(wb.page)), 'user-data', 'User', 'globalStorage', 'nilvera-community.nilvera-general');
}

async function notification(text: string | RegExp): Promise<string> {
  const item = wb.page.locator('.notification-list-item-message', { hasText: text }).first();
  await item.waitFor({ timeout: 60_000 });
  return (await item.innerText()).trim();
}

async function activeEditorText(): Promise<string> {
  const lines = wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  await lines.waitFor();
  // Monaco renders spaces as non-breaking spaces.
  return (await lines.innerText()).replace(/\u00a0/g, ' ');
}

/** Filters the open quick pick by `text` and chooses the first row showing it (label or description). */
async function pickRowWith(text: string): Promise<void> {
  const box = wb.page.locator('.quick-input-widget .quick-input-box input');
  await box.waitFor({ state: 'visible' });
  await box.fill(text);
  const row = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor();
  await row.click();
}


before(async () => {
  wb = await openWorkbench({ scenario: 'commands-registry', sandbox: { customers: 50, registry: 400_000, seed: 5 } });
  const shoot = wb.screenshot.bind(wb);
  let last = Date.now();
  wb.screenshot = async (step) => {
    console.log(`[commands] ${((Date.now() - last) / 1000).toFixed(1)} s before "${step}"`);
    last = Date.now();
    return shoot(step);
  };
  // "Try the Sandbox" stores the sandbox's key (NILVERA_SANDBOX_KEY) for the Sandbox environment.
  await wb.runCommand(`Nilvera: ${nls('%command.sandbox.start%')}`);
  await wb.page.locator('.part.statusbar .statusbar-item', { hasText: /\d\s*credits/ }).first().waitFor({ timeout: 30_000 });
  registered = (await apiGet<{ Content: RegistryRow[] }>('/general/GlobalCompany?Page=3&PageSize=40')).body.Content;
  for (let i = 1; !unregistered; i++) {
    const candidate = completeVkn(String(987650000 + i));
    const rows = await apiGet<unknown[]>(`/general/GlobalCompany/Check/TaxNumber/${candidate}?globalUserType=Invoice`);
    if (rows.status === 200 && rows.body.length === 0) unregistered = candidate;
  }
});

after(async () => {
  await wb?.close();
});

test('check a tax number: a wrong digit is refused while typing; registered and unregistered answers', { timeout: 120_000 }, async () => {
  const { page } = wb;
  const row = registered[0];
  const wrong = row.TaxNumber.slice(0, 9) + String((Number(row.TaxNumber[9]) + 1) % 10);
  await runAsking(wb.page, 'Nilvera: Check a Tax Number in the Registry');
  const box = page.locator('.quick-input-widget .quick-input-box input');
  await box.waitFor({ state: 'visible' });
  await box.fill(wrong);
  await page.locator('.quick-input-widget .quick-input-message', { hasText: `the 10th digit should be ${row.TaxNumber[9]}` }).waitFor();
  await wb.screenshot('wrong check digit refused while typing');
  await box.fill(row.TaxNumber);
  await box.press('Enter');
  await wb.quickPick('e-Invoice (Invoice)');
  await notification(`${row.TaxNumber} is registered`);
  await page.locator('.tabs-container .tab', { hasText: `${row.TaxNumber}.md` }).waitFor();
  const text = await activeEditorText();
  assert.ok(text.includes(row.Title), 'the detail shows the title');
  assert.match(text, /urn:mail:\S+\s*\|\s*PK\s*\|/);
  assert.match(text, /active/);
  await wb.screenshot('registered taxpayer detail with aliases');

  await runAsking(wb.page, 'Nilvera: Check a Tax Number in the Registry');
  await wb.inputBox(unregistered);
  await wb.quickPick('e-Invoice (Invoice)');
  await notification(`${unregistered} is not registered`);
  await wb.screenshot('unregistered number said plainly');
});

test('a name search leads to the detail; "Add as Customer" opens the prefilled form, which creates the customer', { timeout: 120_000 }, async () => {
  let row: RegistryRow | undefined;
  for (const r of registered.slice(1)) {
    if ((await apiGet(`/general/Customers/GetCustomerInfo/${r.TaxNumber}`)).status === 404) {
      row = r;
      break;
    }
  }
  assert.ok(row, 'a registered taxpayer who is not a customer');
  await runAsking(wb.page, 'Nilvera: Check a Name in the Registry');
  await wb.inputBox(row.Title);
  await wb.quickPick('e-Invoice (Invoice)');
  await wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first().waitFor();
  await wb.screenshot('name search results');
  await pickRowWith(row.TaxNumber);
  await wb.page.locator('.tabs-container .tab', { hasText: `${row.TaxNumber}.md` }).waitFor();
  const lens = wb.page.locator('.monaco-editor .codelens-decoration a', { hasText: 'Add as Customer' }).first();
  await lens.waitFor();
  await wb.screenshot('detail with Add as Customer');
  await lens.click();
  try {
    const form = await wb.webview('New Customer');
    await form.locator('#field-Name').waitFor();
    const prefilledName = await form.locator('#field-Name').evaluate((el) => (el as HTMLInputElement).value);
    assert.equal(prefilledName, row.Title, 'the form is prefilled with the registry title');
    await wb.screenshot('customer form prefilled from the registry');
    // The form enables Save once something is edited: complete the record with a phone number.
    await form.locator('#field-Phone').locator('input').first().fill('+90 462 000 00 00');
    await form.locator('#save').click();
    const created = await waitUntil(async () => {
      const r = await apiGet<{ Name: string; TaxNumber: string; Phone: string }>(`/general/Customers/GetCustomerInfo/${row!.TaxNumber}`);
      return r.status === 200 ? r.body : undefined;
    }, 'the customer on the sandbox');
    assert.equal(created.Name, row.Title);
    assert.equal(created.Phone, '+90 462 000 00 00');
    await wb.screenshot('customer created');
  } finally {
    await wb.runCommand('View: Close All Editors');
  }
});

test('bulk check of a file from the explorer: invalid numbers listed apart, the rest checked', { timeout: 120_000 }, async () => {
  const { page } = wb;
  const good = registered.slice(10, 30).map((r) => r.TaxNumber);
  const wrongDigit = (t: string) => t.slice(0, -1) + String((Number(t[t.length - 1]) + 1) % 10);
  const bad = [wrongDigit(good[0]), '12345', 'ABCDEFGHIJ'];
  fs.writeFileSync(path.join(workspaceFolder(wb.page), 'vkn-listesi.csv'), ['Unvan;VKN', ...good.map((t, i) => `Firma ${i};${t}`), `Yok;${unregistered}`, ...bad.map((b) => `Hatalı;${b}`)].join('\n'));
  await wb.runCommand('View: Show Explorer');
  const fileRow = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'vkn-listesi.csv' }).first();
  await fileRow.waitFor();
  await chooseMenuItem(page, 'Bulk Check Tax Numbers in the Registry', async () => {
    await fileRow.click({ button: 'right' });
    await page.locator('.monaco-menu .action-item .action-label', { hasText: 'Bulk Check Tax Numbers in the Registry' }).first().waitFor();
    await wb.screenshot('explorer context menu');
  });
  await wb.quickPick('e-Invoice (Invoice)');
  const summary = await notification('Bulk check:');
  assert.match(summary, /20 registered, 1 not registered, 3 invalid \(not sent\), 0 failed/);
  const text = await activeEditorText();
  assert.match(text, /^Tax number,Status,Title,Active PK aliases,Active GB aliases,Note/);
  assert.ok(text.includes(`${good[0]},registered,`), 'the first number is listed as registered');
  await wb.screenshot('bulk check results as CSV');
  await wb.runCommand('View: Revert and Close Editor').catch(() => undefined);
});

test('registry list: a download cancelled halfway leaves no file; a completed one is searched offline', { timeout: 180_000 }, async () => {
  const { page } = wb;
  const listsDir = path.join(globalStorage(), 'registry-lists');
  const start = async () => {
    await runAsking(wb.page, 'Nilvera: Download Registry List for Offline Search');
    await wb.quickPick('PK: receiving mailboxes');
    await wb.quickPick('e-Invoice (Invoice)');
    await wb.quickPick('Extension storage');
  };
  await start();
  const progress = page.locator('.notification-toast', { hasText: /KB downloaded|MB downloaded/ }).first();
  await progress.waitFor({ timeout: 60_000 });
  await wb.screenshot('download in progress');
  await progress.locator('.monaco-button', { hasText: 'Cancel' }).click();
  await progress.waitFor({ state: 'hidden' });
  await new Promise((r) => setTimeout(r, 500));
  const left = fs.existsSync(listsDir) ? fs.readdirSync(listsDir) : [];
  assert.deepEqual(left, [], `a cancelled download left ${left.join(', ')}`);
  assert.ok(!fs.existsSync(path.join(globalStorage(), 'registry-index', 'PK-Invoice', 'current')), 'no index after a cancelled download');
  await wb.screenshot('download cancelled, nothing left');

  await start();
  // The index is built while the list downloads: one message tells both.
  await page.locator('.notification-toast', { hasText: /B downloaded, [\d.,]+ taxpayers indexed/ }).first().waitFor({ timeout: 60_000 });
  await wb.screenshot('downloading and indexing at once');
  const done = await notification(/ready for offline search/);
  assert.match(done, /400[,.]000 taxpayers/);
  assert.deepEqual(fs.readdirSync(listsDir), ['registry-PK-Invoice.zip']);
  await wb.screenshot('download complete and indexed');

  // Offline: the sandbox sees no request.
  await wb.sandbox!.control('requests', { method: 'DELETE' });
  const row = registered[5];
  // The first word of the title, typed in lower case. In the realistic registry it is usually shared by
  // other titles, so a list of matches opens; a word unique to this taxpayer opens its detail at once.
  const words = row.Title.split(' ')[0];
  await runAsking(wb.page, 'Nilvera: Search Downloaded Registry');
  await wb.inputBox(words.toLocaleLowerCase('tr'));
  const matches = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first();
  const detailTab = page.locator('.tabs-container .tab', { hasText: `${row.TaxNumber}-offline.md` });
  await matches.or(detailTab).first().waitFor();
  await wb.screenshot('offline search by title words');
  if (await matches.isVisible()) await pickRowWith(row.TaxNumber);
  await page.locator('.tabs-container .tab', { hasText: `${row.TaxNumber}-offline.md` }).waitFor();
  const text = await activeEditorText();
  assert.match(text, /Offline registry list downloaded/);
  assert.ok(text.includes(row.Title));
  await wb.screenshot('offline detail');
  const log = (await wb.sandbox!.control('requests')) as unknown[] | { requests: unknown[] };
  assert.equal((Array.isArray(log) ? log : log.requests).length, 0, 'the offline search called the server');
  await wb.runCommand('View: Close All Editors');
});

/**
 * Makes `file` refuse to be replaced, as Windows refuses while another program has it open: the
 * immutable attribute (chattr +i) makes rename over it fail with EPERM even for root, which the
 * extension treats as a held file. Undefined where the file system or user cannot set it.
 */
function holdAsAnotherProgram(file: string): (() => void) | undefined {
  if (spawnSync('chattr', ['+i', file]).status !== 0) return undefined;
  return () => void spawnSync('chattr', ['-i', file]);
}

test('registry list: the previous ZIP held by another program: the new list is kept beside it, and the message says which file', { timeout: 180_000 }, async (t) => {
  const listsDir = path.join(globalStorage(), 'registry-lists');
  const held = path.join(listsDir, 'registry-PK-Invoice.zip');
  assert.ok(fs.existsSync(held), 'the download test before this one left the list');
  const release = holdAsAnotherProgram(held);
  if (!release) return t.skip('chattr +i is not available here (needs root and a file system with the immutable attribute)');
  try {
    await runAsking(wb.page, 'Nilvera: Download Registry List for Offline Search');
    await wb.quickPick('PK: receiving mailboxes');
    await wb.quickPick('e-Invoice (Invoice)');
    await wb.quickPick('Extension storage');
    // The extension waits out a brief hold for about 10 s before it keeps the download under another name.
    const text = await notification(/is open in another program/);
    assert.match(text, /ready for offline search\. registry-PK-Invoice\.zip is open in another program, so the new list was saved beside it as registry-PK-Invoice \(2\)\.zip\./);
    await wb.screenshot('lock message: the previous ZIP is open in another program');
    assert.deepEqual(fs.readdirSync(listsDir).sort(), ['registry-PK-Invoice (2).zip', 'registry-PK-Invoice.zip']);
  } finally {
    release();
  }
  fs.rmSync(path.join(listsDir, 'registry-PK-Invoice (2).zip'), { force: true });
  await wb.runCommand('Notifications: Clear All Notifications').catch(() => undefined);
});

test('template, series, mailing and tax office switches change the sandbox', { timeout: 120_000 }, async () => {
  await runAsking(wb.page, 'Nilvera: Update e-Invoice Template');
  await wb.inputBox('2');
  await wb.quickPick('Make Default');
  await notification('is now the default');
  assert.deepEqual((await state()).templates.map((t) => [t.ID, t.IsDefault]), [[1, false], [2, true], [3, false]]);
  await wb.screenshot('template 2 made default');

  await runAsking(wb.page, 'Nilvera: Update e-Voucher Series');
  await wb.inputBox('3');
  await wb.quickPick('Activate');
  await notification('is now active');
  assert.equal((await state()).series.find((s) => s.ID === 3)?.IsActive, true);
  await wb.screenshot('series 3 activated');

  const whatsappBefore = (await state()).mailing.find((m) => m.ModuleID === 'WhatsApp')?.IsActive;
  await runAsking(wb.page, 'Nilvera: Switch WhatsApp or E-mail Sending');
  await wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first().waitFor();
  await wb.screenshot('mailing switches with their state');
  await wb.quickPick(whatsappBefore ? 'Turn off WhatsApp messages' : 'Turn on WhatsApp messages');
  await notification('WhatsApp messages:');
  assert.equal((await state()).mailing.find((m) => m.ModuleID === 'WhatsApp')?.IsActive, !whatsappBefore);

  await runAsking(wb.page, 'Nilvera: Update Interactive Tax Office Credentials');
  await wb.inputBox('ivd-e2e');
  const passwordBox = wb.page.locator('.quick-input-widget .quick-input-box input');
  await passwordBox.waitFor({ state: 'visible' });
  await waitUntil(async () => ((await passwordBox.getAttribute('type')) === 'password' ? true : undefined), 'the password box', 5000);
  await wb.inputBox('E2e-Parola-1');
  await notification('credentials updated for ivd-e2e');
  assert.deepEqual((await state()).taxOffice, { UserName: 'ivd-e2e', Password: 'E2e-Parola-1' });
  await wb.screenshot('tax office credentials saved');
});
