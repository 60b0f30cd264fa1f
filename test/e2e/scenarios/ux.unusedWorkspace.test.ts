// Nothing where it is not wanted, as a person sees it: with an API key stored (from another
// workspace), a fresh window on a folder holding only a pom.xml-style XML file shows no Nilvera
// status-bar item and sends nothing to the API, also once that XML file is open. That silence only
// means something if the extension is awake, so the scenario confirms it in the same window: VS Code's
// Running Extensions list does not name Nilvera before the XML file is opened and does after
// (onLanguage:xml). Opening a UBL-TR invoice then is using Nilvera: the status bar appears and
// fetches the credits, sooner than the pom's window was watched.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Workbench } from '../index';
import { nls, openFile, openWorkbench, repoRoot, waitUntil } from '../index';

let wb: Workbench;

interface LoggedRequest {
  method: string;
  path: string;
}

const EXTENSION_NAME = 'Nilvera General API';

before(async () => {
  wb = await openWorkbench({ scenario: 'ux-unused-workspace', sandbox: { customers: 5, registry: 50, seed: 16 } });
});

after(async () => {
  await wb?.close();
});

const requests = async () => (await wb.sandbox!.control('requests')) as LoggedRequest[];
const apiRequests = async () => (await requests()).filter((r) => r.path.startsWith('/general/'));

/**
 * Waits until the sandbox has no request in flight and its request log has not grown for `quietMs`
 * (a request is logged only once answered); resolves with the log.
 */
async function sandboxIdle(quietMs: number): Promise<LoggedRequest[]> {
  let seen = -1;
  let quietSince = Date.now();
  return waitUntil(
    async () => {
      const [log, state] = await Promise.all([requests(), wb.sandbox!.control('state') as Promise<{ inFlight: number }>]);
      if (log.length !== seen || state.inFlight > 0) {
        seen = state.inFlight > 0 ? -1 : log.length;
        quietSince = Date.now();
        return undefined;
      }
      return Date.now() - quietSince >= quietMs ? log : undefined;
    },
    'the sandbox to be idle',
    30_000,
    250,
  );
}

/** The names in VS Code's "Running Extensions" list (every row, scrolled through), then closes it. */
async function runningExtensions(screenshot?: string): Promise<string[]> {
  const { page } = wb;
  await wb.runCommand('Developer: Show Running Extensions');
  const list = page.locator('.runtime-extensions-editor .monaco-list');
  const rows = list.locator('.monaco-list-row');
  await rows.first().waitFor({ timeout: 15_000 });
  const names = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const before = names.size;
    for (const text of await rows.allInnerTexts()) names.add(text.split('\n')[0].trim());
    if (i > 0 && names.size === before) break;
    const box = await list.boundingBox();
    if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(100);
  }
  if (screenshot) {
    // Back to the top of the list for the picture (the names were read all the way down).
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -400);
    await page.waitForTimeout(200);
    await wb.screenshot(screenshot);
  }
  await page.keyboard.press('Escape');
  await list.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  return [...names];
}

test('a fresh window with only a pom.xml: the extension wakes but shows nothing and requests nothing; the shared UBL-TR invoice then shows it', { timeout: 300_000 }, async () => {
  const { page } = wb;
  const statusItem = page.locator('.part.statusbar .statusbar-item', { hasText: 'Nilvera:' });

  // Workspace A: "Try the Sandbox" stores the sandbox key (secret storage is per user, not per workspace).
  await wb.runCommand(`Nilvera: ${nls('%command.sandbox.start%')}`);
  await statusItem.first().waitFor();
  await wb.screenshot('workspace A: the sandbox key is stored, Nilvera in use here');

  // Workspace B: a Maven project, nothing of Nilvera in it.
  const folderA = new URL(page.url()).searchParams.get('folder');
  assert.ok(folderA);
  const folderB = path.join(path.dirname(folderA), 'maven-project');
  fs.mkdirSync(folderB, { recursive: true });
  fs.writeFileSync(
    path.join(folderB, 'pom.xml'),
    '<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.example</groupId>\n  <artifactId>demo</artifactId>\n  <version>1.0.0</version>\n  <properties>\n    <build.timestamp>1700000000</build.timestamp>\n  </properties>\n</project>\n',
  );
  // Window A's own refreshes end before its requests are forgotten: after the key, the status bar
  // fetches the credits, and again once the profile has taken the company's name (its globalState
  // write comes back after the writes queued before it). One arriving after the reset would be
  // counted against workspace B.
  await sandboxIdle(2_000);
  await wb.sandbox!.control('requests', { method: 'DELETE' });
  await page.goto(`${new URL(page.url()).origin}/?folder=${encodeURIComponent(folderB)}`);
  await page.locator('.monaco-workbench .part.statusbar').waitFor();
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'pom.xml' }).first().waitFor({ timeout: 30_000 });

  // Started up, the window runs its start-up extensions (Git among them), not Nilvera. The list only
  // names what has started so far (once only Emmet and GitHub Authentication): read again until Git is
  // in it, so the start-up is over when Nilvera's absence is checked.
  let lastRead: string[] = [];
  await waitUntil(
    async () => ((lastRead = await runningExtensions()).includes('Git') ? true : undefined),
    'Git among the Running Extensions at start-up',
    60_000,
    1_000,
  ).catch(() => assert.fail(`the Running Extensions list was not read: ${JSON.stringify(lastRead)}`));
  const atStartUp = await runningExtensions('workspace B started: Running Extensions without Nilvera');
  assert.ok(!atStartUp.includes(EXTENSION_NAME), `the extension woke at start-up: ${JSON.stringify(atStartUp)}`);
  await wb.screenshot('workspace B (fresh window): no Nilvera status-bar item');
  assert.equal(await statusItem.count(), 0, 'a fresh window shows Nilvera in the status bar');

  // Opening the XML file wakes it (onLanguage:xml): the positive control, seen in the same window.
  await openFile(page, 'pom.xml');
  const pomOpenedAt = Date.now();
  await waitUntil(async () => ((await runningExtensions()).includes(EXTENSION_NAME) ? true : undefined), 'the extension to be running after the XML file opened', 60_000, 500);
  await runningExtensions('pom.xml open: Running Extensions lists Nilvera');
  const wokeAt = Date.now();
  // Awake and settled: whatever it does on waking has reached the sandbox or never will.
  const log = await sandboxIdle(1_500);
  await wb.screenshot('pom.xml open: Nilvera awake, no Nilvera status-bar item');
  assert.equal(await statusItem.count(), 0, 'opening a pom.xml showed the Nilvera status bar');
  assert.deepEqual(log.filter((r) => r.path.startsWith('/general/')), [], 'the extension sent requests from a workspace that never used Nilvera');
  const watchedMs = Date.now() - wokeAt;
  const silentMs = Date.now() - pomOpenedAt;

  // The shared fixture invoice, copied in and opened: that is using Nilvera here, and the same
  // window shows the status bar and fetches the credits.
  fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'ubl-tr-invoice-valid.xml'), path.join(folderB, 'ubl-tr-invoice-valid.xml'));
  await openFile(page, 'ubl-tr-invoice-valid.xml');
  const openedAt = Date.now();
  await statusItem.first().waitFor({ timeout: 30_000 });
  const shownMs = Date.now() - openedAt;
  await waitUntil(async () => ((await apiRequests()).some((r) => /\/general\/credits$/i.test(r.path.split('?')[0])) ? true : undefined), 'the credits request', 30_000, 250);
  const reactedMs = Date.now() - openedAt;
  const credits = page.locator('.part.statusbar .statusbar-item', { hasText: /\d/ }).filter({ hasText: /credit|kontör|kredi/i });
  await credits.first().waitFor({ timeout: 30_000 });
  await wb.screenshot('invoice open: the Nilvera status bar with the credits');
  // The pom's window was watched for longer than the extension takes to show itself once used.
  assert.ok(silentMs > shownMs, `watched ${silentMs} ms after the pom opened; the status bar took ${shownMs} ms once used`);
  console.log(`  unused workspace: silent for ${silentMs} ms after the pom opened (${watchedMs} ms of them after it was seen running); once used, the status bar showed ${shownMs} ms and the credits request came ${reactedMs} ms after the invoice was open`);
});
