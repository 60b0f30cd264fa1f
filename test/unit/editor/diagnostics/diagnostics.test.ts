// The pure part of the invoice and CSV diagnostics: the UBL scanner, the CSV scanner and the rules
// (checksums; receiver registration against the profile) with their wording.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanUbl } from '../../../../src/editor/diagnostics/ublScan';
import { E_INVOICE_PROFILES, UBL_DOCUMENT_TYPES } from '../../../../src/domain/ubl/documentTypes';
import { scanCsv } from '../../../../src/domain/csvScan';
import { foldHeader, isTaxNumberHeader } from '../../../../src/domain/headerMatch';
import { correctedNumber, csvFindings, documentFindings, type Finding, type RegistryLookup } from '../../../../src/editor/diagnostics/rules';
import { findingMessage, type Translator } from '../../../../src/editor/diagnostics/messages';
import type { OfflineTaxpayer } from '../../../../src/registry/offlineLookup';
import { completeTckn, completeVkn } from '../../../../src/domain/taxId';

const root = path.resolve(__dirname, '..', '..', '..', '..', '..');
const fixture = (name: string) => fs.readFileSync(path.join(root, 'test', 'fixtures', name), 'utf8');

/** English wording with {n} filled in, as vscode.l10n.t does without a bundle. */
const UBL_INVOICE_NAMESPACE = UBL_DOCUMENT_TYPES[0].namespace;
/** The findings with only an Invoice registry list (or none). */
const invoiceFindings = (scan: ReturnType<typeof scanUbl>, lookup: RegistryLookup | undefined) => documentFindings(scan, lookup ? (list) => (list === 'Invoice' ? lookup : undefined) : undefined);

const english: Translator = { t: (message, ...args) => message.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)])) };

function invoice(body: string, options: { prefix?: string; profile?: string } = {}): string {
  const p = options.prefix ? `${options.prefix}:` : '';
  const xmlns = options.prefix ? `xmlns:${options.prefix}` : 'xmlns';
  return `<?xml version="1.0"?>\n<${p}Invoice ${xmlns}="${UBL_INVOICE_NAMESPACE}" xmlns:cac="urn:cac" xmlns:cbc="urn:cbc">\n` +
    (options.profile ? `<cbc:ProfileID>${options.profile}</cbc:ProfileID>\n` : '') + body + `\n</${p}Invoice>\n`;
}

const party = (role: string, id: string, attrs = 'schemeID="VKN"') =>
  `<cac:${role}><cac:Party><cac:PartyIdentification><cbc:ID ${attrs}>${id}</cbc:ID></cac:PartyIdentification></cac:Party></cac:${role}>`;

test('both fixtures: profile, supplier and customer VKNs at their exact offsets; MERSIS ignored', () => {
  for (const [name, customer] of [['ubl-tr-invoice-valid.xml', '1234567890'], ['ubl-tr-invoice-bad-customer-vkn.xml', '1234567891']] as const) {
    const text = fixture(name);
    const scan = scanUbl(text);
    assert.equal(scan.documentType?.kind, 'Invoice', name);
    assert.equal(scan.profileId?.value, 'TICARIFATURA');
    assert.equal(text.slice(scan.profileId!.start, scan.profileId!.end), 'TICARIFATURA');
    assert.deepEqual(scan.taxNumbers.map((p) => [p.scheme.id, p.value, p.role, p.path.join('/')]), [
      ['VKN', '4540536920', 'supplier', 'AccountingSupplierParty/Party/PartyIdentification/ID'],
      ['VKN', customer, 'customer', 'AccountingCustomerParty/Party/PartyIdentification/ID'],
    ]);
    for (const p of scan.taxNumbers) assert.equal(text.slice(p.start, p.end), p.value);
    assert.equal(text.indexOf(customer), scan.taxNumbers[1].start);
  }
});

test('any prefix on the root, attributes in any order, single quotes, white space and CDATA', () => {
  const body =
    party('AccountingSupplierParty', ' \n 4540536920 \n ', `schemeName='x' schemeID = 'VKN'`) +
    party('AccountingCustomerParty', '<![CDATA[1234567890]]>', `schemeAgencyID="y" schemeID="VKN"`) +
    `<cac:BuyerCustomerParty><cac:Party><cac:PartyIdentification><!-- a note --><cbc:ID schemeID="TCKN">10000000146</cbc:ID></cac:PartyIdentification></cac:Party></cac:BuyerCustomerParty>`;
  const text = invoice(body, { prefix: 'inv', profile: ' TEMELFATURA ' });
  const scan = scanUbl(text);
  assert.equal(scan.documentType?.kind, 'Invoice');
  assert.equal(scan.profileId?.value, 'TEMELFATURA');
  assert.deepEqual(scan.taxNumbers.map((p) => [p.scheme.id, p.value, p.role]), [
    ['VKN', '4540536920', 'supplier'],
    ['VKN', '1234567890', 'customer'],
    ['TCKN', '10000000146', 'buyer'],
  ]);
  // The range of a CDATA value is the digits, not the markers.
  const cdata = scan.taxNumbers[1];
  assert.equal(text.slice(cdata.start, cdata.end), '1234567890');
});

test('other schemeIDs, IDs outside PartyIdentification and a ProfileID deeper down are ignored', () => {
  const body =
    party('AccountingSupplierParty', '0454053692000015', 'schemeID="MERSISNO"') +
    party('AccountingCustomerParty', '1234567890', 'schemeID="TICARETSICILNO"') +
    `<cbc:ID schemeID="VKN">9999999999</cbc:ID><cac:AdditionalDocumentReference><cbc:ProfileID>EARSIVFATURA</cbc:ProfileID></cac:AdditionalDocumentReference>`;
  const scan = scanUbl(invoice(body, { profile: 'TICARIFATURA' }));
  assert.deepEqual(scan.taxNumbers, []);
  assert.equal(scan.profileId?.value, 'TICARIFATURA');
});

test('children of the root without parties are skipped whole, yet parties, comments and CDATA inside lines still count', () => {
  const line = (n: number, inner = '') => `<cac:InvoiceLine><cbc:ID>${n}</cbc:ID>${inner}<cbc:Note>x</cbc:Note></cac:InvoiceLine>`;
  const delivery = `<cac:Delivery><cac:DeliveryParty><cac:PartyIdentification><cbc:ID schemeID="VKN">${completeVkn('222222222')}</cbc:ID></cac:PartyIdentification></cac:DeliveryParty></cac:Delivery>`;
  const tricky = `<!-- </cac:InvoiceLine> --><cac:X><cac:PartyIdentification><cbc:ID schemeID="TCKN">10000000146</cbc:ID></cac:PartyIdentification></cac:X>`;
  const body = party('AccountingCustomerParty', '1234567890') + line(1) + line(2, delivery) + line(3) + line(4, tricky) + line(5, '<cbc:Note><![CDATA[</cac:InvoiceLine>]]></cbc:Note>') +
    party('BuyerCustomerParty', '4540536920');
  const scan = scanUbl(invoice(body, { profile: 'TICARIFATURA' }));
  assert.deepEqual(scan.taxNumbers.map((p) => [p.value, p.role, p.path.join('/')]), [
    ['1234567890', 'customer', 'AccountingCustomerParty/Party/PartyIdentification/ID'],
    [completeVkn('222222222'), 'deliveryParty', 'InvoiceLine/Delivery/DeliveryParty/PartyIdentification/ID'],
    ['10000000146', 'other', 'InvoiceLine/X/PartyIdentification/ID'],
    ['4540536920', 'buyer', 'BuyerCustomerParty/Party/PartyIdentification/ID'],
  ]);
});

test('a root that is not a UBL-TR document type in its own namespace is not scanned', () => {
  assert.equal(scanUbl('<Invoice><cac:PartyIdentification><cbc:ID schemeID="VKN">1</cbc:ID></cac:PartyIdentification></Invoice>').documentType, undefined);
  assert.deepEqual(scanUbl('<Invoice><cac:PartyIdentification><cbc:ID schemeID="VKN">1</cbc:ID></cac:PartyIdentification></Invoice>').taxNumbers, []);
  assert.equal(scanUbl(`<CreditNote xmlns="${UBL_INVOICE_NAMESPACE}"/>`).documentType, undefined);
  assert.equal(scanUbl(`<x:Invoice xmlns="${UBL_INVOICE_NAMESPACE}" xmlns:x="urn:other"/>`).documentType, undefined);
  assert.equal(scanUbl('').documentType, undefined);
});

test('a half-typed document: an unclosed value at the end still counts, a half-typed tag ends nothing', () => {
  const text = fixture('ubl-tr-invoice-valid.xml');
  const cut = text.indexOf('1234567890') + 6; // typing the customer's VKN, end of the text
  const half = scanUbl(text.slice(0, cut));
  assert.equal(half.documentType?.kind, 'Invoice');
  assert.deepEqual(half.taxNumbers.map((p) => p.value), ['4540536920', '123456']);
  // A tag being typed in the middle (no '>') does not swallow the following elements.
  const broken = text.replace('<cac:PartyName><cbc:Name>Örnek', '<cac:PartyName <cbc:Name>Örnek');
  assert.deepEqual(scanUbl(broken).taxNumbers.map((p) => p.value), ['4540536920', '1234567890']);
  // An unterminated comment ends the scan without throwing.
  assert.deepEqual(scanUbl(text.slice(0, text.indexOf('<cac:AccountingCustomerParty>')) + '<!-- open').taxNumbers.map((p) => p.value), ['4540536920']);
});

test('CSV: the Turkish Excel fixture (BOM, ;, CRLF, quoted line breaks) gives the tax column cells at their offsets', () => {
  const text = fixture('customers-tr-excel.csv');
  const scan = scanCsv(text);
  assert.equal(scan.delimiter, ';');
  assert.deepEqual(scan.columns, [{ index: 1, header: 'VKN/TCKN' }]);
  assert.equal(scan.cells.length, 20);
  for (const c of scan.cells) assert.equal(text.slice(c.start, c.end), c.value);
  const invalid = csvFindings(scan).map((f) => f.taxNumber);
  // customers-tr-excel.expected.txt: rows 4, 10, 13 and 18 have bad tax numbers.
  assert.deepEqual(invalid, ['2940095702', '2596120531', '905978176', '49798834353']);
});

test('CSV: separators sniffed, quoted cells with separators and "" inside, empty cells and the header skipped', () => {
  const bad = completeVkn('123456789').slice(0, 9) + '1';
  const comma = `Name,"Tax Number",City\r\n"A, B",${completeVkn('111111111')},X\r\n"say ""hi""", "${bad}" ,Y\r\nC,,Z\n`;
  const scan = scanCsv(comma);
  assert.equal(scan.delimiter, ',');
  assert.deepEqual(scan.cells.map((c) => [c.record, c.value]), [[1, completeVkn('111111111')], [2, bad]]);
  const quoted = scan.cells[1];
  assert.equal(comma.slice(quoted.start, quoted.end), bad);
  assert.deepEqual(csvFindings(scan).map((f) => f.taxNumber), [bad]);

  const tab = `tax_id\tname\n${completeTckn('523456781')}\tx\n12345\ty\n`;
  const tabScan = scanCsv(tab);
  assert.equal(tabScan.delimiter, '\t');
  assert.deepEqual(csvFindings(tabScan).map((f) => [f.taxNumber, f.invalid?.problem]), [['12345', 'length']]);
  // A CSV without a tax-number header yields nothing.
  assert.deepEqual(scanCsv('a;b\n1234567891;2\n').cells, []);
});

test('CSV headers: Turkish and English spellings, case and Turkish dotted/dotless I folded', () => {
  for (const h of ['VKN', 'tckn', 'Vergi No', 'VERGİ NUMARASI', 'Vergi Numarası', 'VKN/TCKN', 'TC Kimlik No', 'T.C. Kimlik No', 'TaxNumber', 'Tax Number', 'tax_id', ' vkn ']) {
    assert.equal(isTaxNumberHeader(h), true, h);
  }
  for (const h of ['Ünvan', 'Vergi Dairesi', 'Telefon', 'Tax Office', 'No', 'VKN Notu']) assert.equal(isTaxNumberHeader(h), false, h);
  assert.equal(foldHeader('VERGİ NUMARASI'), foldHeader('vergi numarası'));
});

test('rules: a bad checksum is an error naming the kind and the expected check digit(s)', () => {
  const findings = invoiceFindings(scanUbl(fixture('ubl-tr-invoice-bad-customer-vkn.xml')), undefined);
  const error = findings.find((f) => f.severity === 'error');
  assert.ok(error);
  assert.equal(error.taxNumber, '1234567891');
  assert.equal(findingMessage(english, error), 'Invalid VKN 1234567891: the 10th digit should be 0 for these first nine digits.');
  assert.equal(correctedNumber(error), '1234567890');
  // With the receiver invalid there is no registry note.
  assert.deepEqual(findings.map((f) => f.code), ['invalid-tax-id']);

  const tckn = completeTckn('523456781');
  const wrongTckn = tckn.slice(0, 9) + String((Number(tckn[9]) + 1) % 10) + tckn[10];
  const scan = scanUbl(invoice(party('AccountingCustomerParty', wrongTckn, 'schemeID="TCKN"') + party('AccountingSupplierParty', '45405369200', 'schemeID="VKN"')));
  const messages = invoiceFindings(scan, undefined).filter((f) => f.severity === 'error').map((f) => findingMessage(english, f));
  assert.deepEqual(messages, [
    `Invalid TCKN ${wrongTckn}: the 10th and 11th digits should be ${tckn[9]} and ${tckn[10]} for these first nine digits.`,
    'Invalid VKN 45405369200: a VKN has 10 digits, this has 11.',
  ]);
});

function taxpayer(taxNumber: string, aliases: Array<{ name: string; kind: 'PK' | 'GB'; deleted?: string }>): OfflineTaxpayer {
  return { taxNumber, title: 'Anadolu Gıda', downloadedAt: '2026-11-20T00:00:00.000Z', aliases: aliases.map((a) => ({ ...a, document: 'Invoice' })) };
}

test('rules: receiver registration against the profile (registered, deregistered, not registered)', () => {
  const receiver = '1234567890';
  const doc = (profile: string) => scanUbl(invoice(party('AccountingSupplierParty', '4540536920') + party('AccountingCustomerParty', receiver), { profile }));
  const registered: RegistryLookup = (n) => (n === receiver ? taxpayer(n, [{ name: 'urn:mail:gb@x', kind: 'GB' }, { name: 'urn:mail:pk@x', kind: 'PK' }]) : undefined);
  const deregistered: RegistryLookup = (n) => (n === receiver ? taxpayer(n, [{ name: 'urn:mail:pk@x', kind: 'PK', deleted: '2025-01-01' }]) : undefined);
  const nobody: RegistryLookup = () => undefined;
  const summary = (fs: Finding[]) => fs.map((f) => [f.code, f.severity, f.status, f.activePkAlias]);

  for (const profile of E_INVOICE_PROFILES) {
    assert.deepEqual(summary(invoiceFindings(doc(profile), registered)), [], profile);
    assert.deepEqual(summary(invoiceFindings(doc(profile), nobody)), [['not-e-invoice-user', 'warning', 'notRegistered', undefined]], profile);
  }
  const gone = invoiceFindings(doc('TICARIFATURA'), deregistered);
  assert.deepEqual(summary(gone), [['not-e-invoice-user', 'warning', 'deregistered', undefined]]);
  assert.match(findingMessage(english, gone[0]), /^1234567890 is not an e-invoice user \(every alias deleted.*e-Arşiv expected, the profile is TICARIFATURA\.$/);
  assert.equal(findingMessage(english, invoiceFindings(doc('TEMELFATURA'), nobody)[0]), '1234567890 is not an e-invoice user: e-Arşiv expected, the profile is TEMELFATURA.');

  const archive = invoiceFindings(doc('EARSIVFATURA'), registered);
  assert.deepEqual(summary(archive), [['e-invoice-user-on-e-archive', 'warning', 'registered', 'urn:mail:pk@x']]);
  assert.equal(findingMessage(english, archive[0]), '1234567890 is a registered e-invoice user (Anadolu Gıda): an e-invoice profile expected, not EARSIVFATURA.');
  assert.deepEqual(invoiceFindings(doc('EARSIVFATURA'), nobody), []);
  assert.deepEqual(invoiceFindings(doc('EARSIVFATURA'), deregistered), []);
  // An unknown profile gets no registry rule.
  assert.deepEqual(invoiceFindings(doc('BILINMEYEN'), nobody), []);

  // No index: one information finding at the receiver's number.
  const text = invoice(party('AccountingSupplierParty', '4540536920') + party('AccountingCustomerParty', receiver), { profile: 'TICARIFATURA' });
  const info = invoiceFindings(scanUbl(text), undefined);
  assert.deepEqual(info.map((f) => [f.code, f.severity]), [['registry-not-downloaded', 'information']]);
  assert.equal(text.slice(info[0].start, info[0].end), receiver);
  assert.equal(text.lastIndexOf(receiver), info[0].start);
});

const ublFixture = (name: string) => fixture(path.join('ubl', name));
const numbersOf = (text: string) => scanUbl(text).taxNumbers.map((n) => `${n.role} ${n.value}`);

test('half-typed text in every form: what comes before is found, a run-on value gives nothing, the rest follows as far as the text allows', () => {
  const text = ublFixture('invoice-ticari-signed.xml');
  const all = ['signatory 4540536920', 'signatory 4540536920', 'supplier 4540536920', 'customer 1234567891'];
  assert.deepEqual(numbersOf(text), all);
  const customer = '<cbc:ID schemeID="VKN">1234567891';
  // An unclosed CDATA in the customer's number: the rest of the file is its text, too long for a value.
  assert.deepEqual(numbersOf(text.replace(customer, '<cbc:ID schemeID="VKN"><![CDATA[1234567891')), all.slice(0, 3));
  // The same at the very end of the text: the typed digits count.
  const cut = text.indexOf(customer) + customer.length - 4;
  assert.deepEqual(numbersOf(text.slice(0, cut).replace('<cbc:ID schemeID="VKN">123456', '<cbc:ID schemeID="VKN"><![CDATA[123456')), [...all.slice(0, 3), 'customer 123456']);
  // An unclosed comment ends the scan; an unclosed quote spoils only its own tag.
  assert.deepEqual(numbersOf(text.replace('<cac:AccountingCustomerParty>', '<!-- <cac:AccountingCustomerParty>')), all.slice(0, 3));
  assert.deepEqual(numbersOf(text.replace(customer, '<cbc:ID schemeID="VKN>1234567891')), all.slice(0, 3));
  assert.deepEqual(numbersOf(text.replace('<cbc:ID schemeID="VKN">4540536920</cbc:ID>\n      </cac:PartyIdentification>\n      <cac:PartyIdentification>\n        <cbc:ID schemeID="MERSISNO">', '<cbc:ID schemeID="VKN">4540536920</cbc:ID>\n      </cac:PartyIdentification>\n      <cac:PartyIdentification>\n        <cbc:ID schemeID="MERSISNO>')), all);
  // A start tag being typed (no '>') and a missing end tag leave the other parties found.
  assert.deepEqual(numbersOf(text.replace('<cac:PaymentMeans>', '<cac:PaymentMeans')), all);
  assert.deepEqual(numbersOf(text.replace('</cac:AccountingSupplierParty>', '')).map((n) => n.split(' ')[1]), all.map((n) => n.split(' ')[1]));
});

test('subtrees are skipped at any depth, even below an element whose end tag is missing, but never one holding a number', () => {
  const vkn = completeVkn('387512409');
  const line = (n: number, inner = '') => `<cac:InvoiceLine><cbc:ID>${n}</cbc:ID>${inner}<cac:Item><cbc:Name>x</cbc:Name></cac:Item></cac:InvoiceLine>`;
  const delivery = `<cac:Delivery><cac:DeliveryAddress><cbc:CityName>Tuzla</cbc:CityName></cac:DeliveryAddress><cac:DeliveryParty><cac:PartyIdentification><cbc:ID schemeID="VKN">${vkn}</cbc:ID></cac:PartyIdentification></cac:DeliveryParty></cac:Delivery>`;
  const body = `<cac:TaxTotal><cbc:TaxAmount currencyID="TRY">1</cbc:TaxAmount></cac:TaxTotal>` + line(1) + line(2, delivery) + line(3);
  const paths = (text: string) => scanUbl(text).taxNumbers.map((n) => `${n.role} ${n.path.join('/')}`);
  // `</cac:Delivery` is also the start of `</cac:DeliveryAddress>`: the skip must not stop there.
  assert.deepEqual(paths(invoice(body)), ['deliveryParty InvoiceLine/Delivery/DeliveryParty/PartyIdentification/ID']);
  // TaxTotal left open: the lines are its children now, still skipped or scanned as they should be.
  assert.deepEqual(paths(invoice(body.replace('</cac:TaxTotal>', ''))), ['deliveryParty TaxTotal/InvoiceLine/Delivery/DeliveryParty/PartyIdentification/ID']);
  // A value too long to be any identifier (a paste gone wrong) gives no finding.
  assert.deepEqual(paths(invoice(party('AccountingCustomerParty', '1'.repeat(300)))), []);
});

test('rules: a despatch advice is checked against the e-despatch list, and a missing list is named', () => {
  const text = ublFixture('despatch-advice.xml');
  const receiver = '7351948201';
  const scan = scanUbl(text);
  const despatchUser: RegistryLookup = (n) => (n === receiver ? { ...taxpayer(n, [{ name: 'urn:mail:irsaliyepk@kuzey', kind: 'PK' }]), aliases: [{ name: 'urn:mail:irsaliyepk@kuzey', kind: 'PK', document: 'DespatchAdvice' }] } : undefined);
  const gone: RegistryLookup = (n) => (n === receiver ? taxpayer(n, [{ name: 'urn:mail:pk@x', kind: 'PK', deleted: '2025-01-01' }]) : undefined);
  const nobody: RegistryLookup = () => undefined;
  const registry = (despatch: RegistryLookup | undefined, invoices?: RegistryLookup) => (list: string) => (list === 'DespatchAdvice' ? despatch : invoices);
  const notes = (lookups: ReturnType<typeof registry> | undefined) => documentFindings(scan, lookups).filter((f) => f.severity !== 'error');

  assert.deepEqual(notes(registry(despatchUser)), []);
  const missing = notes(registry(nobody));
  assert.deepEqual(missing.map((f) => [f.code, f.severity, f.role, text.slice(f.start, f.end)]), [['not-e-despatch-user', 'warning', 'deliveryCustomer', receiver]]);
  assert.equal(findingMessage(english, missing[0]), `${receiver} is not an e-despatch user: an e-İrsaliye under TEMELIRSALIYE cannot be delivered to it.`);
  assert.match(findingMessage(english, notes(registry(gone))[0]), /every alias deleted in the e-despatch registry list/);
  // The e-invoice list says nothing about e-despatch users: the missing list is named.
  const onlyInvoices = notes(registry(undefined, despatchUser));
  assert.deepEqual(onlyInvoices.map((f) => f.code), ['despatch-registry-not-downloaded']);
  assert.equal(findingMessage(english, onlyInvoices[0]), 'The e-despatch registry list (DespatchAdvice) is not downloaded, only the e-invoice list: e-despatch status not checked.');
  // And the other way round for an invoice when only the e-despatch list is there.
  const invoiceScan = scanUbl(ublFixture('invoice-hks.xml'));
  const invoiceNote = documentFindings(invoiceScan, registry(nobody)).filter((f) => f.code === 'registry-not-downloaded');
  assert.equal(findingMessage(english, invoiceNote[0]), 'The e-invoice registry list is not downloaded (only the e-despatch list is): e-invoice status not checked.');
  // A receipt advice goes back to the despatch's sender.
  const receipt = documentFindings(scanUbl(ublFixture('receipt-advice.xml')), registry(nobody)).filter((f) => f.severity === 'warning');
  assert.deepEqual(receipt.map((f) => [f.code, f.role, f.taxNumber]), [['not-e-despatch-user', 'despatchSupplier', '4540536920']]);
  // No profile rule for an e-Müstahsil receipt or an application response, list or not.
  for (const name of ['e-mustahsil.xml', 'application-response.xml']) assert.deepEqual(documentFindings(scanUbl(ublFixture(name)), registry(nobody, nobody)).filter((f) => f.severity !== 'error'), [], name);
});

test("rules: GİB's placeholder buyer is information only, never looked up in the registry", () => {
  const scan = scanUbl(ublFixture('invoice-earsiv-abroad.xml'));
  const nobody: RegistryLookup = () => undefined;
  for (const lookups of [undefined, () => nobody]) {
    assert.deepEqual(documentFindings(scan, lookups).map((f) => [f.code, f.severity, f.taxNumber]), [['gib-placeholder', 'information', '2222222222']]);
  }
});
