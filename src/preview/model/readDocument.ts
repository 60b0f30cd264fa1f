// Reads a UBL-TR document's text into the structured view's model: document type and profile, parties
// with their identifications checked (and their registry status, through a lookup it is given), lines,
// taxes and withholdings, totals and their arithmetic checks, and the design embedded in it. Pure (no
// vscode, no file access), so the unit tests run it on the fixtures; the host calls it as the editor's
// text changes.
import type { GlobalUserType } from '../../api/types';
import type { OfflineTaxpayer } from '../../registry/offlineLookup';
import { E_ARCHIVE_PROFILE, E_INVOICE_PROFILES } from '../../editor/diagnostics/rules';
import { documentTypeOf, type DocumentType } from './documentTypes';
import { parseDecimal } from './decimal';
import { checkPartyIdentification } from './partyCheck';
import { totalsChecks, type TotalsInput } from './totalsChecks';
import type { Amount, LineView, PartyIdentification, PartyRegistry, PartyView, ReadResult, StructuredModel, TaxLine, TaxTotalView, TotalKey } from './types';
import { child, childrenOf, readXml, textAt, XmlSyntaxError, type XmlElement } from './xmlReader';

/** A downloaded registry list of one user type: a lookup and the list's date. */
export interface RegistryList {
  lookup(taxNumber: string): OfflineTaxpayer | undefined;
  downloadedAt: string;
}

export interface ReadOptions {
  /** The downloaded list of a user type, or undefined when none is downloaded. */
  registry?: (userType: GlobalUserType) => RegistryList | undefined;
  /** Lines kept in the model (all are counted and checked); default: all. */
  maxLines?: number;
}

/** The design embedded in the document: its file name and text, or why it could not be read. */
export type EmbeddedDesign = { name?: string; text: string } | { name?: string; problem: 'notBase64' | 'notXslt' };

export interface ReadOutcome {
  result: ReadResult;
  design?: EmbeddedDesign;
}

const TOTAL_KEYS: readonly TotalKey[] = ['LineExtensionAmount', 'AllowanceTotalAmount', 'ChargeTotalAmount', 'TaxExclusiveAmount', 'TaxInclusiveAmount', 'PrepaidAmount', 'PayableRoundingAmount', 'PayableAmount'];

function amountOf(el: XmlElement | undefined): Amount | undefined {
  const value = el?.text.trim();
  if (!el || !value) return undefined;
  return { value, ...(el.attrs.currencyID ? { currency: el.attrs.currencyID } : {}), numeric: parseDecimal(value) !== undefined };
}

function joined(parts: Array<string | undefined>, separator = ', '): string | undefined {
  const kept = parts.filter((p): p is string => !!p);
  return kept.length > 0 ? kept.join(separator) : undefined;
}

function taxLineOf(subtotal: XmlElement): TaxLine {
  const category = child(subtotal, 'TaxCategory');
  const scheme = child(category, 'TaxScheme');
  const line: TaxLine = {};
  const name = textAt(scheme, 'Name');
  const code = textAt(scheme, 'TaxTypeCode');
  const percent = textAt(subtotal, 'Percent');
  const taxable = amountOf(child(subtotal, 'TaxableAmount'));
  const amount = amountOf(child(subtotal, 'TaxAmount'));
  const exemption = joined([textAt(category, 'TaxExemptionReasonCode'), textAt(category, 'TaxExemptionReason')], ' ');
  if (name) line.name = name;
  if (code) line.code = code;
  if (percent) line.percent = percent;
  if (taxable) line.taxable = taxable;
  if (amount) line.amount = amount;
  if (exemption) line.exemption = exemption;
  return line;
}

function taxTotalOf(el: XmlElement): TaxTotalView {
  const total = amountOf(child(el, 'TaxAmount'));
  return { ...(total ? { total } : {}), subtotals: childrenOf(el, 'TaxSubtotal').map(taxLineOf) };
}

function registryOf(taxNumber: string, list: RegistryList | undefined): PartyRegistry {
  if (!list) return { status: 'noList' };
  const taxpayer = list.lookup(taxNumber);
  if (!taxpayer) return { status: 'notRegistered', listDate: list.downloadedAt };
  const active = taxpayer.aliases.filter((a) => !a.deleted);
  const pkAlias = active.find((a) => a.kind === 'PK')?.name;
  return { status: active.length > 0 ? 'registered' : 'deregistered', title: taxpayer.title, ...(pkAlias ? { pkAlias } : {}), listDate: list.downloadedAt };
}

function identification(scheme: string, value: string, list: RegistryList | undefined): PartyIdentification {
  const verdict = checkPartyIdentification(scheme, value);
  return { scheme, value, verdict, ...(verdict.taxNumber && verdict.valid ? { registry: registryOf(value, list) } : {}) };
}

function addressOf(address: XmlElement | undefined): string | undefined {
  if (!address) return undefined;
  const street = joined([textAt(address, 'StreetName'), textAt(address, 'BuildingNumber'), textAt(address, 'Room')], ' ');
  return joined([street, textAt(address, 'PostalZone'), textAt(address, 'CitySubdivisionName'), textAt(address, 'CityName'), textAt(address, 'Country', 'Name')]);
}

function personName(person: XmlElement | undefined): string | undefined {
  return joined([textAt(person, 'FirstName'), textAt(person, 'MiddleName'), textAt(person, 'FamilyName')], ' ');
}

/** A party element (the role wrapper holds a cac:Party; SenderParty, CarrierParty… are one). */
function partyOf(role: string, wrapper: XmlElement, list: RegistryList | undefined): PartyView {
  const party = child(wrapper, 'Party') ?? wrapper;
  const ids: PartyIdentification[] = [];
  for (const pid of childrenOf(party, 'PartyIdentification')) {
    const id = child(pid, 'ID');
    const value = id?.text.trim();
    if (id && value) ids.push(identification(id.attrs.schemeID ?? '', value, list));
  }
  const view: PartyView = { role, identifications: ids };
  const name = joined(childrenOf(party, 'PartyName').map((p) => textAt(p, 'Name'))) ?? personName(child(party, 'Person')) ?? textAt(party, 'PartyLegalEntity', 'RegistrationName');
  const address = addressOf(child(party, 'PostalAddress'));
  const taxOffice = textAt(party, 'PartyTaxScheme', 'TaxScheme', 'Name');
  const contact = joined([textAt(party, 'Contact', 'Telephone'), textAt(party, 'Contact', 'ElectronicMail')]);
  if (name) view.name = name;
  if (address) view.address = address;
  if (taxOffice) view.taxOffice = taxOffice;
  if (contact) view.contact = contact;
  return view;
}

/** A driver: a person whose NationalityID is a TCKN (UBL-TR despatch advice). */
function driverOf(person: XmlElement, list: RegistryList | undefined): PartyView {
  const tckn = textAt(person, 'NationalityID');
  const view: PartyView = { role: 'DriverPerson', identifications: tckn ? [identification('TCKN', tckn, list)] : [] };
  const name = personName(person);
  if (name) view.name = name;
  return view;
}

function lineOf(el: XmlElement, type: DocumentType): LineView {
  const quantity = type.quantityElements.map((q) => child(el, q)).find((q) => q !== undefined);
  const item = child(el, 'Item');
  const line: LineView = { taxes: [], withholdings: [] };
  const id = textAt(el, 'ID');
  const name = joined([textAt(item, 'Name'), textAt(item, 'Description')], ' · ');
  if (id) line.id = id;
  if (name) line.name = name;
  if (quantity?.text.trim()) line.quantity = quantity.text.trim();
  if (quantity?.attrs.unitCode) line.unit = quantity.attrs.unitCode;
  const price = amountOf(child(child(el, 'Price'), 'PriceAmount'));
  const amount = amountOf(child(el, 'LineExtensionAmount'));
  if (price) line.price = price;
  if (amount) line.amount = amount;
  for (const ac of childrenOf(el, 'AllowanceCharge')) {
    const value = amountOf(child(ac, 'Amount'));
    if (!value) continue;
    if (textAt(ac, 'ChargeIndicator') === 'true') line.charges = value;
    else line.allowances = value;
  }
  for (const t of childrenOf(el, 'TaxTotal')) line.taxes.push(...childrenOf(t, 'TaxSubtotal').map(taxLineOf));
  for (const t of childrenOf(el, 'WithholdingTaxTotal')) line.withholdings.push(...childrenOf(t, 'TaxSubtotal').map(taxLineOf));
  return line;
}

function designOf(reference: XmlElement): EmbeddedDesign | undefined {
  const object = child(child(reference, 'Attachment'), 'EmbeddedDocumentBinaryObject');
  if (!object) return undefined;
  const name = object.attrs.filename?.trim() || undefined;
  const declared = textAt(reference, 'DocumentType')?.toUpperCase() === 'XSLT' || textAt(reference, 'DocumentTypeCode')?.toUpperCase() === 'XSLT';
  if (!declared && !(name && /\.xslt?$/i.test(name))) return undefined;
  const base64 = object.text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length === 0) return { ...(name ? { name } : {}), problem: 'notBase64' };
  const text = Buffer.from(base64, 'base64').toString('utf8').replace(/^\uFEFF/, '');
  if (!/<(?:[\w.-]+:)?(stylesheet|transform)[\s>]/.test(text.slice(0, 64 * 1024))) return { ...(name ? { name } : {}), problem: 'notXslt' };
  return { ...(name ? { name } : {}), text };
}

function referenceOf(el: XmlElement): { type: string; id: string } | undefined {
  const id = textAt(el, 'ID');
  return id ? { type: el.local, id } : undefined;
}

const REFERENCE_ELEMENTS = new Set(['OrderReference', 'DespatchDocumentReference', 'ReceiptDocumentReference', 'BillingReference', 'OriginatorDocumentReference', 'ContractDocumentReference']);

/** Reads `text` as a UBL-TR document. */
export function readDocument(text: string, options: ReadOptions = {}): ReadOutcome {
  let type: DocumentType | undefined;
  let notUbl: { root: string; namespace: string } | undefined;
  const model: StructuredModel = { kind: 'Invoice', notes: [], references: [], parties: [], lines: [], lineCount: 0, taxes: [], withholdings: [], totals: [], checks: [], responses: [], vehicles: [] };
  const totals: TotalsInput = { lineAmounts: [], allowanceCharges: [], taxes: [], withholdings: [], totals: {} };
  const partiesByRole = new Map<string, PartyView[]>();
  const drivers: PartyView[] = [];
  let design: EmbeddedDesign | undefined;
  let list: RegistryList | undefined;
  const maxLines = options.maxLines ?? Number.POSITIVE_INFINITY;

  /** Thrown to stop reading once the root says the document is not one of ours. */
  const stop = new Error('not a UBL-TR document');
  try {
    readXml(text, {
      root(el) {
        type = documentTypeOf(el.local, el.ns);
        if (!type) {
          notUbl = { root: el.local, namespace: el.ns };
          throw stop;
        }
        model.kind = type.kind;
        list = options.registry?.(type.registry);
      },
      child(el) {
        const t = type as DocumentType;
        const value = el.text.trim();
        switch (el.local) {
          case 'ProfileID':
            if (value) model.profile = value;
            return;
          case 'ID':
            if (value) model.id = value;
            return;
          case 'UUID':
            if (value) model.uuid = value;
            return;
          case 'IssueDate':
            if (value) model.issueDate = value;
            return;
          case 'IssueTime':
            if (value) model.issueTime = value;
            return;
          case 'DocumentCurrencyCode':
            if (value) model.currency = value;
            return;
          case 'Note':
            if (value) model.notes.push(value);
            return;
          case 'TaxTotal':
            model.taxes.push(taxTotalOf(el));
            return;
          case 'WithholdingTaxTotal':
            model.withholdings.push(taxTotalOf(el));
            return;
          case 'LegalMonetaryTotal':
            for (const key of TOTAL_KEYS) {
              const amount = amountOf(child(el, key));
              if (amount) totals.totals[key] = amount;
            }
            return;
          case 'AllowanceCharge':
            totals.allowanceCharges.push({ charge: textAt(el, 'ChargeIndicator') === 'true', amount: amountOf(child(el, 'Amount')) });
            return;
          case 'AdditionalDocumentReference':
            design ??= designOf(el);
            return;
          case 'DocumentResponse':
            model.responses.push({
              ...(textAt(el, 'Response', 'ResponseCode') ? { code: textAt(el, 'Response', 'ResponseCode') } : {}),
              ...(textAt(el, 'Response', 'Description') ? { description: textAt(el, 'Response', 'Description') } : {}),
              ...(textAt(el, 'DocumentReference', 'ID') ? { referenceId: textAt(el, 'DocumentReference', 'ID') } : {}),
            });
            return;
          case 'Shipment':
            for (const stage of childrenOf(el, 'ShipmentStage')) for (const driver of childrenOf(stage, 'DriverPerson')) drivers.push(driverOf(driver, list));
            for (const carrier of childrenOf(child(el, 'Delivery'), 'CarrierParty')) partiesByRole.set('CarrierParty', [...(partiesByRole.get('CarrierParty') ?? []), partyOf('CarrierParty', carrier, list)]);
            for (const unit of childrenOf(el, 'TransportHandlingUnit')) {
              for (const equipment of childrenOf(unit, 'TransportEquipment')) {
                const plate = textAt(equipment, 'ID');
                if (plate) model.vehicles.push(plate);
              }
            }
            for (const stage of childrenOf(el, 'ShipmentStage')) {
              const plate = textAt(stage, 'TransportMeans', 'RoadTransport', 'LicensePlateID');
              if (plate) model.vehicles.push(plate);
            }
            return;
        }
        if (t.typeCodeElement === el.local) {
          if (value) model.typeCode = value;
          return;
        }
        if (t.lineElement === el.local) {
          model.lineCount += 1;
          if (model.lines.length < maxLines) {
            const line = lineOf(el, t);
            model.lines.push(line);
            totals.lineAmounts.push(line.amount);
          } else totals.lineAmounts.push(amountOf(child(el, 'LineExtensionAmount')));
          return;
        }
        if (t.partyElements.includes(el.local)) {
          partiesByRole.set(el.local, [...(partiesByRole.get(el.local) ?? []), partyOf(el.local, el, list)]);
          return;
        }
        if (REFERENCE_ELEMENTS.has(el.local)) {
          const reference = referenceOf(el.local === 'BillingReference' ? (child(el, 'InvoiceDocumentReference') ?? el) : el);
          if (reference) model.references.push({ ...reference, type: el.local });
        }
      },
    });
  } catch (error) {
    if (error === stop && notUbl) return { result: { ok: false, reason: 'notUbl', ...notUbl } };
    if (error instanceof XmlSyntaxError) return { result: { ok: false, reason: 'notWellFormed', message: error.reason, line: error.line, column: error.column } };
    throw error;
  }
  const documentType = type as DocumentType;
  for (const role of [...documentType.partyElements, 'CarrierParty']) model.parties.push(...(partiesByRole.get(role) ?? []));
  model.parties.push(...drivers);
  if (documentType.hasTotals) {
    model.totals = TOTAL_KEYS.filter((k) => totals.totals[k]).map((key) => ({ key, amount: totals.totals[key] as Amount }));
    totals.taxes = model.taxes;
    totals.withholdings = model.withholdings;
    model.checks = totalsChecks(totals);
  }
  markProfileMismatch(model);
  if (design && 'text' in design) model.design = { ...(design.name ? { name: design.name } : {}), bytes: Buffer.byteLength(design.text) };
  return { result: { ok: true, model }, ...(design ? { design } : {}) };
}

/**
 * The receiver of an invoice against its profile, as the editor's diagnostics judge it: under an
 * e-invoice profile it must be a registered e-invoice user, under EARSIVFATURA it must not be.
 */
function markProfileMismatch(model: StructuredModel): void {
  if (model.kind !== 'Invoice' || !model.profile) return;
  const receiver = model.parties.find((p) => p.role === 'AccountingCustomerParty');
  const registry = receiver?.identifications.find((i) => i.registry)?.registry;
  if (!receiver || !registry || registry.status === 'noList') return;
  const profile = model.profile.toUpperCase();
  if (E_INVOICE_PROFILES.has(profile) && registry.status !== 'registered') receiver.profileMismatch = 'eArchiveExpected';
  if (profile === E_ARCHIVE_PROFILE && registry.status === 'registered') receiver.profileMismatch = 'eInvoiceUserOnEArchive';
}
