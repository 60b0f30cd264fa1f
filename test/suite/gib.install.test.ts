// GİB's rules installed as a user does it, in a real extension host: "Download GİB Validation Rules" and
// "Check for Newer GİB Rules" from a mirror (the addresses are settings) that announces too much, sends
// without end, stalls or never answers are given up with a message naming the address and what
// happened, the rules in use untouched; an install in this window starts the rules worker once (not a
// second time through its own file watcher), and a second window still hears it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DiagnosticsCommands, EXTENSION_ID, GibCommands } from '../../src/constants';
import type { DiagnosticsTestState } from '../../src/editor/diagnostics/register';
import type { NilveraExtensionApi } from '../../src/extension';
import type { GibDownloadArgs } from '../../src/commands/gib/downloadRules';
import { installGibPackage } from '../../src/gib/ruleStore';
import { GibRules } from '../../src/shell/gibRules';
import type { CountedEvents } from '../../src/shell/testSeams';
import { startFileServer, type FileServer } from '../support/fileServer';
import { gibArchives, NO_GIB_DATA } from '../support/gibPackages';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { takeGibStore, type SuiteGibStore } from '../support/gibRulesStore';
import { waitFor } from '../support/waitFor';

const RELEASE = '20260312';
const repoRoot = path.resolve(__dirname, '..', '..', '..');

suite('GİB rules: download limits, one worker start per install', function () {
  this.timeout(120_000);
  const archives = gibArchives();
  const prompts = new ScriptedPrompts();
  let api: NilveraExtensionApi & { testing: CountedEvents };
  let restorePrompts: () => void = () => undefined;
  let store: SuiteGibStore;
  let storage: string;
  let packageFile: string;
  let server: FileServer;
  let tmp: string;
  const setUrls = (rules: string, schemas: string) => store.setUrls(server.url, rules, schemas);
  const installedBytes = () => (fs.existsSync(packageFile) ? fs.readFileSync(packageFile) : undefined);
  const take = () => prompts.messages.splice(0).map((m) => `${m.level}: ${m.text}`);

  suiteSetup(async function () {
    if (!archives) return this.skip();
    api = (await vscode.extensions.getExtension<NilveraExtensionApi>(EXTENSION_ID)!.activate()) as typeof api;
    restorePrompts = api.testing.replacePrompts(prompts);
    store = takeGibStore(api);
    ({ storage, packageFile } = store);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-gib-install-'));
    server = await startFileServer({
      '/r.zip': archives.rules,
      '/s.zip': archives.schemas,
      // Announces 5 GB and sends a kilobyte: refused on the header, at the 64 MB cap.
      '/huge.zip': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': 5 * 1024 ** 3 });
        res.write(Buffer.alloc(1024));
      },
      // No length, bytes for as long as anyone reads.
      '/endless.zip': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/zip' });
        const chunk = Buffer.alloc(64 * 1024, 0x50);
        const more = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', more);
        };
        more();
      },
      // The headers and a kilobyte, then silence.
      '/stall.zip': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': 1_000_000 });
        res.write(Buffer.alloc(1024));
      },
      // Not even the headers.
      '/silent.zip': () => undefined,
    });
  });

  suiteTeardown(async () => {
    restorePrompts();
    if (!archives) return;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await store.restore();
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  setup(() => {
    prompts.messages.length = 0;
    prompts.answer = () => undefined;
  });

  test('a mirror that announces too much, sends without end, stalls or never answers is given up, named, and the rules in use stay', async () => {
    if (!archives) throw new Error(NO_GIB_DATA);
    await installGibPackage(storage, archives.rules, archives.schemas);
    const before = installedBytes();
    const kept = `Nothing was installed; the rules in use (${RELEASE}) stay as they were.`;
    const attempt = async (command: string, rules: string, schemas: string, limits: GibDownloadArgs['limits']): Promise<string[]> => {
      await setUrls(rules, schemas);
      const args: GibDownloadArgs = { limits };
      assert.equal(await vscode.commands.executeCommand<unknown>(command, args), undefined, `${rules} ${schemas}: the command reported success`);
      assert.deepEqual(installedBytes(), before, `${rules} ${schemas}: the installed package changed`);
      assert.deepEqual(store.files(), ['package.json'], 'a temporary download was left');
      return take();
    };
    const fast = { responseMs: 500, stallMs: 500 };
    try {
      assert.deepEqual(await attempt(GibCommands.downloadRules, '/huge.zip', '/s.zip', fast), [
        `error: GİB's rules could not be downloaded: ${server.url}/huge.zip is larger than 64 MB (it announced 5 GB), more than GİB's archives ever are; nothing was read. Check the address in the setting nilvera.gibRules.rulesUrl. ${kept}`,
      ]);
      assert.deepEqual(await attempt(GibCommands.downloadRules, '/r.zip', '/endless.zip', { ...fast, archiveBytes: 2 * 1024 * 1024 }), [
        `error: GİB's rules could not be downloaded: ${server.url}/endless.zip sent more than 2 MB, more than GİB's archives ever are; the download was stopped. Check the address in the setting nilvera.gibRules.schemasUrl. ${kept}`,
      ]);
      assert.deepEqual(await attempt(GibCommands.downloadRules, '/stall.zip', '/s.zip', fast), [
        `error: GİB's rules could not be downloaded: ${server.url}/stall.zip sent nothing for 0.5 s; the download was stopped. Try again later, or check the address in the setting nilvera.gibRules.rulesUrl. ${kept}`,
      ]);
      assert.deepEqual(await attempt(GibCommands.checkForNewerRules, '/r.zip', '/silent.zip', fast), [
        `error: GİB's rules could not be downloaded: ${server.url}/silent.zip did not answer within 0.5 s. Try again later, or check the connection and the address in the setting nilvera.gibRules.schemasUrl. ${kept}`,
      ]);
    } finally {
      await setUrls('/r.zip', '/s.zip');
    }
  });

  test('an install in this window starts the rules worker once (its own file watcher does not restart it); another window hears it once', async () => {
    if (!archives) throw new Error(NO_GIB_DATA);
    await setUrls('/r.zip', '/s.zip');
    await installGibPackage(storage, archives.rules, archives.schemas);
    const state = (await vscode.commands.executeCommand<DiagnosticsTestState>(DiagnosticsCommands.testHook)).gib;
    await state.reload();
    // A broken invoice open: its findings come from this window's worker, and every install re-checks it.
    const file = path.join(tmp, 'invoice.xml');
    fs.copyFileSync(path.join(repoRoot, 'test', 'fixtures', 'gib', 'editor-invoice-broken.xml'), file);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc, { preview: false });
    const findings = () => vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === `GİB rules ${RELEASE}`);
    await waitFor(() => findings().length > 0, 'the invoice\'s GİB findings', 60_000);
    // The second window: a GibRules of its own on the same storage, its worker running.
    const otherWindow = new GibRules(storage);
    let heard = 0;
    otherWindow.onDidChangeRules(() => heard++);
    try {
      assert.equal(await otherWindow.release(), RELEASE);
      const starts = api.testing.counted('gibWorkerStarts');
      assert.equal(await vscode.commands.executeCommand<string>(GibCommands.downloadRules), RELEASE);
      assert.deepEqual(take(), [`info: GİB's validation rules ${RELEASE} are installed.`]);
      await waitFor(() => api.testing.counted('gibWorkerStarts') > starts, 'the worker started on the new install', 30_000);
      await waitFor(() => heard > 0, 'the second window heard the install', 10_000);
      // Past the watcher's 300 ms and a worker's start: a second restart would have come by now.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await waitFor(() => findings().length > 0, 'the invoice\'s findings again', 30_000);
      assert.equal(api.testing.counted('gibWorkerStarts') - starts, 1, 'worker starts for one install');
      assert.equal(heard, 1, 'the second window reloaded more than once');
      assert.equal(await otherWindow.release(), RELEASE);
    } finally {
      otherWindow.dispose();
    }
  });
});
