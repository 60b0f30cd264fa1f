// Issue 37, row 10: the structured view's model on hostile documents. 5,000 nested elements (74 KB)
// overflowed its recursion (a RangeError out of readDocument) and 100,000 blocked the extension host
// 14 s. The reader now refuses nesting beyond MAX_XML_DEPTH with a clear "not well-formed" result that
// names the limit, so every walk of the tree is bounded; and on random or adversarial text readDocument
// answers a result and throws nothing (fast-check). Times of n and 2n: `npm run bench -- adversarial`.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { readDocument } from '../../../../src/preview/model/readDocument';
import { MAX_XML_DEPTH } from '../../../../src/domain/ubl/xmlReader';

const INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const HEAD = `<Invoice xmlns="${INVOICE_NS}" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">`;

/** An invoice whose supplier party holds `depth` nested elements. */
function nested(depth: number, element = 'cac:Party'): string {
  return `${HEAD}<cac:AccountingSupplierParty>${`<${element}>`.repeat(depth)}${`</${element}>`.repeat(depth)}</cac:AccountingSupplierParty></Invoice>`;
}

describe('structured view model on hostile documents (issue 37 row 10)', () => {
  test('the reproduction: 5,000 nested elements give a clear result, not a RangeError', () => {
    const text = nested(5_000, 'cac:X');
    assert.ok(text.length < 80 * 1024, `${text.length} characters`);
    const { result } = readDocument(text);
    assert.ok(!result.ok && result.reason === 'notWellFormed', JSON.stringify(result).slice(0, 300));
    assert.match(result.message, new RegExp(`nested more than ${MAX_XML_DEPTH} deep`));
    assert.equal(result.line, 1);
  });

  test('100,000 nested elements: the same result, found at the element past the limit', () => {
    const { result } = readDocument(nested(100_000, 'a'));
    assert.ok(!result.ok && result.reason === 'notWellFormed');
    assert.equal(result.column, 1 + HEAD.length + '<cac:AccountingSupplierParty>'.length + '<a>'.length * (MAX_XML_DEPTH - 2));
  });

  test('nesting up to the limit is read: the parties found inside it', () => {
    const identification = '<cac:PartyIdentification><cbc:ID schemeID="VKN">1234567890</cbc:ID></cac:PartyIdentification>';
    const depth = MAX_XML_DEPTH - 4;
    const text = `${HEAD}<cac:AccountingSupplierParty>${'<cac:Party>'.repeat(depth)}${identification}${'</cac:Party>'.repeat(depth)}</cac:AccountingSupplierParty></Invoice>`;
    const { result } = readDocument(text);
    assert.ok(result.ok, JSON.stringify(result).slice(0, 300));
    assert.deepEqual(
      result.model.parties.flatMap((p) => p.identifications.map((i) => i.value)),
      ['1234567890'],
    );
  });

  const PIECES = [
    '<', '>', '</', '/>', '"', "'", '=', ' ', 'cac:Party', 'cac:PartyIdentification', 'cbc:ID', 'schemeID="VKN"', '1234567890', 'cac:InvoiceLine', 'cbc:LineExtensionAmount',
    'cac:LegalMonetaryTotal', 'cbc:PayableAmount', '100.00', 'currencyID="TRY"', '<!--', '-->', '<![CDATA[', ']]>', '&amp;', '&#1;', 'xmlns:p="x"', 'p:', 'cac:AdditionalDocumentReference',
    'cbc:EmbeddedDocumentBinaryObject', 'filename="a.xslt"', 'PHhzbDpzdHlsZXNoZWV0Lz4=',
  ];
  const body = fc.array(fc.constantFrom(...PIECES), { maxLength: 120 }).map((parts) => parts.join(''));
  const documents = fc.oneof(
    body.map((b) => `${HEAD}${b}</Invoice>`),
    body,
    fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('<cac:Party>', '<a>', '<p:a xmlns:p="u">', '<cac:InvoiceLine>')).map(([n, open]) => `${HEAD}${open.repeat(n)}`),
    fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('a', '"', 'a="', ' ')).map(([n, unit]) => `${HEAD.slice(0, -1)} ${unit.repeat(n)}></Invoice>`),
  );

  test('readDocument answers a result and throws nothing on random or adversarial documents (property)', () => {
    fc.assert(
      fc.property(documents, (text) => {
        const { result } = readDocument(text);
        assert.equal(typeof result.ok, 'boolean');
      }),
      { numRuns: 500 },
    );
  });
});
