// Windows' file locks inside a real extension host: test/support/windowsFileLocks.ts patches node:fs in
// this process, so the extension's own file operations meet "another program" holding a file, as on
// a Windows desktop (Excel, 7-Zip, an antivirus scan). A hold that lasts outlives the extension's
// retries (about 10 s) and must end in a message that names the file and says it is open in another
// program, with no work lost: the registry list is kept under another name or indexed later, a
// reconciliation's result is shown although its snapshot cannot be saved. Also here: the sandbox a
// window started is stopped by a message and saves its last change first.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PaletteCommands, ReconciliationCommands } from '../../src/constants';
import type { OfflineSearchOutcome } from '../../src/commands/registry/offlineRegistry';
import type { DownloadedIndex } from '../../src/registry';
import type { NilveraExtensionApi } from '../../src/extension';
import type { ReconciliationReport } from '../../src/reconciliation/report';
import type { ReconciliationTestHook } from '../../src/reconciliation/register';
import { completeVkn } from '../../src/domain/taxId';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import type { SandboxHandle } from '../support/sandbox';
import { startSandboxSuite } from '../support/sandboxSuite';
import { WindowsFileLocks } from '../support/windowsFileLocks';

suite('Windows file locks in the extension host', function () {
  // A lasting hold is given up on after the extension's own retries (about 10 s) each time.
  this.timeout(120_000);
  let sandbox: SandboxHandle;
  let api: NilveraExtensionApi;
  let storage: string;
  let tmp: string;
  const prompts = new ScriptedPrompts();
  let close: () => Promise<void> = async () => undefined;
  const locks = new WindowsFileLocks();
  const NEW_TAXPAYER = completeVkn('975310864');

  const download = (folder: string) => vscode.commands.executeCommand<DownloadedIndex | undefined>(PaletteCommands.registryDownload, { aliasType: 'PK', userType: 'Invoice', folder });
  const search = (query: string) => vscode.commands.executeCommand<OfflineSearchOutcome | undefined>(PaletteCommands.registrySearchOffline, { aliasType: 'PK', userType: 'Invoice', query, noOpen: true });
  const warnings = () => prompts.messages.filter((m) => m.level === 'warning');

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-locks-suite-'));
    ({ sandbox, api, close } = await startSandboxSuite({ customers: 40, registry: 8000, seed: 17 }, prompts));
    storage = (api.testing.services as unknown as { context: vscode.ExtensionContext }).context.globalStorageUri.fsPath;
    locks.install();
  });

  suiteTeardown(async () => {
    locks.uninstall();
    await close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  setup(() => {
    prompts.messages.length = 0;
    prompts.answer = () => undefined;
  });

  test('the previous list ZIP open in another program: the new one is saved beside it, indexed, and the message names the held file', async () => {
    const folder = path.join(tmp, 'held-zip');
    assert.ok(await download(folder), 'the first download');
    const held = path.join(folder, 'registry-PK-Invoice.zip');
    await fetch(`${sandbox.url}/__sandbox/registry`, { method: 'POST', body: JSON.stringify({ action: 'register', TaxNumber: NEW_TAXPAYER, Title: 'KİLİTLİ DOSYA SONRASI A.Ş.' }) });
    locks.hold(held, { code: 'EBUSY' });
    prompts.messages.length = 0;
    let outcome: DownloadedIndex | undefined;
    try {
      outcome = await download(folder);
    } finally {
      locks.release(held);
    }
    assert.ok(outcome, JSON.stringify(prompts.messages));
    assert.equal(outcome.heldTarget, held);
    assert.equal(path.basename(outcome.zipPath), 'registry-PK-Invoice (2).zip');
    const message = warnings().find((m) => m.text.includes('is open in another program'));
    assert.ok(message, JSON.stringify(prompts.messages));
    assert.match(message.text, /^Registry list PK\/Invoice downloaded \(.+, [\d,.]+ taxpayers\) and ready for offline search\. registry-PK-Invoice\.zip is open in another program, so the new list was saved beside it as registry-PK-Invoice \(2\)\.zip\.$/);
    assert.deepEqual(message.actions, ['Search Now']);
    assert.ok(!prompts.messages.some((m) => m.level === 'info'), 'one message says both');
    assert.equal((await search(NEW_TAXPAYER))?.details[0]?.taxNumber, NEW_TAXPAYER, 'the new list is the one searched');
  });

  test('the index cannot be put in place (its pointer held): the ZIP is kept, the message names the file, and "Index Now" indexes it', async () => {
    const folder = path.join(tmp, 'held-index');
    const taxNumber = completeVkn('864297531');
    await fetch(`${sandbox.url}/__sandbox/registry`, { method: 'POST', body: JSON.stringify({ action: 'register', TaxNumber: taxNumber, Title: 'SONRA DİZİNLENEN A.Ş.' }) });
    const pointer = path.join(storage, 'registry-index', 'PK-Invoice', 'current');
    locks.hold(pointer, { code: 'EPERM' });
    prompts.answer = (actions) => {
      if (!actions.includes('Index Now')) return undefined;
      // The other program lets go before the user chooses.
      locks.release(pointer);
      return 'Index Now';
    };
    const outcome = await download(folder);
    assert.equal(outcome, undefined, 'the command ends with the message, not a result');
    const message = warnings().find((m) => m.actions.includes('Index Now'));
    assert.ok(message, JSON.stringify(prompts.messages));
    assert.equal(
      message.text,
      `The registry list PK/Invoice was downloaded and kept (${path.join(folder, 'registry-PK-Invoice.zip')}), but its offline index could not be put in place: ${pointer} is open in another program. It will be indexed the next time VS Code starts.`,
    );
    assert.ok(fs.existsSync(path.join(folder, 'registry-PK-Invoice.zip')), 'the ZIP is kept');
    assert.equal((await search(taxNumber))?.details[0]?.taxNumber, taxNumber, '"Index Now" put the new list in place');
    assert.ok(!fs.existsSync(path.join(storage, 'registry-index', 'PK-Invoice', 'reindex.json')), 'nothing is left to index at the next start');
  });

  test("a reconciliation's result is shown although its snapshot cannot be saved; the failure is its own message naming the file", async () => {
    const hook = (await vscode.commands.executeCommand<ReconciliationTestHook>(ReconciliationCommands.testHook))!;
    const snapshot = hook.snapshotFile(sandbox.url);
    const before = fs.existsSync(snapshot) ? fs.readFileSync(snapshot, 'utf8') : undefined;
    locks.hold(snapshot, { code: 'EBUSY' });
    let report: ReconciliationReport | undefined;
    let refused: number;
    try {
      report = await vscode.commands.executeCommand<ReconciliationReport>(ReconciliationCommands.run, { source: 'online' });
    } finally {
      refused = locks.refusals(snapshot);
      locks.release(snapshot);
    }
    assert.ok(report, JSON.stringify(prompts.messages));
    assert.equal(report.totalCustomers, 40);
    assert.equal(hook.tree.report, report, 'the result is in the view');
    assert.match(String(hook.view.message), /40 customers, checked online/);
    const message = warnings().find((m) => m.text.includes(snapshot));
    assert.ok(message, JSON.stringify(prompts.messages));
    assert.equal(message.text, `This result could not be kept for the next run's comparison: ${snapshot} is open in another program. The result shown is complete.`);
    assert.equal(fs.existsSync(snapshot) ? fs.readFileSync(snapshot, 'utf8') : undefined, before, 'the previous snapshot is as it was');
    assert.ok(refused > 1, `the save was tried again while the file was held (${refused} refusals)`);
  });

  test('the sandbox this window started is stopped by a message: its last change is saved to its own data file first', async () => {
    const launcher = api.testing.services.sandbox;
    const running = await launcher.ensure(`sbx-${Date.now()}`);
    assert.equal(running.external, false);
    const taxNumber = completeVkn('531864297');
    const res = await fetch(`${running.url}/general/Customers`, { method: 'POST', headers: { Authorization: `Bearer ${running.key}`, 'Content-Type': 'application/json' }, body: JSON.stringify([{ Name: 'Pencereyle Kaydedilen', TaxNumber: taxNumber }]) });
    assert.equal(res.status, 200);
    // At once, inside the sandbox's 200 ms save delay: only the shutdown's save can keep it.
    const started = Date.now();
    await launcher.stop();
    assert.ok(Date.now() - started < 4000, 'it stopped by itself, not after the launcher gave up on it');
    const dir = path.join(storage, 'sandbox-data');
    const files = fs.readdirSync(dir).filter((f) => /^sandbox-\d+\.json$/.test(f));
    const holding = files.filter((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes(taxNumber));
    assert.equal(holding.length, 1, `the change is in one data file of ${files.join(', ')}`);
    assert.ok(!fs.readdirSync(dir).some((f) => f.endsWith('.lock')), 'the data file is let go');
  });
});
