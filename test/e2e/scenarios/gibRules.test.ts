// GİB's rules onto the computer as a person does it (issue 40): "Nilvera: Download GİB Validation
// Rules" from a mirror (a local server serving GİB's two archives, set in user settings) ends with the
// notification naming the release; "Use GİB Rules from a File…" takes a folder holding both ZIPs
// through VS Code's own folder dialog; "Check for Newer GİB Rules" against the mirror says the release is
// current, and when the mirror's release is newer than the one installed, asks before installing it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EXTENSION_ID } from '../../../src/constants';
import type { Workbench } from '../index';
import { nls, notificationGone, openWorkbench, steps, waitUntil, workspaceFolder } from '../index';
import { startFileServer, type FileServer } from '../../support/fileServer';
import { gibArchives, NO_GIB_DATA } from '../../support/gibPackages';

const archives = gibArchives();
const skip = !archives && NO_GIB_DATA;
let wb: Workbench;
let server: FileServer;
let folder = '';

const installedNotification = () =>
  waitUntil(async () => (await wb.notifications()).find((n) => /GİB's validation rules 20260312 are installed\./.test(n)), 'the notification naming the installed release', 60_000, 200);

before(async () => {
  if (!archives) return;
  server = await startFileServer({ '/mirror/e-FaturaPaketi.zip': archives.rules, '/mirror/UBL-TR1.2.1_Paketi.zip': archives.schemas });
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-e2e-gib-'));
  fs.copyFileSync(archives.rules, path.join(folder, 'e-FaturaPaketi.zip'));
  fs.copyFileSync(archives.schemas, path.join(folder, 'UBL-TR1.2.1_Paketi.zip'));
  wb = await openWorkbench({
    scenario: 'gib-rules',
    sandbox: false,
    settings: { 'nilvera.gibRules.rulesUrl': `${server.url}/mirror/e-FaturaPaketi.zip`, 'nilvera.gibRules.schemasUrl': `${server.url}/mirror/UBL-TR1.2.1_Paketi.zip` },
  });
});

after(async () => {
  await wb?.close();
  await server?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

test('Download GİB Validation Rules from a mirror: both archives fetched, the release named', { skip }, async () => {
  await steps(wb, async () => {
    await wb.runCommand(`Nilvera: ${nls('%command.gib.downloadRules%')}`);
    await installedNotification();
    assert.deepEqual(server.hits, ['/mirror/e-FaturaPaketi.zip', '/mirror/UBL-TR1.2.1_Paketi.zip']);
    await wb.screenshot('rules downloaded and installed');
  });
});

test('Use GİB Rules from a File…: a folder holding both ZIPs, chosen in the folder dialog', { skip }, async () => {
  await steps(wb, async () => {
    const { page } = wb;
    // The previous notification out of the way, so the next one is this command's.
    await wb.runCommand('Notifications: Clear All Notifications');
    await notificationGone(wb, 'GİB\'s validation rules');
    await wb.runCommand(`Nilvera: ${nls('%command.gib.useRulesFromFile%')}`);
    await wb.quickPick('A folder');
    // VS Code's own dialog: a path box in the quick input. Once it shows its starting folder, the
    // folder is typed over it and the dialog's button ("Use These Rules") accepts it.
    const box = page.locator('.quick-input-widget .quick-input-box input');
    await waitUntil(async () => ((await box.inputValue().catch(() => '')) ? true : undefined), 'the dialog\'s starting folder');
    await page.waitForTimeout(500);
    const typed = folder + path.sep;
    await box.fill(typed);
    await waitUntil(async () => ((await box.inputValue()) === typed ? true : undefined), 'the folder typed in the dialog');
    await page.waitForTimeout(500);
    assert.equal(await box.inputValue(), typed, 'the dialog replaced the folder typed');
    await page.locator('.quick-input-widget .monaco-button', { hasText: 'Use These Rules' }).click();
    await installedNotification();
    assert.deepEqual(server.hits, ['/mirror/e-FaturaPaketi.zip', '/mirror/UBL-TR1.2.1_Paketi.zip'], 'no request for a file the user chose');
    await wb.screenshot('rules installed from a folder');
  });
});

test('Check for Newer GİB Rules: the mirror\'s release is the one in use, said so; a newer one is installed only after the user says Install', { skip }, async () => {
  await steps(wb, async () => {
    const { page } = wb;
    const check = `Nilvera: ${nls('%command.gib.checkForNewerRules%')}`;
    const shown = (text: RegExp, what: string) => waitUntil(async () => (await wb.notifications()).find((n) => text.test(n)), what, 60_000, 200);
    await wb.runCommand('Notifications: Clear All Notifications');
    await notificationGone(wb, 'GİB\'s validation rules');
    server.hits.length = 0;
    await wb.runCommand(check);
    await shown(/You have the newest rules \(20260312\)\./, 'the note that the rules are current');
    assert.deepEqual(server.hits, ['/mirror/e-FaturaPaketi.zip', '/mirror/UBL-TR1.2.1_Paketi.zip']);
    await wb.screenshot('the rules in use are the newest');

    // An older release in use (what an install of last year looks like), written whole as the store does.
    const packageFile = path.join(path.dirname(workspaceFolder(page)), 'user-data', 'User', 'globalStorage', EXTENSION_ID, 'gib-rules', 'package.json');
    const stored = JSON.parse(fs.readFileSync(packageFile, 'utf8')) as { release: string };
    stored.release = '20250101';
    fs.writeFileSync(`${packageFile}.older`, JSON.stringify(stored));
    fs.renameSync(`${packageFile}.older`, packageFile);
    await wb.runCommand('Notifications: Clear All Notifications');
    await notificationGone(wb, 'You have the newest rules');
    await wb.runCommand(check);
    const question = /GİB's rules 20260312 are available; you have 20250101\. Install them\?/;
    await shown(question, 'the question whether to install the newer release');
    assert.equal(JSON.parse(fs.readFileSync(packageFile, 'utf8')).release, '20250101', 'installed before the user said so');
    await wb.screenshot('a newer release offered, installed only on Install');
    await page.locator('.notification-toast', { hasText: question }).locator('.monaco-button', { hasText: 'Install' }).first().click();
    await installedNotification();
    await waitUntil(async () => (JSON.parse(fs.readFileSync(packageFile, 'utf8')).release === '20260312' ? true : undefined), 'the newer release in the store');
    await wb.screenshot('the newer release installed');
  });
});
