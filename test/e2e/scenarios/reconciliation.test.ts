// Reconciliation as a person uses it, on the sandbox (60 customers, 4 of them legacy rows with bad
// checksums): the view's welcome button runs it, each group shows with the count the sandbox
// implies; a registry change on the sandbox (control endpoint) and a second run show the
// difference in the changes group. No list is downloaded here, so the runs use the online lookup.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Workbench } from '../index';
import { nls, notificationGone, openWorkbench, setViewExpanded, waitUntil } from '../index';
import { isValidTckn, isValidVkn } from '../../../src/domain/taxId';

interface Customer {
  ID: number;
  Name: string;
  TaxNumber: string;
}

const VIEW = nls('%view.reconciliation%');
let wb: Workbench;

async function apiGet<T>(apiPath: string): Promise<{ status: number; body: T }> {
  const s = wb.sandbox!;
  const res = await fetch(s.url + apiPath, { headers: { Authorization: `Bearer ${s.keys.full}`, Accept: 'application/json' } });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as T };
}

/** This file's waits: 30_000 ms by default, polled every 200 ms. */
const until = <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> => waitUntil(probe, what, timeoutMs, 200);

/** Each customer's status from the sandbox's list and its single-taxpayer endpoint. */
async function expected(): Promise<{ users: Customer[]; nonUsers: Customer[]; invalid: Customer[] }> {
  const customers = (await apiGet<{ Content: Customer[] }>('/general/Customers?Page=1&PageSize=100')).body.Content;
  const out = { users: [] as Customer[], nonUsers: [] as Customer[], invalid: [] as Customer[] };
  for (const c of customers) {
    if (!(c.TaxNumber.length === 10 ? isValidVkn(c.TaxNumber) : isValidTckn(c.TaxNumber))) {
      out.invalid.push(c);
      continue;
    }
    const info = await apiGet<{ Aliases: Array<{ DeletionTime: string | null }> }>(`/general/GlobalCompany/GetGlobalCustomerInfo/${c.TaxNumber}?globalUserType=Invoice`);
    (info.status === 200 && info.body.Aliases.some((a) => !a.DeletionTime) ? out.users : out.nonUsers).push(c);
  }
  return out;
}

const rowsOf = () => wb.treeRows(VIEW);
const hasRow = (rows: string[], text: string) => rows.some((r) => r.startsWith(text));

before(async () => {
  wb = await openWorkbench({ scenario: 'reconciliation', sandbox: { customers: 56, registry: 4000, seed: 7, args: ['--invalid-customers', '4'] } });
  await wb.runCommand(`Nilvera: ${nls('%command.sandbox.start%')}`);
  await wb.page.locator('.part.statusbar .statusbar-item', { hasText: /\d\s*credits/ }).first().waitFor({ timeout: 30_000 });
});

after(async () => {
  await wb?.close();
});

test('reconciliation shows each group, and after a registry change the difference', { timeout: 240_000 }, async () => {
  try {
    const before = await expected();
    assert.equal(before.invalid.length, 4);
    await wb.openContainer('Nilvera');
    // Room for the reconciliation view: the others are folded.
    for (const v of ['%view.customers%', '%view.account%']) await setViewExpanded(wb, nls(v), false);
    await setViewExpanded(wb, VIEW, true);
    // A wider side bar, so descriptions (alias, reason, old → new) show in the screenshots.
    const bar = await wb.page.locator('.part.sidebar').boundingBox();
    if (bar) {
      await wb.page.mouse.move(bar.x + bar.width + 1, bar.y + bar.height / 2);
      await wb.page.mouse.down();
      await wb.page.mouse.move(bar.x + bar.width + 350, bar.y + bar.height / 2, { steps: 5 });
      await wb.page.mouse.up();
    }
    const welcome = wb.view(VIEW).locator('.welcome-view-content .monaco-button', { hasText: nls('%command.reconciliation.run%') });
    await welcome.waitFor();
    await wb.screenshot('welcome with the run button');
    await welcome.click();

    let rows = await until(async () => {
      const r = await rowsOf();
      return hasRow(r, 'e-Invoice users (') ? r : undefined;
    }, 'the first result');
    assert.ok(hasRow(rows, `e-Invoice users (${before.users.length})`), rows.join(' | '));
    assert.ok(hasRow(rows, `Not e-invoice users (${before.nonUsers.length})`), rows.join(' | '));
    assert.ok(hasRow(rows, 'Invalid tax numbers (4)'), rows.join(' | '));
    assert.ok(hasRow(rows, 'First run: no previous result'), rows.join(' | '));
    await wb.clickTreeItem(VIEW, 'Invalid tax numbers (4)');
    rows = await until(async () => {
      const r = await rowsOf();
      return r.some((x) => x.includes(before.invalid[0].Name)) ? r : undefined;
    }, 'the invalid rows');
    const invalidRow = wb.view(VIEW).locator('.monaco-list-row', { hasText: before.invalid[0].Name }).first();
    assert.match(await invalidRow.innerText(), /should be \d+ for these first nine digits/);
    await wb.clickTreeItem(VIEW, 'e-Invoice users (');
    const userRow = wb.view(VIEW).locator('.monaco-list-row', { hasText: before.users[0].Name }).first();
    await userRow.waitFor();
    assert.match(await userRow.innerText(), /urn:mail:\S+pk@/);
    await wb.screenshot('first run: groups, invalid tax numbers with the reason, users with their PK alias');
    await wb.clickTreeItem(VIEW, 'e-Invoice users (');
    await wb.clickTreeItem(VIEW, 'Invalid tax numbers (4)');

    // The registry changes on the sandbox: one user leaves, one non-user joins, one alias moves.
    const [leaving, moving] = before.users;
    const joining = before.nonUsers[0];
    const post = (body: unknown) => wb.sandbox!.control('registry', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    await post({ action: 'deregister', TaxNumber: leaving.TaxNumber });
    await post({ action: 'register', TaxNumber: joining.TaxNumber, Title: joining.Name });
    await post({ action: 'changeAlias', TaxNumber: moving.TaxNumber, Alias: 'urn:mail:yenipk@e2e.com.tr' });

    await wb.runCommand(`Nilvera: ${nls('%command.reconciliation.run%')}`);
    rows = await until(async () => {
      const r = await rowsOf();
      return r.some((x) => /^Changes since .* \(3\)/.test(x)) ? r : undefined;
    }, 'the changes of the second run');
    assert.ok(hasRow(rows, `e-Invoice users (${before.users.length})`), rows.join(' | '));
    assert.ok(hasRow(rows, `Not e-invoice users (${before.nonUsers.length})`), rows.join(' | '));
    for (const sub of ['Newly registered (1)', 'Alias changed (1)', 'Deregistered (1)']) {
      assert.ok(hasRow(rows, sub), `${sub} in ${rows.join(' | ')}`);
      await wb.clickTreeItem(VIEW, sub);
    }
    rows = await until(async () => {
      const r = await rowsOf();
      return [leaving, moving, joining].every((c) => r.some((x) => x.includes(c.Name))) ? r : undefined;
    }, 'the changed customers');
    // The run is over: its progress notification has gone (with its Cancel button).
    await notificationGone(wb, 'Reconciling customers');
    const moved = wb.view(VIEW).locator('.monaco-list-row', { hasText: moving.Name }).last();
    assert.match(await moved.innerText(), /→\s*urn:mail:yenipk@e2e\.com\.tr/);
    // Move the pointer off the tree, so no hover card covers the rows.
    await wb.page.mouse.move(1000, 600);
    await wb.page.locator('.monaco-hover, .workbench-hover-container').first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    await wb.screenshot('second run: newly registered, alias changed, deregistered');
  } catch (e) {
    await wb.screenshot('failure').catch(() => undefined);
    throw e;
  }
});
