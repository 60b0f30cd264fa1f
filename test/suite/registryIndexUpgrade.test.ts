// After an upgrade: an offline registry index of the previous format (test/fixtures/registry-index-v1,
// built by the version before the compact format) sits in the extension's storage with its list ZIP.
// It must be rebuilt from that ZIP, keep its download date and answer the palette search and the
// tax-number hovers; with the ZIP gone, the user is asked to download the list again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PaletteCommands } from '../../src/constants';
import type { OfflineSearchOutcome } from '../../src/commands/registry/offlineRegistry';
import type { NilveraExtensionApi } from '../../src/extension';
import type { Taxpayer } from '../../src/domain/registryXml';
import { iterateRegistryZipBatches } from '../../src/domain/registryZip';
import { INDEX_FORMAT } from '../../src/registry/format';
import { activateExtension } from '../support/extension';
import { ScriptedPrompts } from '../support/scriptedPrompts';

const FIXTURE = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'registry-index-v1');
const FIXTURE_DOWNLOADED_AT = '2026-11-23T22:41:56.957Z';

const unescape = (md: string) => md.replace(/\\([!-/:-@[-`{-~])/g, '$1');

async function hoverText(doc: vscode.TextDocument, taxNumber: string): Promise<string> {
  const at = doc.getText().indexOf(taxNumber);
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, doc.positionAt(at + 2))) ?? [];
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).map(unescape).join('\n');
}

suite('Offline registry index: upgrade from the previous format', function () {
  this.timeout(120_000);
  let api: NilveraExtensionApi;
  let restorePrompts: () => void = () => undefined;
  let prompts: ScriptedPrompts;
  let storage: string;
  let listDir: string;
  let zipPath: string;
  const moved: Array<[string, string]> = [];
  let taxpayers: Taxpayer[] = [];

  /** Moves what other suites left at `p` aside, to be put back afterwards. */
  function setAside(p: string): void {
    if (!fs.existsSync(p)) return;
    const aside = `${p}.aside-${Date.now()}`;
    fs.renameSync(p, aside);
    moved.push([aside, p]);
  }

  function placeFixture(withZip: boolean): void {
    fs.rmSync(listDir, { recursive: true, force: true });
    fs.cpSync(path.join(FIXTURE, 'registry-index', 'PK-Invoice'), listDir, { recursive: true });
    fs.rmSync(zipPath, { force: true });
    if (withZip) {
      fs.mkdirSync(path.dirname(zipPath), { recursive: true });
      fs.copyFileSync(path.join(FIXTURE, 'registry-lists', 'registry-PK-Invoice.zip'), zipPath);
    }
  }

  function currentMeta(): { format: number; downloadedAt: string } {
    const name = fs.readFileSync(path.join(listDir, 'current'), 'utf8').trim();
    return JSON.parse(fs.readFileSync(path.join(listDir, name, 'meta.json'), 'utf8')) as { format: number; downloadedAt: string };
  }

  suiteSetup(async () => {
    api = await activateExtension();
    prompts = new ScriptedPrompts();
    restorePrompts = api.testing.replacePrompts(prompts);
    storage = (api.testing.services as unknown as { context: vscode.ExtensionContext }).context.globalStorageUri.fsPath;
    listDir = path.join(storage, 'registry-index', 'PK-Invoice');
    zipPath = path.join(storage, 'registry-lists', 'registry-PK-Invoice.zip');
    setAside(listDir);
    setAside(zipPath);
    for await (const batch of iterateRegistryZipBatches(path.join(FIXTURE, 'registry-lists', 'registry-PK-Invoice.zip'))) taxpayers.push(...batch);
    assert.equal(taxpayers.length, 120);
  });

  suiteTeardown(async () => {
    restorePrompts();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(listDir, { recursive: true, force: true });
    fs.rmSync(zipPath, { force: true });
    for (const [aside, original] of moved) fs.renameSync(aside, original);
    taxpayers = [];
  });

  test('the old index is rebuilt from its ZIP, keeps its download date and answers searches and hovers', async () => {
    placeFixture(true);
    assert.equal(currentMeta().format, 1, 'the fixture is of the previous format');
    const t = taxpayers[7];

    const byNumber = await vscode.commands.executeCommand<OfflineSearchOutcome>(PaletteCommands.registrySearchOffline, { aliasType: 'PK', userType: 'Invoice', query: t.Identifier, noOpen: true });
    assert.ok(byNumber, 'the search answered');
    assert.equal(byNumber.details[0]?.taxNumber, t.Identifier);
    assert.equal(byNumber.details[0]?.title, t.Title);
    assert.equal(byNumber.downloadedAt, FIXTURE_DOWNLOADED_AT, 'the list is as old as its download, not its rebuild');
    const meta = currentMeta();
    assert.equal(meta.format, INDEX_FORMAT);
    assert.equal(meta.downloadedAt, FIXTURE_DOWNLOADED_AT);
    assert.equal(fs.readdirSync(listDir).filter((f) => f.startsWith('index-')).length, 1, 'the old folder is removed');

    const word = t.Title.split(' ')[0];
    const byWords = await vscode.commands.executeCommand<OfflineSearchOutcome>(PaletteCommands.registrySearchOffline, { aliasType: 'PK', userType: 'Invoice', query: word.toLocaleLowerCase('tr'), noOpen: true });
    const expected = taxpayers.filter((x) => x.Title.toLocaleLowerCase('tr').split(/[^\p{L}\p{N}]+/u).some((w) => w.startsWith(word.toLocaleLowerCase('tr'))));
    assert.equal(byWords.total, expected.length);
    assert.ok(byWords.details.some((d) => d.taxNumber === t.Identifier));

    // The hovers share the rebuilt list (the shared look-up re-reads the pointer).
    const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: `Alıcı VKN: ${t.Identifier}\n` });
    let card = '';
    for (let i = 0; i < 30 && !card.includes(t.Title); i++) {
      card = await hoverText(doc, t.Identifier);
      if (!card.includes(t.Title)) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(card.includes(t.Title), card);
    assert.ok(!prompts.messages.some((m) => m.level !== 'info'), JSON.stringify(prompts.messages));
  });

  test('with the ZIP gone, the old index is not read and the user is asked to download the list again', async () => {
    placeFixture(false);
    prompts.messages.length = 0;
    const t = taxpayers[3];
    const outcome = await vscode.commands.executeCommand<OfflineSearchOutcome | undefined>(PaletteCommands.registrySearchOffline, { aliasType: 'PK', userType: 'Invoice', query: t.Identifier, noOpen: true });
    assert.equal(outcome, undefined, 'no answer from an index of another format');
    assert.ok(prompts.messages.some((m) => m.level === 'warning' && /download the list again/.test(m.text)), JSON.stringify(prompts.messages));
    assert.equal(currentMeta().format, 1, 'the old index is left as it was');
    const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: `VKN ${t.Identifier}\n` });
    await new Promise((r) => setTimeout(r, 1100));
    assert.ok(!(await hoverText(doc, t.Identifier)).includes(t.Title), 'the hover does not read the old index');
  });
});
