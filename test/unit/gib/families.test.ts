// One fixture per document type that GİB's rules pass (test/fixtures/gib/, hand-written), and for
// each rule family a copy that breaks it: the finding is GİB's text at the element the rule's test
// names. Each family also proves it depends on its rule: read without that abstract rule (as a
// runner that dropped it would), the finding is gone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { GibFinding } from '../../../src/gib/engine';
import { NO_GIB_DATA, sharedGibEngine } from '../../support/gibPackages';

const fixtures = path.join(__dirname, '../../../../test/fixtures/gib');
const fixture = (name: string): string => readFileSync(path.join(fixtures, name), 'utf8');

interface Family {
  /** GİB's abstract rule the family is. */
  rule: string;
  file: string;
  /** Text replaced in the fixture to break the rule (each pair once). */
  edits: [string, string][];
  message: RegExp;
  /** The element the finding must be at. */
  element: string;
}

const FAMILIES: Family[] = [
  { rule: 'InvoiceIDCheck', file: 'invoice.xml', edits: [['<cbc:ID>NLV2026000000001</cbc:ID>', '<cbc:ID>NLV-2026-1</cbc:ID>']], message: /^Geçersiz cbc:ID elemanı değeri\. cbc:ID elemanı 'ABC2009123456789' formatında olmalıdır\.$/, element: '/Invoice/cbc:ID' },
  { rule: 'TaxExemptionReasonCheck', file: 'invoice.xml', edits: [['<cbc:TaxExemptionReasonCode>351</cbc:TaxExemptionReasonCode>\n        <cbc:TaxExemptionReason>KDV - İstisna Olmayan Diğer</cbc:TaxExemptionReason>\n', '']], message: /vergi istisna muafiyet sebebi|TaxExemptionReason/i, element: '/Invoice/cac:TaxTotal/cac:TaxSubtotal[2]/cbc:TaxAmount' },
  { rule: 'IADEInvioceCheck', file: 'invoice.xml', edits: [['<cbc:InvoiceTypeCode>SATIS</cbc:InvoiceTypeCode>', '<cbc:InvoiceTypeCode>IADE</cbc:InvoiceTypeCode>']], message: /^IADE, TEVKIFATIADE ve YTBIADE fatura tiplerinde iade bilgilerini içeren/, element: '/Invoice/cbc:InvoiceTypeCode' },
  { rule: 'CurrencyCodeCheck', file: 'invoice.xml', edits: [['<cbc:DocumentCurrencyCode>TRY</cbc:DocumentCurrencyCode>', '<cbc:DocumentCurrencyCode>USD</cbc:DocumentCurrencyCode>']], message: /^Para birimi TRY olmayan belgelerde kur bilgisi zorunludur\.$/, element: '/Invoice/cbc:DocumentCurrencyCode' },
  { rule: 'UUIDCheck', file: 'invoice.xml', edits: [['<cbc:UUID>6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b</cbc:UUID>', '<cbc:UUID>6f1c2a3b</cbc:UUID>']], message: /^Geçersiz cbc:UUID elemanı değeri\. cbc:UUID elemanı UUID formatında olmalıdır\.$/, element: '/Invoice/cbc:UUID' },
  { rule: 'GeneralCurrencyIDCheck', file: 'invoice.xml', edits: [['<cbc:PayableAmount currencyID="TRY">', '<cbc:PayableAmount currencyID="TRL">']], message: /^Geçersiz currencyID niteliği : 'TRL'\. Geçerli değerler için kod listesine bakınız\.$/, element: '/Invoice/cac:LegalMonetaryTotal/cbc:PayableAmount' },
  // GİB lists the rule for inv:Invoice/cac:TaxTotal/cbc:TaxAmount twice in one pattern: only the first matching rule runs, so one finding.
  { rule: 'decimalCheck', file: 'invoice.xml', edits: [['<cbc:TaxAmount currencyID="TRY">20.00</cbc:TaxAmount>\n    <cac:TaxSubtotal>', '<cbc:TaxAmount currencyID="TRY">20.001</cbc:TaxAmount>\n    <cac:TaxSubtotal>']], message: /^Geçersiz cbc:TaxAmount elemanı değeri\. cbc:TaxAmount elemanı noktadan önce en fazla 15 , noktadan sonra\(kuruş\) en fazla 2 haneli olmalıdır\.$/, element: '/Invoice/cac:TaxTotal/cbc:TaxAmount' },
  { rule: 'DespatchAddressCheck', file: 'despatch-advice.xml', edits: [['<cbc:CityName>İstanbul</cbc:CityName>\n        <cbc:PostalZone>', '<cbc:PostalZone>']], message: /^DespatchAdvice boş değer içermeyen cac:Shipment\/cac:Delivery\/cac:DeliveryAddress\/cbc:CityName elemanı içermelidir\.$/, element: '/DespatchAdvice/cac:Shipment/cac:Delivery/cac:DeliveryAddress' },
  { rule: 'DespatchCarrierDriverCheck', file: 'despatch-advice.xml', edits: [['<cbc:FirstName>Ali</cbc:FirstName>', '<cbc:FirstName> </cbc:FirstName>']], message: /^cac:Shipment\/cac:ShipmentStage\/cac:DriverPerson\/cbc:FirstName alanı dolu olmalıdır\.$/, element: '/DespatchAdvice/cac:Shipment/cac:ShipmentStage/cac:DriverPerson[1]' },
  { rule: 'DespatchAdviceTypeCodeCheck', file: 'despatch-advice.xml', edits: [['<cbc:DespatchAdviceTypeCode>SEVK</cbc:DespatchAdviceTypeCode>', '<cbc:DespatchAdviceTypeCode>SEVKIYAT</cbc:DespatchAdviceTypeCode>']], message: /^Geçersiz cbc:DespatchAdviceTypeCode elemanı değeri : 'SEVKIYAT'\./, element: '/DespatchAdvice/cbc:DespatchAdviceTypeCode' },
  { rule: 'ReceiptAdviceTypeCodeCheck', file: 'receipt-advice.xml', edits: [['<cbc:ReceiptAdviceTypeCode>SEVK</cbc:ReceiptAdviceTypeCode>', '<cbc:ReceiptAdviceTypeCode>MATBUDAN</cbc:ReceiptAdviceTypeCode>']], message: /^Geçersiz cbc:ReceiptAdviceTypeCode elemanı değeri : 'MATBUDAN'\./, element: '/ReceiptAdvice/cbc:ReceiptAdviceTypeCode' },
  { rule: 'ItemNameCheck', file: 'receipt-advice.xml', edits: [['<cbc:Name>Koli</cbc:Name>', '<cbc:Name></cbc:Name>']], message: /^cac:Item elemanı boş değer içermeyen cbc:Name elemanı içermelidir\.$/, element: '/ReceiptAdvice/cac:ReceiptLine/cac:Item/cbc:Name' },
  { rule: 'ResponseCodeCheck', file: 'application-response.xml', edits: [['<cbc:ResponseCode>KABUL</cbc:ResponseCode>', '<cbc:ResponseCode>TAMAM</cbc:ResponseCode>']], message: /^Geçersiz cbc:ResponseCode elemanı değeri 'TAMAM'\./, element: '/ApplicationResponse/cac:DocumentResponse/cac:Response/cbc:ResponseCode' },
  { rule: 'ApplicationResponseProfileIDCheck', file: 'application-response.xml', edits: [['<cbc:ProfileID>TICARIFATURA</cbc:ProfileID>', '<cbc:ProfileID>TEMELFATURA</cbc:ProfileID>']], message: /^Uygulama yanıtı için cbc:ProfileID elemanı değeri 'TICARIFATURA' veya 'IHRACAT' olmalıdır\.$/, element: '/ApplicationResponse/cbc:ProfileID' },
];

function broken(f: Family): string {
  let text = fixture(f.file);
  for (const [from, to] of f.edits) {
    assert.ok(text.includes(from), `${f.file} holds ${JSON.stringify(from)}`);
    text = text.replace(from, to);
  }
  return text;
}

const ruleFindings = (findings: GibFinding[]): GibFinding[] => findings.filter((f) => f.kind === 'rule' && !f.draft);
const engineOrSkip = sharedGibEngine({ rulesOnly: true });

test('each hand-written fixture passes GİB\'s rules', { skip: !engineOrSkip && NO_GIB_DATA }, async () => {
  const engine = await engineOrSkip!;
  for (const file of ['invoice.xml', 'despatch-advice.xml', 'receipt-advice.xml', 'application-response.xml']) {
    const { findings } = await engine.validate(fixture(file));
    assert.deepEqual(findings.map((f) => `${f.line}: ${f.message}`), [], file);
  }
});

for (const f of FAMILIES) {
  test(`${f.rule} (${f.file}): broken, GİB's words at ${f.element}; dropped from the reading, nothing`, { skip: !engineOrSkip && NO_GIB_DATA }, async () => {
    const text = broken(f);
    const { findings } = await (await engineOrSkip!).validate(text);
    const hits = ruleFindings(findings).filter((x) => f.message.test(x.message));
    assert.equal(hits.length, 1, `one finding matching ${f.message}; got:\n${ruleFindings(findings).map((x) => x.message).join('\n')}`);
    assert.equal(hits[0].rule, f.rule);
    assert.equal(hits[0].elementPath, f.element);
    // The line is the element's own: its start tag's line in the text.
    const lines = text.split('\n');
    const name = f.element.split('/').pop()!.replace(/\[\d+\]$/, '');
    assert.ok(lines[hits[0].line - 1].includes(`<${name}`), `line ${hits[0].line} is ${name}'s start tag: ${lines[hits[0].line - 1]}`);
    const without = await sharedGibEngine({ rulesOnly: true, readOptions: { dropAbstractRule: f.rule } })!;
    const rest = ruleFindings((await without.validate(text)).findings).filter((x) => f.message.test(x.message));
    assert.deepEqual(rest, [], `without ${f.rule} the finding is gone`);
  });
}
