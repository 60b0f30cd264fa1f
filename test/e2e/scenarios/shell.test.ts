// The extension shell as a person sees it, in English and in Turkish: the welcome view without a
// key, "Set API Key" checked against the sandbox, the credits in the status bar, switching the
// environment, clearing the key and the welcome view coming back. Screenshots of every state.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import type { Workbench } from '../index';
import { dialogButton, nls, openWorkbench, repoRoot } from '../index';

type Locale = 'en' | 'tr';

const turkishBundle = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.tr.json'), 'utf8')) as Record<string, string>;

/** A runtime string (vscode.l10n.t) as the extension shows it in `locale`. */
function t(english: string, locale: Locale, ...args: string[]): string {
  const text = locale === 'tr' ? (turkishBundle[english] ?? english) : english;
  return text.replace(/\{(\d+)\}/g, (_m, i: string) => args[Number(i)] ?? '');
}

/** The button texts of a `viewsWelcome` entry: the `[label](command:...)` links. */
function welcomeButtons(key: string, locale: Locale): string[] {
  return [...nls(`%${key}%`, locale).matchAll(/\[([^\]]+)\]\(command:/g)].map((m) => m[1]);
}

async function expectedRemainingCredits(wb: Workbench): Promise<number> {
  const sandbox = wb.sandbox!;
  const response = await fetch(`${sandbox.url}/general/Credits`, { headers: { Authorization: `Bearer ${sandbox.keys.full}` } });
  const credits = (await response.json()) as Array<{ RemainingCredit: number }>;
  return credits.reduce((sum, c) => sum + c.RemainingCredit, 0);
}

/**
 * code-server honours `--locale tr` only when a Turkish language pack is registered; without one both
 * VS Code and `vscode.env.language` stay English (checked: the extension then shows English). No pack
 * is reachable offline, so the Turkish run registers this fixture in the server's user-data folder:
 * a pack with no translations of VS Code's own UI (which stays English) that makes VS Code resolve the
 * language to `tr`, which is all a user's real pack does for the extension's own strings.
 */
function registerTurkishLocaleFixture(userDataDir: string): void {
  const translations = path.join(userDataDir, 'turkish-locale-fixture', 'main.i18n.json');
  fs.mkdirSync(path.dirname(translations), { recursive: true });
  fs.writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  const packs = {
    tr: {
      hash: 'nilvera-test-fixture',
      extensions: [{ extensionIdentifier: { id: 'nilvera-test.turkish-locale-fixture' }, version: '0.0.1' }],
      translations: { vscode: translations },
      label: 'Türkçe',
    },
  };
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
}

/** The harness opens `?folder=<workDir>/workspace` and keeps the server's user data in `<workDir>/user-data`. */
function serverUserDataDir(wb: Workbench): string {
  const folder = new URL(wb.page.url()).searchParams.get('folder');
  assert.ok(folder, `no folder in ${wb.page.url()}`);
  const dir = path.join(path.dirname(folder), 'user-data');
  assert.ok(fs.existsSync(dir), `${dir} does not exist`);
  return dir;
}

const open: Workbench[] = [];
after(async () => {
  for (const wb of open) await wb.close();
});

for (const locale of ['en', 'tr'] as const) {
  test(`shell scenario (${locale}): welcome → set key → credits → switch environment → clear key → welcome`, { timeout: 240_000 }, async () => {
    const wb = await openWorkbench({ scenario: `shell-${locale}`, locale });
    open.push(wb);
    if (locale === 'tr') {
      registerTurkishLocaleFixture(serverUserDataDir(wb));
      await wb.page.reload();
      await wb.page.locator('.part.activitybar .action-item a[aria-label^="Nilvera"]').waitFor({ timeout: 60_000 });
    }
    const { page } = wb;
    const sideBar = page.locator('.part.sidebar');
    const statusBar = page.locator('.part.statusbar');
    const sandboxLabel = t('Sandbox', locale);
    const environmentItem = statusBar.locator('.statusbar-item', { hasText: `Nilvera: ${sandboxLabel}` });
    const creditsWord = t('{0} credits', locale, 'X').replace('X', '').trim();
    const creditsItem: Locator = statusBar.locator('.statusbar-item', { hasText: new RegExp(`\\d\\s*${creditsWord}`) });
    const [setKeyButton, trySandboxButton] = welcomeButtons('welcome.noKey', locale);
    const welcomeSetKey = sideBar.locator('.welcome-view-content .monaco-button', { hasText: setKeyButton }).first();

    // 1. No key yet: the views show the welcome content with its two buttons.
    await wb.openContainer(nls('%viewContainer.nilvera%', locale));
    await environmentItem.waitFor();
    await wb.screenshot('welcome without a key');
    await welcomeSetKey.waitFor();
    await sideBar.locator('.welcome-view-content .monaco-button', { hasText: trySandboxButton }).first().waitFor();
    const viewTitles = await sideBar.locator('.pane-header h3.title').allInnerTexts();
    assert.ok(viewTitles.some((title) => title.toLowerCase() === nls('%view.customers%', locale).toLowerCase()), `view titles: ${viewTitles.join(', ')}`);
    assert.equal(await creditsItem.count(), 0, 'no credits without a key');

    // 2. Set API Key from the welcome button: a password box, checked against the sandbox's GET /Company.
    await welcomeSetKey.click();
    const keyBox = page.locator('.quick-input-widget .quick-input-box input');
    await keyBox.waitFor({ state: 'visible' });
    assert.equal(await keyBox.getAttribute('type'), 'password', 'the key box must hide what is typed');
    await keyBox.fill(wb.sandbox!.keys.full);
    await wb.screenshot('key typed into the password box');
    await keyBox.press('Enter');
    const savedPrefix = t('API key saved for {0}. Company: {1}', locale, sandboxLabel, '').trim();
    await page.locator('.notification-list-item-message', { hasText: savedPrefix }).first().waitFor();
    await wb.screenshot('key checked and saved');

    // 3. The status bar shows the sandbox's remaining credits; the welcome content is gone.
    await creditsItem.first().waitFor();
    const creditsText = await creditsItem.first().innerText();
    assert.equal(creditsText.replace(/\D/g, ''), String(await expectedRemainingCredits(wb)), `status bar shows "${creditsText}"`);
    await welcomeSetKey.waitFor({ state: 'hidden' });
    await creditsItem.first().hover();
    await page.locator('.monaco-hover, .workbench-hover', { hasText: t('Click to open the account view.', locale) }).first().waitFor();
    await wb.screenshot('status bar credits with tooltip');
    await page.mouse.move(700, 400);

    // 4. Switch environment from the status bar: Test has no key, so the welcome view returns.
    await environmentItem.click();
    await wb.quickPick(t('Test', locale));
    await statusBar.locator('.statusbar-item', { hasText: `Nilvera: ${t('Test', locale)}` }).waitFor();
    await welcomeSetKey.waitFor();
    assert.equal(await creditsItem.count(), 0, 'no credits in an environment without a key');
    await wb.screenshot('switched to Test');

    // 5. Back to the sandbox: its key was kept, the credits come back.
    await wb.runCommand(`Nilvera: ${nls('%command.environment.switch%', locale)}`);
    await wb.quickPick(sandboxLabel);
    await environmentItem.waitFor();
    await creditsItem.first().waitFor();
    await wb.screenshot('back in the sandbox');

    // 6. Clear API Key: asked first (modal); then the credits disappear and the welcome view returns.
    await wb.runCommand(`Nilvera: ${nls('%command.apiKey.clear%', locale)}`);
    const question = await dialogButton(wb, t('Remove Key', locale));
    assert.ok(question.includes(t('Remove the API key stored for {0}?', locale, sandboxLabel)), question);
    await welcomeSetKey.waitFor();
    await creditsItem.first().waitFor({ state: 'detached' });
    await page.locator('.notification-list-item-message', { hasText: t('API key cleared for {0}.', locale, sandboxLabel) }).first().waitFor();
    await wb.screenshot('key cleared, welcome again');
  });
}
