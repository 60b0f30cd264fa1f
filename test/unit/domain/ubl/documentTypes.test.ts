// The pure UBL-TR tables of src/domain/ubl/: document types by root and namespace, party roles by
// element path, the schemes that carry a tax number with their checks, and GİB's placeholders.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { documentTypeOf, documentTypeOfHead, partyRegistryOf, partyRoleOf, UBL_DOCUMENT_TYPES } from '../../../../src/domain/ubl/documentTypes';
import { checkTaxNumber, TAX_SCHEMES, taxNumberElement, taxSchemeOf, type TaxNumberContext, type TaxScheme } from '../../../../src/domain/ubl/taxSchemes';
import { completeTckn, completeVkn } from '../../../../src/domain/taxId';

const NS = 'urn:oasis:names:specification:ubl:schema:xsd:';
/** A party's number checked under its schemeID (any of TAX_SCHEMES, any case), as the editor and the preview do. */
const checkPartyTaxNumber = (schemeId: string, value: string, context?: TaxNumberContext) => checkTaxNumber((taxSchemeOf(schemeId) as TaxScheme).check, value, context);
const byKind = (kind: string) => UBL_DOCUMENT_TYPES.find((t) => t.kind === kind) as (typeof UBL_DOCUMENT_TYPES)[number];

/**
 * GİB's PartyIdentificationIDType list that carry no tax number (registry, customer, meter, plate,
 * customs numbers...): never checked as one.
 */
const NON_TAX_PARTY_SCHEMES = [
  'HIZMETNO', 'MUSTERINO', 'TESISATNO', 'TELEFONNO', 'DISTRIBUTORNO', 'TICARETSICILNO', 'TAPDKNO', 'BAYINO',
  'ABONENO', 'SAYACNO', 'EPDKNO', 'SUBENO', 'PASAPORTNO', 'ARACIKURUMETIKET', 'CIFTCINO', 'IMALATCINO',
  'DOSYANO', 'HASTANO', 'MERSISNO', 'URETICINO', 'GTB_REFNO', 'GTB_GCB_TESCILNO', 'GTB_FIILI_IHRACAT_TARIHI',
  'ARACKIMLIKNO', 'PLAKA', 'SEVKIYATNO',
  // Not in the list, used beside it: the buyer's kind on export and tax-free invoices (EXPORT, TAXFREE).
  'PARTYTYPE',
];

test('document types: each root in its own namespace, nothing else', () => {
  for (const [root, kind] of [
    ['Invoice', 'Invoice'],
    ['DespatchAdvice', 'DespatchAdvice'],
    ['ReceiptAdvice', 'ReceiptAdvice'],
    ['CreditNote', 'CreditNote'],
    ['ApplicationResponse', 'ApplicationResponse'],
  ]) {
    assert.equal(documentTypeOf(root, `${NS}${root}-2`)?.kind, kind, root);
    assert.equal(documentTypeOf(root, ` ${NS}${root}-2 `)?.kind, kind, `${root}, namespace with white space`);
  }
  assert.equal(documentTypeOf('DespatchAdvice', `${NS}Invoice-2`), undefined, 'a root in another type\'s namespace');
  assert.equal(documentTypeOf('Invoice', undefined), undefined, 'no namespace');
  assert.equal(documentTypeOf('Invoice', 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-1'), undefined);
  assert.equal(documentTypeOf('Order', `${NS}Order-2`), undefined, 'a UBL type the platform does not exchange');
  assert.equal(UBL_DOCUMENT_TYPES.length, 5);
});

test('registry lists: invoices against the e-invoice list, despatch and receipt advices against the e-despatch list, the others none', () => {
  assert.equal(byKind('Invoice').registryRule?.registry, 'Invoice');
  assert.equal(byKind('DespatchAdvice').registryRule?.registry, 'DespatchAdvice');
  assert.equal(byKind('ReceiptAdvice').registryRule?.registry, 'DespatchAdvice');
  assert.equal(byKind('CreditNote').registryRule?.registry, undefined);
  assert.equal(byKind('ApplicationResponse').registryRule?.registry, undefined);
  assert.equal(byKind('DespatchAdvice').registryRule?.receiverRole, 'deliveryCustomer');
  assert.equal(byKind('ReceiptAdvice').registryRule?.receiverRole, 'despatchSupplier');
  assert.ok(byKind('DespatchAdvice').registryRule?.registeredProfiles.has('TEMELIRSALIYE'));
});

test('registry lists of the parties: the profile rule\'s list, else the e-invoice list', () => {
  assert.deepEqual(UBL_DOCUMENT_TYPES.map((t) => [t.kind, partyRegistryOf(t)]), [
    ['Invoice', 'Invoice'],
    ['DespatchAdvice', 'DespatchAdvice'],
    ['ReceiptAdvice', 'DespatchAdvice'],
    ['CreditNote', 'Invoice'],
    ['ApplicationResponse', 'Invoice'],
  ]);
});

test('what a reader of each type finds beside the parties: type code, lines and their quantities, amounts', () => {
  assert.deepEqual(
    UBL_DOCUMENT_TYPES.map((t) => [t.kind, t.typeCodeElement, t.lineElement, t.quantityElements[0], t.hasTotals]),
    [
      ['Invoice', 'InvoiceTypeCode', 'InvoiceLine', 'InvoicedQuantity', true],
      ['DespatchAdvice', 'DespatchAdviceTypeCode', 'DespatchLine', 'DeliveredQuantity', false],
      ['ReceiptAdvice', 'ReceiptAdviceTypeCode', 'ReceiptLine', 'ReceivedQuantity', false],
      ['CreditNote', 'CreditNoteTypeCode', 'CreditNoteLine', 'CreditedQuantity', true],
      ['ApplicationResponse', undefined, undefined, undefined, false],
    ],
  );
});

test('documentTypeOfHead: the root element and the namespace its own prefix is bound to, from the opening text', () => {
  const ns = (root: string) => `${NS}${root}-2`;
  assert.equal(documentTypeOfHead(`<?xml version="1.0"?>\n<Invoice xmlns="${ns('Invoice')}" xmlns:cac="x">`)?.kind, 'Invoice');
  assert.equal(documentTypeOfHead(`<!-- a comment <Order> --><inv:DespatchAdvice xmlns:inv="${ns('DespatchAdvice')}">`)?.kind, 'DespatchAdvice');
  assert.equal(documentTypeOfHead(`<?xml version="1.0"?><!DOCTYPE x><CreditNote\n  xmlns:cbc="y"\n  xmlns='${ns('CreditNote')}'>`)?.kind, 'CreditNote');
  assert.equal(documentTypeOfHead('<?xml version="1.0"?><project xmlns="http://maven.apache.org/POM/4.0.0"/>'), undefined);
  assert.equal(documentTypeOfHead('<Invoice xmlns="urn:example"/>'), undefined, 'an Invoice outside the UBL namespace');
  assert.equal(documentTypeOfHead(`<Invoice xmlns:u="${ns('Invoice')}">`), undefined, 'the namespace bound to another prefix than the root\'s');
  assert.equal(documentTypeOfHead(`<ReceiptAdvice xmlns="${ns('Invoice')}">`), undefined, "a root in another type's namespace");
});

test('party roles by element path, per document type; exact paths first, then anywhere-paths', () => {
  const role = (kind: string, path: string) => partyRoleOf(byKind(kind), path.split('/'));
  const party = 'Party/PartyIdentification/ID';
  assert.equal(role('Invoice', `AccountingSupplierParty/${party}`), 'supplier');
  assert.equal(role('Invoice', `AccountingCustomerParty/${party}`), 'customer');
  assert.equal(role('Invoice', `BuyerCustomerParty/${party}`), 'buyer');
  assert.equal(role('Invoice', `SellerSupplierParty/${party}`), 'seller');
  assert.equal(role('Invoice', 'TaxRepresentativeParty/PartyIdentification/ID'), 'intermediary');
  assert.equal(role('Invoice', 'InvoiceLine/Item/AdditionalItemIdentification/ID'), 'goodsOwner');
  assert.equal(role('Invoice', 'InvoiceLine/Delivery/DeliveryParty/PartyIdentification/ID'), 'deliveryParty');
  assert.equal(role('Invoice', 'Signature/ID'), 'signatory');
  assert.equal(role('Invoice', 'Signature/SignatoryParty/PartyIdentification/ID'), 'signatory');
  assert.equal(role('DespatchAdvice', `DespatchSupplierParty/${party}`), 'despatchSupplier');
  assert.equal(role('DespatchAdvice', `DeliveryCustomerParty/${party}`), 'deliveryCustomer');
  assert.equal(role('DespatchAdvice', `BuyerCustomerParty/${party}`), 'buyer');
  assert.equal(role('DespatchAdvice', `SellerSupplierParty/${party}`), 'seller');
  assert.equal(role('DespatchAdvice', `OriginatorCustomerParty/${party}`), 'originator');
  assert.equal(role('DespatchAdvice', 'Shipment/Delivery/CarrierParty/PartyIdentification/ID'), 'carrier');
  assert.equal(role('DespatchAdvice', 'Shipment/ShipmentStage/DriverPerson/NationalityID'), 'driver');
  assert.equal(role('ReceiptAdvice', `DespatchSupplierParty/${party}`), 'despatchSupplier');
  assert.equal(role('CreditNote', `AccountingCustomerParty/${party}`), 'producer');
  assert.equal(role('ApplicationResponse', 'SenderParty/PartyIdentification/ID'), 'sender');
  assert.equal(role('ApplicationResponse', 'ReceiverParty/PartyIdentification/ID'), 'receiver');
  // A role of one type is not another's; an unknown place is "other"; a path must match whole.
  assert.equal(role('Invoice', `DespatchSupplierParty/${party}`), 'other');
  assert.equal(role('Invoice', `AccountingSupplierParty/Party/AgentParty/PartyIdentification/ID`), 'other');
  assert.equal(role('Invoice', `X/AccountingSupplierParty/${party}`), 'other');
  assert.equal(role('Invoice', `AccountingSupplierParty/${party}/X`), 'other');
  assert.equal(role('DespatchAdvice', 'Shipment/Delivery/CarrierParty/PartyIdentification/ID/X'), 'other', 'an anywhere-path ends where the number is');
  assert.equal(role('Invoice', 'ID'), 'other');
});

test('tax schemes: VKN, TCKN, and the either-kind schemes GİB defines; the rest of its code list carries none', () => {
  assert.deepEqual(TAX_SCHEMES.map((s) => [s.id, s.check]), [
    ['VKN', 'VKN'],
    ['TCKN', 'TCKN'],
    ['VKN_TCKN', 'VKN_OR_TCKN'],
    ['ARACIKURUMVKN', 'VKN_OR_TCKN'],
    ['MALSAHIBIVKNTCKN', 'VKN_OR_TCKN'],
  ]);
  assert.equal(taxSchemeOf(' vkn ')?.id, 'VKN');
  for (const s of NON_TAX_PARTY_SCHEMES) assert.equal(taxSchemeOf(s), undefined, s);
  assert.equal(taxNumberElement('DriverPerson', 'NationalityID')?.scheme, 'TCKN');
  assert.equal(taxNumberElement('Person', 'NationalityID'), undefined, "a person's nationality is a country code");
  assert.equal(taxNumberElement('PartyIdentification', 'ID')?.scheme, 'schemeID');
});

test('checks per scheme: declared kinds hold to their length, either-kind schemes go by length', () => {
  const vkn = completeVkn('387512409');
  const tckn = completeTckn('234567891');
  const badVkn = vkn.slice(0, 9) + String((Number(vkn[9]) + 1) % 10);
  assert.deepEqual(checkPartyTaxNumber('VKN', vkn), { verdict: 'valid', kind: 'VKN' });
  assert.deepEqual(checkPartyTaxNumber('TCKN', tckn), { verdict: 'valid', kind: 'TCKN' });
  assert.deepEqual(checkPartyTaxNumber('VKN', tckn), { verdict: 'invalid', kind: 'VKN', problem: 'length' });
  assert.deepEqual(checkPartyTaxNumber('TCKN', vkn), { verdict: 'invalid', kind: 'TCKN', problem: 'length' });
  assert.deepEqual(checkPartyTaxNumber('VKN', badVkn), { verdict: 'invalid', kind: 'VKN', problem: 'checksum', expectedCheckDigits: vkn[9] });
  for (const scheme of ['VKN_TCKN', 'ARACIKURUMVKN', 'MALSAHIBIVKNTCKN']) {
    assert.deepEqual(checkPartyTaxNumber(scheme, vkn), { verdict: 'valid', kind: 'VKN' }, scheme);
    assert.deepEqual(checkPartyTaxNumber(scheme, tckn), { verdict: 'valid', kind: 'TCKN' }, scheme);
    assert.deepEqual(checkPartyTaxNumber(scheme, '123456789'), { verdict: 'invalid', kind: undefined, problem: 'length' }, scheme);
    assert.equal(checkPartyTaxNumber(scheme, badVkn)?.verdict, 'invalid', scheme);
  }
  assert.deepEqual(checkPartyTaxNumber('VKN', '  '), { verdict: 'empty', check: 'VKN' });
  assert.deepEqual(checkPartyTaxNumber('VKN_TCKN', ''), { verdict: 'empty', check: 'VKN_OR_TCKN' });
  assert.deepEqual(checkPartyTaxNumber('TCKN', '1234567890A'), { verdict: 'invalid', kind: 'TCKN', problem: 'notDigits' });
});

test("GİB's placeholders: information for the buyer of an e-Arşiv, export or tax-free invoice, an error with the reason elsewhere", () => {
  const buyer = (role: 'customer' | 'buyer', profile?: string) => ({ documentKind: 'Invoice' as const, role, profile });
  for (const profile of ['EARSIVFATURA', 'IHRACAT', 'YOLCUBERABERFATURA', 'earsivfatura', undefined]) {
    assert.equal(checkPartyTaxNumber('VKN', '2222222222', buyer('customer', profile))?.verdict, 'placeholder', String(profile));
    assert.equal(checkPartyTaxNumber('TCKN', '11111111111', buyer('buyer', profile))?.verdict, 'placeholder', String(profile));
  }
  assert.deepEqual(checkPartyTaxNumber('VKN', '2222222222', buyer('customer', 'TICARIFATURA')), {
    verdict: 'misplacedPlaceholder',
    placeholder: { value: '2222222222', kind: 'VKN', standsFor: 'companyAbroad' },
    reason: 'profile',
  });
  assert.equal((checkPartyTaxNumber('VKN', '2222222222', { documentKind: 'Invoice', role: 'supplier', profile: 'EARSIVFATURA' }) as { reason?: string }).reason, 'role');
  assert.equal((checkPartyTaxNumber('VKN', '2222222222', { documentKind: 'DespatchAdvice', role: 'deliveryCustomer', profile: 'TEMELIRSALIYE' }) as { reason?: string }).reason, 'documentKind');
  assert.equal((checkPartyTaxNumber('VKN_TCKN', '11111111111', { documentKind: 'Invoice', role: 'signatory', profile: 'EARSIVFATURA' }) as { reason?: string }).reason, 'role');
  // Under the other kind's scheme a placeholder is only a number of the wrong length.
  assert.deepEqual(checkPartyTaxNumber('TCKN', '2222222222', buyer('customer', 'EARSIVFATURA')), { verdict: 'invalid', kind: 'TCKN', problem: 'length' });
  // Without a context (a plain check) it is checked like any other number.
  assert.deepEqual(checkPartyTaxNumber('VKN', '2222222222'), { verdict: 'invalid', kind: 'VKN', problem: 'checksum', expectedCheckDigits: '4' });
});
