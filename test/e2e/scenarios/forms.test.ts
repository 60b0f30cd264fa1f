// The webview forms as a person uses them, in the light and the dark theme: the company form (an
// invalid e-mail marked at its field with Save disabled, two fields changed and saved, unsaved edits
// kept while the tab is hidden), the customer form (a 422 from the sandbox shown at the field,
// registry look-up, create, edit) and adding a certificate. Every result is checked on the sandbox.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import type { Workbench } from '../index';
import { nls, openWorkbench, repoRoot } from '../index';

const turkish = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.tr.json'), 'utf8')) as Record<string, string>;

interface SandboxState {
  company: Record<string, string | null>;
  mailing: Array<{ ModuleID: string; IsActive: boolean }>;
  taxOffice: { UserName: string | null; Password: string | null };
  certificates: Array<Record<string, string | number | null>>;
}

const open: Workbench[] = [];
after(async () => {
  for (const wb of open) await wb.close();
});

async function state(wb: Workbench): Promise<SandboxState> {
  const response = await fetch(`${wb.sandbox!.url}/__sandbox/state`);
  return (await response.json()) as SandboxState;
}

async function apiGet<T>(wb: Workbench, path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${wb.sandbox!.url}${path}`, { headers: { Authorization: `Bearer ${wb.sandbox!.keys.full}`, Accept: 'application/json' } });
  return { status: response.status, body: (await response.json()) as T };
}

/** Types into a vscode-elements text field or text area (the real input sits in its shadow root). */
async function type(form: FrameLocator, field: string, text: string): Promise<void> {
  const input = form.locator(`#field-${field}`).locator('input, textarea').first();
  await input.fill(text);
}

async function valueOf(form: FrameLocator, field: string): Promise<string> {
  // Read-only values are shown as text, editable ones in vscode-elements controls.
  return form.locator(`#field-${field}`).evaluate((el) => (el.classList.contains('readonly-value') ? (el.textContent ?? '') : (el as HTMLInputElement).value));
}

async function showField(form: FrameLocator, field: string): Promise<void> {
  await form.locator(`[data-field="${field}"]`).evaluate((el) => el.scrollIntoView({ block: 'center' }));
}

async function saveDisabled(form: FrameLocator): Promise<boolean> {
  return form.locator('#save').evaluate((el) => (el as HTMLButtonElement).disabled);
}

async function waitForSandbox<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const until = Date.now() + 15_000;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** "Set API Key" with the sandbox's key, as a person does (the forms read the key from SecretStorage). */
async function setKey(wb: Workbench, locale: 'en' | 'tr' = 'en'): Promise<void> {
  await wb.runCommand(`Nilvera: ${nls('%command.apiKey.set%', locale)}`);
  await wb.inputBox(wb.sandbox!.keys.full);
  const saved = 'API key saved for {0}. Company: {1}';
  const prefix = (locale === 'tr' ? turkish[saved] : saved).split('{0}')[locale === 'tr' ? 1 : 0].split('.')[0].trim();
  await wb.page.locator('.notification-list-item-message', { hasText: prefix }).first().waitFor();
}

/**
 * Runs a scenario's steps; on failure saves a screenshot of the moment before reporting it. Also
 * fails when any frame (the forms' webviews included) reports a Content-Security-Policy violation.
 */
async function steps(wb: Workbench, body: () => Promise<void>): Promise<void> {
  const violations: string[] = [];
  wb.page.on('console', (m) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect)/i.test(m.text())) violations.push(m.text());
  });
  try {
    await body();
    assert.deepEqual(violations, [], 'CSP violations in the console');
  } catch (e) {
    await wb.screenshot('failure').catch(() => undefined);
    throw e;
  }
}

test('company form (light theme): validation at the field, save two fields, unsaved edits survive hiding the tab', { timeout: 180_000 }, async () => {
  const wb = await openWorkbench({ scenario: 'forms-company-light', settings: { 'workbench.colorTheme': 'Default Light Modern' } });
  open.push(wb);
  await steps(wb, async () => {
  await setKey(wb);
  const before = await state(wb);

  await wb.runCommand(`Nilvera: ${nls('%command.account.openCompany%')}`);
  let form = await wb.webview('Company Data');
  await form.locator('#field-City').waitFor();
  assert.equal(await valueOf(form, 'Name'), before.company.Name ?? '');
  assert.equal(await saveDisabled(form), true, 'nothing changed yet: Save is disabled');
  await wb.screenshot('company form loaded');

  await type(form, 'Email', 'muhasebe@');
  await form.locator('#field-Email-error').filter({ hasText: /e-mail address/ }).waitFor();
  assert.equal(await saveDisabled(form), true, 'an invalid e-mail disables Save');
  assert.equal(await form.locator('#field-Email').getAttribute('aria-invalid'), 'true');
  await showField(form, 'Email');
  await wb.screenshot('invalid e-mail marked at the field');

  await type(form, 'Email', 'muhasebe@ornek-sirket.com.tr');
  await type(form, 'City', 'Eskişehir');
  assert.equal(await form.locator('#field-Email-error').innerText(), '');
  assert.equal(await saveDisabled(form), false);
  await form.locator('#save').click();
  await form.locator('#status').filter({ hasText: 'Saved.' }).waitFor();
  const saved = await state(wb);
  assert.equal(saved.company.Email, 'muhasebe@ornek-sirket.com.tr');
  assert.equal(saved.company.City, 'Eskişehir');
  assert.equal(saved.company.Name, before.company.Name, 'the read-only name is unchanged');
  await wb.screenshot('saved');

  // An unsaved edit, then another tab in front (the company webview is hidden), then back.
  await type(form, 'District', 'Tepebaşı (taslak)');
  await wb.runCommand('Nilvera: Mailing and Tax Office Settings');
  const settings = await wb.webview('Nilvera Settings');
  await settings.locator('#field-EmailActive').waitFor();
  await wb.screenshot('settings page in front');
  form = await wb.webview('Company Data');
  await form.locator('#field-District').waitFor();
  assert.equal(await valueOf(form, 'District'), 'Tepebaşı (taslak)', 'the draft survives hiding the tab');
  await form.locator('#status').filter({ hasText: 'Unsaved changes' }).waitFor();
  assert.notEqual((await state(wb)).company.District, 'Tepebaşı (taslak)', 'the draft is not saved on its own');
  await wb.screenshot('draft kept after reshowing the tab');

  // "Reload Window" (VS Code saves its state first, unlike a bare browser reload): the serializer
  // brings the panel back and the page restores its draft.
  await wb.runCommand('Developer: Reload Window');
  await wb.page.waitForURL(/./);
  await wb.page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
  form = await wb.webview('Company Data');
  await form.locator('#field-District').waitFor({ timeout: 60_000 });
  assert.equal(await valueOf(form, 'District'), 'Tepebaşı (taslak)', 'the draft survives a window reload');
  assert.equal(await valueOf(form, 'City'), 'Eskişehir', 'the saved value comes from the server');
  await showField(form, 'District');
  await wb.screenshot('draft kept after a window reload');
  });
});

test('customer and certificate forms (dark theme): a 422 at the field, look-up, create, edit; add a certificate', { timeout: 180_000 }, async () => {
  const wb = await openWorkbench({ scenario: 'forms-customer-dark', settings: { 'workbench.colorTheme': 'Default Dark Modern' } });
  open.push(wb);
  await steps(wb, async () => {
  await setKey(wb);
  const taken = (await apiGet<{ Content: Array<{ TaxNumber: string }> }>(wb, '/general/Customers?Page=1&PageSize=1')).body.Content[0].TaxNumber;
  // A registered taxpayer who is not a customer yet, for the registry look-up.
  const registry = (await apiGet<{ Content: Array<{ TaxNumber: string; Title: string }> }>(wb, '/general/GlobalCompany?Page=1&PageSize=100')).body.Content;
  let fresh: { TaxNumber: string; Title: string } | undefined;
  for (const entry of registry) {
    if ((await apiGet(wb, `/general/Customers/GetCustomerInfo/${entry.TaxNumber}`)).status === 404) {
      fresh = entry;
      break;
    }
  }
  assert.ok(fresh, 'the sandbox has a registered taxpayer who is not a customer');

  await wb.runCommand(`Nilvera: ${nls('%command.customers.create%')}`);
  let form = await wb.webview('New Customer');
  await form.locator('#field-TaxNumber').waitFor();
  await type(form, 'TaxNumber', taken);
  await type(form, 'Name', 'Aynı Vergi No Ltd. Şti.');
  await form.locator('#save').click();
  await form.locator('#field-TaxNumber-error').filter({ hasText: 'A customer with this tax number exists.' }).waitFor();
  await wb.screenshot('422 from the sandbox at the tax number');

  const lookupDisabled = () => form.locator('#lookup').evaluate((el) => (el as HTMLButtonElement).disabled);
  await type(form, 'TaxNumber', '12345');
  assert.equal(await lookupDisabled(), true, 'no look-up for a number that is neither a VKN nor a TCKN');
  await type(form, 'TaxNumber', fresh.TaxNumber);
  await type(form, 'Name', '');
  assert.equal(await lookupDisabled(), false, 'look-up offered for a valid tax number');
  await form.locator('#lookup').click();
  await waitForSandbox(async () => ((await valueOf(form, 'Name')) === fresh!.Title ? true : undefined), 'the registry title in the form');
  await wb.screenshot('filled from the registry');
  await form.locator('#save').click();
  const created = await waitForSandbox(async () => {
    const r = await apiGet<{ ID: number; Name: string }>(wb, `/general/Customers/GetCustomerInfo/${fresh!.TaxNumber}`);
    return r.status === 200 ? r.body : undefined;
  }, 'the new customer on the sandbox');
  assert.equal(created.Name, fresh.Title);
  form = await wb.webview(`Customer: ${fresh.Title}`);
  await form.locator('#status').filter({ hasText: 'Saved.' }).waitFor();

  await type(form, 'City', 'Trabzon');
  await form.locator('#save').click();
  await form.locator('#status').filter({ hasText: 'Saved.' }).waitFor();
  assert.equal((await apiGet<{ City: string }>(wb, `/general/Customers/${created.ID}`)).body.City, 'Trabzon');
  await wb.screenshot('customer created then edited');

  await wb.runCommand(`Nilvera: ${nls('%command.certificates.add%')}`);
  const cert = await wb.webview('Add Certificate');
  await cert.locator('#field-SerialNo').waitFor();
  await type(cert, 'SerialNo', 'E2E-CERT-0001');
  // Keyboard: Tab moves from the serial number to the type select.
  await wb.page.keyboard.press('Tab');
  assert.equal(await cert.locator('body').evaluate(() => document.activeElement?.id), 'field-Type');
  await cert.locator('#field-Type').click();
  await cert.getByText('E-signature (EIMZA)').last().click();
  await type(cert, 'StartDate', '2026-01-01');
  await type(cert, 'EndDate', '2028-01-01');
  await type(cert, 'Description', 'UI testi');
  await type(cert, 'Password', 'e2e-secret-pw');
  await wb.screenshot('certificate form filled');
  await wb.page.keyboard.press('Control+s'); // Ctrl+S saves the form like the settings editor's fields
  const stored = await waitForSandbox(async () => (await state(wb)).certificates.find((c) => c.SerialNo === 'E2E-CERT-0001'), 'the certificate on the sandbox');
  assert.equal(stored.Type, 'EIMZA');
  assert.equal(stored.Password, 'e2e-secret-pw');
  assert.equal(stored.EndDate?.toString().slice(0, 10), '2028-01-01');
  const after = await wb.webview('Certificate: E2E-CERT-0001');
  await after.locator('#status').filter({ hasText: 'Saved.' }).waitFor();
  assert.equal(await valueOf(after, 'Password'), '', 'the password is not put back into the page');
  await wb.screenshot('certificate added');
  });
});

test('settings page in Turkish (high-contrast theme): labels from the l10n bundle, a switch and the tax office credentials saved', { timeout: 180_000 }, async () => {
  const wb = await openWorkbench({ scenario: 'forms-settings-tr-hc', locale: 'tr', settings: { 'workbench.colorTheme': 'Default High Contrast' } });
  open.push(wb);
  await steps(wb, async () => {
    await setKey(wb, 'tr');
    const before = await state(wb);
    const emailWas = before.mailing.find((m) => m.ModuleID === 'Portal')?.IsActive === true;
    await wb.runCommand(`Nilvera: ${nls('%command.forms.settings%', 'tr')}`);
    const form = await wb.webview(turkish['Nilvera Settings']);
    await form.locator('#field-EmailActive').waitFor();
    assert.equal((await form.locator('[data-field="EmailActive"]').innerText()).trim(), turkish['Send invoices by e-mail']);
    assert.equal((await form.locator('#save').innerText()).trim(), turkish.Save);
    await wb.screenshot('settings page in Turkish');
    await form.locator('#field-EmailActive').click();
    await type(form, 'TaxOfficeUserName', 'vergi.kullanici');
    await type(form, 'TaxOfficePassword', 'Gizli-456');
    await form.locator('#save').click();
    await form.locator('#status').filter({ hasText: turkish['Saved.'] }).waitFor();
    const after = await state(wb);
    assert.equal(after.mailing.find((m) => m.ModuleID === 'Portal')?.IsActive, !emailWas);
    assert.equal(after.taxOffice.UserName, 'vergi.kullanici');
    assert.equal(after.taxOffice.Password, 'Gizli-456');
    assert.equal(await valueOf(form, 'TaxOfficePassword'), '', 'the password is not shown again');
    await wb.screenshot('saved in Turkish');
  });
});
