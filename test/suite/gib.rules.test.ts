// GİB's rules onto the user's computer (issue 40), driven through the commands as a user runs them:
// "Download GİB Validation Rules" from a local server standing in for GİB's addresses (the settings),
// "Use GİB Rules from a File…" through its pick and open dialog, "Check for Newer GİB Rules" both ways.
// Every failure is said in words that name what is wrong, and leaves the installed rules as they were.
// A GibRules of this test bundle on the same storage plays a second window: it hears the install.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { GibCommands, Settings } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import { installGibPackage, loadGibPackage } from '../../src/gib/ruleStore';
import { readGibFiles } from '../../src/gib/rulesSource';
import { writeFileAtomic } from '../../src/files/atomicFile';
import { GibRules } from '../../src/shell/gibRules';
import type { MessageLevel } from '../../src/shell/prompts';
import { damagedZip } from '../support/damagedZip';
import { activateExtension } from '../support/extension';
import { startFileServer, type FileServer } from '../support/fileServer';
import { gibArchives, NO_GIB_DATA } from '../support/gibPackages';
import { takeGibStore, type SuiteGibStore } from '../support/gibRulesStore';
import { ScriptedPrompts } from '../support/scriptedPrompts';

const RELEASE = '20260312';

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([work, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

suite('GİB rules: download, use from a file, check for newer', function () {
  this.timeout(120_000);
  const archives = gibArchives();
  const prompts = new ScriptedPrompts();
  /** Answers the rules' question with the folder or the files, then the open dialogs with `dialogs`, in turn. */
  const choose = (folder: boolean, ...dialogs: string[][]) => {
    prompts.pick = (items) => items.find((i) => (i as { folder?: boolean }).folder === folder);
    prompts.opens = dialogs.map((paths) => paths.map((p) => vscode.Uri.file(p)));
  };
  let api: NilveraExtensionApi;
  let restorePrompts: () => void = () => undefined;
  let store: SuiteGibStore;
  let storage: string;
  let packageFile: string;
  let server: FileServer;
  let tmp: string;
  const config = () => vscode.workspace.getConfiguration(Settings.section);

  const setUrls = (rules: string, schemas: string) => store.setUrls(server.url, rules, schemas);
  const installedBytes = () => (fs.existsSync(packageFile) ? fs.readFileSync(packageFile) : undefined);
  const removeInstalled = () => fs.rmSync(packageFile, { force: true });
  /** The installed package with another release written in it (what an older install looks like). */
  const pretendInstalled = async (release: string) => {
    const stored = JSON.parse(fs.readFileSync(packageFile, 'utf8')) as { release: string };
    stored.release = release;
    await writeFileAtomic(packageFile, JSON.stringify(stored));
  };
  const errors = (messages: Array<{ level: MessageLevel; text: string }>) => messages.filter((m) => m.level === 'error').map((m) => m.text);

  suiteSetup(async function () {
    if (!archives) return this.skip();
    api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(prompts);
    store = takeGibStore(api);
    ({ storage, packageFile } = store);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-gib-rules-'));
    const rulesBytes = fs.readFileSync(archives.rules);
    server = await startFileServer({
      '/r.zip': archives.rules,
      '/s.zip': archives.schemas,
      // A download cut short: the first half of the archive, then the connection ends.
      '/cut.zip': rulesBytes.subarray(0, rulesBytes.length >> 1),
      // Whole, but the Schematron's data damaged on the way.
      '/damaged.zip': await damagedZip(rulesBytes, 'schematron/UBL-TR_Main_Schematron.xml'),
    });
    await setUrls('/r.zip', '/s.zip');
  });

  suiteTeardown(async () => {
    restorePrompts();
    if (!archives) return;
    await store.restore();
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  setup(() => {
    prompts.take();
    prompts.answer = () => undefined;
    server.hits.length = 0;
  });

  test('Download installs the release from the addresses in the settings; a second window hears it and answers it', async () => {
    if (!archives) throw new Error(NO_GIB_DATA);
    removeInstalled();
    // The second window: a GibRules of its own on the same storage, started before the install.
    const otherWindow = new GibRules(storage);
    try {
      assert.equal(await otherWindow.release(), undefined, 'nothing installed yet');
      const heard = new Promise<void>((resolve) => otherWindow.onDidChangeRules(() => resolve()));
      const release = await vscode.commands.executeCommand<string>(GibCommands.downloadRules);
      assert.equal(release, RELEASE);
      assert.deepEqual(server.hits, ['/r.zip', '/s.zip']);
      assert.deepEqual(prompts.take().map((m) => `${m.level}: ${m.text}`), [`info: GİB's validation rules ${RELEASE} are installed.`]);
      const installed = await loadGibPackage(storage);
      assert.equal(installed?.release, RELEASE);
      assert.deepEqual(installed?.source, { rules: `${server.url}/r.zip`, schemas: `${server.url}/s.zip` });
      assert.deepEqual(store.files(), ['package.json'], 'no temporary download left');
      await withTimeout(heard, 10_000, 'the second window heard no change');
      assert.equal(await otherWindow.release(), RELEASE, 'the second window answers the installed release');
    } finally {
      otherWindow.dispose();
    }
  });

  test('Download failures (404, a cut-short ZIP, the wrong package, nothing listening) are named and leave the installed rules untouched', async () => {
    if (!archives) throw new Error(NO_GIB_DATA);
    await installGibPackage(storage, archives.rules, archives.schemas);
    const before = installedBytes();
    const attempt = async (rules: string, schemas: string): Promise<string> => {
      await setUrls(rules, schemas);
      const result = await vscode.commands.executeCommand<unknown>(GibCommands.downloadRules);
      assert.equal(result, undefined, `${rules} ${schemas}: the command reported success`);
      const shown = errors(prompts.take());
      assert.equal(shown.length, 1, `${rules} ${schemas}: ${JSON.stringify(shown)}`);
      assert.deepEqual(installedBytes(), before, `${rules} ${schemas}: the installed package changed`);
      assert.ok(shown[0].endsWith(`Nothing was installed; the rules in use (${RELEASE}) stay as they were.`), shown[0]);
      return shown[0];
    };
    try {
      assert.match(await attempt('/gone.zip', '/s.zip'), new RegExp(`^GİB's rules could not be downloaded: ${server.url}/gone\\.zip answered 404 \\(not found\\)\\. Check the address in the setting nilvera\\.gibRules\\.rulesUrl\\.`));
      assert.match(await attempt('/r.zip', '/cut.zip'), new RegExp(`${server.url}/cut\\.zip did not send a complete ZIP archive \\(it is damaged, cut short or not a ZIP\\)\\. Try again, or check the address in the setting nilvera\\.gibRules\\.schemasUrl\\.`));
      assert.match(await attempt('/damaged.zip', '/s.zip'), new RegExp(`${server.url}/damaged\\.zip did not send a complete ZIP archive`));
      assert.match(await attempt('/s.zip', '/s.zip'), new RegExp(`${server.url}/s\\.zip is not GİB's e-FaturaPaketi: it has no schematron/UBL-TR_Main_Schematron\\.xml\\. Check the address in the setting nilvera\\.gibRules\\.rulesUrl\\.`));
      // Offline: an address where nothing listens.
      const closed = await startFileServer();
      await closed.close();
      await config().update(Settings.gibRulesUrl, `${closed.url}/r.zip`, vscode.ConfigurationTarget.Global);
      const result = await vscode.commands.executeCommand<unknown>(GibCommands.downloadRules);
      assert.equal(result, undefined);
      const shown = errors(prompts.take());
      assert.deepEqual(shown, [`GİB's rules could not be downloaded: ${closed.url}/r.zip could not be reached (ECONNREFUSED). Check the connection, or the address in the setting nilvera.gibRules.rulesUrl. Nothing was installed; the rules in use (${RELEASE}) stay as they were.`]);
      assert.deepEqual(installedBytes(), before);
    } finally {
      await setUrls('/r.zip', '/s.zip');
    }
  });

  test('Download is cancelled with the notification\'s Cancel: nothing said, nothing installed', async () => {
    if (!archives) throw new Error(NO_GIB_DATA);
    const before = installedBytes();
    assert.ok(before, 'a package is installed');
    const asked = new Promise<void>((resolve) =>
      server.routes.set('/stall.zip', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': 1_000_000 });
        res.write(Buffer.alloc(1000));
        resolve();
      }),
    );
    await setUrls('/r.zip', '/stall.zip');
    const cancel = new vscode.CancellationTokenSource();
    try {
      const running = vscode.commands.executeCommand<unknown>(GibCommands.downloadRules, { cancellation: cancel.token });
      await withTimeout(asked, 10_000, 'the stalled archive was not asked for');
      // Cancelled while its body arrives (the headers came with the first bytes).
      await new Promise((resolve) => setTimeout(resolve, 500));
      cancel.cancel();
      assert.equal(await withTimeout(Promise.resolve(running), 10_000, 'the download did not stop on Cancel'), undefined);
      assert.deepEqual(prompts.take(), [], 'a cancelled download says nothing');
      assert.deepEqual(installedBytes(), before);
      assert.deepEqual(store.files(), ['package.json'], 'no temporary download left');
    } finally {
      cancel.dispose();
      await setUrls('/r.zip', '/s.zip');
    }
  });

  test('Use from a File: what is not GİB\'s package is named with what it lacks and nothing is installed; both ZIPs in any order, or a folder, install', async () => {
    if (!archives) throw new Error(NO_GIB_DATA);
    if (!installedBytes()) await installGibPackage(storage, archives.rules, archives.schemas);
    await pretendInstalled('20250101');
    const before = installedBytes();
    // GİB's rule files unpacked, without History.txt.
    const noHistory = path.join(tmp, 'kurallar');
    for (const [name, content] of (await readGibFiles(archives.rules, (n) => n.includes('schematron/') && !n.endsWith('History.txt'))).files) {
      fs.mkdirSync(path.join(noHistory, path.dirname(name)), { recursive: true });
      fs.writeFileSync(path.join(noHistory, name), content);
    }
    const notZip = path.join(tmp, 'e-FaturaPaketi.zip');
    fs.writeFileSync(notZip, '<html>Bakım çalışması</html>');
    const refused = async (folder: boolean, chosen: string[]): Promise<string> => {
      choose(folder, chosen);
      assert.equal(await vscode.commands.executeCommand<unknown>(GibCommands.useRulesFromFile), undefined);
      const shown = errors(prompts.take());
      assert.equal(shown.length, 1, JSON.stringify(shown));
      assert.deepEqual(installedBytes(), before, `${chosen.join(', ')}: the installed package changed`);
      return shown[0];
    };
    assert.equal(await refused(true, [noHistory]), 'kurallar is not GİB\'s e-FaturaPaketi: it has no schematron/History.txt. Nothing was installed; the rules in use (20250101) stay as they were.');
    assert.equal(await refused(false, [notZip, archives.schemas]), 'e-FaturaPaketi.zip is not a ZIP archive that can be read: it is damaged, cut short or not a ZIP. Nothing was installed; the rules in use (20250101) stay as they were.');
    assert.equal(await refused(false, [archives.schemas]), 'Only GİB\'s UBL-TR1.2.1_Paketi (the XSDs) was chosen: choose e-FaturaPaketi.zip (the rules) with it. Nothing was installed; the rules in use (20250101) stay as they were.');
    assert.equal(await refused(false, [archives.rules]), 'Only GİB\'s e-FaturaPaketi (the rules) was chosen: choose UBL-TR1.2.1_Paketi.zip (the XSDs) with it. Nothing was installed; the rules in use (20250101) stay as they were.');

    // One ZIP at a time (a dialog that takes one file): the other one is asked for, by name.
    choose(false, [archives.rules], [archives.schemas]);
    assert.equal(await vscode.commands.executeCommand<string>(GibCommands.useRulesFromFile), RELEASE);
    assert.deepEqual(prompts.openDialogs.map((o) => o.title ?? ''), ['GİB\'s e-FaturaPaketi.zip and UBL-TR1.2.1_Paketi.zip', 'Now GİB\'s UBL-TR1.2.1_Paketi.zip (the XSDs)']);
    prompts.take();
    await pretendInstalled('20250101');

    // Both ZIPs, the XSD package first.
    choose(false, [archives.schemas, archives.rules]);
    assert.equal(await vscode.commands.executeCommand<string>(GibCommands.useRulesFromFile), RELEASE);
    assert.deepEqual(prompts.take().map((m) => `${m.level}: ${m.text}`), [`info: GİB's validation rules ${RELEASE} are installed.`]);
    assert.deepEqual((await loadGibPackage(storage))?.source, { rules: archives.rules, schemas: archives.schemas });

    // A folder holding both ZIPs.
    await pretendInstalled('20250101');
    const both = path.join(tmp, 'gib');
    fs.mkdirSync(both);
    fs.copyFileSync(archives.rules, path.join(both, 'e-FaturaPaketi.zip'));
    fs.copyFileSync(archives.schemas, path.join(both, 'UBL-TR1.2.1_Paketi.zip'));
    choose(true, [both]);
    assert.equal(await vscode.commands.executeCommand<string>(GibCommands.useRulesFromFile), RELEASE);
    const installed = await loadGibPackage(storage);
    assert.equal(installed?.release, RELEASE);
    assert.deepEqual(installed?.source, { rules: path.join(both, 'e-FaturaPaketi.zip'), schemas: path.join(both, 'UBL-TR1.2.1_Paketi.zip') });
    assert.deepEqual(server.hits, [], 'no network');
  });

  test('Check for Newer: the same release is not installed again; a newer one is offered, kept on no, installed on yes', async () => {
    if (!archives) throw new Error(NO_GIB_DATA);
    await installGibPackage(storage, archives.rules, archives.schemas);
    const same = installedBytes();
    prompts.answer = (actions) => actions[0];
    assert.equal(await vscode.commands.executeCommand<string>(GibCommands.checkForNewerRules), RELEASE);
    assert.deepEqual(prompts.take().map((m) => `${m.level}: ${m.text}`), [`info: You have the newest rules (${RELEASE}).`], 'nothing asked');
    assert.deepEqual(installedBytes(), same, 'the same release was installed again');

    await pretendInstalled('20250101');
    const older = installedBytes();
    prompts.answer = () => undefined;
    assert.equal(await vscode.commands.executeCommand<string>(GibCommands.checkForNewerRules), '20250101');
    const declined = prompts.take();
    assert.deepEqual(declined.map((m) => `${m.level}: ${m.text} [${m.actions.join(', ')}]`), [`info: GİB's rules ${RELEASE} are available; you have 20250101. Install them? [Install]`]);
    assert.deepEqual(installedBytes(), older, 'installed though the user did not say yes');

    prompts.answer = (actions) => (actions.includes('Install') ? 'Install' : undefined);
    assert.equal(await vscode.commands.executeCommand<string>(GibCommands.checkForNewerRules), RELEASE);
    assert.deepEqual(prompts.take().map((m) => m.text), [`GİB's rules ${RELEASE} are available; you have 20250101. Install them?`, `GİB's validation rules ${RELEASE} are installed.`]);
    assert.equal((await loadGibPackage(storage))?.release, RELEASE);
  });

  test('A folder\'s settings cannot point the download elsewhere: only the user\'s addresses are used', async () => {
    if (!archives) throw new Error(NO_GIB_DATA);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder, 'the suite runs with a folder open');
    const settingsFile = path.join(folder, '.vscode', 'settings.json');
    const original = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    const originalPageSize = original ? (JSON.parse(original) as Record<string, number | undefined>)['nilvera.pageSize'] : undefined;
    const elsewhere = await startFileServer({ '/r.zip': archives.rules, '/s.zip': archives.schemas });
    // pageSize (window scope) shows when VS Code has read the folder's file.
    const waitFor = async (pageSize: number | undefined) => {
      for (let i = 0; i < 100 && config().inspect<number>(Settings.pageSize)?.workspaceValue !== pageSize; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(config().inspect<number>(Settings.pageSize)?.workspaceValue, pageSize, 'VS Code did not read the folder\'s settings');
    };
    try {
      const theirs = { ...(original ? (JSON.parse(original) as object) : {}), 'nilvera.pageSize': 37, 'nilvera.gibRules.rulesUrl': `${elsewhere.url}/r.zip`, 'nilvera.gibRules.schemasUrl': `${elsewhere.url}/s.zip` };
      fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
      fs.writeFileSync(settingsFile, JSON.stringify(theirs, null, 2));
      await waitFor(37);
      assert.equal(config().get(Settings.gibRulesUrl), `${server.url}/r.zip`);
      assert.equal(await vscode.commands.executeCommand<string>(GibCommands.downloadRules), RELEASE);
      assert.deepEqual(elsewhere.hits, [], 'the folder\'s address was used');
      assert.deepEqual(server.hits, ['/r.zip', '/s.zip']);
    } finally {
      if (original === undefined) fs.rmSync(settingsFile, { force: true });
      else fs.writeFileSync(settingsFile, original);
      await waitFor(originalPageSize);
      await elsewhere.close();
    }
  });

  test('Check for Newer without rules installed offers the download, and asks the network nothing until the user says yes', async () => {
    if (!archives) throw new Error(NO_GIB_DATA);
    removeInstalled();
    prompts.answer = () => undefined;
    assert.equal(await vscode.commands.executeCommand<unknown>(GibCommands.checkForNewerRules), undefined);
    assert.deepEqual(prompts.take().map((m) => `${m.text} [${m.actions.join(', ')}]`), ['No GİB validation rules are installed yet. Download them now? [Download]']);
    assert.deepEqual(server.hits, [], 'a request before the user said yes');
    assert.equal(installedBytes(), undefined);

    prompts.answer = (actions) => (actions.includes('Download') ? 'Download' : undefined);
    assert.equal(await vscode.commands.executeCommand<string>(GibCommands.checkForNewerRules), RELEASE);
    assert.deepEqual(server.hits, ['/r.zip', '/s.zip']);
    assert.equal((await loadGibPackage(storage))?.release, RELEASE);
  });
});
