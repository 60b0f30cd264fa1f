// The files a Windows desktop with Turkish Excel gives and takes, in a real extension host against an
// in-process sandbox: exports and the rejected rows of an import under the Windows file-lock fault layer
// (test/support/windowsFileLocks.ts patches node:fs in this process, the extension's own calls included),
// customer lists in Windows-1254 and Mac Turkish (import, editor, bulk check).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DiagnosticsCommands, PaletteCommands, ReconciliationCommands, TreeCommands } from '../../src/constants';
import { TEMP_SUFFIX } from '../../src/files/atomicFile';
import type { ReconciliationReport } from '../../src/reconciliation/report';
import type { NilveraTrees } from '../../src/views/trees';
import { completeTckn, completeVkn } from '../../src/domain/taxId';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import type { SandboxHandle } from '../support/sandbox';
import { startSandboxSuite } from '../support/sandboxSuite';
import { WindowsFileLocks } from '../support/windowsFileLocks';
import { waitFor } from '../support/waitFor';
import { quickFixesWhere } from '../support/quickFixes';
import { clearCustomersFilter, extensionTrees } from './treeWalk';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures');

/** Fresh valid VKNs, so every import here creates its customers anew. */
let vknSeed = 731_000_000;
const freshVkn = (): string => completeVkn(String(++vknSeed));
const freshTckn = (): string => completeTckn(String(++vknSeed));

const englishNote = 'Columns are separated by ",", as Excel expects with the display language en; the "nilvera.csv.separator" setting changes this.';

suite('Desktop files: Windows locks, Excel encodings', function () {
  this.timeout(120_000);
  let sandbox: SandboxHandle;
  let trees: NilveraTrees;
  let tmp: string;
  const prompts = new ScriptedPrompts();
  const locks = new WindowsFileLocks();
  let close: () => Promise<void> = async () => undefined;

  const tempsIn = (dir: string) => fs.readdirSync(dir).filter((n) => n.endsWith(TEMP_SUFFIX));

  async function customerName(taxNumber: string): Promise<string | undefined> {
    const res = await fetch(`${sandbox.url}/general/Customers/GetCustomerInfo/${taxNumber}`, { headers: { Authorization: `Bearer ${sandbox.keys.full}`, Accept: 'application/json' } });
    return res.ok ? ((await res.json()) as { Name: string }).Name : undefined;
  }

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-desktop-'));
    ({ sandbox, close } = await startSandboxSuite({ customers: 800, registry: 500, seed: 29 }, prompts));
    trees = await extensionTrees();
    clearCustomersFilter(trees);
    locks.install();
  });

  suiteTeardown(async () => {
    locks.uninstall();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  setup(() => {
    prompts.reset();
    sandbox.clearFaults();
  });

  test('customer export to a file open in Excel: waited for, then saved as "name (2).csv" with the lock named; the previous export stays; Try Again moves it in', async () => {
    const target = path.join(tmp, 'customers.csv');
    fs.writeFileSync(target, 'the previous export');
    locks.hold(target, { code: 'EBUSY' });
    prompts.saveFile = vscode.Uri.file(target);
    const second = path.join(tmp, 'customers (2).csv');
    // Try Again while Excel still has it: asked again; then "closed" and Try Again: moved into place.
    let refusals = 0;
    prompts.answers = [
      (a) => a.find((x) => x === 'Try Again'),
      (a) => {
        refusals = locks.refusals(target);
        locks.release(target);
        return a.find((x) => x === 'Try Again');
      },
    ];
    const started = Date.now();
    const summary = await vscode.commands.executeCommand<{ written: number; path: string }>(TreeCommands.customersExport);
    assert.ok(Date.now() - started >= 9_000, 'the hold was waited for (about 10 s) before another name was used');
    assert.ok(refusals >= 5, `refusals: ${refusals}`);
    const held = prompts.messages.filter((m) => m.level === 'warning');
    assert.equal(held.length, 2, JSON.stringify(prompts.messages));
    assert.equal(
      held[0].text,
      `${target} is open in another program, e.g. Excel: close it and try again. The new file was saved as ${second}. Exported 800 customers to ${second}. ${englishNote}`,
    );
    assert.deepEqual(held[0].actions, ['Try Again']);
    assert.deepEqual(summary, { written: 800, path: target });
    const text = fs.readFileSync(target, 'utf8');
    assert.ok(text.startsWith('\uFEFFTaxNumber,Name,'), text.slice(0, 40));
    assert.equal(text.trimEnd().split('\r\n').length >= 801, true);
    assert.ok(!fs.existsSync(second), 'Try Again moved the file into place');
    assert.ok(prompts.messages.some((m) => m.level === 'info' && m.text === `Exported 800 customers to ${target}. ${englishNote}`));
    assert.deepEqual(tempsIn(tmp), []);
  });

  test('customer export failing on page 2 (HTTP 500): the server\'s error, the previous export unchanged, no temporary file left', async () => {
    const target = path.join(tmp, 'failing.csv');
    fs.writeFileSync(target, 'the previous export');
    prompts.saveFile = vscode.Uri.file(target);
    sandbox.setFaults({ match: { method: 'GET', path: '^/general/customers$' }, queue: [{ latencyMs: 0 }, '500'] });
    await vscode.commands.executeCommand(TreeCommands.customersExport);
    const errors = prompts.messages.filter((m) => m.level === 'error');
    assert.equal(errors.length, 1, JSON.stringify(prompts.messages));
    assert.match(errors[0].text, /HTTP 500/);
    assert.equal(fs.readFileSync(target, 'utf8'), 'the previous export');
    assert.deepEqual(tempsIn(tmp), []);
  });

  test('reconciliation export of 800 customers to a file open in Excel finishes (no endless wait) and keeps the new file beside it', async () => {
    const report = await vscode.commands.executeCommand<ReconciliationReport>(ReconciliationCommands.run, { source: 'online' });
    assert.equal(report.totalCustomers, 800);
    prompts.reset();
    const target = path.join(tmp, 'reconciliation.csv');
    fs.writeFileSync(target, 'the previous reconciliation');
    locks.hold(target, { code: 'EPERM' });
    prompts.saveFile = vscode.Uri.file(target);
    try {
      const outcome = await vscode.commands.executeCommand<{ path: string; written: number }>(ReconciliationCommands.export);
      const other = path.join(tmp, 'reconciliation (2).csv');
      assert.deepEqual(outcome, { path: other, written: 800 });
      assert.equal(fs.readFileSync(target, 'utf8'), 'the previous reconciliation');
      assert.equal(fs.readFileSync(other, 'utf8').trimEnd().split('\r\n').length, 801);
      const warning = prompts.messages.find((m) => m.level === 'warning');
      assert.ok(warning?.text.startsWith(`${target} is open in another program, e.g. Excel: close it and try again. The new file was saved as ${other}.`), JSON.stringify(prompts.messages));
    } finally {
      locks.release(target);
    }
  });

  test('importing x.rejected.csv while Excel holds it: customers created, view refreshed, summary shown; the rows still rejected go to a new file, the source is unchanged', async () => {
    const good = [freshVkn(), freshVkn(), freshVkn()];
    const source = path.join(tmp, 'musteriler.rejected.csv');
    const content = `\uFEFFÜnvan;VKN/TCKN;Reason\r\nŞahin Gıda A.Ş.;${good[0]};old reason\r\nGüneş Tekstil;${good[1]};\r\nIşık Yapı;${good[2]};\r\nHatalı Satır;1234567891;old reason\r\n`;
    fs.writeFileSync(source, content);
    locks.hold(source, { code: 'EBUSY' });
    let refreshed = 0;
    const listening = trees.customers.onDidChangeTreeData(() => refreshed++);
    try {
      const summary = await vscode.commands.executeCommand<{ created: number; rejected: number; rejectedFile: string }>(TreeCommands.customersImport, vscode.Uri.file(source));
      const next = path.join(tmp, 'musteriler.rejected (2).csv');
      assert.deepEqual({ created: summary.created, rejected: summary.rejected, rejectedFile: summary.rejectedFile }, { created: 3, rejected: 1, rejectedFile: next });
      assert.ok(refreshed > 0, 'the Customers view was refreshed');
      for (const tax of good) assert.ok(await customerName(tax), `${tax} was created`);
      assert.equal(fs.readFileSync(source, 'utf8'), content, 'the file open in Excel is unchanged');
      const rejected = fs.readFileSync(next, 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
      assert.equal(rejected.length, 2);
      assert.match(rejected[1], /^Hatalı Satır;1234567891;Invalid VKN 1234567891: the 10th digit should be 0 for these first nine digits\./);
      const finished = prompts.messages.find((m) => m.text.startsWith('Import finished: 3 created, 1 rejected'));
      assert.ok(finished, JSON.stringify(prompts.messages));
      assert.ok(finished.text.includes(`${source} is open in another program, e.g. Excel: close it and try again. The rows that were not created, with the reason, are in ${next}.`), finished.text);
      assert.deepEqual(finished.actions, ['Open Rejected Rows']);
      assert.deepEqual(tempsIn(tmp), []);
    } finally {
      listening.dispose();
      locks.release(source);
    }
  });

  test('an import whose rejected rows cannot be written anywhere still shows its summary, with the rows in an untitled editor', async () => {
    const folder = fs.mkdtempSync(path.join(tmp, 'readonly-'));
    const source = path.join(folder, 'liste.csv');
    const tax = freshVkn();
    fs.writeFileSync(source, `Ünvan;VKN\r\nYeni Müşteri Ltd.;${tax}\r\nYanlış;4540536921\r\n`);
    // The folder refuses new files (a read-only share): no temporary file, no numbered file.
    locks.hold(folder, { code: 'EPERM' });
    try {
      const summary = await vscode.commands.executeCommand<{ created: number; rejected: number; rejectedFile: string | undefined }>(TreeCommands.customersImport, vscode.Uri.file(source));
      assert.deepEqual({ created: summary.created, rejected: summary.rejected, rejectedFile: summary.rejectedFile }, { created: 1, rejected: 1, rejectedFile: undefined });
      assert.equal(await customerName(tax), 'Yeni Müşteri Ltd.');
      const finished = prompts.messages.find((m) => m.text.startsWith('Import finished: 1 created, 1 rejected'));
      assert.ok(finished, JSON.stringify(prompts.messages));
      assert.ok(finished.text.includes('could not be saved'), finished.text);
      assert.ok(finished.text.includes('they are open in an untitled editor'), finished.text);
      const untitled = vscode.window.activeTextEditor?.document;
      assert.equal(untitled?.isUntitled, true);
      assert.match(untitled.getText(), /^Ünvan;VKN;Reason\r?\nYanlış;4540536921;Invalid VKN 4540536921: the 10th digit should be 0 for these first nine digits\./);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      locks.release(folder);
    }
  });

  test('a Mac Turkish list imports with its Turkish letters; a Windows-1254 list too; the summary says how each was read', async () => {
    for (const [encoding, label] of [['x-mac-turkish', 'Mac Turkish (Excel for Mac)'], ['windows-1254', 'Windows-1254 (Turkish, Excel for Windows)']] as const) {
      prompts.reset();
      // The fixture's valid tax numbers, replaced by fresh ones (digits are the same byte in every encoding).
      let text = fs.readFileSync(path.join(FIXTURES, 'encodings', `customers-tr-excel.${encoding}.csv`)).toString('latin1');
      const fresh = new Map<string, string>();
      text = text.replace(/;(\d{10,11})(?=;)/g, (all, tax: string) => {
        const valid = tax.length === 10 ? completeVkn(tax.slice(0, 9)) === tax : tax[0] !== '0' && completeTckn(tax.slice(0, 9)) === tax;
        if (!valid) return all;
        const f = tax.length === 10 ? freshVkn() : freshTckn();
        fresh.set(tax, f);
        return `;${f}`;
      });
      assert.equal(fresh.size, 16, 'the fixture\'s 16 valid tax numbers');
      const source = path.join(tmp, `musteriler-${encoding}.csv`);
      fs.writeFileSync(source, Buffer.from(text, 'latin1'));
      const summary = await vscode.commands.executeCommand<{ created: number; rejected: number }>(TreeCommands.customersImport, vscode.Uri.file(source));
      assert.equal(summary.created, fresh.size, encoding);
      assert.equal(await customerName(fresh.get('6656437912')!), 'Anadolu Gıda Sanayi ve Ticaret A.Ş.', encoding);
      assert.equal(await customerName(fresh.get('4742312098')!), 'Boğaziçi Lojistik Ltd. Şti.', encoding);
      assert.equal(prompts.offered.length, 0, 'no question: the bytes tell');
      assert.ok(prompts.messages.some((m) => m.text.includes(`Read as ${label}.`)), JSON.stringify(prompts.messages));
    }
  });

  test('a list whose encoding the bytes cannot tell: the user is asked, with names decoded each way, and the choice is used', async () => {
    const tax = [freshVkn(), freshVkn()];
    const source = path.join(tmp, 'belirsiz.csv');
    fs.writeFileSync(source, Buffer.from(`Unvan;VKN\r\n\xdcNAL A.\xde.;${tax[0]}\r\n\xdcZ\xdcM LTD;${tax[1]}\r\n`, 'latin1'));
    prompts.picks = [(items) => items.find((i) => i.label.startsWith('Mac Turkish'))];
    const summary = await vscode.commands.executeCommand<{ created: number }>(TreeCommands.customersImport, vscode.Uri.file(source));
    assert.equal(prompts.offered.length, 1);
    const shown = prompts.offered[0].map((i) => `${i.label}: ${i.detail}`);
    assert.deepEqual(shown, ['Windows-1254 (Turkish, Excel for Windows): ÜNAL A.Ş.  ·  ÜZÜM LTD', 'Mac Turkish (Excel for Mac): İNAL A.Ş.  ·  İZİM LTD']);
    assert.equal(summary.created, 2);
    assert.equal(await customerName(tax[0]), 'İNAL A.Ş.');
    // Dismissing the question imports nothing.
    prompts.reset();
    const before = sandbox.requestLog().filter((r) => r.method === 'POST').length;
    await vscode.commands.executeCommand(TreeCommands.customersImport, vscode.Uri.file(source));
    assert.equal(sandbox.requestLog().filter((r) => r.method === 'POST').length, before);
  });

  test('a Windows-1254 list opened in the editor (read as UTF-8): recognised, checked, and "Reopen with Encoding Windows-1254" brings its letters back', async () => {
    const bytes = Buffer.from(fs.readFileSync(path.join(FIXTURES, 'encodings', 'customers-tr-excel.windows-1254.csv')).toString('latin1').replace('VKN/TCKN', 'VERG\xdd NO'), 'latin1');
    const file = path.join(tmp, 'liste-1254.csv');
    fs.writeFileSync(file, bytes);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc, { preview: false });
    assert.ok(doc.getText().startsWith('\uFFFDnvan;VERG\uFFFD NO;'), 'VS Code read it as UTF-8');
    const nilvera = () => vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'Nilvera');
    const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);
    await waitFor(() => nilvera().length === 5, 'the encoding note and the cell errors');
    const note = nilvera().find((d) => codeOf(d) === 'not-utf8');
    assert.ok(note);
    assert.equal(note.severity, vscode.DiagnosticSeverity.Information);
    assert.equal(nilvera().filter((d) => codeOf(d) === 'invalid-tax-id').length, 4);
    const actions = await quickFixesWhere(doc.uri, note.range, 'the encoding fixes', (t) => t.some((x) => x.startsWith('Import Customers')));
    const titles = actions.map((a) => a.title);
    assert.deepEqual(titles.filter((t) => /Encoding|Import/.test(t)), ['Reopen with Encoding Windows-1254', 'Import Customers from This File']);
    const reopen = actions.find((a) => a.title === 'Reopen with Encoding Windows-1254')!;
    assert.equal(reopen.command?.command, DiagnosticsCommands.reopenWithEncoding);
    const reopened = await vscode.commands.executeCommand<vscode.TextDocument>(reopen.command!.command, ...(reopen.command!.arguments ?? []));
    assert.equal(reopened.uri.toString(), doc.uri.toString());
    assert.equal(reopened.encoding, 'windows1254');
    await waitFor(() => reopened.getText().startsWith('Ünvan;VERGİ NO;'), 'the text in Windows-1254');
    assert.ok(reopened.getText().includes('Anadolu Gıda Sanayi ve Ticaret A.Ş.'));
    await waitFor(() => nilvera().length === 4 && nilvera().every((d) => codeOf(d) === 'invalid-tax-id'), 'the note gone, the cell errors kept');
  });

  test('a Mac Turkish list in the editor is recognised too, and offered the import (VS Code has no Mac Turkish to reopen it in)', async () => {
    const file = path.join(tmp, 'liste-mac.csv');
    fs.copyFileSync(path.join(FIXTURES, 'encodings', 'customers-tr-excel.x-mac-turkish.csv'), file);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc, { preview: false });
    const note = await waitFor(() => vscode.languages.getDiagnostics(doc.uri).find((d) => d.source === 'Nilvera' && String(typeof d.code === 'object' ? d.code.value : d.code) === 'not-utf8'), 'the encoding note');
    const actions = await quickFixesWhere(doc.uri, note.range, 'the encoding fixes', (t) => t.some((x) => x.startsWith('Import Customers')));
    assert.deepEqual(actions.map((a) => a.title).filter((t) => /Encoding|Import/.test(t)), ['Import Customers from This File (it is in Mac Turkish, which the import reads)']);
  });

  test('bulk check of a Windows-1254 list checks the "VERGİ NO" column by its header, not a phone or account column before it', async () => {
    const file = path.join(tmp, 'vergi-listesi.csv');
    // Mostly typos in the tax-number column; the account column holds a valid VKN by chance.
    const rows = ['5321234567;4540536920;1234567891;A', '5331234567;1111111111;1234567890;B', '5341234567;2222222222;4540536921;C'];
    fs.writeFileSync(file, Buffer.from(`TELEFON;HESAP NO;VERG\xdd NO;\xdcNVAN\r\n${rows.join('\r\n')}\r\n`, 'latin1'));
    const result = await vscode.commands.executeCommand<{ rows: Array<{ taxNumber: string; status: string }> }>(PaletteCommands.registryBulkCheck, { file, userType: 'Invoice', noDocument: true });
    assert.deepEqual(
      result.rows.map((r) => `${r.taxNumber} ${r.status === 'invalid' ? 'invalid' : 'checked'}`),
      ['1234567890 checked', '1234567891 invalid', '4540536921 invalid'],
    );
  });
});

