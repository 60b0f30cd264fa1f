// The UBL-TR fixtures of test/fixtures/ubl/, one per document type and per case of the editor's
// tax-number checks, each beside its expected outcome (<name>.expected.txt): the document type, every
// tax number with its scheme and party role, the findings (no registry list downloaded) with their
// English messages, and which numbers get a hover card. Real-shaped files: namespaces, a ds:Signature
// block, embedded base64, CRLF and LF line endings.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanUbl } from '../../../src/editor/diagnostics/ublScan';
import { documentFindings } from '../../../src/editor/diagnostics/rules';
import { findingMessage } from '../../../src/editor/diagnostics/messages';
import { english } from '../../../src/domain/taxIdWording';
import { taxNumbersIn } from '../../../src/editor/hover/taxNumberTokens';
import { XML_CONTEXT_CHARS, xmlSaysTaxNumber } from '../../../src/editor/hover/xmlTaxNumberContext';
import { UBL_DOCUMENT_TYPES } from '../../../src/domain/ubl/documentTypes';
import { nilveraContentOf } from '../../../src/shell/nilveraContent';

const dir = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'ubl');
const fixtures = fs.readdirSync(dir).filter((f) => f.endsWith('.xml')).sort();

interface Expected {
  type: string;
  lineEndings: string;
  numbers: string[];
  findings: string[];
  hovers: string[];
}

function expectedOf(name: string): Expected {
  const file = path.join(dir, name.replace(/\.xml$/, '.expected.txt'));
  assert.ok(fs.existsSync(file), `${name} has no expected file beside it`);
  const out: Expected = { type: '', lineEndings: '', numbers: [], findings: [], hovers: [] };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [word, ...rest] = line.split(' ');
    const value = rest.join(' ');
    if (word === 'type') out.type = value;
    else if (word === 'line-endings') out.lineEndings = value;
    else if (word === 'number') out.numbers.push(value);
    else if (word === 'finding') out.findings.push(value);
    else if (word === 'hover') out.hovers.push(value);
    else assert.fail(`${path.basename(file)}: unknown line ${JSON.stringify(line)}`);
  }
  return out;
}

/** 1-based line:column of an offset. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `${before.split('\n').length}:${offset - (before.lastIndexOf('\n') + 1) + 1}`;
}

for (const name of fixtures) {
  test(`fixture ${name}: document type, numbers and roles, findings, hover cards`, () => {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    const expected = expectedOf(name);
    assert.equal(text.includes('\r\n') ? 'CRLF' : 'LF', expected.lineEndings, 'line endings (a checkout that converts them changes what is tested)');
    assert.ok(text.includes('<ds:Signature') && text.includes('<ds:X509Certificate>'), 'a signed document');
    assert.equal(nilveraContentOf(text), 'invoice', 'recognised as Nilvera content by its root and namespace');

    const scan = scanUbl(text);
    assert.equal(scan.documentType?.kind, expected.type);
    assert.deepEqual(
      scan.taxNumbers.map((n) => `${position(text, n.start)} ${n.scheme.id} ${n.role} "${n.value}"`),
      expected.numbers,
    );
    for (const n of scan.taxNumbers) if (!n.empty) assert.equal(text.slice(n.start, n.end), n.value);

    const findings = documentFindings(scan, undefined).sort((a, b) => a.start - b.start);
    assert.deepEqual(
      findings.map((f) => `${position(text, f.start)} ${f.severity} ${f.code} ${f.role} «${text.slice(f.start, f.end)}» ${findingMessage(english, f)}`),
      expected.findings,
    );

    const hovers: string[] = [];
    let offset = 0;
    for (const line of text.split('\n')) {
      for (const token of taxNumbersIn(line)) {
        const at = offset + token.start;
        hovers.push(`${position(text, at)} ${xmlSaysTaxNumber(text.slice(Math.max(0, at - XML_CONTEXT_CHARS), at)) ? 'card' : 'none'} ${token.text}`);
      }
      offset += line.length + 1;
    }
    assert.deepEqual(hovers, expected.hovers);
  });
}

test('the fixtures cover every document type, both line endings, embedded attachments and each case of the issue', () => {
  const all = fixtures.map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), 'utf8'), expected: expectedOf(name) }));
  assert.deepEqual([...new Set(all.map((f) => f.expected.type))].sort(), UBL_DOCUMENT_TYPES.map((t) => t.kind).sort());
  assert.ok(all.some((f) => f.expected.lineEndings === 'CRLF') && all.some((f) => f.expected.lineEndings === 'LF'));
  assert.ok(all.filter((f) => f.text.includes('<cbc:EmbeddedDocumentBinaryObject')).length >= 3, 'embedded base64 attachments');
  const findings = all.flatMap((f) => f.expected.findings);
  const has = (pattern: RegExp, what: string) => assert.ok(findings.some((f) => pattern.test(f)), what);
  has(/error invalid-tax-id driver /, 'a driver TCKN');
  has(/error invalid-tax-id (buyer|seller) .*Invalid VKN/, 'despatch buyer/seller VKNs');
  has(/information gib-placeholder customer «2222222222»/, 'the VKN placeholder where prescribed');
  has(/information gib-placeholder buyer «11111111111»/, 'the TCKN placeholder where prescribed');
  has(/error misplaced-gib-placeholder supplier /, 'a placeholder as the supplier');
  has(/error invalid-tax-id goodsOwner /, 'an HKS goods owner');
  has(/error invalid-tax-id customer «<cbc:ID schemeID="VKN"\/>» The VKN is empty/, 'an empty VKN');
  has(/information despatch-registry-not-downloaded /, 'the missing e-despatch list named');
  const hovers = all.flatMap((f) => f.expected.hovers);
  assert.ok(hovers.filter((h) => h.includes(' none ')).length >= 15, 'numbers that are no tax numbers get no card');
});
