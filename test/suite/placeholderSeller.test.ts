// GİB's placeholder as the seller of an e-Arşiv invoice, in a real extension host: the editor's
// diagnostics show an error at the seller's 2222222222 (GİB prescribes the placeholder only for the
// buyer), and information at the buyer's. Every role and document type, editor and preview model,
// is in test/unit/editor/diagnostics/placeholderEveryRole.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../../src/constants';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? d.code.value : d.code);

suite('Placeholder seller of an e-Arşiv invoice', function () {
  this.timeout(60_000);
  let tmp: string;

  suiteSetup(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-seller-'));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("GİB's company placeholder as the seller is an error, as the buyer information", async () => {
    const seller = '<cac:SellerSupplierParty><cac:Party><cac:PartyIdentification><cbc:ID schemeID="VKN">2222222222</cbc:ID></cac:PartyIdentification></cac:Party></cac:SellerSupplierParty>';
    const text = fs
      .readFileSync(path.join(repoRoot, 'test', 'fixtures', 'ubl-tr-invoice-valid.xml'), 'utf8')
      .replace('<cbc:ProfileID>TICARIFATURA</cbc:ProfileID>', '<cbc:ProfileID>EARSIVFATURA</cbc:ProfileID>')
      .replace('<cbc:ID schemeID="VKN">1234567890</cbc:ID>', '<cbc:ID schemeID="VKN">2222222222</cbc:ID>')
      .replace('<cac:TaxTotal>', `${seller}\n  <cac:TaxTotal>`);
    assert.equal(text.split('2222222222').length, 3, 'the buyer and the seller hold the placeholder');
    const file = path.join(tmp, 'earsiv-seller.xml');
    fs.writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc, { preview: false });
    const until = Date.now() + 20_000;
    let diagnostics: vscode.Diagnostic[] = [];
    while (Date.now() < until) {
      diagnostics = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'Nilvera');
      if (diagnostics.length >= 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const at = (offset: number) => diagnostics.filter((d) => doc.offsetAt(d.range.start) === offset).map((d) => [d.severity, codeOf(d)]);
    const buyer = text.indexOf('2222222222');
    const sellerAt = text.lastIndexOf('2222222222');
    assert.deepEqual(at(sellerAt), [[vscode.DiagnosticSeverity.Error, 'misplaced-gib-placeholder']], JSON.stringify(diagnostics.map((d) => [d.message, d.severity])));
    assert.deepEqual(at(buyer), [[vscode.DiagnosticSeverity.Information, 'gib-placeholder']]);
  });
});
