// Where JSON and plain text say "tax number" (the hover shows only there), and which documents count
// as Nilvera content (an invoice or a customer list wakes the status bar).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { headerAbove, isTaxNumberLabel, labelBefore, saysTaxNumber } from '../../src/editor/hover/taxNumberContext';
import { nilveraContentOf } from '../../src/shell/nilveraContent';

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
  const fixtures = path.join(__dirname, '..', '..', '..', 'test', 'fixtures');
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
