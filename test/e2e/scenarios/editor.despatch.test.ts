// An e-despatch advice (e-İrsaliye) as a person sees it: the signed despatch advice of
// test/fixtures/ubl/ (CRLF, a ds:Signature block, an embedded attachment) opened from the workspace
// shows a red squiggle under the buyer's and the seller's wrong VKN and the driver's wrong TCKN, with
// their messages on hover; the Problems panel lists the three errors and the note that the
// e-despatch registry list is not downloaded. (Which numbers get a hover card is asserted in the
// extension host: test/suite/editor.hover.test.ts.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Workbench } from '../index';
import { goToLine, openFile, openWorkbench, problems, repoRoot, waitUntil } from '../index';

let wb: Workbench;

const activeEditor = () => wb.page.locator('.editor-group-container.active .monaco-editor').first();

/** Rests the mouse on the visible text `text` in the editor and returns the hover that holds `expect`. */
async function hoverText(text: string, expect: RegExp): Promise<string> {
  const span = activeEditor().locator('.view-lines span span', { hasText: text }).first();
  await span.hover();
  const hover = wb.page.locator('.monaco-hover:not(.hidden)', { hasText: expect }).first();
  await hover.waitFor({ timeout: 15_000 });
  return (await hover.innerText()).replace(/\u00a0/g, ' ');
}

before(async () => {
  wb = await openWorkbench({ scenario: 'editor-despatch', sandbox: { customers: 5, registry: 1_000, seed: 5 } });
  const folder = new URL(wb.page.url()).searchParams.get('folder');
  assert.ok(folder);
  fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'ubl', 'despatch-advice.xml'), path.join(folder, 'irsaliye.xml'));
});

after(async () => {
  await wb?.close();
});

test('despatch advice: squiggles under the buyer, seller and driver numbers, Problems lists them with the missing e-despatch list', { timeout: 240_000 }, async () => {
  const { page } = wb;
  await openFile(page, 'irsaliye.xml');
  const waitHere = <T>(probe: () => Promise<T | undefined>, what: string) => waitUntil(probe, what, 60_000, 200);

  // The driver's wrong TCKN (line 236 of the fixture): its squiggle and message.
  await goToLine(wb.page, 236, 28);
  await activeEditor().locator('.squiggly-error').first().waitFor({ timeout: 60_000 });
  const driver = await hoverText('12345678951', /Invalid TCKN 12345678951/);
  assert.match(driver, /the 11th digit should be 0 for these first ten digits/);
  await wb.screenshot('driver TCKN squiggle with its message');

  // The buyer's wrong VKN.
  await page.keyboard.press('Escape');
  await goToLine(wb.page, 200, 32);
  const buyer = await hoverText('8451209375', /Invalid VKN 8451209375/);
  assert.match(buyer, /the 10th digit should be 4/);
  await wb.screenshot('buyer VKN squiggle with its message');

  const rows = await waitHere(async () => {
    const r = await problems(wb.page);
    return r.filter((t) => /Invalid (VKN|TCKN)|e-despatch registry list/.test(t)).length >= 4 ? r : undefined;
  }, 'the four Problems entries');
  await wb.runCommand('View: Toggle Maximized Panel');
  for (const expected of ['Invalid VKN 8451209375', 'Invalid VKN 6123456785', 'Invalid TCKN 12345678951', 'The e-despatch registry list (DespatchAdvice) is not downloaded']) {
    assert.ok(rows.some((t) => t.includes(expected)), `${expected} not listed: ${rows.join(' | ')}`);
  }
  assert.equal(rows.filter((t) => /Invalid (VKN|TCKN)/.test(t)).length, 3, rows.join(' | '));
  await wb.screenshot('Problems panel: three errors and the missing e-despatch list');
});
