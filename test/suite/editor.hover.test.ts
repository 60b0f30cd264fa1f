// Tax-number hovers in a real extension host (vscode.executeHoverProvider): checksum verdicts, the
// offline registry list (downloaded from an in-process sandbox through the palette command), and the
// optional online look-up with its cache and rate limit, counted in the sandbox's request log.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PaletteCommands, Settings } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import type { Prompts } from '../../src/shell/prompts';
import { completeTckn, completeVkn, vknCheckDigit } from '../../src/domain/taxId';
import { activateExtension } from '../support/extension';
import { startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { leaveCustomEnvironment, useSandboxEnvironment } from '../support/sandboxSuite';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** Answers nothing (the download's "ready" message is dismissed) and records the messages shown. */
const shownMessages: Array<{ level: string; text: string }> = [];
const silentPrompts: Prompts = {
  inputBox: async () => undefined,
  quickPick: async () => undefined,
  message: async (level, text) => {
    shownMessages.push({ level, text });
    return undefined;
  },
};

interface RegistryRow {
  TaxNumber: string;
  Title: string;
}

const config = () => vscode.workspace.getConfiguration(Settings.section);
/** The markdown with its backslash escapes removed: the text the card shows. */
const unescape = (md: string) => md.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** The text of this extension's tax-number card at the first occurrence of `taxNumber`, or undefined. */
async function hoverCard(doc: vscode.TextDocument, taxNumber: string, offset = 2): Promise<string | undefined> {
  const at = doc.getText().indexOf(taxNumber);
  assert.ok(at >= 0, `${taxNumber} is not in the document`);
  return hoverCardAt(doc, doc.positionAt(at + offset));
}

async function hoverCardAt(doc: vscode.TextDocument, position: vscode.Position): Promise<string | undefined> {
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, position)) ?? [];
  const texts = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).map(unescape);
  return texts.find((t) => /\b(VKN|TCKN) — /.test(t));
}

suite('Editor: tax-number hovers', function () {
  this.timeout(120_000);
  let sandbox: SandboxHandle;
  let api: NilveraExtensionApi;
  let restorePrompts: () => void = () => undefined;
  let tmp: string;
  let registered: RegistryRow;
  let unregistered = '';
  const checkRequests = () => sandbox.requestLog().filter((r) => r.path.includes('/GlobalCompany/Check/TaxNumber/')).length;
  const untitled = (language: string, content: string) => vscode.workspace.openTextDocument({ language, content });

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-hover-'));
    sandbox = await startTestSandbox({ customers: 5, registry: 3000, seed: 17 });
    api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(silentPrompts);
    await useSandboxEnvironment(api, sandbox);
    // A registered taxpayer whose title needs escaping, added to the sandbox registry before the download.
    const taxNumber = completeVkn('482615370');
    const added = await fetch(`${sandbox.url}/__sandbox/registry`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'register', TaxNumber: taxNumber, Title: 'Hover <b>Deneme</b> & *Yıldız* A.Ş.' }),
    });
    assert.equal(added.status, 200);
    registered = { TaxNumber: taxNumber, Title: 'Hover <b>Deneme</b> & *Yıldız* A.Ş.' };
    for (let i = 1; !unregistered; i++) {
      const candidate = completeVkn(String(976540000 + i));
      const res = await fetch(`${sandbox.url}/general/GlobalCompany/Check/TaxNumber/${candidate}?globalUserType=Invoice`, { headers: { Authorization: `Bearer ${sandbox.keys.full}` } });
      if (res.status === 200 && ((await res.json()) as unknown[]).length === 0) unregistered = candidate;
    }
    for (const aliasType of ['PK', 'GB']) {
      await vscode.commands.executeCommand(PaletteCommands.registryDownload, { aliasType, userType: 'Invoice', folder: tmp });
    }
  });

  suiteTeardown(async () => {
    restorePrompts();
    await leaveCustomEnvironment(api, Settings.editorHoverOnlineLookup, Settings.editorTaxNumberHovers);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  setup(() => sandbox.resetRequestLog());

  test('a valid VKN and a valid TCKN in XML say so, with Check online and Copy links', async () => {
    const tckn = completeTckn('234567891');
    const doc = await untitled('xml', `<Invoice>\n  <cbc:ID schemeID="VKN">${unregistered}</cbc:ID>\n  <cbc:ID schemeID="TCKN">${tckn}</cbc:ID>\n</Invoice>\n`);
    const vknCard = (await hoverCard(doc, unregistered)) ?? '';
    assert.ok(vknCard.startsWith(`**VKN — valid**`), vknCard);
    assert.ok(vknCard.includes(`command:${PaletteCommands.registryCheckTaxNumber}?${encodeURIComponent(JSON.stringify([{ taxNumber: unregistered, userType: 'Invoice' }]))}`), vknCard);
    assert.ok(vknCard.includes(`command:${PaletteCommands.registryCopyTaxNumber}?`));
    const tcknCard = await hoverCard(doc, tckn);
    assert.ok(tcknCard?.startsWith('**TCKN — valid**'), tcknCard);
    assert.equal(await hoverCard(doc, '<Invoice>', 1), undefined, 'no card away from a number');
  });

  test('an invalid VKN names the check digit its first nine digits call for', async () => {
    const expected = vknCheckDigit('123456789');
    const wrong = `123456789${(expected + 1) % 10}`;
    const doc = await untitled('json', `{ "TaxNumber": "${wrong}", "Amount": 1234567890.50 }`);
    const card = (await hoverCard(doc, wrong)) ?? '';
    assert.ok(card.startsWith('**VKN — invalid**'), card);
    assert.ok(card.includes(`Invalid VKN ${wrong}: the 10th digit should be ${expected} for these first nine digits.`), card);
    assert.ok(!card.includes('Check online'), 'no online check for a number that cannot exist');
    assert.equal(await hoverCard(doc, '1234567890.50'), undefined, 'an amount is not a tax number');
  });

  test('a registered number shows the title, aliases and list date from the downloaded index; an unlisted one says so', async () => {
    const doc = await untitled('plaintext', `Alıcı VKN: ${registered.TaxNumber}\nDiğer VKN: ${unregistered}\nIBAN TR330006100519786457841326\n`);
    const card = await hoverCard(doc, registered.TaxNumber);
    assert.ok(card, 'no card for the registered number');
    assert.ok(card.includes(`**${registered.Title}**`), card);
    assert.ok(card.includes('Registered e-invoice user.'));
    assert.match(card, /PK \(receiving\): urn:mail:\S+@/);
    assert.match(card, /Registry list downloaded \S/);
    const missing = await hoverCard(doc, unregistered);
    assert.match(missing ?? '', /Not an e-invoice user: not in the registry list downloaded \S/);
    assert.equal(await hoverCard(doc, '0006100519786457841326'), undefined, 'an IBAN is not a tax number');
  });

  test('CSV and TSV files (matched by name) and JSON with comments get cards', async () => {
    const csv = path.join(tmp, 'customers.csv');
    fs.writeFileSync(csv, `Unvan;VKN\r\n"ACME; A.Ş.";"${registered.TaxNumber}"\r\n`);
    const tsv = path.join(tmp, 'customers.tsv');
    fs.writeFileSync(tsv, `Unvan\tVKN\nACME\t${unregistered}\n`);
    for (const [file, number] of [
      [csv, registered.TaxNumber],
      [tsv, unregistered],
    ]) {
      const doc = await vscode.workspace.openTextDocument(file);
      assert.ok((await hoverCard(doc, number))?.startsWith('**VKN — valid**'), `${path.basename(file)} (${doc.languageId})`);
    }
    const jsonc = await untitled('jsonc', `// müşteri\n{ "vkn": "${unregistered}", /* TCKN değil */ }`);
    assert.ok((await hoverCard(jsonc, unregistered))?.startsWith('**VKN — valid**'), 'jsonc');
  });

  test('JSON and plain text: a card only where a key, label or header says tax number (a Unix timestamp gets none)', async () => {
    const stamp = '1700000000';
    const json = await untitled('json', `{\n  "createdAt": ${stamp},\n  "id": "${unregistered}",\n  "taxNumber": "${unregistered}"\n}`);
    assert.equal(await hoverCard(json, stamp), undefined, 'a timestamp under "createdAt"');
    const idLine = json.lineAt(2).text;
    assert.equal(await hoverCardAt(json, new vscode.Position(2, idLine.indexOf(unregistered))), undefined, 'the same number under "id"');
    const taxLine = json.lineAt(3).text;
    assert.ok((await hoverCardAt(json, new vscode.Position(3, taxLine.indexOf(unregistered))))?.startsWith('**VKN — valid**'), 'under "taxNumber"');
    const text = await untitled('plaintext', `build ${unregistered} done\nVergi No: ${unregistered}\n`);
    assert.equal(await hoverCardAt(text, new vscode.Position(0, 7)), undefined, 'an unlabelled number in text');
    assert.ok((await hoverCardAt(text, new vscode.Position(1, 11)))?.startsWith('**VKN — valid**'), 'after "Vergi No:"');
    // XML too: only where the element says tax number.
    const xml = await untitled('xml', `<a>${stamp}</a>\n<cbc:Telephone>${unregistered}</cbc:Telephone>\n<cbc:ID schemeID="VKN">${unregistered}</cbc:ID>\n`);
    assert.equal(await hoverCard(xml, stamp), undefined, 'an unlabelled number in XML');
    assert.equal(await hoverCardAt(xml, new vscode.Position(1, '<cbc:Telephone>'.length + 2)), undefined, 'a telephone number');
    assert.ok((await hoverCardAt(xml, new vscode.Position(2, '<cbc:ID schemeID="VKN">'.length + 2)))?.startsWith('**VKN — valid**'), 'a party identification under VKN');
  });

  test('UBL-TR documents: cards on party, driver and signature numbers, none on phone, order, registry or part numbers; placeholders named', async () => {
    const fixture = (name: string) => vscode.workspace.openTextDocument(path.join(repoRoot, 'test', 'fixtures', 'ubl', name));
    const despatch = await fixture('despatch-advice.xml');
    const at = (doc: vscode.TextDocument, text: string, offset = 2) => hoverCardAt(doc, doc.positionAt(doc.getText().indexOf(text) + offset));
    const driver = (await at(despatch, '<cbc:NationalityID>12345678951', '<cbc:NationalityID>'.length + 3)) ?? '';
    assert.ok(driver.startsWith('**TCKN — invalid**'), driver);
    assert.ok((await at(despatch, '<cbc:ID schemeID="VKN_TCKN">4540536920', '<cbc:ID schemeID="VKN_TCKN">'.length + 3))?.startsWith('**VKN — valid**'), 'the signature');
    for (const [text, what] of [
      ['<cbc:Telephone>2125550123', 'a telephone number'],
      ['<cbc:ID>4500012345', 'an order number'],
      ['<cbc:ID schemeID="TICARETSICILNO">4567891230', 'a trade-registry number'],
      ['parça no 7000123456', 'a part number'],
    ]) {
      assert.equal(await at(despatch, text, text.length - 3), undefined, what);
    }
    const abroad = await fixture('invoice-earsiv-abroad.xml');
    const placeholder = (await at(abroad, '<cbc:ID schemeID="VKN">2222222222', '<cbc:ID schemeID="VKN">'.length + 3)) ?? '';
    assert.ok(placeholder.startsWith("**VKN — GİB placeholder**") && placeholder.includes('company abroad'), placeholder);
  });

  test('online look-up off (the default): hovers make no request', async () => {
    assert.equal(config().get(Settings.editorHoverOnlineLookup), false);
    const doc = await untitled('plaintext', `VKN: ${registered.TaxNumber}, VKN: ${unregistered}`);
    for (const n of [registered.TaxNumber, unregistered, registered.TaxNumber]) {
      const card = await hoverCard(doc, n);
      assert.ok(card && !card.includes('Online'), card);
    }
    assert.equal(checkRequests(), 0);
  });

  test('online look-up on: two hovers of the same number make one request (cache)', async () => {
    await config().update(Settings.editorHoverOnlineLookup, true, vscode.ConfigurationTarget.Global);
    try {
      const doc = await untitled('plaintext', `VKN: ${registered.TaxNumber}, VKN: ${unregistered}`);
      const first = await hoverCard(doc, registered.TaxNumber);
      assert.ok(first?.includes(`Online: registered e-invoice user, ${registered.Title}`), first);
      const second = await hoverCard(doc, registered.TaxNumber, 5);
      assert.equal(second, first);
      assert.equal(checkRequests(), 1);
      assert.ok((await hoverCard(doc, unregistered))?.includes('Online: not an e-invoice user.'));
      assert.equal(checkRequests(), 2);
      // An invalid number never reaches the network.
      const bad = await untitled('plaintext', `vkn=123456789${(vknCheckDigit('123456789') + 1) % 10}`);
      assert.ok((await hoverCard(bad, '123456789'))?.startsWith('**VKN — invalid**'));
      assert.equal(checkRequests(), 2);
    } finally {
      await config().update(Settings.editorHoverOnlineLookup, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('online look-up on: a server that does not answer in time gives a card line, no error popup, and is asked again next time', async () => {
    await config().update(Settings.editorHoverOnlineLookup, true, vscode.ConfigurationTarget.Global);
    try {
      const slow = completeVkn('555999001');
      const doc = await untitled('plaintext', `VKN ${slow}`);
      shownMessages.length = 0;
      sandbox.setFaults({ match: { path: 'Check/TaxNumber' }, queue: [{ latencyMs: 8000 }] });
      const started = Date.now();
      const card = (await hoverCard(doc, slow)) ?? '';
      assert.ok(card.includes('Online look-up failed: no answer in time.'), card);
      assert.ok(Date.now() - started < 7500, 'the hover gave up after its own short time limit');
      assert.deepEqual(shownMessages.filter((m) => m.level === 'error'), []);
      sandbox.clearFaults();
      assert.ok((await hoverCard(doc, slow))?.includes('Online: not an e-invoice user.'), 'a failure is not cached');
      // The abandoned request is logged (status 0) when its connection closes; no retries beyond it.
      const answered = sandbox.requestLog().filter((r) => r.path.includes('/GlobalCompany/Check/TaxNumber/') && r.status === 200);
      assert.equal(answered.length, 1);
      assert.ok(checkRequests() <= 2, `${checkRequests()} requests`);
    } finally {
      sandbox.clearFaults();
      await config().update(Settings.editorHoverOnlineLookup, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('online look-up on: a burst of new numbers is rate limited (at most 4 at once, then 2 a second)', async () => {
    await config().update(Settings.editorHoverOnlineLookup, true, vscode.ConfigurationTarget.Global);
    try {
      // Let the bucket fill up after the previous test's look-ups (2 a second, 4 at most).
      await new Promise((r) => setTimeout(r, 2100));
      const numbers = Array.from({ length: 20 }, (_, i) => completeVkn(String(555000100 + i * 7)));
      const doc = await untitled('plaintext', ['VKN', ...numbers].join('\n'));
      const started = Date.now();
      const cards: string[] = [];
      for (const n of numbers) cards.push((await hoverCard(doc, n)) ?? '');
      const elapsedSeconds = (Date.now() - started) / 1000;
      const paused = cards.filter((c) => c.includes('Online look-up paused')).length;
      const answered = cards.filter((c) => /Online: (registered|not an e-invoice user)/.test(c)).length;
      assert.equal(paused + answered, numbers.length, cards.join('\n---\n'));
      assert.equal(checkRequests(), answered, 'one request per answered card, none for a paused one');
      assert.ok(answered >= 4, `${answered} answered: the burst of 4 should pass`);
      assert.ok(answered <= 4 + Math.floor(2 * elapsedSeconds), `${answered} answered in ${elapsedSeconds.toFixed(2)} s`);
      assert.ok(paused > 0, 'the burst should have been limited');
    } finally {
      await config().update(Settings.editorHoverOnlineLookup, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('nilvera.editor.taxNumberHovers off: no card', async () => {
    const doc = await untitled('xml', `<cbc:ID schemeID="VKN">${unregistered}</cbc:ID>`);
    assert.ok(await hoverCard(doc, unregistered));
    await config().update(Settings.editorTaxNumberHovers, false, vscode.ConfigurationTarget.Global);
    try {
      assert.equal(await hoverCard(doc, unregistered), undefined);
    } finally {
      await config().update(Settings.editorTaxNumberHovers, undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
