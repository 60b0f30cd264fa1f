// Where JSON, plain text and XML say "tax number" (the hover shows only there), and which documents
// count as Nilvera content (a UBL-TR document or a customer list wakes the status bar).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { headerAbove, isTaxNumberLabel, labelBefore, saysTaxNumber } from '../../../../src/editor/hover/taxNumberContext';
import { nilveraContentOf } from '../../../../src/shell/nilveraContent';
import { xmlSaysTaxNumber } from '../../../../src/editor/hover/xmlTaxNumberContext';

const VKN = '1234567890';

/** saysTaxNumber for the first occurrence of `number` in `line`. */
function says(line: string, number = VKN, firstLine?: string): boolean {
  return saysTaxNumber(line, line.indexOf(number), firstLine);
}

test('labels that name a tax number, in English and Turkish, any case, with prefixes and plurals', () => {
  for (const label of ['vkn', 'VKN', 'tckn', 'TCKN', 'taxNumber', 'TaxNumber', 'tax_number', 'VergiNo', 'Vergi No', 'Vergi Numarası', 'VERGİ NUMARASI', 'Vergi Kimlik No', 'T.C. Kimlik No', 'TC No', 'VKN/TCKN', 'identifier', 'partyIdentifier', 'aliciVkn', 'Müşteri VKN', 'customerTaxNumber', 'vkns', 'taxNumbers', 'TaxID', 'VAT number']) {
    assert.equal(isTaxNumberLabel(label), true, label);
  }
  for (const label of ['timestamp', 'createdAt', 'id', 'ID', 'phone', 'Telefon', 'amount', 'Vergi', 'Vergi Dairesi', 'invoiceNumber', 'orderNo', 'iban']) {
    assert.equal(isTaxNumberLabel(label), false, label);
  }
});

test('JSON: the key of the value decides; a Unix timestamp or an id gets no card', () => {
  assert.equal(says(`{ "vkn": "${VKN}" }`), true);
  assert.equal(says(`  "TaxNumber": ${VKN},`), true);
  assert.equal(says(`{"identifier":"${VKN}"}`), true);
  assert.equal(says(`"vkns": ["4540536920", "${VKN}"]`), true, 'a value in a one-line array takes the array key');
  assert.equal(says(`{ "createdAt": 1700000000, "id": "${VKN}" }`, '1700000000'), false, 'timestamp');
  assert.equal(says(`{ "createdAt": 1700000000, "id": "${VKN}" }`), false, 'id');
  assert.equal(says(`"timestamps": [1700000000, ${VKN}]`), false);
  assert.equal(says(`  ${VKN}`), false, 'a bare number on its own line');
  assert.equal(labelBefore(`  "Vergi No" : "${VKN}"`, 16), 'Vergi No');
});

test('plain text: a label before the number, or the column header above it', () => {
  assert.equal(says(`VKN: ${VKN}`), true);
  assert.equal(says(`Vergi No = ${VKN}`), true);
  assert.equal(says(`Alıcı VKN ${VKN}`), true);
  assert.equal(says(`TCKN - 10000000146`, '10000000146'), true);
  assert.equal(says(`VKN: 4540536920, VKN: ${VKN}`), true, 'the second of two labelled numbers');
  assert.equal(says(`Created at ${VKN}`), false);
  assert.equal(says(`VKN 4540536920 and phone ${VKN}`), false, 'the nearest label is "phone"');
  assert.equal(says(`build ${VKN} finished`), false);
  // Columns: the header line's cell in the same column.
  assert.equal(says(`ACME;${VKN};Ankara`, VKN, 'Unvan;VKN;Il'), true);
  assert.equal(says(`ACME;Ankara;${VKN}`, VKN, 'Unvan;Il;Telefon'), false);
  assert.equal(says(`ACME\t${VKN}`, VKN, 'Name\tTax Number'), true);
  // A one-column list under a header.
  assert.equal(says(VKN, VKN, 'VKN'), true);
  assert.equal(says(VKN, VKN, 'timestamps'), false);
  assert.equal(headerAbove('"Unvan";"VKN"', `"ACME";"${VKN}"`, 8), 'VKN');
  assert.equal(says(`VKN`, VKN, undefined), false, 'no number');
});

test('Nilvera content: a UBL-TR invoice or a list with a tax-number column, by content not name', () => {
  const fixtures = path.join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures');
  assert.equal(nilveraContentOf(fs.readFileSync(path.join(fixtures, 'ubl-tr-invoice-valid.xml'), 'utf8')), 'invoice');
  assert.equal(nilveraContentOf(fs.readFileSync(path.join(fixtures, 'customers-tr-excel.csv'), 'latin1')), 'customerList');
  assert.equal(nilveraContentOf(`Unvan,Vergi No,Il\nACME,${VKN},Ankara\n`), 'customerList');
  const pom = '<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><version>1700000000</version></project>\n';
  assert.equal(nilveraContentOf(pom), undefined, 'a pom.xml');
  assert.equal(nilveraContentOf('<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup/></Project>\n'), undefined, 'a .csproj');
  // The namespace alone (a document that only mentions it) is not an invoice: the root must be Invoice.
  assert.equal(nilveraContentOf('<!-- UBL -->\n<notes>urn:oasis:names:specification:ubl:schema:xsd:Invoice-2</notes>\n'), undefined);
  assert.equal(nilveraContentOf('<?xml version="1.0"?>\n<!-- e-Fatura -->\n<inv:Invoice xmlns:inv="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">'), 'invoice');
  assert.equal(nilveraContentOf('name,phone,city\nACME,05321234567,Ankara\n'), undefined, 'a CSV without a tax-number column');
  assert.equal(nilveraContentOf('VKN;\n'), 'customerList');
  assert.equal(nilveraContentOf('The VKN of ACME\n'), undefined, 'prose is not a header');
});

/** xmlSaysTaxNumber for the first occurrence of `number` in `xml`. */
function xmlSays(xml: string, number = VKN): boolean {
  const at = xml.indexOf(number);
  assert.ok(at >= 0, `${number} is not in the XML`);
  return xmlSaysTaxNumber(xml.slice(0, at));
}

test('XML: a card where the element says tax number (tax scheme, UBL-TR place, name), none for phones, orders, parts, registries', () => {
  // Party identifications under a tax scheme, any prefix, either quote, white space and CDATA.
  assert.equal(xmlSays(`<cac:PartyIdentification><cbc:ID schemeID="VKN">${VKN}</cbc:ID>`), true);
  assert.equal(xmlSays(`<ID schemeID='tckn'>\n   10000000146</ID>`, '10000000146'), true);
  assert.equal(xmlSays(`<cbc:ID schemeID="VKN"><![CDATA[${VKN}]]></cbc:ID>`), true);
  for (const scheme of ['VKN_TCKN', 'ARACIKURUMVKN', 'MALSAHIBIVKNTCKN']) assert.equal(xmlSays(`<cbc:ID schemeID="${scheme}">${VKN}</cbc:ID>`), true, scheme);
  // The driver's TCKN and a signature's ID by their place; a traveller's NationalityID is a country code's place.
  assert.equal(xmlSays(`<cac:DriverPerson>\r\n  <cbc:FirstName>Hasan</cbc:FirstName>\r\n  <cbc:NationalityID>10000000146</cbc:NationalityID>`, '10000000146'), true);
  assert.equal(xmlSays(`<cac:Person><cbc:FirstName>Anna</cbc:FirstName><cbc:NationalityID>10000000146</cbc:NationalityID>`, '10000000146'), false);
  assert.equal(xmlSays(`<cac:Signature><cbc:ID>${VKN}</cbc:ID>`), true);
  assert.equal(xmlSays(`<cac:Signature><cac:SignatoryParty><x/></cac:SignatoryParty><cbc:ID>${VKN}</cbc:ID>`), true, 'siblings before it are skipped over');
  assert.equal(xmlSays(`<cac:InvoiceLine><cbc:ID>${VKN}</cbc:ID>`), false, 'a line number');
  // Elements and attributes named for a tax number, in any XML.
  assert.equal(xmlSays(`<musteri><VKN>${VKN}</VKN>`), true);
  assert.equal(xmlSays(`<party taxNumber="${VKN}" name="x"/>`), true);
  assert.equal(xmlSays(`<sh:Identifier Authority="VKN_TCKN">${VKN}</sh:Identifier>`), true);
  // What real UBL-TR files hold in 10 or 11 digits that is no tax number.
  for (const xml of [
    `<cbc:Telephone>${VKN}</cbc:Telephone>`,
    `<cbc:Telefax>${VKN}</cbc:Telefax>`,
    `<cbc:ID schemeID="MERSISNO">${VKN}</cbc:ID>`,
    `<cbc:ID schemeID="TICARETSICILNO">${VKN}</cbc:ID>`,
    `<cbc:ID schemeID="TELEFONNO">${VKN}</cbc:ID>`,
    `<cac:OrderReference><cbc:ID>${VKN}</cbc:ID>`,
    `<cbc:Name>Rulman (parça no ${VKN})</cbc:Name>`,
    `<cbc:Note>VKN ${VKN}</cbc:Note>`,
    `<a>${VKN}</a>`,
    `<a stamp="${VKN}"/>`,
    `<!-- <cbc:ID schemeID="VKN"> --><cbc:Note>${VKN}</cbc:Note>`,
    `<cbc:ID schemeID="VKN">see <!-- ${VKN} -->`,
    `</cbc:ID>${VKN}`,
    VKN,
  ]) {
    assert.equal(xmlSays(xml), false, xml);
  }
});

test('Nilvera content: every UBL-TR document type by its root and namespace, prefixed or not', () => {
  const ns = (type: string) => `urn:oasis:names:specification:ubl:schema:xsd:${type}-2`;
  for (const type of ['Invoice', 'DespatchAdvice', 'ReceiptAdvice', 'CreditNote', 'ApplicationResponse']) {
    assert.equal(nilveraContentOf(`<?xml version="1.0"?>\r\n<${type} xmlns="${ns(type)}" xmlns:cac="urn:cac">`), 'invoice', type);
    assert.equal(nilveraContentOf(`<d:${type} xmlns:cbc="urn:cbc"\n  xmlns:d='${ns(type)}'>`), 'invoice', `${type} with a prefix`);
  }
  assert.equal(nilveraContentOf(`<DespatchAdvice xmlns="${ns('Invoice')}">`), undefined, 'a root in another type\'s namespace');
  assert.equal(nilveraContentOf(`<d:DespatchAdvice xmlns="${ns('DespatchAdvice')}" xmlns:d="urn:other">`), undefined, 'the prefix is bound elsewhere');
  assert.equal(nilveraContentOf(`<!-- <Invoice xmlns="${ns('Invoice')}"> -->\n<project xmlns="${ns('Invoice')}">`), undefined, 'a commented-out root');
  assert.equal(nilveraContentOf(`<Order xmlns="${ns('Order')}">`), undefined, 'a UBL type the platform does not exchange');
});
