// GİB's findings in the editor, in a real extension host: before any install a UBL-TR document gets
// one information note with the two quick fixes; once GİB's archives are installed into the
// extension's global storage, a broken invoice and despatch advice get GİB's findings in GİB's words at
// their elements, with the release as the source; they follow typing, the signature setting and a
// close; an e-Müstahsil receipt gets its note once; a GİB sample's tax number gets no "fix".
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DiagnosticsCommands, GibCommands, Settings } from '../../src/constants';
import type { DiagnosticsTestState } from '../../src/editor/diagnostics/register';
import type { GibDiagnosticsTestState } from '../../src/editor/gib/register';
import { CREDIT_NOTE_NOTE } from '../../src/gib/engine';
import { installGibPackage, GIB_RULES_FOLDER } from '../../src/gib/ruleStore';
import { activateExtension } from '../support/extension';
import { waitFor } from '../support/waitFor';
import { quickFixesWhere } from '../support/quickFixes';
import { gibArchives, gibSamples, NO_GIB_DATA } from '../support/gibPackages';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const fixture = (name: string) => path.join(repoRoot, 'test', 'fixtures', 'gib', name);

/** GİB's diagnostics of a document (the note without rules, XSD and rule findings). */
function gibDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source?.startsWith('GİB'));
}


function gibDiagnosticsWhere(doc: vscode.TextDocument, what: string, check: (d: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  return waitFor(() => {
    const d = gibDiagnostics(doc.uri);
    return check(d) && d;
  }, what, 60_000).catch((e: Error) => {
    throw new Error(`${e.message}; last: ${JSON.stringify(gibDiagnostics(doc.uri).map((d) => [d.range.start.line + 1, d.source, d.message]))}`);
  });
}

/** The range of `name` at the nth occurrence of `text` (which starts with `<` + name). */
function elementAt(doc: vscode.TextDocument, text: string, nth = 0): vscode.Range {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = doc.getText().indexOf(text, at + 1);
  assert.ok(at >= 0, `${text} not in the document`);
  const name = /^<([\w:.-]+)/.exec(text)![1];
  return new vscode.Range(doc.positionAt(at + 1), doc.positionAt(at + 1 + name.length));
}

const firstLine = (d: vscode.Diagnostic) => d.message.split('\n')[0];

suite('GİB diagnostics in the editor', function () {
  this.timeout(240_000);
  const archives = gibArchives();
  let state: GibDiagnosticsTestState;
  let tmp: string;
  let packageFile: string;
  let savedPackage: string | undefined;
  let release = '';
  const config = () => vscode.workspace.getConfiguration(Settings.section);

  async function open(name: string, text = fs.readFileSync(fixture(name), 'utf8'), as = name): Promise<vscode.TextDocument> {
    const file = path.join(tmp, as);
    fs.writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(file);
    // Not a preview: the next file would replace (and close) it, and a closed document has no diagnostics.
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc;
  }

  suiteSetup(async function () {
    if (!archives) this.skip();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-gib-diagnostics-'));
    await activateExtension();
    state = (await vscode.commands.executeCommand<DiagnosticsTestState>(DiagnosticsCommands.testHook)).gib;
    // Start with no rules installed: an earlier suite's package is set aside and put back at the end.
    packageFile = path.join(state.storageRoot, GIB_RULES_FOLDER, 'package.json');
    if (fs.existsSync(packageFile)) {
      savedPackage = `${packageFile}.saved-${process.pid}`;
      fs.renameSync(packageFile, savedPackage);
    }
    await state.reload();
  });

  suiteTeardown(async () => {
    if (!archives) return;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config().update(Settings.gibShowSignatureFindings, undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(packageFile, { force: true });
    if (savedPackage) fs.renameSync(savedPackage, packageFile);
    await state.reload();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('without rules: one information note at the root, with quick fixes that download the rules or use them from a file', async () => {
    const doc = await open('editor-invoice-broken.xml', undefined, 'no-rules.xml');
    const [note] = await gibDiagnosticsWhere(doc, 'the no-rules note', (d) => d.length === 1);
    assert.equal(note.severity, vscode.DiagnosticSeverity.Information);
    assert.match(note.message, /^GİB's validation rules are not on this computer/);
    assert.deepEqual(note.range, elementAt(doc, '<Invoice xmlns='));
    const actions = await quickFixesWhere(doc.uri, note.range, 'the rules fixes', (t) => t.length > 0);
    const gibActions = actions.filter((a) => a.command?.command.startsWith('nilvera.gib.'));
    assert.deepEqual(
      gibActions.map((a) => [a.title, a.command?.command]),
      [
        ["Download GİB's validation rules", GibCommands.downloadRules],
        ["Use GİB's rules from a file…", GibCommands.useRulesFromFile],
      ],
    );
    // A plain XML file gets nothing of GİB's.
    const other = await open('plain.xml', '<?xml version="1.0"?>\n<Invoice xmlns="urn:example"><ID>1</ID></Invoice>\n');
    await new Promise((r) => setTimeout(r, 1_000));
    assert.deepEqual(gibDiagnostics(other.uri), []);
  });

  test("with GİB's rules installed: the wrong invoice number and the zero-rate KDV subtotal, in GİB's words at their elements", async function () {
    release = await installGibPackage(state.storageRoot, archives!.rules, archives!.schemas);
    await state.reload();
    const doc = vscode.workspace.textDocuments.find((d) => d.fileName.endsWith('no-rules.xml'))!;
    const found = await gibDiagnosticsWhere(doc, 'the two rule findings', (d) => d.length === 2 && d.every((x) => x.source !== 'GİB rules'));
    const [id, zeroRate] = found;
    assert.equal(firstLine(id), "Geçersiz cbc:ID elemanı değeri. cbc:ID elemanı 'ABC2009123456789' formatında olmalıdır.");
    assert.match(id.message, /\nThe document number must be 16 characters/);
    assert.deepEqual(id.range, elementAt(doc, '<cbc:ID>NLV-2026-1'));
    assert.equal(
      firstLine(zeroRate),
      'Vergi miktarı 0 olan 0015 vergi kodlu KDV için cbc:TaxExemptionReason(vergi istisna muhafiyet sebebi) elemanı bulunmalıdır ve boş değer içermemelidir.',
    );
    assert.match(zeroRate.message, /\nA KDV subtotal \(tax code 0015\) with a zero tax amount/);
    assert.deepEqual(zeroRate.range, elementAt(doc, '<cbc:TaxAmount currencyID="TRY">0.00'));
    for (const d of found) {
      assert.equal(d.source, `GİB rules ${release}`);
      assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    }
  });

  test('signature findings of the unsigned draft: hidden by default, shown with the setting, hidden again', async () => {
    const doc = vscode.workspace.textDocuments.find((d) => d.fileName.endsWith('no-rules.xml'))!;
    await config().update(Settings.gibShowSignatureFindings, true, vscode.ConfigurationTarget.Global);
    try {
      const all = await gibDiagnosticsWhere(doc, 'the signature findings', (d) => d.length > 2);
      const signature = all.filter((d) => !/cbc:ID elemanı|0015 vergi kodlu/.test(d.message));
      assert.ok(signature.length > 0);
      for (const d of signature) assert.match(d.message, /UBLExtension|ExtensionContent|Signature|xmldsig/, d.message);
    } finally {
      await config().update(Settings.gibShowSignatureFindings, undefined, vscode.ConfigurationTarget.Global);
    }
    await gibDiagnosticsWhere(doc, 'the signature findings hidden again', (d) => d.length === 2);
  });

  test('typing: the findings follow the text (the invoice number corrected, then an edit that makes a new error)', async () => {
    const doc = vscode.workspace.textDocuments.find((d) => d.fileName.endsWith('no-rules.xml'))!;
    const editor = await vscode.window.showTextDocument(doc);
    const id = doc.getText().indexOf('NLV-2026-1');
    await editor.edit((e) => e.replace(new vscode.Range(doc.positionAt(id), doc.positionAt(id + 'NLV-2026-1'.length)), 'NLV2026000000001'));
    const [left] = await gibDiagnosticsWhere(doc, 'only the zero-rate finding', (d) => d.length === 1);
    assert.match(left.message, /0015 vergi kodlu/);
    const copy = doc.getText().indexOf('<cbc:CopyIndicator>false');
    await editor.edit((e) => e.replace(new vscode.Range(doc.positionAt(copy + '<cbc:CopyIndicator>'.length), doc.positionAt(copy + '<cbc:CopyIndicator>false'.length)), 'true'));
    const now = await gibDiagnosticsWhere(doc, 'the CopyIndicator finding', (d) => d.length === 2);
    assert.ok(now.some((d) => /CopyIndicator/.test(d.message)));
    await doc.save();
  });

  test('an answer for an older text is never shown: the invoice number fixed while its first check runs', async () => {
    // A long invoice (its first line 2,000 times more) keeps the worker busy while the fix is typed.
    const broken = fs.readFileSync(fixture('editor-invoice-broken.xml'), 'utf8');
    const line = /<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>\n/.exec(broken)![0];
    // Opened, not shown: showing a document this long in the workbench can take longer than its check.
    // Its check starts as it opens; the fix is typed 50 ms later, while that check runs.
    const file = path.join(tmp, 'long.xml');
    fs.writeFileSync(file, broken.replace(line, line.repeat(2_000)));
    const doc = await vscode.workspace.openTextDocument(file);
    await new Promise((r) => setTimeout(r, 50));
    const id = doc.getText().indexOf('NLV-2026-1');
    const fix = new vscode.WorkspaceEdit();
    fix.replace(doc.uri, new vscode.Range(doc.positionAt(id), doc.positionAt(id + 'NLV-2026-1'.length)), 'NLV2026000000001');
    assert.ok(await vscode.workspace.applyEdit(fix));
    // What GİB's collection shows from here on, each time it changes.
    const key = (d: vscode.Diagnostic[]) => JSON.stringify(d.map(firstLine));
    const before = gibDiagnostics(doc.uri);
    assert.deepEqual(before.map(firstLine), [], 'the first verdict came before the fix was typed: the document is too short to test this');
    const shown: string[][] = [];
    let last = key(before);
    const listening = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some((u) => u.toString() === doc.uri.toString())) return;
      const now = gibDiagnostics(doc.uri);
      if (key(now) !== last) shown.push(now.map(firstLine));
      last = key(now);
    });
    try {
      await gibDiagnosticsWhere(doc, 'the verdict on the fixed text', (d) => d.some((x) => /0015 vergi kodlu/.test(x.message)) && !d.some((x) => /cbc:ID elemanı/.test(x.message)));
      await new Promise((r) => setTimeout(r, 1_000));
    } finally {
      listening.dispose();
    }
    assert.deepEqual(
      shown.filter((messages) => messages.some((m) => /cbc:ID elemanı/.test(m))),
      [],
      'the verdict on the text before the fix was shown after the fix',
    );
    await doc.save();
  });

  test('a despatch advice: its delivery-address findings at the address elements, the XSD finding at its element', async () => {
    const doc = await open('editor-despatch-broken.xml');
    const found = await gibDiagnosticsWhere(doc, 'the despatch findings', (d) => d.length === 3);
    const district = found.find((d) => /CitySubdivisionName elemanı içermelidir/.test(d.message));
    assert.ok(district, 'the district finding');
    assert.equal(district.source, `GİB rules ${release}`);
    assert.deepEqual(district.range, elementAt(doc, '<cac:DeliveryAddress>'));
    assert.match(district.message, /\nThe despatch advice's delivery address .* must give the district/);
    const postal = found.find((d) => /Hatalı Posta Kodu :'99430'/.test(d.message));
    assert.deepEqual(postal?.range, elementAt(doc, '<cbc:PostalZone>99430'));
    const xsd = found.find((d) => d.source === 'GİB XSD');
    assert.ok(xsd, 'the XSD finding');
    assert.deepEqual(xsd.range, elementAt(doc, '<cbc:CityName>İstanbul', 1));
  });

  test('closing a document clears its findings', async () => {
    // VS Code keeps a file an extension opened for minutes after its editor closed; an untitled
    // document is disposed as soon as it is reverted and closed.
    const text = fs.readFileSync(fixture('editor-despatch-broken.xml'), 'utf8');
    const doc = await vscode.workspace.openTextDocument({ language: 'xml', content: text });
    await vscode.window.showTextDocument(doc, { preview: false });
    await gibDiagnosticsWhere(doc, 'the untitled despatch findings', (d) => d.length === 3);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor(() => doc.isClosed, 'the document closed', 30_000);
    await waitFor(() => gibDiagnostics(doc.uri).length === 0, 'its findings cleared', 5_000);
  });

  test('an e-Müstahsil receipt (CreditNote): the note that GİB has no rules for it, once, as information', async () => {
    const doc = await open('credit-note.xml');
    const found = await gibDiagnosticsWhere(doc, 'the CreditNote note', (d) => d.some((x) => x.message === CREDIT_NOTE_NOTE));
    const notes = found.filter((d) => d.message === CREDIT_NOTE_NOTE);
    assert.equal(notes.length, 1);
    assert.equal(notes[0].severity, vscode.DiagnosticSeverity.Information);
    assert.deepEqual(notes[0].range, elementAt(doc, '<CreditNote xmlns='));
  });

  test("a GİB sample's tax number 1288331521: said to be GİB's sample, and no corrected number offered", async () => {
    const sample = (await gibSamples()).find((s) => s.text.includes('>1288331521<'));
    assert.ok(sample, "a GİB sample with 1288331521");
    const doc = await open('sample.xml', sample.text);
    const error = await waitFor(
      () => vscode.languages.getDiagnostics(doc.uri).find((d) => d.source === 'Nilvera' && /1288331521/.test(d.message)),
      "the sample number's error",
      60_000,
    );
    assert.equal(error.message, "VKN 1288331521 is the number of GİB's sample documents (its check digit is wrong): write the party's real VKN.");
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, error.range, vscode.CodeActionKind.QuickFix.value);
    assert.deepEqual(
      actions.filter((a) => a.edit).map((a) => a.title),
      [],
      'no edit that "corrects" a sample number',
    );
  });
});

if (!gibArchives()) console.log(`GİB diagnostics in the editor: skipped, ${NO_GIB_DATA}`);
