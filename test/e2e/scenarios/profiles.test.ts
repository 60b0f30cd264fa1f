// Connection profiles as a person uses them, against one sandbox address serving two companies
// (A and B, each with its own key): "Nilvera: Add Profile" twice through its prompts (environment,
// key, name), the Customers view under A, then the profile switch from the environment status bar
// item (its tooltip's "Switch Profile…" link: a click on the item itself switches the environment)
// with both profiles listed by company name, tax number and environment; the Customers view then
// shows B's customers and none of A's, and the Account view lists both companies (GET /Company/List).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import type { SandboxCompany, Workbench } from '../index';
import { openWorkbench, runAsking, setViewExpanded, steps, viewHeader, waitUntil } from '../index';

interface Customer {
  Name: string;
  TaxNumber: string;
}

interface Page<T> {
  TotalCount: number;
  Content: T[];
}

/** The extension's default page size (nilvera.pageSize): the rows the view's first page shows. */
const PAGE_SIZE = 20;
const CUSTOMERS = 30;

const open: Workbench[] = [];
after(async () => {
  for (const wb of open) await wb.close();
});

/** This file's waits: 20_000 ms by default, polled every 200 ms. */
const until = <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> => waitUntil(probe, what, timeoutMs, 200);

async function apiGet<T>(wb: Workbench, key: string, apiPath: string): Promise<T> {
  const response = await fetch(`${wb.sandbox!.url}${apiPath}`, { headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' } });
  assert.equal(response.status, 200, `GET ${apiPath}`);
  return (await response.json()) as T;
}

/** What the rows a view draws now read (label and description: "Name 1234567890 · City"). */
async function rowTexts(wb: Workbench, view: string): Promise<string[]> {
  await wb.view(view).waitFor();
  return (await wb.view(view).locator('.monaco-list-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
}

/** Drags the side bar's edge to `width` pixels, so rows show their descriptions (tax numbers) too. */
async function widenSideBar(wb: Workbench, width: number): Promise<void> {
  const box = await wb.page.locator('.part.sidebar').boundingBox();
  assert.ok(box, 'the side bar is shown');
  const y = box.y + box.height / 2;
  await wb.page.mouse.move(box.x + box.width, y);
  await wb.page.mouse.down();
  await wb.page.mouse.move(box.x + width, y, { steps: 8 });
  await wb.page.mouse.up();
  await until(async () => (((await wb.page.locator('.part.sidebar').boundingBox())?.width ?? 0) > box.width + 50 ? true : undefined), 'the wider side bar');
}

/** The quick input's title (the step a command's prompt is at). */
function quickInputTitle(wb: Workbench, text: string): Locator {
  return wb.page.locator('.quick-input-widget .quick-input-title', { hasText: text }).first();
}

/** "Nilvera: Add Profile" → Sandbox → the company's key → the proposed name (the company's, from GET /Company). */
async function addProfile(wb: Workbench, company: SandboxCompany): Promise<void> {
  const box = wb.page.locator('.quick-input-widget .quick-input-box input');
  await runAsking(wb.page, 'Nilvera: Add Profile');
  await quickInputTitle(wb, 'Nilvera: Add Profile').waitFor();
  await wb.quickPick('Sandbox');
  await quickInputTitle(wb, 'Nilvera: Add Profile (Sandbox)').waitFor();
  assert.equal(await box.getAttribute('type'), 'password', 'the key box hides what is typed');
  await box.fill(company.key);
  await box.press('Enter');
  // The key is checked with GET /Company; the name box then proposes the company's name.
  await quickInputTitle(wb, 'Nilvera: Profile Name').waitFor();
  const proposed = await until(async () => {
    const v = await box.inputValue();
    return v && v !== company.key ? v : undefined;
  }, 'the proposed profile name');
  assert.equal(proposed, company.name, 'the name proposed is the company name GET /Company answered for this key');
  await box.press('Enter');
  await wb.page.locator('.notification-list-item-message', { hasText: `Profile "${company.name}" added and active.` }).first().waitFor();
}

test('profiles: add two companies, switch from the status bar, customers and account view follow', { timeout: 240_000 }, async () => {
  const wb = await openWorkbench({ scenario: 'profiles', sandbox: { customers: CUSTOMERS, registry: 50, args: ['--companies', '2'] } });
  open.push(wb);
  await steps(wb, async () => {
    const { page } = wb;
    const companies = wb.sandbox!.companies;
    assert.ok(companies && companies.length === 2, 'the sandbox serves two companies');
    const [A, B] = companies;
    assert.notEqual(A.taxNumber, B.taxNumber);

    // What each company's first page holds, and what only one company has (by name and tax number).
    const all = async (c: SandboxCompany) => (await apiGet<Page<Customer>>(wb, c.key, `/general/Customers?Page=1&PageSize=100`)).Content;
    const [allA, allB] = [await all(A), await all(B)];
    const firstA = allA.slice(0, PAGE_SIZE);
    const firstB = allB.slice(0, PAGE_SIZE);
    const onlyA = firstA.filter((c) => !allB.some((b) => b.Name === c.Name || b.TaxNumber === c.TaxNumber));
    const onlyB = firstB.filter((c) => !allA.some((a) => a.Name === c.Name || a.TaxNumber === c.TaxNumber));
    assert.ok(onlyA.length >= 3 && onlyB.length >= 3, `the two companies' customers must differ (${onlyA.length}, ${onlyB.length})`);

    await wb.openContainer('Nilvera');
    await widenSideBar(wb, 640);
    // Add B first, then A: the window then works with A, the last profile added.
    await addProfile(wb, B);
    await addProfile(wb, A);
    await setViewExpanded(wb, 'Customers', true);
    await wb.runCommand('Notifications: Clear All Notifications');

    // The status bar names the active profile; the Customers view shows A's first page.
    const statusBar = page.locator('.part.statusbar');
    const environmentItem = statusBar.locator('.statusbar-item', { hasText: 'Nilvera: Sandbox' }).first();
    await statusBar.locator('.statusbar-item', { hasText: `Nilvera: Sandbox · ${A.name}` }).first().waitFor();
    await viewHeader(wb, 'Customers').filter({ hasText: `(${CUSTOMERS})` }).waitFor();
    const shownA = await until(async () => {
      const rows = await rowTexts(wb, 'Customers');
      return onlyA.slice(0, 3).every((c) => rows.some((r) => r.includes(c.Name))) ? rows : undefined;
    }, "company A's customers in the Customers view");
    assert.ok(shownA.some((r) => r.includes(onlyA[0].TaxNumber)), 'rows show the tax number');
    assert.deepEqual(
      onlyB.filter((c) => shownA.some((r) => r.includes(c.Name) || r.includes(c.TaxNumber))).map((c) => c.Name),
      [],
      'no customer of B under A',
    );
    await wb.screenshot('customers of company A');

    // The switch from the status bar: with several profiles a click on the item opens the profile
    // picker (its tooltip says so and links "Switch Environment…"); the picker lists both profiles with
    // the company name, the tax number and the environment.
    await environmentItem.hover();
    const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: `Nilvera profile: ${A.name}` }).first();
    await hover.waitFor();
    assert.ok(await hover.locator('a', { hasText: 'Switch Environment' }).count(), 'the tooltip links "Switch Environment…"');
    await environmentItem.click();
    await quickInputTitle(wb, 'Nilvera: Switch Profile').waitFor();
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    const listed = await until(async () => {
      const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
      return texts.some((t) => t.includes(A.name)) && texts.some((t) => t.includes(B.name)) ? texts : undefined;
    }, 'both profiles in the picker');
    for (const c of [A, B]) {
      const text = listed.find((t) => t.includes(c.name))!;
      assert.ok(text.includes(c.taxNumber) && text.includes('Sandbox'), `the picker row of ${c.name} shows its tax number and environment: "${text}"`);
    }
    assert.ok(listed.some((t) => t.includes('Add Profile')), 'the picker offers "Add Profile…"');
    await page.mouse.move(700, 450);
    // The picker fades in: on a busy machine a screenshot right away catches it half drawn.
    await until(async () => ((await page.locator('.quick-input-widget').evaluate((e) => getComputedStyle(e).opacity)) === '1' ? true : undefined), 'the picker fully shown');
    await page.waitForTimeout(300);
    await wb.screenshot('profile picker with both companies');
    await rows.filter({ hasText: B.name }).first().click();
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });

    // Under B: the status bar, the view's total and B's customers, and none of A's.
    await statusBar.locator('.statusbar-item', { hasText: `Nilvera: Sandbox · ${B.name}` }).first().waitFor();
    const shownB = await until(async () => {
      const r = await rowTexts(wb, 'Customers');
      const hasB = onlyB.slice(0, 3).every((c) => r.some((x) => x.includes(c.Name) && x.includes(c.TaxNumber)));
      const hasA = onlyA.some((c) => r.some((x) => x.includes(c.Name) || x.includes(c.TaxNumber)));
      return hasB && !hasA ? r : undefined;
    }, "company B's customers, and none of A's, in the Customers view");
    assert.ok(shownB.length > 3, `rows: ${shownB.join(' | ')}`);
    await wb.view('Customers').locator('.monaco-list-row', { hasText: 'Load more' }).first().waitFor();
    await wb.screenshot('customers of company B after the switch');

    // The Account view: B's company, and the "Companies" group lists both (GET /Company/List).
    await setViewExpanded(wb, 'Customers', false);
    await setViewExpanded(wb, 'Account', true);
    const account = wb.view('Account');
    await account.locator('.monaco-list-row', { hasText: B.taxNumber }).first().waitFor();
    await account.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^Companies$/ }) }).first().click();
    await account.locator('.monaco-list-row', { hasText: A.name }).first().waitFor();
    const accountRows = await rowTexts(wb, 'Account');
    for (const c of [A, B]) {
      assert.ok(accountRows.some((r) => r.includes(c.name) && r.includes(c.taxNumber)), `the Companies group lists ${c.name} (${c.taxNumber}): ${accountRows.join(' | ')}`);
    }
    const listedByApi = await apiGet<Array<{ Name: string; TaxNumber: string }>>(wb, B.key, '/general/Company/List');
    assert.deepEqual(listedByApi.map((c) => c.TaxNumber).sort(), [A.taxNumber, B.taxNumber].sort());
    await page.mouse.move(700, 450);
    await wb.screenshot('account view with the company list');
  });
});
