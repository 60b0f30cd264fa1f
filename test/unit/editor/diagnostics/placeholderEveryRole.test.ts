// GİB's placeholder numbers (2222222222 for a company abroad, 11111111111 for a foreign or unidentified
// person) in every party role of every document type, judged by the editor's diagnostics and by the
// preview's structured view. GİB prescribes them only for the buyer of an e-Arşiv, export or tax-free
// invoice (the customer, or the buyer party); in every other role (the supplier, the seller of an
// e-Arşiv invoice, a payee, the parties of a despatch…) they stand for a party that must have a real
// number and are an error. The roles and their element paths are written out here from GİB's
// schematron contexts, not read from the product's own role table, so a role the product forgets or
// misjudges shows up.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { scanUbl } from '../../../../src/editor/diagnostics/ublScan';
import { documentFindings } from '../../../../src/editor/diagnostics/rules';
import { readDocument } from '../../../../src/preview/model/readDocument';
import type { StructuredModel } from '../../../../src/preview/model/types';

const NS = 'urn:oasis:names:specification:ubl:schema:xsd:';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

const VKN_PLACEHOLDER = '2222222222';
const TCKN_PLACEHOLDER = '11111111111';

/** A place a tax number stands: the element path below the root, the schemeID (none: implied by the place). */
interface Place {
  path: string;
  scheme?: string;
  /** Which placeholders can stand there: a TCKN-only place takes only the person's. */
  takes: 'VKN' | 'TCKN' | 'both';
}

const PARTY = 'Party/PartyIdentification/ID';
const vkn = (path: string): Place => ({ path, scheme: 'VKN', takes: 'VKN' });
const tckn = (path: string): Place => ({ path, scheme: 'TCKN', takes: 'TCKN' });
const either = (path: string, scheme: string): Place => ({ path, scheme, takes: 'both' });

/** The places common to every type: the signer, twice (cac:Signature/cbc:ID and its SignatoryParty). */
const SIGNER: Place[] = [either('Signature/ID', 'VKN_TCKN'), vkn('Signature/SignatoryParty/PartyIdentification/ID')];

interface Case {
  kind: 'Invoice' | 'DespatchAdvice' | 'ReceiptAdvice' | 'CreditNote' | 'ApplicationResponse';
  profile: string;
  /** Places where GİB prescribes the placeholder (information); every other place is an error. */
  prescribed: Place[];
  misplaced: Place[];
}

const INVOICE_ELSEWHERE: Place[] = [
  vkn(`AccountingSupplierParty/${PARTY}`),
  tckn(`AccountingSupplierParty/${PARTY}`),
  // The seller of an e-Arşiv invoice (SellerSupplierParty) is a Turkish taxpayer: never a placeholder.
  vkn(`SellerSupplierParty/${PARTY}`),
  tckn(`SellerSupplierParty/${PARTY}`),
  either('TaxRepresentativeParty/PartyIdentification/ID', 'ARACIKURUMVKN'),
  vkn('PayeeParty/PartyIdentification/ID'),
  vkn('Delivery/CarrierParty/PartyIdentification/ID'),
  vkn('Delivery/DeliveryParty/PartyIdentification/ID'),
  { path: 'Delivery/Shipment/ShipmentStage/DriverPerson/NationalityID', takes: 'TCKN' },
  either('InvoiceLine/Item/AdditionalItemIdentification/ID', 'MALSAHIBIVKNTCKN'),
  ...SIGNER,
];
const INVOICE_BUYERS: Place[] = [
  vkn(`AccountingCustomerParty/${PARTY}`),
  tckn(`AccountingCustomerParty/${PARTY}`),
  vkn(`BuyerCustomerParty/${PARTY}`),
  tckn(`BuyerCustomerParty/${PARTY}`),
];
const DESPATCH_PARTIES: Place[] = [
  vkn(`DespatchSupplierParty/${PARTY}`),
  vkn(`DeliveryCustomerParty/${PARTY}`),
  tckn(`DeliveryCustomerParty/${PARTY}`),
  vkn(`BuyerCustomerParty/${PARTY}`),
  vkn(`SellerSupplierParty/${PARTY}`),
  vkn(`OriginatorCustomerParty/${PARTY}`),
  vkn('Shipment/Delivery/CarrierParty/PartyIdentification/ID'),
  vkn('Shipment/Delivery/DeliveryParty/PartyIdentification/ID'),
  { path: 'Shipment/ShipmentStage/DriverPerson/NationalityID', takes: 'TCKN' },
  ...SIGNER,
];

const CASES: Case[] = [
  ...['EARSIVFATURA', 'IHRACAT', 'YOLCUBERABERFATURA'].map((profile): Case => ({ kind: 'Invoice', profile, prescribed: INVOICE_BUYERS, misplaced: INVOICE_ELSEWHERE })),
  // Under an e-invoice profile even the buyer must have a real number.
  { kind: 'Invoice', profile: 'TICARIFATURA', prescribed: [], misplaced: [...INVOICE_BUYERS, ...INVOICE_ELSEWHERE] },
  { kind: 'DespatchAdvice', profile: 'TEMELIRSALIYE', prescribed: [], misplaced: DESPATCH_PARTIES },
  { kind: 'ReceiptAdvice', profile: 'TEMELIRSALIYE', prescribed: [], misplaced: DESPATCH_PARTIES.filter((p) => !p.path.startsWith('Originator')) },
  {
    kind: 'CreditNote',
    profile: 'EARSIVBELGE',
    prescribed: [],
    misplaced: [vkn(`AccountingSupplierParty/${PARTY}`), tckn(`AccountingCustomerParty/${PARTY}`), vkn(`SellerSupplierParty/${PARTY}`), ...SIGNER],
  },
  {
    kind: 'ApplicationResponse',
    profile: 'TICARIFATURA',
    prescribed: [],
    misplaced: [vkn('SenderParty/PartyIdentification/ID'), vkn('ReceiverParty/PartyIdentification/ID'), ...SIGNER],
  },
];

/** A document of `kind` whose only tax number is `value` at `place`. */
function documentWith(kind: Case['kind'], profile: string, place: Place, value: string): string {
  const names = place.path.split('/');
  const last = names.length - 1;
  const attribute = place.scheme ? ` schemeID="${place.scheme}"` : '';
  let inner = `<cbc:${names[last]}${attribute}>${value}</cbc:${names[last]}>`;
  for (let i = last - 1; i >= 0; i--) inner = `<cac:${names[i]}>${inner}</cac:${names[i]}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${kind} xmlns="${NS}${kind}-2" xmlns:cac="${CAC}" xmlns:cbc="${CBC}">\n` +
    `<cbc:UBLVersionID>2.1</cbc:UBLVersionID><cbc:CustomizationID>TR1.2</cbc:CustomizationID><cbc:ProfileID>${profile}</cbc:ProfileID><cbc:ID>ABC2026000000001</cbc:ID>\n` +
    `${inner}\n</${kind}>\n`;
}

/** The placeholders that can stand at a place. */
function placeholdersAt(place: Place): string[] {
  return place.takes === 'VKN' ? [VKN_PLACEHOLDER] : place.takes === 'TCKN' ? [TCKN_PLACEHOLDER] : [VKN_PLACEHOLDER, TCKN_PLACEHOLDER];
}

/** What the editor reports: "severity code «number»" per finding. */
function editorSays(text: string): string[] {
  return documentFindings(scanUbl(text), undefined).map((f) => `${f.severity} ${f.code} «${f.taxNumber}»`).sort();
}

/** What the preview shows at its numbers, and how many findings in lines it counts without showing them. */
function previewSays(text: string): string[] {
  const out = readDocument(text).result;
  assert.ok(out.ok, JSON.stringify(out));
  const m: StructuredModel = out.model;
  const shown = [...m.parties.flatMap((p) => p.identifications), ...m.lines.flatMap((l) => l.identifications)];
  const said = shown.flatMap((i) => i.findings.map((f) => `${f.severity} ${f.code} «${i.value}»`));
  for (const [severity, count] of Object.entries(m.findingsInLinesNotShown)) for (let n = 0; n < (count ?? 0); n++) said.push(`${severity} (in a line, not shown)`);
  return said.sort();
}

for (const c of CASES) {
  test(`placeholders in a ${c.kind} under ${c.profile}: information only for the buyer GİB prescribes them for, an error in every other role (editor and preview)`, () => {
    let tried = 0;
    for (const [places, severity, code] of [[c.prescribed, 'information', 'gib-placeholder'], [c.misplaced, 'error', 'misplaced-gib-placeholder']] as const) {
      for (const place of places) {
        for (const value of placeholdersAt(place)) {
          const text = documentWith(c.kind, c.profile, place, value);
          const where = `${value} at ${place.path}${place.scheme ? ` (${place.scheme})` : ''}`;
          assert.deepEqual(editorSays(text), [`${severity} ${code} «${value}»`], `editor: ${where}`);
          const preview = previewSays(text);
          assert.equal(preview.length, 1, `preview: ${where}: ${JSON.stringify(preview)}`);
          assert.match(preview[0], new RegExp(`^${severity} (${code} «${value}»|\\(in a line, not shown\\))$`), `preview: ${where}`);
          tried++;
        }
      }
    }
    assert.ok(tried >= 4, `${tried} places tried`);
  });
}

test("the seller of an e-Arşiv invoice: GİB's company placeholder is an error in the editor and in the preview, with the role as the reason", () => {
  const text = documentWith('Invoice', 'EARSIVFATURA', vkn(`SellerSupplierParty/${PARTY}`), VKN_PLACEHOLDER);
  const [finding] = documentFindings(scanUbl(text), undefined);
  assert.deepEqual([finding.severity, finding.code, finding.role, finding.misplacement], ['error', 'misplaced-gib-placeholder', 'seller', 'role']);
  const out = readDocument(text).result;
  assert.ok(out.ok);
  const seller = out.model.parties.find((p) => p.role === 'seller');
  assert.deepEqual(seller?.identifications.map((i) => [i.value, i.taxNumber?.verdict, i.findings.map((f) => f.severity)]), [[VKN_PLACEHOLDER, 'misplacedPlaceholder', ['error']]]);
});
