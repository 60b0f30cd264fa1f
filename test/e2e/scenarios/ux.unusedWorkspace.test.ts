// Nothing where it is not wanted, as a person sees it: with an API key stored (from another
// workspace), a fresh window on a folder holding only a pom.xml-style XML file shows no Nilvera
// status-bar item and sends nothing to the API, also once that XML file is open (it wakes the
// extension: onLanguage:xml). Opening a UBL-TR invoice is using Nilvera: the status bar appears and
// fetches the credits.
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

before(async () => {
  wb = await openWorkbench({ scenario: 'ux-unused-workspace', sandbox: { customers: 5, registry: 50, seed: 16 } });
});

after(async () => {
  await wb?.close();
});

const requests = async () => (await wb.sandbox!.control('requests')) as LoggedRequest[];
const apiRequests = async () => (await requests()).filter((r) => r.path.startsWith('/general/'));

test('a fresh window with only a pom.xml: no status-bar item, no request; the shared UBL-TR invoice then shows it', { timeout: 240_000 }, async () => {
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
  // counted against workspace B (ci14 saw that once).
  let seen = -1;
  let quietSince = Date.now();
  await waitUntil(
    async () => {
      const n = (await requests()).length;
      if (n !== seen) {
        seen = n;
        quietSince = Date.now();
        return undefined;
      }
      return Date.now() - quietSince >= 2_000 ? true : undefined;
    },
    "workspace A's requests to settle",
    30_000,
    250,
  );
  await wb.sandbox!.control('requests', { method: 'DELETE' });
  await page.goto(`${new URL(page.url()).origin}/?folder=${encodeURIComponent(folderB)}`);
  await page.locator('.monaco-workbench .part.statusbar').waitFor();
  await page.waitForTimeout(5_000);
  await wb.screenshot('workspace B (fresh window): no Nilvera status-bar item');
  assert.equal(await statusItem.count(), 0, 'a fresh window shows Nilvera in the status bar');

  await openFile(page, 'pom.xml');
  // Time for the extension to wake (onLanguage:xml) and for anything it would do on waking.
  await page.waitForTimeout(6_000);
  await wb.screenshot('pom.xml open: still no Nilvera status-bar item');
  assert.equal(await statusItem.count(), 0, 'opening a pom.xml showed the Nilvera status bar');
  assert.deepEqual(await apiRequests(), [], 'the extension sent requests from a workspace that never used Nilvera');

  // The shared fixture invoice, copied in and opened: that is using Nilvera here.
  fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'ubl-tr-invoice-valid.xml'), path.join(folderB, 'ubl-tr-invoice-valid.xml'));
  await openFile(page, 'ubl-tr-invoice-valid.xml');
  await statusItem.first().waitFor({ timeout: 30_000 });
  await waitUntil(async () => ((await apiRequests()).some((r) => /\/general\/credits$/i.test(r.path.split('?')[0])) ? true : undefined), 'the credits request', 30_000, 250);
  const credits = page.locator('.part.statusbar .statusbar-item', { hasText: /\d/ }).filter({ hasText: /credit|kontör|kredi/i });
  await credits.first().waitFor({ timeout: 30_000 });
  await wb.screenshot('invoice open: the Nilvera status bar with the credits');
});
