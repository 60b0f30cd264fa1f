// The extension a newcomer meets (its page in the Extensions view: extensionPage.test.ts): the
// "Get Started with Nilvera" walkthrough done step by step through its own buttons, without an API
// key to begin with: each step shows its check mark only after the real thing happened (a key saved,
// the Customers view opened, a tax number checked, a registry list downloaded and indexed, an invoice
// opened with Nilvera diagnostics). scripts/readme-screenshots.js copies some of these shots into
// media/readme/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import type { Workbench } from '../index';
import { manifest, nls, openFile, openWorkbench, repoRoot, runAsking, steps, waitUntil, workspaceFolder } from '../index';

interface WalkthroughManifest {
  contributes: { walkthroughs: Array<{ id: string; title: string; steps: Array<{ id: string; title: string; description: string }> }> };
}

const pkg = manifest() as unknown as WalkthroughManifest;
const walkthrough = pkg.contributes.walkthroughs[0];
let wb: Workbench;

/** The step's title button in the walkthrough page (its data-step-id ends in "#<step id>"). */
const stepButton = (stepId: string): Locator => wb.page.locator(`button.getting-started-step[data-step-id$="#${stepId}"]`);
/** The step's check box: VS Code adds `complete` when the step's completion event has fired. */
const stepCheck = (stepId: string): Locator => wb.page.locator(`[data-done-step-id$="#${stepId}"]`).first();

async function isDone(stepId: string): Promise<boolean> {
  return ((await stepCheck(stepId).getAttribute('class')) ?? '').split(/\s+/).includes('complete');
}

async function waitDone(stepId: string, timeoutMs = 60_000): Promise<void> {
  await waitUntil(async () => ((await isDone(stepId)) ? true : undefined), `the walkthrough step "${stepId}" to be checked`, timeoutMs, 250);
}

/** Opens the walkthrough from the palette, as from Help > Welcome. */
async function openWalkthrough(w: Workbench = wb, locale?: string): Promise<void> {
  await runAsking(w.page, 'Welcome: Open Walkthrough...');
  // Typed and chosen with Enter: the mouse may rest where the list shows a hover over its rows.
  const title = nls(walkthrough.title, locale);
  const box = w.page.locator('.quick-input-widget .quick-input-box input');
  await box.fill(title);
  await w.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused', { hasText: title }).waitFor();
  await box.press('Enter');
  await w.page.locator(`button.getting-started-step[data-step-id$="#${walkthrough.steps[0].id}"]`).waitFor();
}

/**
 * Opens the walkthrough again (after a step completes, VS Code re-renders the page and leaves the other
 * steps' title buttons disabled until it is shown anew), expands the step and clicks the button its
 * description names.
 */
async function clickStepButton(stepId: string): Promise<void> {
  await openWalkthrough();
  const step = stepButton(stepId);
  // The selected step is expanded, and its title button is then disabled.
  if ((await step.getAttribute('aria-expanded')) !== 'true') await step.click();
  await wb.screenshot(`walkthrough at step ${stepId}`);
  const description = nls(walkthrough.steps.find((s) => s.id === stepId)!.description);
  const label = /\n\[([^\]]+)\]\(command:/.exec(description)![1];
  const button = wb.page.locator('.getting-started-step.expanded .monaco-button', { hasText: label }).first();
  await button.waitFor({ state: 'visible' });
  await button.click();
}

async function notification(text: RegExp): Promise<string> {
  // A toast that fades out between counting and reading makes notifications() throw: read again.
  return waitUntil(async () => (await wb.notifications().catch(() => [])).find((n) => text.test(n)), `a notification matching ${text}`, 60_000, 250);
}

before(async () => {
  // No key: the first step is to get one.
  wb = await openWorkbench({ scenario: 'walkthrough', withKey: false, settings: { 'workbench.welcomePage.walkthroughs.openOnInstall': false } });
  fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'ubl-tr-invoice-bad-customer-vkn.xml'), path.join(workspaceFolder(wb.page), 'ubl-tr-invoice-bad-customer-vkn.xml'));
  // The side bar closed, to give the walkthrough room.
  await wb.page.locator('.part.sidebar').waitFor();
  await wb.page.keyboard.press('Control+B');
  await wb.page.locator('.part.sidebar').waitFor({ state: 'hidden' });
});

after(async () => {
  await wb?.close();
});

test('the walkthrough: every step is checked once its real event happened', { timeout: 420_000 }, async () => {
  const { page } = wb;
  await openWalkthrough();
  // The step's page (media/walkthrough/connect.md) beside the steps, in a webview.
  const media = await wb.webview(0);
  await media.locator('h1', { hasText: 'Connect' }).waitFor({ timeout: 30_000 });
  for (const step of walkthrough.steps) assert.equal(await isDone(step.id), false, `${step.id} is checked before anything happened`);
  await wb.screenshot('walkthrough opened, nothing checked');

  // 1. Try the Sandbox: the key is saved, so nilvera.hasApiKey turns true.
  await clickStepButton('connect');
  await notification(/The sandbox runs at/);
  await waitDone('connect');
  assert.equal(await isDone('customers'), false, 'customers checked before the view was opened');

  // 2. Open Customers: the view comes up with the sandbox's customers.
  await clickStepButton('customers');
  await wb.view(nls('%view.customers%')).locator('.monaco-list-row').first().waitFor({ timeout: 30_000 });
  await waitDone('customers');

  // 3. Check a tax number: asks for the number and the document type, then answers.
  await clickStepButton('checkTaxNumber');
  await wb.inputBox('4540536920');
  await wb.quickPick('e-Invoice (Invoice)');
  await notification(/4540536920 is (not )?registered/);
  await waitDone('checkTaxNumber');
  assert.equal(await isDone('downloadRegistry'), false, 'download checked before any list was downloaded');

  // 4. Download the registry list: checked only once the list is indexed.
  await clickStepButton('downloadRegistry');
  await wb.quickPick('PK: receiving mailboxes');
  await wb.quickPick('e-Invoice (Invoice)');
  await wb.quickPick('Extension storage');
  await notification(/ready for offline search/);
  await waitDone('downloadRegistry');
  assert.equal(await isDone('invoice'), false, 'invoice checked before any file was opened');

  // 5. Open an invoice: the bad customer VKN is underlined, and that checks the last step.
  await openFile(page, 'ubl-tr-invoice-bad-customer-vkn.xml');
  await page.locator('.editor-group-container.active .monaco-editor .squiggly-error').first().waitFor({ timeout: 60_000 });
  await wb.screenshot('invoice with its diagnostics');
  await openWalkthrough();
  await waitDone('invoice');
  for (const step of walkthrough.steps) assert.equal(await isDone(step.id), true, `${step.id} is not checked`);
  await wb.screenshot('walkthrough with every step checked');
});

test('in Turkish the walkthrough, its steps and their pages are Turkish', { timeout: 180_000 }, async () => {
  const tr = await openWorkbench({ scenario: 'walkthrough-tr', locale: 'tr', withKey: false, sandbox: false });
  try {
    await openWalkthrough(tr, 'tr');
    const first = walkthrough.steps[0];
    await tr.page.locator(`button.getting-started-step[data-step-id$="#${first.id}"]`, { hasText: nls(first.title, 'tr') }).waitFor();
    // The page beside the steps is media/walkthrough/connect.tr.md (walkthrough.connect.media in package.nls.tr.json).
    const media = await tr.webview(0);
    await media.locator('h1', { hasText: 'Bağlanın' }).waitFor({ timeout: 30_000 });
    await tr.page.locator('.getting-started-step.expanded .monaco-button', { hasText: 'Deneme Ortamını Dene' }).waitFor();
    await tr.screenshot('walkthrough in Turkish');
  } finally {
    await tr.close();
  }
});

/** Help > Welcome, then "Get Started with Nilvera" from the Welcome page's list of walkthroughs. */
async function openFromWelcome(w: Workbench, shot: string): Promise<void> {
  await w.runCommand('Help: Welcome');
  const entry = w.page.locator('button.getting-started-category', { hasText: nls(walkthrough.title) }).first();
  const listed = await entry.waitFor({ timeout: 15_000 }).then(() => true, () => false);
  await w.screenshot(shot);
  if (listed) await entry.click();
  else {
    // The page lists a few walkthroughs; "More..." offers all of them in a list.
    await w.page.locator('.see-all-walkthroughs').first().click();
    await w.quickPick(nls(walkthrough.title));
  }
  await w.page.locator(`button.getting-started-step[data-step-id$="#${walkthrough.steps[0].id}"]`).waitFor();
}

/** Every step's check mark, read once VS Code has drawn the ones expected (or after 15 s, to report what it shows). */
async function stepStates(w: Workbench, expected: Record<string, boolean>): Promise<Record<string, boolean>> {
  const done = async (stepId: string) => ((await w.page.locator(`[data-done-step-id$="#${stepId}"]`).first().getAttribute('class')) ?? '').split(/\s+/).includes('complete');
  const states = async () => Object.fromEntries(await Promise.all(walkthrough.steps.map(async (s) => [s.id, await done(s.id)] as const)));
  await waitUntil(async () => (JSON.stringify(await states()) === JSON.stringify(expected) ? true : undefined), 'the steps done to be checked', 15_000, 250).catch(() => undefined);
  return states();
}

test('steps done before the walkthrough is opened, in any order and in an earlier session, are checked when it opens', { timeout: 480_000 }, async () => {
  const later = await openWorkbench({ scenario: 'walkthrough-later', withKey: false });
  try {
    await steps(later, async () => {
      const { page } = later;
      fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'ubl-tr-invoice-bad-customer-vkn.xml'), path.join(workspaceFolder(page), 'ubl-tr-invoice-bad-customer-vkn.xml'));
      // As a newcomer: the Nilvera icon, "Try the Sandbox" in the Customers view, the customers, a
      // tax number, an invoice; the walkthrough has not been opened in this window.
      const container = manifest().contributes!.viewsContainers!.activitybar![0];
      await later.openContainer(nls(container.title));
      const customers = later.view(nls('%view.customers%'));
      await customers.locator('.welcome-view-content .monaco-button', { hasText: nls('%command.sandbox.start%') }).first().click();
      await customers.locator('.monaco-list-row').first().waitFor({ timeout: 60_000 });
      await runAsking(page, nls('%command.registry.checkTaxNumber%'));
      await later.inputBox('4540536920');
      await later.quickPick('e-Invoice (Invoice)');
      await waitUntil(async () => (await later.notifications().catch(() => [])).find((n) => /4540536920 is (not )?registered/.test(n)), 'the look-up answer', 60_000, 250);
      await openFile(page, 'ubl-tr-invoice-bad-customer-vkn.xml');
      await page.locator('.editor-group-container.active .monaco-editor .squiggly-error').first().waitFor({ timeout: 60_000 });
      await later.screenshot('steps done before the walkthrough was opened');

      // Only now Help > Welcome > Get Started with Nilvera: the four steps done are checked.
      await openFromWelcome(later, 'welcome page');
      const first = await stepStates(later, { connect: true, customers: true, checkTaxNumber: true, downloadRegistry: false, invoice: true });
      await later.screenshot('walkthrough opened after four steps');
      assert.deepEqual(first, { connect: true, customers: true, checkTaxNumber: true, downloadRegistry: false, invoice: true });

      // The registry list, downloaded with the walkthrough closed; then a new session (reload).
      await page.keyboard.press('Control+K');
      await page.keyboard.press('W');
      await runAsking(page, nls('%command.registry.download%'));
      await later.quickPick('PK: receiving mailboxes');
      await later.quickPick('e-Invoice (Invoice)');
      await later.quickPick('Extension storage');
      await waitUntil(async () => (await later.notifications().catch(() => [])).find((n) => /ready for offline search/.test(n)), 'the download to finish', 120_000, 250);
      await openFromWelcome(later, 'welcome page after the download');
      const afterDownload = await stepStates(later, Object.fromEntries(walkthrough.steps.map((s) => [s.id, true])));
      await later.screenshot('walkthrough after the download');
      assert.deepEqual(afterDownload, Object.fromEntries(walkthrough.steps.map((s) => [s.id, true])));
      await page.reload();
      await page.locator('.monaco-workbench .part.statusbar').waitFor();
      await openFromWelcome(later, 'welcome page in a new session');
      const all = await stepStates(later, Object.fromEntries(walkthrough.steps.map((s) => [s.id, true])));
      await later.screenshot('walkthrough in a new session with every step checked');
      assert.deepEqual(all, Object.fromEntries(walkthrough.steps.map((s) => [s.id, true])));
    });
  } finally {
    await later.close();
  }
});
