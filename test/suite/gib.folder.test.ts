// "Validate Documents against GİB Rules…" on a folder, in a real extension host: GİB's archives are
// installed into the extension's global storage as a download would leave them, and a batch folder (a
// clean invoice, a broken one in a subfolder, a despatch advice, an XML file of another kind) is checked
// through the window's rules worker. The report is written where the save dialog says (by default
// <folder>/gib-report-<date>.md, its CSV beside it) and holds each finding with its file, line, rule
// and GİB's message; Cancel mid-way writes a partial report that says so; without rules the user is
// offered the rules and nothing is written.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { GibCommands } from '../../src/constants';
import type { FolderReportOutcome } from '../../src/commands/gib/validateFolder';
import { parseCsv } from '../../src/domain/csv';
import { escapeMarkdown as e } from '../../src/domain/markdown';
import { GIB_RULES_FOLDER, installGibPackage } from '../../src/gib/ruleStore';
import { activateExtension } from '../support/extension';
import { gibArchives, NO_GIB_DATA } from '../support/gibPackages';
import { ScriptedPrompts } from '../support/scriptedPrompts';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/gib');
const ID_MESSAGE = "Geçersiz cbc:ID elemanı değeri. cbc:ID elemanı 'ABC2009123456789' formatında olmalıdır.";
const CURRENCY_MESSAGE = 'Geçersiz cbc:DocumentCurrencyCode elemanı değeri. Geçerli değerler için kod listesine bakınız.';
const RATE_MESSAGE = 'Para birimi TRY olmayan belgelerde kur bilgisi zorunludur.';

/** The suite's prompts, but the save dialog takes its default unless told (`saveFile`). */
class FolderPrompts extends ScriptedPrompts {
  override async saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined> {
    return (await super.saveDialog(options)) ?? options.defaultUri;
  }
}

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

suite('GİB folder report (Validate Documents against GİB Rules…)', function () {
  // The worker starts and compiles the Invoice and DespatchAdvice XSDs once.
  this.timeout(180_000);
  const prompts = new FolderPrompts();
  let restorePrompts: () => void = () => undefined;
  let storage: string;
  let tmp: string;
  let batch: string;
  let brokenText: string;

  suiteSetup(async function () {
    const archives = gibArchives();
    if (!archives) {
      console.log(`skipped: ${NO_GIB_DATA}`);
      this.skip();
    }
    const api = await activateExtension();
    restorePrompts = api.testing.replacePrompts(prompts);
    storage = (api.testing.services as unknown as { context: vscode.ExtensionContext }).context.globalStorageUri.fsPath;
    await installGibPackage(storage, archives!.rules, archives!.schemas);

    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-gib-folder-'));
    batch = path.join(tmp, 'batch');
    fs.mkdirSync(path.join(batch, 'sub'), { recursive: true });
    brokenText = fs.readFileSync(path.join(FIXTURES, 'folder-invoice-broken.xml'), 'utf8');
    fs.copyFileSync(path.join(FIXTURES, 'folder-invoice.xml'), path.join(batch, 'invoice-ok.xml'));
    fs.copyFileSync(path.join(FIXTURES, 'folder-invoice-broken.xml'), path.join(batch, 'sub', 'invoice-broken.xml'));
    fs.copyFileSync(path.join(FIXTURES, 'folder-despatch.xml'), path.join(batch, 'despatch.xml'));
    fs.copyFileSync(path.join(FIXTURES, 'folder-not-ubl.xml'), path.join(batch, 'settings.xml'));
  });

  suiteTeardown(() => {
    restorePrompts();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  setup(() => {
    prompts.reset();
  });

  /** Each report file in the batch folder, removed so the next test starts clean. */
  const reportsIn = (dir: string) => fs.readdirSync(dir).filter((f) => /\.(md|csv)$/.test(f));
  teardown(() => {
    for (const f of reportsIn(batch)) fs.rmSync(path.join(batch, f));
  });

  const lineOf = (needle: string) => brokenText.split('\n').findIndex((l) => l.includes(needle)) + 1;

  test('from the Explorer: every UBL-TR file checked, the report written as Markdown and CSV at the default place, the summary with Open Report', async () => {
    prompts.answer = (actions) => actions.find((a) => a === 'Open Report');
    const folder = vscode.Uri.file(batch);
    // The Explorer menu passes the clicked folder and the selection.
    const outcome = await vscode.commands.executeCommand<FolderReportOutcome>(GibCommands.validateFolder, folder, [folder]);
    assert.ok(outcome, `no report; messages: ${JSON.stringify(prompts.messages)}`);

    assert.equal(prompts.saveDialogs.length, 1);
    assert.equal(prompts.saveDialogs[0].defaultUri?.fsPath, path.join(batch, `gib-report-${today()}.md`));
    assert.deepEqual(reportsIn(batch).sort(), [`gib-report-${today()}.csv`, `gib-report-${today()}.md`]);
    assert.deepEqual({ checked: outcome.checked, errors: outcome.errors, filesWithErrors: outcome.filesWithErrors, skipped: outcome.skipped, cancelled: outcome.cancelled }, { checked: 3, errors: 3, filesWithErrors: 1, skipped: 1, cancelled: false });

    const md = fs.readFileSync(outcome.markdown, 'utf8');
    assert.ok(md.startsWith(`# ${e("GİB's verdict")}: batch\n\nGİB rules 20260312 · `), md);
    assert.ok(md.includes(`\n${e('3 files checked: 3 errors in 1 file.')}\n`), md);
    assert.ok(md.includes(`## ${e('despatch.xml')} (DespatchAdvice)\n\nNo findings${e('.')}\n`), md);
    assert.ok(md.includes(`## ${e('invoice-ok.xml')} (Invoice)\n\nNo findings${e('.')}\n`), md);
    const idLine = lineOf('<cbc:ID>FLD-2026-42</cbc:ID>');
    const currencyLine = lineOf('<cbc:DocumentCurrencyCode>');
    assert.ok(
      md.includes(
        [
          `## ${e('sub/invoice-broken.xml')} (Invoice)`,
          '',
          '| Line | Column | Severity | Rule | Message | Source |',
          '|---:|---:|---|---|---|---|',
          `| ${idLine} | 3 | error | InvoiceIDCheck | ${e(ID_MESSAGE)} | GİB rules 20260312 |`,
          `| ${currencyLine} | 3 | error | CurrencyCodeCheck | ${e(CURRENCY_MESSAGE)} | GİB rules 20260312 |`,
          `| ${currencyLine} | 3 | error | CurrencyCodeCheck | ${e(RATE_MESSAGE)} | GİB rules 20260312 |`,
        ].join('\n'),
      ),
      md,
    );
    assert.ok(md.endsWith(`## ${e('Not UBL-TR documents, not checked: 1')}\n\n- ${e('settings.xml')}\n`), md);
    assert.ok(!md.includes('partial'), md);

    const csv = fs.readFileSync(outcome.csv, 'utf8');
    assert.ok(csv.startsWith('\uFEFFFile,Line,Column,Severity,Rule,Message,Source\r\n'), csv);
    assert.deepEqual(
      parseCsv(csv.slice(1)).records.slice(1).map((r) => r.cells),
      [
        ['sub/invoice-broken.xml', String(idLine), '3', 'error', 'InvoiceIDCheck', ID_MESSAGE, 'GİB rules 20260312'],
        ['sub/invoice-broken.xml', String(currencyLine), '3', 'error', 'CurrencyCodeCheck', CURRENCY_MESSAGE, 'GİB rules 20260312'],
        ['sub/invoice-broken.xml', String(currencyLine), '3', 'error', 'CurrencyCodeCheck', RATE_MESSAGE, 'GİB rules 20260312'],
      ],
    );

    const summary = prompts.messages.find((m) => m.actions.includes('Open Report'));
    assert.ok(summary, JSON.stringify(prompts.messages));
    assert.equal(summary.level, 'warning');
    assert.ok(summary.text.startsWith('3 files checked: 3 errors in 1 file. '), summary.text);
    // "Open Report" opens the Markdown report.
    for (let i = 0; i < 100 && vscode.window.activeTextEditor?.document.uri.fsPath !== outcome.markdown; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, outcome.markdown);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('from the palette: it asks for the folder; the report goes where the save dialog says, its CSV beside it', async () => {
    prompts.opens = [[vscode.Uri.file(batch)]];
    prompts.saveFile = vscode.Uri.file(path.join(tmp, 'checked.md'));
    const outcome = await vscode.commands.executeCommand<FolderReportOutcome>(GibCommands.validateFolder);
    assert.equal(prompts.openDialogs.length, 1);
    assert.equal(prompts.openDialogs[0].canSelectFolders, true);
    assert.equal(prompts.openDialogs[0].canSelectFiles, false);
    assert.deepEqual([outcome?.markdown, outcome?.csv], [path.join(tmp, 'checked.md'), path.join(tmp, 'checked.csv')]);
    assert.ok(fs.readFileSync(path.join(tmp, 'checked.md'), 'utf8').includes(e('3 files checked: 3 errors in 1 file.')));
    assert.equal(parseCsv(fs.readFileSync(path.join(tmp, 'checked.csv'), 'utf8').slice(1)).records.length, 4);
  });

  test('Cancel mid-way: it stops between files and writes the report of what was checked, which says it is partial', async () => {
    const cancel = new vscode.CancellationTokenSource();
    const outcome = await vscode.commands.executeCommand<FolderReportOutcome>(GibCommands.validateFolder, {
      folder: vscode.Uri.file(batch),
      cancellation: cancel.token,
      onFileChecked: (checked: number) => checked === 1 && cancel.cancel(),
    });
    assert.ok(outcome, `no report; messages: ${JSON.stringify(prompts.messages)}`);
    assert.deepEqual({ checked: outcome.checked, total: outcome.total, cancelled: outcome.cancelled }, { checked: 1, total: 3, cancelled: true });
    const md = fs.readFileSync(outcome.markdown, 'utf8');
    assert.ok(md.startsWith(`# ${e("GİB's verdict (partial)")}: batch\n`), md);
    assert.ok(md.includes(`**${e('Partial report: cancelled after 1 of 3 files; the others were not checked.')}**`), md);
    assert.ok(md.includes(`## ${e('despatch.xml')} (DespatchAdvice)`), md);
    assert.ok(!md.includes('invoice'), `only the file checked before Cancel is in the report:\n${md}`);
    assert.equal(parseCsv(fs.readFileSync(outcome.csv, 'utf8').slice(1)).records.length, 1, 'the CSV holds its header only');
    const summary = prompts.messages.find((m) => m.actions.includes('Open Report'));
    assert.ok(summary?.text.startsWith('1 file checked: no errors. Cancelled after 1 of 3 files: the report is partial.'), summary?.text);
    assert.equal(summary?.level, 'info');
  });

  test('a folder without UBL-TR documents: it says so, asks nothing and writes nothing', async () => {
    const other = path.join(tmp, 'other');
    fs.mkdirSync(other, { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, 'folder-not-ubl.xml'), path.join(other, 'settings.xml'));
    fs.writeFileSync(path.join(other, 'notes.txt'), 'not xml');
    const outcome = await vscode.commands.executeCommand<FolderReportOutcome | undefined>(GibCommands.validateFolder, vscode.Uri.file(other));
    assert.equal(outcome, undefined);
    assert.deepEqual(prompts.messages, [{ level: 'info', text: 'other holds no UBL-TR document (invoice, despatch advice…): nothing to check.', modal: false, actions: [] }]);
    assert.equal(prompts.saveDialogs.length, 0);
    assert.deepEqual(fs.readdirSync(other).sort(), ['notes.txt', 'settings.xml']);

    prompts.messages.length = 0;
    const file = path.join(other, 'settings.xml');
    assert.equal(await vscode.commands.executeCommand(GibCommands.validateFolder, vscode.Uri.file(file)), undefined);
    assert.deepEqual(prompts.messages.map((m) => [m.level, m.text]), [['error', `${file} is not a folder.`]]);
  });

  test('no rules installed: one message offers the download or a file, and no report is written', async () => {
    const installed = path.join(storage, GIB_RULES_FOLDER, 'package.json');
    const away = `${installed}.away`;
    fs.renameSync(installed, away);
    try {
      const outcome = await vscode.commands.executeCommand<FolderReportOutcome | undefined>(GibCommands.validateFolder, vscode.Uri.file(batch));
      assert.equal(outcome, undefined);
      assert.deepEqual(prompts.messages, [
        {
          level: 'info',
          text: "GİB's validation rules are not on this computer yet: download them from GİB, or use the archives you have.",
          modal: false,
          actions: ['Download GİB Validation Rules', 'Use GİB Rules from a File…'],
        },
      ]);
      assert.equal(prompts.saveDialogs.length, 0, 'no save dialog without rules');
      assert.deepEqual(reportsIn(batch), []);
    } finally {
      fs.renameSync(away, installed);
    }
  });
});
