// The structured view's model (src/preview/model), on the built-in samples of every profile and document
// type (media/samples) and on fixtures whose totals do not add up: parties and their tax numbers, the
// registry status from a downloaded list, lines, taxes and withholdings, totals and their checks, the
// embedded design; and the XML reader it stands on. What it says about tax numbers is held against the
// editor's findings: test/unit/preview/model/editorAgreement.test.ts.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkIdentification, readDocument, type RegistryList } from '../../../../src/preview/model/readDocument';
import { add, decimalText, equal, parseDecimal } from '../../../../src/preview/model/decimal';
import { readXml, type XmlElement } from '../../../../src/domain/ubl/xmlReader';
import type { StructuredModel } from '../../../../src/preview/model/types';
import type { OfflineTaxpayer } from '../../../../src/registry/offlineLookup';
import { largeInvoice } from '../../../support/largeInvoice';

const root = path.resolve(__dirname, '..', '..', '..', '..', '..');
const sample = (name: string) => fs.readFileSync(path.join(root, 'media', 'samples', name), 'utf8');
const fixture = (name: string) => fs.readFileSync(path.join(root, 'test', 'fixtures', name), 'utf8');

function model(text: string, options?: Parameters<typeof readDocument>[1]): StructuredModel {
  const out = readDocument(text, options).result;
  assert.ok(out.ok, JSON.stringify(out));
  return out.model;
}

const ids = (m: StructuredModel) => m.parties.map((p) => [p.role, p.identifications.filter((i) => i.taxNumber).map((i) => `${i.scheme} ${i.value} ${i.taxNumber?.verdict}`).join(', ')]);
const failed = (m: StructuredModel) => m.checks.filter((c) => !c.ok).map((c) => `${c.id}: ${c.stated} stated, ${c.computed} computed, ${c.difference} off`);
const checked = (m: StructuredModel) => m.checks.map((c) => c.id);

test('every invoice profile sample: type, profile, parties with valid tax numbers, lines, and totals that add up', () => {
  const cases: Array<[string, string, string, number, string[]]> = [
    ['invoice-TEMELFATURA.xml', 'TEMELFATURA', 'SATIS', 2, ['supplier', 'customer']],
    ['invoice-TICARIFATURA.xml', 'TICARIFATURA', 'SATIS', 2, ['supplier', 'customer']],
    ['invoice-EARSIVFATURA.xml', 'EARSIVFATURA', 'SATIS', 2, ['supplier', 'customer']],
    ['invoice-IHRACAT.xml', 'IHRACAT', 'ISTISNA', 1, ['supplier', 'customer', 'buyer']],
    ['invoice-TEVKIFAT.xml', 'TICARIFATURA', 'TEVKIFAT', 1, ['supplier', 'customer']],
  ];
  for (const [file, profile, typeCode, lines, roles] of cases) {
    const m = model(sample(file));
    assert.equal(m.kind, 'Invoice', file);
    assert.equal(m.profile, profile, file);
    assert.equal(m.typeCode, typeCode, file);
    assert.deepEqual(m.parties.map((p) => p.role), roles, file);
    for (const [role, numbers] of ids(m)) if (role !== 'buyer') assert.match(numbers, /^(VKN \d{10}|TCKN \d{11}) valid$/, `${file} ${role}`);
    assert.equal(m.lineCount, lines, file);
    assert.ok(m.lines.every((l) => l.name && l.amount?.numeric && l.quantity), file);
    assert.deepEqual(failed(m), [], file);
    assert.ok(checked(m).includes('lines') && checked(m).includes('taxSubtotals') && checked(m).includes('payable'), `${file}: ${checked(m).join(', ')}`);
    assert.ok(m.totals.some((t) => t.key === 'PayableAmount'), file);
  }
});

test('the samples: EARSIVFATURA to a person (TCKN, name from cac:Person); IHRACAT to customs in USD with the foreign buyer and the exemption', () => {
  const earsiv = model(sample('invoice-EARSIVFATURA.xml'));
  const person = earsiv.parties.find((p) => p.role === 'customer');
  assert.equal(person?.name, 'Ayşe Yılmaz');
  assert.deepEqual(person?.identifications.map((i) => [i.scheme, i.value]), [['TCKN', '25849173616']]);
  const export_ = model(sample('invoice-IHRACAT.xml'));
  assert.equal(export_.currency, 'USD');
  assert.deepEqual(export_.parties.find((p) => p.role === 'customer')?.identifications.map((i) => i.value), ['1460415308']);
  const buyer = export_.parties.find((p) => p.role === 'buyer');
  assert.equal(buyer?.name, 'Hansen Trading GmbH');
  assert.deepEqual(buyer?.identifications.map((i) => [i.scheme, i.value, i.taxNumber, i.findings]), [['PARTYTYPE', 'EXPORT', undefined, []]]);
  assert.deepEqual(export_.taxes[0].subtotals.map((s) => [s.percent, s.amount?.value, s.exemption]), [['0', '0.00', '301 11/1-a Mal ihracatı']]);
  assert.equal(export_.totals.find((t) => t.key === 'PayableAmount')?.amount.currency, 'USD');
});

test('TEVKIFAT: the withholding is its own total, checked against its subtotals and taken off the payable amount', () => {
  const m = model(sample('invoice-TEVKIFAT.xml'));
  assert.equal(m.withholdings.length, 1);
  assert.equal(m.withholdings[0].total?.value, '3500.00');
  assert.deepEqual(m.withholdings[0].subtotals.map((s) => [s.code, s.percent, s.taxable?.value, s.amount?.value]), [['614', '70', '5000.00', '3500.00']]);
  assert.deepEqual(m.lines[0].withholdings.map((w) => w.amount?.value), ['3500.00']);
  const payable = m.checks.find((c) => c.id === 'payable');
  assert.deepEqual([payable?.ok, payable?.stated, payable?.computed], [true, '26500.00', '26500.00']);
  assert.ok(m.checks.some((c) => c.id === 'withholdingSubtotals' && c.ok));
});

test('the other document types: e-Müstahsil (CreditNote), despatch advice with carrier and driver, receipt advice, application response', () => {
  const mm = model(sample('e-mustahsil-makbuzu.xml'));
  assert.deepEqual([mm.kind, mm.profile, mm.typeCode, mm.lineCount], ['CreditNote', 'EARSIVBELGE', 'MUSTAHSILMAKBUZ', 1]);
  assert.deepEqual(mm.lines.map((l) => [l.quantity, l.unit, l.amount?.value]), [['12000', 'KGM', '138000.00']]);
  assert.deepEqual(failed(mm), []);
  assert.ok(checked(mm).includes('payable') && checked(mm).includes('withholdingSubtotals'));

  const despatch = model(sample('despatch-advice.xml'));
  assert.deepEqual([despatch.kind, despatch.profile, despatch.typeCode, despatch.lineCount], ['DespatchAdvice', 'TEMELIRSALIYE', 'SEVK', 2]);
  assert.deepEqual(ids(despatch), [
    ['despatchSupplier', 'VKN 7312058406 valid'],
    ['deliveryCustomer', 'VKN 3840192636 valid'],
    ['carrier', 'VKN 6023184751 valid'],
    ['driver', 'TCKN 31604728922 valid'],
  ]);
  assert.deepEqual(despatch.parties.map((p) => p.element), ['DespatchSupplierParty', 'DeliveryCustomerParty', 'CarrierParty', 'DriverPerson']);
  assert.equal(despatch.parties.find((p) => p.role === 'driver')?.name, 'Mehmet Demir');
  assert.deepEqual(despatch.vehicles, ['34ABC123']);
  assert.deepEqual([despatch.totals, despatch.checks], [[], []]);
  assert.deepEqual(despatch.lines.map((l) => [l.name, l.quantity]), [['Ayçiçek yağı 5 L', '120'], ['Un 25 kg', '40']]);

  const receipt = model(sample('receipt-advice.xml'));
  assert.deepEqual([receipt.kind, receipt.lineCount, receipt.references], ['ReceiptAdvice', 2, [{ type: 'DespatchDocumentReference', id: 'IRS2026000000017' }]]);
  assert.deepEqual(receipt.lines.map((l) => l.quantity), ['118', '40']);

  const response = model(sample('application-response.xml'));
  assert.equal(response.kind, 'ApplicationResponse');
  assert.deepEqual(ids(response), [['sender', 'VKN 3840192636 valid'], ['receiver', 'VKN 7312058406 valid']]);
  assert.deepEqual(response.parties.map((p) => p.name), ['Anadolu Gıda Sanayi ve Ticaret A.Ş.', 'Örnek Yazılım ve Danışmanlık A.Ş.']);
  assert.deepEqual(response.responses, [{ code: 'KABUL', description: 'Fatura kabul edildi.', referenceId: 'ABC2026000000042' }]);
});

test('totals that do not add up: line sum against LineExtensionAmount, and the payable amount', () => {
  const m = model(fixture('preview/invoice-line-and-payable-totals-wrong.xml'));
  assert.deepEqual(failed(m), ['lines: 1400.00 stated, 1500.00 computed, -100.00 off', 'payable: 1800.00 stated, 1700.00 computed, 100.00 off']);
  assert.deepEqual(m.checks.filter((c) => !c.ok).map((c) => c.total), ['LineExtensionAmount', 'PayableAmount']);
  assert.ok(m.checks.find((c) => c.id === 'taxInclusive')?.ok, 'the tax-inclusive amount does add up');
});

test('totals that do not add up: tax subtotals against the tax total', () => {
  const m = model(fixture('preview/invoice-tax-subtotals-wrong.xml'));
  assert.deepEqual(failed(m), ['taxSubtotals: 260.00 stated, 250.00 computed, 10.00 off']);
  assert.equal(m.checks.find((c) => c.id === 'taxSubtotals')?.index, 0);
});

test('a document-level allowance lowers the tax-exclusive amount; a missing or non-numeric amount leaves its check out', () => {
  const base = fixture('ubl-tr-invoice-valid.xml');
  const discounted = base
    .replace('<cac:TaxTotal>', '<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="TRY">100.00</cbc:Amount></cac:AllowanceCharge>\n  <cac:TaxTotal>')
    .replace('<cbc:TaxExclusiveAmount currencyID="TRY">1500.00</cbc:TaxExclusiveAmount>', '<cbc:TaxExclusiveAmount currencyID="TRY">1400.00</cbc:TaxExclusiveAmount>')
    .replace('<cbc:TaxInclusiveAmount currencyID="TRY">1800.00</cbc:TaxInclusiveAmount>', '<cbc:TaxInclusiveAmount currencyID="TRY">1700.00</cbc:TaxInclusiveAmount>')
    .replace('<cbc:PayableAmount currencyID="TRY">1800.00</cbc:PayableAmount>', '<cbc:PayableAmount currencyID="TRY">1700.00</cbc:PayableAmount>');
  assert.deepEqual(failed(model(discounted)), []);
  const wrongDiscount = discounted.replace('<cbc:TaxExclusiveAmount currencyID="TRY">1400.00</cbc:TaxExclusiveAmount>', '<cbc:TaxExclusiveAmount currencyID="TRY">1500.00</cbc:TaxExclusiveAmount>');
  assert.deepEqual(failed(model(wrongDiscount)), ['taxExclusive: 1500.00 stated, 1400.00 computed, 100.00 off', 'taxInclusive: 1700.00 stated, 1800.00 computed, -100.00 off']);
  const notNumber = base.replace('<cbc:LineExtensionAmount currencyID="TRY">500.00</cbc:LineExtensionAmount>', '<cbc:LineExtensionAmount currencyID="TRY">beş yüz</cbc:LineExtensionAmount>');
  const m = model(notNumber);
  assert.ok(!checked(m).includes('lines'), 'no line check when a line amount is not a number');
  assert.equal(m.lines[1].amount?.numeric, false);
});

test('maxLines keeps the first lines in the model but counts and checks them all', () => {
  const text = largeInvoice(path.join(root, 'test', 'fixtures', 'ubl-tr-invoice-valid.xml'), 200 * 1024);
  const all = model(text);
  const capped = model(text, { maxLines: 10 });
  assert.ok(all.lineCount > 100);
  assert.equal(capped.lineCount, all.lineCount);
  assert.equal(capped.lines.length, 10);
  assert.deepEqual(capped.lines, all.lines.slice(0, 10));
  assert.deepEqual(capped.checks, all.checks, 'the line-sum check covers every line, kept or not');
  assert.ok(!capped.checks.find((c) => c.id === 'lines')?.ok, 'the repeated lines no longer add up to the stated total');
});

test("a customer VKN with a wrong check digit is invalid, in the editor's words (with the check digit its first nine digits call for)", () => {
  const m = model(fixture('ubl-tr-invoice-bad-customer-vkn.xml'));
  const id = m.parties.find((p) => p.role === 'customer')?.identifications[0];
  assert.deepEqual(id?.taxNumber, { role: 'customer', verdict: 'invalid', kind: 'VKN' });
  assert.deepEqual(id?.findings, [{ code: 'invalid-tax-id', severity: 'error', message: 'Invalid VKN 1234567891: the 10th digit should be 0 for these first nine digits.' }]);
  assert.equal(id?.registry, undefined, 'an invalid number is not looked up');
});

function registryWith(entries: Record<string, { title: string; aliases: Array<{ name: string; kind: 'PK' | 'GB'; deleted?: string }> }>): RegistryList {
  return {
    downloadedAt: '2026-11-25T08:00:00Z',
    lookup: (taxNumber) => {
      const e = entries[taxNumber];
      return e ? ({ taxNumber, title: e.title, aliases: e.aliases.map((a) => ({ ...a, document: 'Invoice' })), downloadedAt: '2026-11-25T08:00:00Z' } satisfies OfflineTaxpayer) : undefined;
    },
  };
}

test('registry status from the downloaded list: registered with its PK alias, deregistered, not registered, no list; and the profile rule at the receiver, as the editor words it', () => {
  const asked: string[] = [];
  const list = registryWith({
    '7312058406': { title: 'ÖRNEK YAZILIM A.Ş.', aliases: [{ name: 'urn:mail:defaultgb@ornek.com.tr', kind: 'GB' }, { name: 'urn:mail:defaultpk@ornek.com.tr', kind: 'PK' }] },
    '3840192636': { title: 'ANADOLU GIDA A.Ş.', aliases: [{ name: 'urn:mail:pk@anadolu.com.tr', kind: 'PK', deleted: '2026-01-01' }] },
  });
  const options = { registry: (family: string) => (asked.push(family), list) };
  const temel = model(sample('invoice-TEMELFATURA.xml'), options);
  assert.deepEqual(asked, ['Invoice'], 'the e-invoice list, asked once');
  const [supplier, customer] = temel.parties;
  assert.deepEqual(supplier.identifications[0].registry, { status: 'registered', title: 'ÖRNEK YAZILIM A.Ş.', pkAlias: 'urn:mail:defaultpk@ornek.com.tr', listDate: '2026-11-25T08:00:00Z' });
  assert.equal(supplier.identifications[1].registry, undefined, 'MERSIS is not looked up');
  assert.equal(customer.identifications[0].registry?.status, 'deregistered');
  assert.deepEqual(customer.identifications[0].findings, [
    { code: 'not-e-invoice-user', severity: 'warning', message: '3840192636 is not an e-invoice user (every alias deleted in the registry list): e-Arşiv expected, the profile is TEMELFATURA.' },
  ]);
  assert.deepEqual(supplier.identifications[0].findings, [], 'the rule speaks of the receiver only');

  const earsiv = model(sample('invoice-EARSIVFATURA.xml'), { registry: () => registryWith({ '25849173616': { title: 'AYŞE YILMAZ', aliases: [{ name: 'urn:mail:ayse@pk', kind: 'PK' }] } }) });
  assert.deepEqual(earsiv.parties[1].identifications[0].findings.map((f) => [f.code, f.severity, f.message]), [
    ['e-invoice-user-on-e-archive', 'warning', '25849173616 is a registered e-invoice user (AYŞE YILMAZ): an e-invoice profile expected, not EARSIVFATURA.'],
  ]);
  const earsivNotRegistered = model(sample('invoice-EARSIVFATURA.xml'), { registry: () => registryWith({}) });
  assert.deepEqual([earsivNotRegistered.parties[1].identifications[0].registry, earsivNotRegistered.parties[1].identifications[0].findings], [{ status: 'notRegistered', listDate: '2026-11-25T08:00:00Z' }, []]);

  const noList = model(sample('invoice-TEMELFATURA.xml'), { registry: () => undefined });
  assert.deepEqual(noList.parties[0].identifications[0].registry, { status: 'noList' });
  assert.deepEqual(noList.parties[1].identifications[0].findings, [{ code: 'registry-not-downloaded', severity: 'information', message: 'Registry list not downloaded: e-invoice status not checked.' }]);
  assert.equal(noList.parties[1].identifications[0].registry, undefined, 'the finding names the missing list; no second line says so');

  asked.length = 0;
  const despatch = model(sample('despatch-advice.xml'), options);
  assert.deepEqual(asked, ['DespatchAdvice'], 'despatch parties are looked up in the e-despatch list');
  assert.deepEqual(despatch.parties[1].identifications[0].findings.map((f) => f.message), ['3840192636 is not an e-despatch user (every alias deleted in the e-despatch registry list): an e-İrsaliye under TEMELIRSALIYE cannot be delivered to it.']);
  const onlyInvoiceList = model(sample('despatch-advice.xml'), { registry: (family: string) => (family === 'Invoice' ? list : undefined) });
  assert.deepEqual(onlyInvoiceList.parties[1].identifications[0].findings.map((f) => f.message), ['The e-despatch registry list (DespatchAdvice) is not downloaded, only the e-invoice list: e-despatch status not checked.']);
  assert.equal(onlyInvoiceList.parties[0].identifications[0].registry?.status, 'noList', 'despatch parties are not looked up in the e-invoice list');

  asked.length = 0;
  model(sample('e-mustahsil-makbuzu.xml'), options);
  assert.deepEqual(asked, ['Invoice'], 'an e-Müstahsil receipt (no profile rule) shows its parties against the e-invoice list');
});

test('the embedded design is found by DocumentType XSLT or its file name, decoded, and told apart from broken ones', () => {
  const design = fs.readFileSync(path.join(root, 'media', 'samples', 'sample-design.xslt'), 'utf8');
  for (const name of ['invoice-TEMELFATURA.xml', 'invoice-EARSIVFATURA.xml', 'despatch-advice.xml']) {
    const out = readDocument(sample(name));
    assert.deepEqual(out.design, { name: 'sample-design.xslt', text: design }, name);
    assert.ok(out.result.ok && out.result.model.design?.bytes === Buffer.byteLength(design));
  }
  for (const name of ['invoice-TICARIFATURA.xml', 'e-mustahsil-makbuzu.xml']) assert.equal(readDocument(sample(name)).design, undefined, name);
  assert.equal(readDocument(fixture('ubl-tr-invoice-valid.xml')).design, undefined);
  const attach = (type: string, file: string, content: string) =>
    fixture('ubl-tr-invoice-valid.xml').replace('<cac:AccountingSupplierParty>', `<cac:AdditionalDocumentReference><cbc:ID>1</cbc:ID><cbc:DocumentType>${type}</cbc:DocumentType><cac:Attachment><cbc:EmbeddedDocumentBinaryObject filename="${file}">${content}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>\n  <cac:AccountingSupplierParty>`);
  const pdf = attach('PDF', 'invoice.pdf', Buffer.from('%PDF-1.4').toString('base64'));
  assert.equal(readDocument(pdf).design, undefined, 'another attachment is not a design');
  assert.deepEqual(readDocument(attach('XSLT', 'x.xslt', 'not base64!')).design, { name: 'x.xslt', problem: 'notBase64' });
  assert.deepEqual(readDocument(attach('', 'x.xslt', Buffer.from('<html/>').toString('base64'))).design, { name: 'x.xslt', problem: 'notXslt' });
  const wrapped = attach('XSLT', 'x.xsl', Buffer.from(design).toString('base64').replace(/(.{76})/g, '$1\n'));
  assert.equal((readDocument(wrapped).design as { text: string }).text, design, 'line-wrapped base64 is read');
});

test('not well-formed text and other XML are told apart, with where and what', () => {
  const broken = fixture('ubl-tr-invoice-valid.xml').replace('</cac:AccountingCustomerParty>', '</cac:AccountingCustomer>');
  const out = readDocument(broken).result;
  assert.ok(!out.ok && out.reason === 'notWellFormed');
  assert.match(out.message, /does not match <cac:AccountingCustomerParty>/);
  assert.equal(out.line, 49);
  const pom = readDocument('<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion></project>').result;
  assert.deepEqual(pom, { ok: false, reason: 'notUbl', root: 'project', namespace: 'http://maven.apache.org/POM/4.0.0' });
  const wrongNamespace = readDocument('<Invoice xmlns="urn:example"><ID>1</ID></Invoice>').result;
  assert.ok(!wrongNamespace.ok && wrongNamespace.reason === 'notUbl', 'an Invoice outside the UBL namespace is not ours');
});

test('checkIdentification: the tax schemes (any case) checked by length and check digits, GİB placeholders judged where they stand, other schemes shown as written', () => {
  type Place = Parameters<typeof checkIdentification>[2];
  const invoice = (role: Place['role'], profile?: string): Place => ({ role, documentKind: 'Invoice', profile });
  const verdict = (scheme: string, value: string, place: Place = invoice('customer', 'TEMELFATURA')) => {
    const id = checkIdentification(scheme, value, place);
    return [id.taxNumber?.verdict, id.taxNumber?.kind, id.findings.map((f) => `${f.severity}: ${f.message}`).join(' | ')];
  };
  assert.deepEqual(verdict('VKN', '1234567890'), ['valid', 'VKN', '']);
  assert.deepEqual(verdict(' tckn ', '10000000146'), ['valid', 'TCKN', '']);
  assert.deepEqual(verdict('VKN', '10000000146'), ['invalid', 'VKN', 'error: Invalid VKN 10000000146: a VKN has 10 digits, this has 11.'], 'a valid TCKN under VKN');
  assert.deepEqual(verdict('TCKN', '01234567890'), ['invalid', 'TCKN', 'error: Invalid TCKN 01234567890: a TCKN cannot start with 0.']);
  assert.deepEqual(verdict('VKN', '12345X7890'), ['invalid', 'VKN', 'error: Invalid VKN "12345X7890": only digits are allowed.']);
  assert.deepEqual(verdict('VKN', '  '), ['empty', 'VKN', 'error: The VKN is empty: a party identification without its tax number makes the document invalid.']);
  // The schemes that carry either kind go by length.
  assert.deepEqual(verdict('VKN_TCKN', '10000000146', invoice('signatory')), ['valid', 'TCKN', '']);
  assert.deepEqual(verdict('MALSAHIBIVKNTCKN', '45678912317', invoice('goodsOwner', 'HKS')), ['invalid', 'TCKN', 'error: Invalid TCKN 45678912317: the 11th digit should be 6 for these first ten digits.']);
  assert.deepEqual(verdict('ARACIKURUMVKN', '3875124099', invoice('intermediary', 'YOLCUBERABERFATURA')), ['valid', 'VKN', '']);
  // GİB's placeholders: information for the buyer abroad, an error with the reason elsewhere.
  assert.deepEqual(verdict('VKN', '2222222222', invoice('buyer', 'IHRACAT')), ['placeholder', 'VKN', "information: 2222222222 is GİB's placeholder VKN for a company abroad: accepted for the buyer of an e-Arşiv, export or tax-free invoice."]);
  assert.deepEqual(verdict('VKN', '2222222222', invoice('customer', 'EARSIVFATURA')), ['placeholder', 'VKN', "information: 2222222222 is GİB's placeholder VKN for a company abroad: accepted for the buyer of an e-Arşiv, export or tax-free invoice."]);
  assert.deepEqual(verdict('VKN', '2222222222', invoice('supplier', 'IHRACAT')), ['misplacedPlaceholder', 'VKN', "error: 2222222222 is GİB's placeholder VKN for a company abroad: GİB accepts it only for the buyer, it cannot stand for the supplier."]);
  assert.deepEqual(verdict('TCKN', '11111111111', { role: 'driver', documentKind: 'DespatchAdvice', profile: 'TEMELIRSALIYE' }), ['misplacedPlaceholder', 'TCKN', "error: 11111111111 is GİB's placeholder TCKN for a foreign or unidentified person: GİB accepts it only for the buyer of an invoice, not in a despatch advice (e-İrsaliye)."]);
  for (const scheme of ['MERSISNO', 'TICARETSICILNO', 'HIZMETNO', 'PARTYTYPE', '']) assert.deepEqual(checkIdentification(scheme, ' 4540536921 ', invoice('customer')), { scheme, value: '4540536921', findings: [] }, scheme);
});

test('HKS: the owner of the goods on each line, checked there; a line kept out of the model still counts its findings', () => {
  const text = fs.readFileSync(path.join(root, 'test', 'fixtures', 'ubl', 'invoice-hks.xml'), 'utf8');
  const all = model(text);
  assert.deepEqual(all.lines.map((l) => l.identifications.map((i) => `${i.scheme} ${i.value} ${i.taxNumber?.role} ${i.taxNumber?.verdict}`)), [['MALSAHIBIVKNTCKN 23456789138 goodsOwner valid'], ['MALSAHIBIVKNTCKN 45678912317 goodsOwner invalid']]);
  assert.equal(all.lines[0].identifications[0].registry, undefined, 'a goods owner is not looked up');
  assert.deepEqual(all.parties.filter((p) => p.role === 'goodsOwner'), [], 'the owner of the goods is shown in its line, not as a party');
  const mersis = '<cac:Delivery><cac:DeliveryParty><cac:PartyIdentification><cbc:ID schemeID="MERSISNO">0123456789012345</cbc:ID></cac:PartyIdentification></cac:DeliveryParty></cac:Delivery>';
  const withDelivery = model(text.replace('<cac:InvoiceLine>', `<cac:InvoiceLine>${mersis}`));
  assert.deepEqual(withDelivery.lines[0].identifications.map((i) => i.scheme), ['MALSAHIBIVKNTCKN'], 'a line shows its tax numbers only');
  assert.deepEqual(all.findingsInLinesNotShown, {});
  const first = model(text, { maxLines: 1 });
  assert.equal(first.lines.length, 1);
  assert.deepEqual(first.findingsInLinesNotShown, { error: 1 }, "the second line's invalid TCKN is counted");
});

test('a party without any identification is still shown, in the order of the type\'s table; one of another place is "other", named by its element', () => {
  const base = fixture('ubl-tr-invoice-valid.xml');
  const withBuyer = base.replace('<cac:AccountingCustomerParty>', '<cac:BuyerCustomerParty><cac:Party><cac:PartyName><cbc:Name>Son Alıcı</cbc:Name></cac:PartyName></cac:Party></cac:BuyerCustomerParty>\n  <cac:OriginatorCustomerParty><cac:Party><cac:PartyIdentification><cbc:ID schemeID="VKN">1234567890</cbc:ID></cac:PartyIdentification></cac:Party></cac:OriginatorCustomerParty>\n  <cac:AccountingCustomerParty>');
  const m = model(withBuyer);
  assert.deepEqual(m.parties.map((p) => [p.role, p.element, p.name ?? '', p.identifications.length]), [
    ['supplier', 'AccountingSupplierParty', 'Örnek Yazılım ve Danışmanlık A.Ş.', 2],
    ['customer', 'AccountingCustomerParty', 'Anadolu Gıda Sanayi ve Ticaret A.Ş.', 1],
    ['buyer', 'BuyerCustomerParty', 'Son Alıcı', 0],
    ['other', 'OriginatorCustomerParty', '', 1],
  ]);
  assert.deepEqual(m.parties[3].identifications[0].taxNumber, { role: 'other', verdict: 'valid', kind: 'VKN' }, 'checked as the editor checks a number of no known role');
  const driverWithoutTckn = model(sample('despatch-advice.xml').replace(/<cbc:NationalityID>\d+<\/cbc:NationalityID>/, ''));
  assert.deepEqual(driverWithoutTckn.parties.filter((p) => p.role === 'driver').map((p) => [p.name, p.identifications.length]), [['Mehmet Demir', 0]], 'a driver without a TCKN is still shown');
});

test('decimals: exact sums and comparisons whatever the scale', () => {
  const d = (s: string) => parseDecimal(s)!;
  assert.ok(equal(add(d('0.1'), d('0.2')), d('0.3')));
  assert.ok(equal(d('1500'), d('1500.000')));
  assert.equal(decimalText(add(d('1499.995'), d('-0.005'))), '1499.990');
  assert.equal(decimalText(d('-0.5')), '-0.50');
  assert.equal(decimalText(d('12')), '12.00');
  for (const bad of ['', '.', '1,5', '1e3', 'abc', '--1']) assert.equal(parseDecimal(bad), undefined, bad);
});

test('XML reader: prefixes resolved to namespaces, entities and character references decoded, CDATA kept, a DOCTYPE never applied', () => {
  const children: XmlElement[] = [];
  let rootNs = '';
  readXml(
    '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY boom "BOOM">]>\n<u:Invoice xmlns:u="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:b="urn:b">' +
      '<b:Note>A &amp; B &#x131; &#304;&unknown; &boom;</b:Note><b:Note><![CDATA[<raw> & ]]></b:Note><b:Empty/><b:Nested a=\'1\' b="x > y"><b:Inner>t</b:Inner></b:Nested></u:Invoice>',
    { root: (el) => (rootNs = el.ns), child: (el) => children.push(el) },
  );
  assert.equal(rootNs, 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2');
  assert.deepEqual(children.map((c) => [c.local, c.ns, c.text]), [
    ['Note', 'urn:b', 'A & B ı İ&unknown; &boom;'],
    ['Note', 'urn:b', '<raw> & '],
    ['Empty', 'urn:b', ''],
    ['Nested', 'urn:b', ''],
  ]);
  assert.deepEqual(children[3].attrs, { a: '1', b: 'x > y' });
  assert.deepEqual(children[3].children.map((c) => [c.local, c.text]), [['Inner', 't']]);
  assert.throws(() => readXml('<a><b></a>', { root: () => undefined, child: () => undefined }), /does not match <b>/);
  assert.throws(() => readXml('<a xmlns:p="urn:p"><q:b/></a>', { root: () => undefined, child: () => undefined }), /prefix "q" is not declared/);
  assert.throws(() => readXml('<a></a><b/>', { root: () => undefined, child: () => undefined }), /second root/);
  assert.throws(() => readXml('<a>', { root: () => undefined, child: () => undefined }), /<a> is not closed/);
  // The reader the editor's scanner shares goes on after these; the view stops at them and says where.
  assert.throws(() => readXml('<a>\n<b x="1"</a>', { root: () => undefined, child: () => undefined }), /a tag that does not end \(line 2, column 1\)/);
  assert.throws(() => readXml('<a><!-- x</a>', { root: () => undefined, child: () => undefined }), /a comment that does not end \(line 1, column 4\)/);
});

test('the built-in samples are what scripts/preview-samples.js writes (amounts computed, design embedded)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { samples } = require(path.join(root, 'scripts', 'preview-samples.js')) as { samples(design: string): Record<string, string> };
  const written = samples(fs.readFileSync(path.join(root, 'media', 'samples', 'sample-design.xslt'), 'utf8'));
  assert.ok(Object.keys(written).length >= 9);
  for (const [name, text] of Object.entries(written)) assert.equal(sample(name), text, `${name}: run node scripts/preview-samples.js`);
});
