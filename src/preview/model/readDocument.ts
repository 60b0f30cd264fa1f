// Reads a UBL-TR document's text into the structured view's model: document type and profile, parties
// with their identifications checked (and their registry status, through a lookup it is given), lines,
// taxes and withholdings, totals and their arithmetic checks, and the design embedded in it. Which
// document it is, which party a number belongs to and how a number is judged come from the tables of
// src/domain/ubl/ and the editor's rules (checkIdentification), so the view says what the editor's
// diagnostics say. Pure (no vscode, no file access).
import { documentTypeOf, partyRegistryOf, partyRoleOf, type PartyRole, type RegistryDocumentType, type UblDocumentType } from '../../domain/ubl/documentTypes';
import { TAX_NUMBER_ELEMENTS, taxNumberElement, taxSchemeOf } from '../../domain/ubl/taxSchemes';
import { findingMessage, type Translator } from '../../editor/diagnostics/messages';
import { english } from '../../domain/taxIdWording';
import { documentNumberVerdict, FindingCodes, numberFinding, profileRuleFinding, registration, type DocumentTaxNumber, type FindingFacts, type RegistryLookups } from '../../editor/diagnostics/rules';
import type { OfflineTaxpayer } from '../../registry/offlineLookup';
import { parseDecimal } from './decimal';
import { totalsChecks, type TotalsInput } from './totalsChecks';
import { TOTAL_KEYS, type Amount, type LineView, type NumberFinding, type PartyIdentification, type PartyRegistry, type PartyView, type ReadResult, type StructuredModel, type TaxLine, type TaxTotalView } from './types';
import { child, childrenOf, readXml, textAt, XmlSyntaxError, type XmlElement } from '../../domain/ubl/xmlReader';

/** Where a number stands: the party it belongs to, and the document's type and ProfileID (upper-cased). */
type NumberPlace = Pick<DocumentTaxNumber, 'role' | 'documentKind' | 'profile'>;

function findingView(facts: FindingFacts, l10n: Translator): NumberFinding {
  return { code: facts.code, severity: facts.severity, message: findingMessage(l10n, facts) };
}

/** The number as the editor's rules take it, or undefined when its scheme carries no tax number. */
function documentTaxNumber(schemeId: string, value: string, place: NumberPlace): DocumentTaxNumber | undefined {
  const scheme = taxSchemeOf(schemeId);
  return scheme && { value: value.trim(), scheme, role: place.role, documentKind: place.documentKind, profile: place.profile };
}

/**
 * An identification checked: a tax number (by its scheme: VKN, TCKN, VKN_TCKN, ARACIKURUMVKN,
 * MALSAHIBIVKNTCKN…, any case) gets the verdict and the editor's finding; any other scheme (MERSISNO,
 * PARTYTYPE…) is shown as written.
 */
export function checkIdentification(schemeId: string, value: string, place: NumberPlace, l10n: Translator = english): PartyIdentification {
  const shown = { scheme: schemeId, value: value.trim() };
  const number = documentTaxNumber(schemeId, value, place);
  if (!number) return { ...shown, findings: [] };
  const verdict = documentNumberVerdict(number);
  const kind = verdict.verdict === 'valid' || verdict.verdict === 'invalid' ? verdict.kind : verdict.verdict === 'empty' ? (verdict.check === 'VKN_OR_TCKN' ? undefined : verdict.check) : verdict.placeholder.kind;
  const finding = numberFinding(number, verdict);
  return { ...shown, taxNumber: { role: place.role, verdict: verdict.verdict, ...(kind ? { kind } : {}) }, findings: finding ? [findingView(finding, l10n)] : [] };
}

/** A downloaded registry list family: a lookup and the list's date. */
export interface RegistryList {
  lookup(taxNumber: string): OfflineTaxpayer | undefined;
  downloadedAt: string;
}

export interface ReadOptions {
  /** The downloaded lists of a family (e-invoice or e-despatch users), or undefined when none is downloaded. */
  registry?: (list: RegistryDocumentType) => RegistryList | undefined;
  /** Lines kept in the model (all are counted and checked); default: all. */
  maxLines?: number;
  /** The words of the findings: vscode.l10n in the extension; by default the English source text. */
  l10n?: Translator;
}

/** The design embedded in the document: its file name and text, or why it could not be read. */
export type EmbeddedDesign = { name?: string; text: string } | { name?: string; problem: 'notBase64' | 'notXslt' };

/** Root children whose text is one of the model's fields (the first one written counts). */
const TEXT_FIELDS: Partial<Record<string, 'profile' | 'id' | 'uuid' | 'issueDate' | 'issueTime' | 'currency'>> = {
  ProfileID: 'profile',
  ID: 'id',
  UUID: 'uuid',
  IssueDate: 'issueDate',
  IssueTime: 'issueTime',
  DocumentCurrencyCode: 'currency',
};

/** The object without its undefined fields: the model crosses postMessage and is compared whole. */
function present<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;
}

function amountOf(el: XmlElement | undefined): Amount | undefined {
  const value = el?.text.trim();
  if (!el || !value) return undefined;
  return present({ value, currency: el.attrs.currencyID || undefined, numeric: parseDecimal(value) !== undefined });
}

function joined(parts: Array<string | undefined>, separator = ', '): string | undefined {
  const kept = parts.filter((p): p is string => !!p);
  return kept.length > 0 ? kept.join(separator) : undefined;
}

function taxLineOf(subtotal: XmlElement): TaxLine {
  const category = child(subtotal, 'TaxCategory');
  const scheme = child(category, 'TaxScheme');
  return present<TaxLine>({
    name: textAt(scheme, 'Name'),
    code: textAt(scheme, 'TaxTypeCode'),
    percent: textAt(subtotal, 'Percent'),
    taxable: amountOf(child(subtotal, 'TaxableAmount')),
    amount: amountOf(child(subtotal, 'TaxAmount')),
    exemption: joined([textAt(category, 'TaxExemptionReasonCode'), textAt(category, 'TaxExemptionReason')], ' '),
  });
}

function taxTotalOf(el: XmlElement): TaxTotalView {
  return present({ total: amountOf(child(el, 'TaxAmount')), subtotals: childrenOf(el, 'TaxSubtotal').map(taxLineOf) });
}

function registryOf(taxNumber: string, list: RegistryList | undefined): PartyRegistry {
  if (!list) return { status: 'noList' };
  const { status, title = '', pkAlias } = registration(list.lookup(taxNumber));
  const listDate = list.downloadedAt;
  return status === 'notRegistered' ? { status, listDate } : present({ status, title, pkAlias, listDate });
}

function addressOf(address: XmlElement | undefined): string | undefined {
  if (!address) return undefined;
  const street = joined([textAt(address, 'StreetName'), textAt(address, 'BuildingNumber'), textAt(address, 'Room')], ' ');
  return joined([street, textAt(address, 'PostalZone'), textAt(address, 'CitySubdivisionName'), textAt(address, 'CityName'), textAt(address, 'Country', 'Name')]);
}

function personName(person: XmlElement | undefined): string | undefined {
  return joined([textAt(person, 'FirstName'), textAt(person, 'MiddleName'), textAt(person, 'FamilyName')], ' ');
}

/** Name, address, tax office and contact of a party's element (a DriverPerson is a person; a Signature speaks through its SignatoryParty). */
function partyDetails(node: XmlElement): Omit<PartyView, 'role' | 'element' | 'identifications'> {
  if (node.local === 'DriverPerson') return present({ name: personName(node) });
  const party = node.local === 'Signature' ? child(node, 'SignatoryParty') : node;
  if (!party) return {};
  return present({
    name: joined(childrenOf(party, 'PartyName').map((p) => textAt(p, 'Name'))) ?? personName(child(party, 'Person')) ?? textAt(party, 'PartyLegalEntity', 'RegistrationName'),
    address: addressOf(child(party, 'PostalAddress')),
    taxOffice: textAt(party, 'PartyTaxScheme', 'TaxScheme', 'Name'),
    contact: joined([textAt(party, 'Contact', 'Telephone'), textAt(party, 'Contact', 'ElectronicMail')]),
  });
}

/** An identification as written, judged once the whole document is read (its ProfileID decides where GİB's placeholders belong). */
interface Site {
  scheme: string;
  value: string;
  role: PartyRole;
  /** Its scheme carries a tax number. */
  tax: boolean;
  /** Where its judgement goes: a party's or a line's identifications, or only the count of findings in lines not kept. */
  into: PartyIdentification[] | undefined;
}

interface PartyFound {
  view: PartyView;
  /** Where its role first appears in the type's table (the order parties are shown in); then document order. */
  rank: number;
  seq: number;
}

/**
 * The party role of an element that stands for a party: a PartyIdentification below it would be one of
 * the type's roles (the cac:Party of a supplier, a CarrierParty…), or an element that names a tax number
 * by its place would be (a DriverPerson's NationalityID, a cac:Signature's ID); 'other' for any other
 * element that has a PartyIdentification; undefined when it is no party.
 */
function partyRoleOfElement(type: UblDocumentType, node: XmlElement, path: readonly string[]): PartyRole | undefined {
  const byIdentification = partyRoleOf(type, [...path, 'PartyIdentification', 'ID']);
  if (byIdentification !== 'other') return byIdentification;
  for (const e of TAX_NUMBER_ELEMENTS) {
    if (e.parent !== node.local || e.parent === 'PartyIdentification') continue;
    const role = partyRoleOf(type, [...path, e.element]);
    if (role !== 'other') return role;
  }
  return node.children.some((c) => c.local === 'PartyIdentification') ? 'other' : undefined;
}

export function readDocument(text: string, options: ReadOptions = {}): { result: ReadResult; design?: EmbeddedDesign } {
  let type: UblDocumentType | undefined;
  let notUbl: { root: string; namespace: string } | undefined;
  const model: StructuredModel = { kind: 'Invoice', notes: [], references: [], parties: [], lines: [], lineCount: 0, findingsInLinesNotShown: {}, taxes: [], withholdings: [], totals: [], checks: [], responses: [], vehicles: [] };
  const totals: TotalsInput = { lineAmounts: [], allowanceCharges: [], taxes: [], withholdings: [], totals: {} };
  const parties: PartyFound[] = [];
  /** Every identification in document order. */
  const sites: Site[] = [];
  let design: EmbeddedDesign | undefined;
  const maxLines = options.maxLines ?? Number.POSITIVE_INFINITY;
  const l10n = options.l10n ?? english;

  const rankOf = (role: PartyRole): number => {
    const at = (type as UblDocumentType).partyRoles.findIndex((r) => r.role === role);
    return role === 'other' || at < 0 ? Number.MAX_SAFE_INTEGER : at;
  };

  const openParty = (role: PartyRole, node: XmlElement, path: readonly string[]): PartyFound => {
    // A cac:Party is named by the element it stands in (AccountingSupplierParty…).
    const element = node.local === 'Party' && path.length > 1 ? path[path.length - 2] : node.local;
    const found: PartyFound = { view: { role, element, ...partyDetails(node), identifications: [] }, rank: rankOf(role), seq: parties.length };
    parties.push(found);
    return found;
  };

  /**
   * The identifications below a child of the root: in a line (`line`), its tax numbers at any depth (the
   * owner of the goods, a delivery party…); elsewhere each party found, with the identifications it holds.
   */
  const readSites = (node: XmlElement, path: readonly string[], party?: PartyFound, line?: { into: Site['into'] }) => {
    const t = type as UblDocumentType;
    const role = line ? undefined : partyRoleOfElement(t, node, path);
    // A party inside another of the same role is one party (a Signature's SignatoryParty); of another role, its own.
    if (role !== undefined && party?.view.role !== role) party = openParty(role, node, path);
    for (const c of node.children) {
      const at = [...path, c.local];
      const site = c.local === 'PartyIdentification' ? undefined : taxSite(t, node, c, at);
      if (!site && c.local !== 'PartyIdentification') readSites(c, at, party, line);
      else {
        const into = line ? line.into : (party ??= openParty(site?.role ?? 'other', node, path)).view.identifications;
        if (site) sites.push({ ...site, into });
        else identificationSites(t, c, at, into, line !== undefined);
      }
    }
  };

  /** Every identification of a PartyIdentification: tax numbers (an empty one too: an error) and other schemes that have a value. */
  const identificationSites = (t: UblDocumentType, pid: XmlElement, at: readonly string[], into: PartyIdentification[] | undefined, taxOnly: boolean): void => {
    for (const id of childrenOf(pid, 'ID')) {
      const scheme = id.attrs.schemeID ?? '';
      const value = id.text.trim();
      const tax = taxSchemeOf(scheme) !== undefined;
      if (tax || (!taxOnly && value)) sites.push({ scheme, value, role: partyRoleOf(t, [...at, 'ID']), tax, into });
    }
  };

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
      },
      child(el) {
        const t = type as UblDocumentType;
        if (t.lineElement === el.local) {
          model.lineCount += 1;
          const line = model.lines.length < maxLines ? lineOf(el, t) : undefined;
          if (line) model.lines.push(line);
          totals.lineAmounts.push(line ? line.amount : amountOf(child(el, 'LineExtensionAmount')));
          readSites(el, [el.local], undefined, { into: line?.identifications });
          return;
        }
        readSites(el, [el.local], undefined);
        const value = el.text.trim();
        const field = el.local === t.typeCodeElement ? 'typeCode' : TEXT_FIELDS[el.local];
        if (field) {
          if (value) model[field] ??= value;
          return;
        }
        switch (el.local) {
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
            model.responses.push(
              present({
                code: textAt(el, 'Response', 'ResponseCode'),
                description: textAt(el, 'Response', 'Description'),
                referenceId: textAt(el, 'DocumentReference', 'ID'),
              }),
            );
            return;
          case 'Shipment': {
            const plates = [
              ...childrenOf(el, 'TransportHandlingUnit').flatMap((unit) => childrenOf(unit, 'TransportEquipment')).map((e) => textAt(e, 'ID')),
              ...childrenOf(el, 'ShipmentStage').map((stage) => textAt(stage, 'TransportMeans', 'RoadTransport', 'LicensePlateID')),
            ];
            model.vehicles.push(...plates.filter((plate): plate is string => plate !== undefined));
            return;
          }
        }
        if (REFERENCE_ELEMENTS.has(el.local)) {
          const id = textAt(el.local === 'BillingReference' ? (child(el, 'InvoiceDocumentReference') ?? el) : el, 'ID');
          if (id) model.references.push({ type: el.local, id });
        }
      },
    });
  } catch (error) {
    if (error === stop && notUbl) return { result: { ok: false, reason: 'notUbl', ...notUbl } };
    if (error instanceof XmlSyntaxError) return { result: { ok: false, reason: 'notWellFormed', message: error.reason, line: error.line, column: error.column } };
    throw error;
  }
  const documentType = type as UblDocumentType;
  judge(documentType, model, sites, options, l10n);
  model.parties = parties.sort((a, b) => a.rank - b.rank || a.seq - b.seq).map((p) => p.view);
  if (documentType.hasTotals) {
    model.totals = TOTAL_KEYS.filter((k) => totals.totals[k]).map((key) => ({ key, amount: totals.totals[key] as Amount }));
    model.checks = totalsChecks({ ...totals, taxes: model.taxes, withholdings: model.withholdings });
  }
  if (design && 'text' in design) model.design = present({ name: design.name, bytes: Buffer.byteLength(design.text) });
  return { result: { ok: true, model }, ...(design ? { design } : {}) };
}

/**
 * Judges every identification as the editor does (its findings, in `l10n`'s words), adds the registry
 * status of each valid tax number of a party from the list its type's parties are looked up in, and the
 * profile rule's finding at the receiver.
 */
function judge(type: UblDocumentType, model: StructuredModel, sites: readonly Site[], options: ReadOptions, l10n: Translator): void {
  const profile = model.profile?.toUpperCase();
  const lists = new Map<RegistryDocumentType, RegistryList | undefined>();
  const listOf = (family: RegistryDocumentType): RegistryList | undefined => {
    if (!lists.has(family)) lists.set(family, options.registry?.(family));
    return lists.get(family);
  };
  const lookups: RegistryLookups = (family) => {
    const list = listOf(family);
    return list && ((taxNumber: string) => list.lookup(taxNumber));
  };
  const partyList = listOf(partyRegistryOf(type));
  const lineIdentifications = new Set(model.lines.map((l) => l.identifications));
  const receiverRole = type.registryRule?.receiverRole;
  let receiver: { site: Site; shown: PartyIdentification } | undefined;
  for (const site of sites) {
    const shown = checkIdentification(site.scheme, site.value, { role: site.role, documentKind: type.kind, profile }, l10n);
    if (!site.into) {
      for (const f of shown.findings) model.findingsInLinesNotShown[f.severity] = (model.findingsInLinesNotShown[f.severity] ?? 0) + 1;
      continue;
    }
    if (shown.taxNumber?.verdict === 'valid' && !lineIdentifications.has(site.into)) shown.registry = registryOf(shown.value, partyList);
    site.into.push(shown);
    if (!receiver && site.tax && site.role === receiverRole && site.value) receiver = { site, shown };
  }
  if (!receiver) return;
  const number = documentTaxNumber(receiver.site.scheme, receiver.site.value, { role: receiver.site.role, documentKind: type.kind, profile });
  const finding = number && profileRuleFinding(type, number, lookups);
  if (!finding) return;
  receiver.shown.findings.push(findingView(finding, l10n));
  // The finding names the missing list; a second line saying the status is unknown would repeat it.
  if (finding.code === FindingCodes.registryNotDownloaded || finding.code === FindingCodes.despatchRegistryNotDownloaded) delete receiver.shown.registry;
}

/** The site of a tax-number element `c` under `parent` (its schemeID, or the scheme its place implies); undefined when it holds none. */
function taxSite(type: UblDocumentType, parent: XmlElement, c: XmlElement, at: readonly string[]): Omit<Site, 'into'> | undefined {
  const element = taxNumberElement(parent.local, c.local);
  if (!element || element.parent === 'PartyIdentification') return undefined;
  const scheme = element.scheme === 'schemeID' ? (c.attrs.schemeID ?? '') : element.scheme;
  return taxSchemeOf(scheme) ? { scheme, value: c.text.trim(), role: partyRoleOf(type, at), tax: true } : undefined;
}
function lineOf(el: XmlElement, type: UblDocumentType): LineView {
  const quantity = type.quantityElements.map((q) => child(el, q)).find((q) => q !== undefined);
  const item = child(el, 'Item');
  const taxLines = (total: string) => childrenOf(el, total).flatMap((t) => childrenOf(t, 'TaxSubtotal').map(taxLineOf));
  return present<LineView>({
    id: textAt(el, 'ID'),
    name: joined([textAt(item, 'Name'), textAt(item, 'Description')], ' · '),
    quantity: quantity?.text.trim() || undefined,
    unit: quantity?.attrs.unitCode || undefined,
    price: amountOf(child(child(el, 'Price'), 'PriceAmount')),
    amount: amountOf(child(el, 'LineExtensionAmount')),
    taxes: taxLines('TaxTotal'),
    withholdings: taxLines('WithholdingTaxTotal'),
    identifications: [],
  });
}

function designOf(reference: XmlElement): EmbeddedDesign | undefined {
  const object = child(child(reference, 'Attachment'), 'EmbeddedDocumentBinaryObject');
  if (!object) return undefined;
  const name = object.attrs.filename?.trim() || undefined;
  const declared = textAt(reference, 'DocumentType')?.toUpperCase() === 'XSLT' || textAt(reference, 'DocumentTypeCode')?.toUpperCase() === 'XSLT';
  if (!declared && !(name && /\.xslt?$/i.test(name))) return undefined;
  const base64 = object.text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length === 0) return present<EmbeddedDesign>({ name, problem: 'notBase64' });
  const text = Buffer.from(base64, 'base64').toString('utf8').replace(/^\uFEFF/, '');
  if (!/<(?:[\w.-]+:)?(stylesheet|transform)[\s>]/.test(text.slice(0, 64 * 1024))) return present<EmbeddedDesign>({ name, problem: 'notXslt' });
  return present({ name, text });
}

const REFERENCE_ELEMENTS = new Set(['OrderReference', 'DespatchDocumentReference', 'ReceiptDocumentReference', 'BillingReference', 'OriginatorDocumentReference', 'ContractDocumentReference']);

