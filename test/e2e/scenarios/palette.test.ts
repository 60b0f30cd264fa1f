// A person opens the command palette, finds the Nilvera commands and runs them; with the sandbox key
// preselected (as `npm start` does), the extension talks to the sandbox.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Workbench } from '../index';
import { manifest, nls, openWorkbench } from '../index';

let wb: Workbench;

before(async () => {
  wb = await openWorkbench({ scenario: 'palette' });
});
after(async () => {
  await wb?.close();
});

const commands = manifest().contributes?.commands ?? [];
const paletteWhen = new Map((manifest().contributes?.menus?.commandPalette ?? []).map((m) => [m.command, m.when]));
const titleOf = (c: (typeof commands)[number]) => (c.category ? `${nls(c.category)}: ` : '') + nls(c.title);
/** Commands the palette always offers (no `when` clause in menus.commandPalette). */
const unconditional = commands.filter((c) => !paletteWhen.get(c.command)).map(titleOf);
/** Commands offered once a key is known (`when: nilvera.hasApiKey`). */
const needKey = commands.filter((c) => /^nilvera\.hasApiKey$/.test(paletteWhen.get(c.command) ?? '')).map(titleOf);

test('the palette lists every Nilvera command that needs no key', async () => {
  await wb.screenshot('workbench loaded');
  assert.ok(unconditional.length > 0);
  const listed = await wb.paletteItems('Nilvera: ', { keepOpen: true });
  await wb.screenshot('palette filtered to Nilvera');
  await wb.page.keyboard.press('Escape');
  const missing = unconditional.filter((title) => !listed.includes(title));
  assert.deepEqual(missing, [], `not in the palette: ${missing.join(', ')}; listed: ${listed.join(' | ')}`);
});

test('running "Show Log" from the palette shows the Nilvera output channel', async () => {
  await wb.runCommand('Nilvera: Show Log');
  const channelPicker = wb.page.locator('.part.panel select.monaco-select-box');
  await channelPicker.first().waitFor({ state: 'visible' });
  await wb.screenshot('log shown');
  const selected = await channelPicker.first().evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
  assert.equal(selected.trim(), 'Nilvera');
});

test('"Try the Sandbox" takes the preselected sandbox; then the key commands appear and "Refresh Credits" asks the sandbox', async () => {
  assert.ok(needKey.length > 0, 'no command is gated on nilvera.hasApiKey');
  await wb.runCommand(`${nls('%command.sandbox.start%')}`);
  // The command stores the sandbox's key (NILVERA_SANDBOX_KEY) as the Sandbox environment's key.
  let listed: string[] = [];
  for (let i = 0; i < 10 && !needKey.every((t) => listed.includes(t)); i++) {
    listed = [];
    for (const title of needKey) listed.push(...(await wb.paletteItems(title)));
  }
  await wb.screenshot('sandbox chosen');
  assert.deepEqual(needKey.filter((t) => !listed.includes(t)), [], `key commands missing from the palette; listed: ${listed.join(' | ')}`);

  await wb.sandbox!.control('requests', { method: 'DELETE' });
  await wb.runCommand(needKey.find((t) => /Credits/.test(t)) ?? needKey[0]);
  let credits: Array<{ method: string; path: string; status: number }> = [];
  for (let i = 0; i < 50 && credits.length === 0; i++) {
    await wb.page.waitForTimeout(200);
    const log = (await wb.sandbox!.control('requests')) as Array<{ method: string; path: string; status: number }>;
    credits = log.filter((r) => /\/general\/credits$/i.test(r.path));
  }
  await wb.screenshot('credits refreshed');
  assert.ok(credits.length > 0, 'the sandbox saw no GET /general/Credits');
  assert.deepEqual(credits.map((r) => `${r.method} ${r.status}`), credits.map(() => 'GET 200'));
});
