// Tax-number diagnostics in a real extension host: the fixture invoices, a despatch advice and the
// Turkish Excel CSV get their errors at the right ranges; they follow edits; quick fixes change the
// check digit, copy the active PK alias and run the registry look-up; registry warnings appear once a
// list has been downloaded (through the download command, from an in-process sandbox): the e-invoice
// list for invoices, the e-despatch list for despatch advices.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DiagnosticsCommands, PaletteCommands, Settings } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import type { DiagnosticsTestState } from '../../src/editor/diagnostics/register';
import { activateExtension } from '../support/extension';
import { ScriptedPrompts } from '../support/scriptedPrompts';
import { replacePrompts as replaceLocalPrompts } from '../../src/shell/prompts';
import { completeVkn } from '../../src/domain/taxId';
import { startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { leaveCustomEnvironment, useSandboxEnvironment } from '../support/sandboxSuite';
import { waitFor } from '../support/waitFor';
import { quickFixesWhere } from '../support/quickFixes';

const repoRoot = path.resolve(__dirname, '..', '..', '..');


function nilveraDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Nilvera');
}

/** Waits until the document's Nilvera diagnostics satisfy `check` (they are published asynchronously). */
function diagnosticsWhere(doc: vscode.TextDocument, what: string, check: (d: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  return waitFor(() => {
    const d = nilveraDiagnostics(doc.uri);
    return check(d) && d;
  }, what);
}

function rangeOf(doc: vscode.TextDocument, text: string, nth = 0): vscode.Range {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = doc.getText().indexOf(text, at + 1);
  assert.ok(at >= 0, `${text} not in the document`);
  return new vscode.Range(doc.positionAt(at), doc.positionAt(at + text.length));
}

const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? d.code.value : d.code);


suite('Editor diagnostics', function () {
  this.timeout(120_000);
  let sandbox: SandboxHandle;
  let api: NilveraExtensionApi;
  let tmp: string;
  let indexRoot = '';
  let savedIndex: string | undefined;
  const prompts = new ScriptedPrompts();
  const restore: Array<() => void | Thenable<void>> = [];
  const config = () => vscode.workspace.getConfiguration(Settings.section);

  async function copyFixture(name: string, edit: (text: string) => string = (t) => t, as = name): Promise<vscode.TextDocument> {
    const file = path.join(tmp, as);
    fs.writeFileSync(file, edit(fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', name), 'utf8')));
    const doc = await vscode.workspace.openTextDocument(file);
    // Not a preview: the next file would replace (and close) it, and a closed document has no diagnostics.
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc;
  }

  async function control(body: unknown): Promise<void> {
    const res = await fetch(`${sandbox.url}/__sandbox/registry`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200, await res.text());
  }

  suiteSetup(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-diagnostics-'));
    sandbox = await startTestSandbox({ customers: 5, registry: 2_000, seed: 10 });
    api = await activateExtension();
    restore.push(api.testing.replacePrompts(prompts), replaceLocalPrompts(prompts));
    await useSandboxEnvironment(api, sandbox);
    // Start without an offline index: an earlier suite's is set aside and put back at the end.
    indexRoot = (await vscode.commands.executeCommand<DiagnosticsTestState>(DiagnosticsCommands.testHook)).indexRoot;
    if (fs.existsSync(indexRoot)) {
      savedIndex = `${indexRoot}.saved-${process.pid}`;
      fs.renameSync(indexRoot, savedIndex);
    }
    // The shared registry re-reads its `current` pointers at most once a second.
    await new Promise((r) => setTimeout(r, 1_100));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const r of restore.reverse()) await r();
    await leaveCustomEnvironment(api, Settings.editorCsvDiagnostics);
    if (savedIndex) {
      fs.rmSync(indexRoot, { recursive: true, force: true });
      fs.renameSync(savedIndex, indexRoot);
    }
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('the bad-VKN invoice: one error at the customer ID naming the expected check digit; the supplier is fine', async () => {
    const doc = await copyFixture('ubl-tr-invoice-bad-customer-vkn.xml');
    const [error] = await diagnosticsWhere(doc, 'the checksum error', (d) => d.length === 1);
    assert.equal(error.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(codeOf(error), 'invalid-tax-id');
    assert.deepEqual(error.range, rangeOf(doc, '1234567891'));
    assert.equal(error.message, 'Invalid VKN 1234567891: the 10th digit should be 0 for these first nine digits.');
  });

  test('the check-digit quick fix corrects the number; without a list the receiver gets the download note; edits are followed', async () => {
    const doc = await copyFixture('ubl-tr-invoice-bad-customer-vkn.xml', undefined, 'fix-me.xml');
    const [error] = await diagnosticsWhere(doc, 'the checksum error', (d) => d.length === 1);
    const actions = await quickFixesWhere(doc.uri, error.range, 'the check-digit fix', (t) => t.some((x) => x.includes('1234567890')));
    const fix = actions.find((a) => a.title.includes('1234567890'));
    assert.ok(fix?.edit, `no check-digit fix among ${actions.map((a) => a.title).join(' | ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(doc.getText(rangeOf(doc, '1234567890')), '1234567890');

    const [note] = await diagnosticsWhere(doc, 'the registry note', (d) => d.length === 1 && codeOf(d[0]) === 'registry-not-downloaded');
    assert.equal(note.severity, vscode.DiagnosticSeverity.Information);
    assert.deepEqual(note.range, rangeOf(doc, '1234567890'));
    assert.equal(note.message, 'Registry list not downloaded: e-invoice status not checked.');
    const noteActions = await quickFixesWhere(doc.uri, note.range, 'the download fix', (t) => t.includes('Download Registry List'));
    const download = noteActions.find((a) => a.title === 'Download Registry List');
    assert.equal(download?.command?.command, PaletteCommands.registryDownload);

    // Typing a wrong digit into the supplier's VKN: an error there, updated after the debounce.
    const editor = await vscode.window.showTextDocument(doc);
    const supplier = rangeOf(doc, '4540536920');
    await editor.edit((e) => e.replace(new vscode.Range(supplier.end.translate(0, -1), supplier.end), '7'));
    const after = await diagnosticsWhere(doc, 'the supplier error', (d) => d.some((x) => x.severity === vscode.DiagnosticSeverity.Error));
    const supplierError = after.find((x) => x.severity === vscode.DiagnosticSeverity.Error);
    assert.deepEqual(supplierError?.range, rangeOf(doc, '4540536927'));
    assert.match(supplierError?.message ?? '', /Invalid VKN 4540536927: the 10th digit should be 0/);
  });

  test('the Turkish Excel CSV: an error per invalid cell of the VKN/TCKN column; the setting turns them off', async () => {
    const doc = await copyFixture('customers-tr-excel.csv');
    const diagnostics = await diagnosticsWhere(doc, 'four cell errors', (d) => d.length === 4);
    // customers-tr-excel.expected.txt: rows 4, 10, 13 and 18 carry a bad tax number.
    assert.deepEqual(diagnostics.map((d) => doc.getText(d.range)), ['2940095702', '2596120531', '905978176', '49798834353']);
    assert.ok(diagnostics.every((d) => d.severity === vscode.DiagnosticSeverity.Error && codeOf(d) === 'invalid-tax-id'));
    assert.match(diagnostics[2].message, /a VKN has 10 digits and a TCKN 11, this has 9/);
    assert.equal(diagnostics[3].message, 'Invalid TCKN 49798834353: the 11th digit should be 0 for these first ten digits.');

    await config().update(Settings.editorCsvDiagnostics, false, vscode.ConfigurationTarget.Global);
    await waitFor(() => nilveraDiagnostics(doc.uri).length === 0, 'CSV diagnostics cleared');
    await config().update(Settings.editorCsvDiagnostics, undefined, vscode.ConfigurationTarget.Global);
    await diagnosticsWhere(doc, 'four cell errors again', (d) => d.length === 4);
  });

  test('after a list download: "not an e-invoice user" on TICARIFATURA, "registered user" on EARSIVFATURA with working quick fixes', async () => {
    const receiverNotRegistered = '1234567890';
    const registered = completeVkn('765432109');
    const alias = 'urn:mail:diagnostics-pk@test.example';
    await control({ action: 'deregister', TaxNumber: receiverNotRegistered });
    await control({ action: 'register', TaxNumber: registered, Title: 'Tanı Testi Ticaret A.Ş.' });
    await control({ action: 'changeAlias', TaxNumber: registered, AliasType: 'PK', DocumentType: 'Invoice', Alias: alias });

    const commercial = await copyFixture('ubl-tr-invoice-valid.xml');
    await diagnosticsWhere(commercial, 'the registry note', (d) => d.length === 1 && codeOf(d[0]) === 'registry-not-downloaded');

    await vscode.commands.executeCommand(PaletteCommands.registryDownload, { aliasType: 'PK', userType: 'Invoice', folder: path.join(tmp, 'lists') });
    // The open invoice is re-checked when the index changes, without an edit.
    const [warning] = await diagnosticsWhere(commercial, 'the not-registered warning', (d) => d.length === 1 && codeOf(d[0]) === 'not-e-invoice-user');
    assert.equal(warning.severity, vscode.DiagnosticSeverity.Warning);
    assert.deepEqual(warning.range, rangeOf(commercial, receiverNotRegistered));
    assert.match(warning.message, /^1234567890 is not an e-invoice user.*e-Arşiv expected, the profile is TICARIFATURA\.$/);

    const archive = await copyFixture('ubl-tr-invoice-valid.xml', (t) => t.replace('TICARIFATURA', 'EARSIVFATURA').replace(receiverNotRegistered, registered), 'earsiv.xml');
    const [userWarning] = await diagnosticsWhere(archive, 'the registered-user warning', (d) => d.length === 1 && codeOf(d[0]) === 'e-invoice-user-on-e-archive');
    assert.equal(userWarning.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(userWarning.message, `${registered} is a registered e-invoice user (Tanı Testi Ticaret A.Ş.): an e-invoice profile expected, not EARSIVFATURA.`);

    const actions = await quickFixesWhere(archive.uri, userWarning.range, 'the registered-user fixes', (t) => t.includes('Look up in registry') && t.some((x) => x.startsWith('Copy the active PK alias')));
    const copy = actions.find((a) => a.title.startsWith('Copy the active PK alias'));
    assert.ok(copy?.command, `no copy fix among ${actions.map((a) => a.title).join(' | ')}`);
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand(copy.command.command, ...(copy.command.arguments ?? []));
    assert.equal(await vscode.env.clipboard.readText(), alias);
    assert.ok(prompts.messages.some((m) => m.level === 'info' && m.text.includes(alias)), 'no confirmation shown');

    const lookUp = actions.find((a) => a.title === 'Look up in registry');
    assert.ok(lookUp?.command);
    sandbox.resetRequestLog();
    await vscode.commands.executeCommand(lookUp.command.command, ...(lookUp.command.arguments ?? []));
    assert.ok(sandbox.requestLog().some((r) => r.path.toLowerCase().includes(`/check/taxnumber/${registered}`)), 'the look-up did not reach the registry');

    // The not-registered warning (its document still open) offers the look-up but no alias to copy.
    assert.equal(nilveraDiagnostics(commercial.uri).length, 1);
    const plain = await quickFixesWhere(commercial.uri, warning.range, 'the not-registered fixes', (t) => t.includes('Look up in registry'));
    assert.deepEqual(plain.map((a) => a.title).filter((t) => /registry|alias/.test(t)), ['Look up in registry']);
  });

  test('a despatch advice: its parties and driver checked, the missing e-despatch list named, then the e-despatch list decides', async () => {
    const deliveryCustomer = '7351948201';
    const despatchUser = completeVkn('618203947');
    const despatch = await copyFixture(path.join('ubl', 'despatch-advice.xml'), undefined, 'irsaliye.xml');
    assert.ok(despatch.getText().includes('\r\n'), 'the CRLF fixture');
    const expected = [
      ['despatch-registry-not-downloaded', vscode.DiagnosticSeverity.Information, deliveryCustomer],
      ['invalid-tax-id', vscode.DiagnosticSeverity.Error, '8451209375'],
      ['invalid-tax-id', vscode.DiagnosticSeverity.Error, '6123456785'],
      ['invalid-tax-id', vscode.DiagnosticSeverity.Error, '12345678951'],
    ];
    const summary = (d: vscode.Diagnostic[]) => [...d].sort((a, b) => a.range.start.compareTo(b.range.start)).map((x) => [codeOf(x), x.severity, despatch.getText(x.range)]);
    const first = await diagnosticsWhere(despatch, 'the despatch findings', (d) => d.length === 4);
    assert.deepEqual(summary(first), expected);
    const byNumber = (d: vscode.Diagnostic[], n: string) => d.find((x) => despatch.getText(x.range) === n) as vscode.Diagnostic;
    assert.equal(byNumber(first, '12345678951').message, 'Invalid TCKN 12345678951: the 11th digit should be 0 for these first ten digits.');
    assert.deepEqual(byNumber(first, '12345678951').range, rangeOf(despatch, '12345678951'));
    // The e-invoice list of the test above is no e-despatch list: the note names the one missing.
    assert.equal(byNumber(first, deliveryCustomer).message, 'The e-despatch registry list (DespatchAdvice) is not downloaded, only the e-invoice list: e-despatch status not checked.');
    const actions = await quickFixesWhere(despatch.uri, byNumber(first, deliveryCustomer).range, 'the e-despatch download fix', (t) => t.includes('Download the e-Despatch Registry List'));
    const download = actions.find((a) => a.title === 'Download the e-Despatch Registry List');
    assert.deepEqual(download?.command?.arguments, [{ aliasType: 'PK', userType: 'DespatchAdvice' }]);
    assert.deepEqual(actions.find((a) => a.title === 'Look up in registry')?.command?.arguments, [{ taxNumber: deliveryCustomer, userType: 'DespatchAdvice' }]);

    // One delivery customer without an e-despatch mailbox, another with one; then the e-despatch list.
    await control({ action: 'deregister', TaxNumber: deliveryCustomer });
    await control({ action: 'register', TaxNumber: despatchUser, Title: 'İrsaliye Testi Lojistik A.Ş.' });
    await control({ action: 'changeAlias', TaxNumber: despatchUser, AliasType: 'PK', DocumentType: 'DespatchAdvice', Alias: 'urn:mail:irsaliye-pk@test.example' });
    const registered = await copyFixture(path.join('ubl', 'despatch-advice.xml'), (t) => t.replace(deliveryCustomer, despatchUser), 'irsaliye-kayitli.xml');
    await diagnosticsWhere(registered, 'the second despatch advice', (d) => d.length === 4);
    await vscode.commands.executeCommand(PaletteCommands.registryDownload, { aliasType: 'PK', userType: 'DespatchAdvice', folder: path.join(tmp, 'lists') });
    const [warning] = await diagnosticsWhere(despatch, 'the not-an-e-despatch-user warning', (d) => d.some((x) => codeOf(x) === 'not-e-despatch-user')).then((d) => d.filter((x) => x.severity === vscode.DiagnosticSeverity.Warning));
    assert.deepEqual(warning.range, rangeOf(despatch, deliveryCustomer));
    assert.equal(warning.message, `${deliveryCustomer} is not an e-despatch user: an e-İrsaliye under TEMELIRSALIYE cannot be delivered to it.`);
    // A registered e-despatch user: only the three number errors are left.
    const left = await diagnosticsWhere(registered, 'the registry note gone', (d) => d.length === 3);
    assert.ok(left.every((x) => x.severity === vscode.DiagnosticSeverity.Error && codeOf(x) === 'invalid-tax-id'), left.map((x) => x.message).join(' | '));
  });
});
