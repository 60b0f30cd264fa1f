// The UBL-TR document types exchanged on the platform, recognised by content: the root element's local
// name and its namespace (never the file name). For each type: where its parties' tax numbers sit
// (element path → party role), and which registry list, if any, its profile rule checks the receiver
// against. Pure tables and functions, no vscode import: the editor's diagnostics and any other view of
// a document (a preview, a report) classify parties the same way.
//
// Sources: GİB's UBL-TR schematron (UBL-TR_Main_Schematron.xml: the rule contexts per document type,
// e.g. desp:DespatchAdvice/cac:Shipment/cac:Delivery/cac:CarrierParty/cac:PartyIdentification;
// UBL-TR_Common_Schematron.xml: DespatchCarrierDriverCheck names cac:ShipmentStage/cac:DriverPerson,
// SignatureCheck cac:Signature/cbc:ID, the YOLCUBERABERFATURA rule cac:TaxRepresentativeParty, the
// HKS rule cac:Item/cac:AdditionalItemIdentification) and the e-Müstahsil guide (CreditNote, ProfileID
// EARSIVBELGE, CreditNoteTypeCode MUSTAHSILMAKBUZ: the supplier party issues the receipt, the customer
// party is the producer). Paths are local names: the prefixes (cac:, cbc:, none) vary between files.

const UBL_SCHEMA = 'urn:oasis:names:specification:ubl:schema:xsd:';

export type UblDocumentKind = 'Invoice' | 'DespatchAdvice' | 'ReceiptAdvice' | 'CreditNote' | 'ApplicationResponse';

/** The registry's document types (GlobalUserType): each has its own PK and GB lists. */
export type RegistryDocumentType = 'Invoice' | 'DespatchAdvice';

export type PartyRole =
  | 'supplier'
  | 'customer'
  | 'buyer'
  | 'seller'
  | 'originator'
  | 'payee'
  | 'despatchSupplier'
  | 'deliveryCustomer'
  | 'deliveryParty'
  | 'carrier'
  | 'driver'
  | 'sender'
  | 'receiver'
  | 'producer'
  | 'goodsOwner'
  | 'intermediary'
  | 'signatory'
  /** A party identification found anywhere else (still checked). */
  | 'other';

export interface PartyRolePath {
  /**
   * Local names from the root's child down to the element that holds the number, separated by '/';
   * a leading '**' matches any elements above (the same party inside a line, a delivery, a shipment).
   */
  path: string;
  role: PartyRole;
}

/** The profile rule: which registered users the receiving party must (not) be, by ProfileID. */
export interface RegistryRule {
  /** The registry list family the receiver is looked up in. */
  registry: RegistryDocumentType;
  /** The party whose registration decides where the document may go. */
  receiverRole: PartyRole;
  /** Profiles sent only to registered users of `registry`. */
  registeredProfiles: ReadonlySet<string>;
  /** Profiles for receivers that are not registered users (e-Arşiv). */
  unregisteredProfiles: ReadonlySet<string>;
}

export interface UblDocumentType {
  /** Also the root element's local name. */
  kind: UblDocumentKind;
  namespace: string;
  /** In the order a reader names them: the first entry of a role is where it is shown among the parties. */
  partyRoles: readonly PartyRolePath[];
  registryRule?: RegistryRule;
  /** The root's child that holds the type code (InvoiceTypeCode, DespatchAdviceTypeCode…), if it has one. */
  typeCodeElement?: string;
  /** The root's children that are the document's lines, if it has lines. */
  lineElement?: string;
  /** A line's quantity elements, the main one first (a receipt advice line has received, rejected… quantities). */
  quantityElements: readonly string[];
  /** Whether it states amounts (line amounts, TaxTotal, LegalMonetaryTotal) that must add up. */
  hasTotals: boolean;
}

/**
 * ProfileID values of the e-Fatura (e-invoice) scenarios, sent only to registered e-invoice users.
 * Source: GİB "UBL-TR Kod Listeleri" (ProfileIDType) and the e-Fatura scenario guide.
 */
export const E_INVOICE_PROFILES: ReadonlySet<string> = new Set([
  'TEMELFATURA',
  'TICARIFATURA',
  'IHRACAT',
  'YOLCUBERABERFATURA',
  'HKS',
  'KAMU',
  'ENERJI',
  'ILAC_TIBBICIHAZ',
  'YATIRIMTESVIK',
  'IDIS',
  'OZELFATURA',
]);
/** The e-Arşiv profile: for receivers that are not e-invoice users. */
export const E_ARCHIVE_PROFILE = 'EARSIVFATURA';
/** ProfileIDTypeDespatchAdvice of GİB's code list: e-İrsaliye goes only to registered e-despatch users. */
export const E_DESPATCH_PROFILES: ReadonlySet<string> = new Set(['TEMELIRSALIYE', 'HKSIRSALIYE', 'IDISIRSALIYE']);

const PARTY_ID = 'PartyIdentification/ID';

/** Roles every type shares: the signer (cac:Signature) and the owner of goods on HKS lines. */
const COMMON_ROLES: PartyRolePath[] = [
  { path: 'Signature/ID', role: 'signatory' },
  { path: `Signature/SignatoryParty/${PARTY_ID}`, role: 'signatory' },
  { path: '**/Item/AdditionalItemIdentification/ID', role: 'goodsOwner' },
];

/** The shipment parties of the despatch family (and of a delivery inside an invoice). */
const SHIPMENT_ROLES: PartyRolePath[] = [
  { path: `**/CarrierParty/${PARTY_ID}`, role: 'carrier' },
  { path: '**/DriverPerson/NationalityID', role: 'driver' },
  { path: `**/DeliveryParty/${PARTY_ID}`, role: 'deliveryParty' },
];

/** A party that stands as a cac:Party in `element` (AccountingSupplierParty/Party…). */
const partyIn = (element: string, role: PartyRole): PartyRolePath => ({ path: `${element}/Party/${PARTY_ID}`, role });

const BUYER_AND_SELLER = [partyIn('BuyerCustomerParty', 'buyer'), partyIn('SellerSupplierParty', 'seller')];

/** A type whose root is named `kind`, in the UBL namespace of that name. */
function ublType(kind: UblDocumentKind, type: Omit<UblDocumentType, 'kind' | 'namespace'>): UblDocumentType {
  return { kind, namespace: `${UBL_SCHEMA}${kind}-2`, ...type };
}

export const UBL_DOCUMENT_TYPES: readonly UblDocumentType[] = [
  ublType('Invoice', {
    partyRoles: [
      partyIn('AccountingSupplierParty', 'supplier'),
      partyIn('AccountingCustomerParty', 'customer'),
      ...BUYER_AND_SELLER,
      { path: `TaxRepresentativeParty/${PARTY_ID}`, role: 'intermediary' },
      { path: `PayeeParty/${PARTY_ID}`, role: 'payee' },
      ...SHIPMENT_ROLES,
      ...COMMON_ROLES,
    ],
    registryRule: { registry: 'Invoice', receiverRole: 'customer', registeredProfiles: E_INVOICE_PROFILES, unregisteredProfiles: new Set([E_ARCHIVE_PROFILE]) },
    typeCodeElement: 'InvoiceTypeCode',
    lineElement: 'InvoiceLine',
    quantityElements: ['InvoicedQuantity'],
    hasTotals: true,
  }),
  ublType('DespatchAdvice', {
    partyRoles: [
      partyIn('DespatchSupplierParty', 'despatchSupplier'),
      partyIn('DeliveryCustomerParty', 'deliveryCustomer'),
      ...BUYER_AND_SELLER,
      partyIn('OriginatorCustomerParty', 'originator'),
      ...SHIPMENT_ROLES,
      ...COMMON_ROLES,
    ],
    registryRule: { registry: 'DespatchAdvice', receiverRole: 'deliveryCustomer', registeredProfiles: E_DESPATCH_PROFILES, unregisteredProfiles: new Set() },
    typeCodeElement: 'DespatchAdviceTypeCode',
    lineElement: 'DespatchLine',
    quantityElements: ['DeliveredQuantity', 'OutstandingQuantity'],
    hasTotals: false,
  }),
  // The receipt advice (irsaliye yanıtı) goes back from the delivery customer to the despatch's
  // sender, who sent an e-İrsaliye and so must be a registered e-despatch user.
  ublType('ReceiptAdvice', {
    partyRoles: [
      partyIn('DespatchSupplierParty', 'despatchSupplier'),
      partyIn('DeliveryCustomerParty', 'deliveryCustomer'),
      ...BUYER_AND_SELLER,
      ...SHIPMENT_ROLES,
      ...COMMON_ROLES,
    ],
    registryRule: { registry: 'DespatchAdvice', receiverRole: 'despatchSupplier', registeredProfiles: E_DESPATCH_PROFILES, unregisteredProfiles: new Set() },
    typeCodeElement: 'ReceiptAdviceTypeCode',
    lineElement: 'ReceiptLine',
    quantityElements: ['ReceivedQuantity', 'RejectedQuantity', 'ShortQuantity', 'OversupplyQuantity'],
    hasTotals: false,
  }),
  // UBL-TR uses the CreditNote schema for the e-Müstahsil receipt (an e-Arşiv family document: no
  // registry list decides where it goes, so no profile rule).
  ublType('CreditNote', {
    partyRoles: [
      partyIn('AccountingSupplierParty', 'supplier'),
      partyIn('AccountingCustomerParty', 'producer'),
      ...BUYER_AND_SELLER,
      ...SHIPMENT_ROLES,
      ...COMMON_ROLES,
    ],
    typeCodeElement: 'CreditNoteTypeCode',
    lineElement: 'CreditNoteLine',
    quantityElements: ['CreditedQuantity'],
    hasTotals: true,
  }),
  // Answers (KABUL/RED, system responses) travel between parties the platform already knows.
  ublType('ApplicationResponse', {
    partyRoles: [
      { path: `SenderParty/${PARTY_ID}`, role: 'sender' },
      { path: `ReceiverParty/${PARTY_ID}`, role: 'receiver' },
      ...COMMON_ROLES,
    ],
    quantityElements: [],
    hasTotals: false,
  }),
];

/** The document type of a root element, or undefined when it is not one of UBL_DOCUMENT_TYPES. */
export function documentTypeOf(rootLocalName: string, namespace: string | undefined): UblDocumentType | undefined {
  return UBL_DOCUMENT_TYPES.find((t) => t.kind === rootLocalName && t.namespace === namespace?.trim());
}

/**
 * The registry list a type's parties are looked up in to show their status: the list of its profile
 * rule. Types without one (e-Müstahsil receipts, application responses) pass between e-invoice users
 * (an e-Müstahsil issuer is one, a response answers an e-invoice), so the e-invoice list.
 */
export function partyRegistryOf(type: UblDocumentType): RegistryDocumentType {
  return type.registryRule?.registry ?? 'Invoice';
}

/**
 * The document type of a text by its opening (the root element after the prolog, comments and a
 * doctype: its local name and the namespace its prefix, or the default, is bound to on that element);
 * undefined for any other text. For menus and pickers that look at the first few KB of a file.
 */
export function documentTypeOfHead(head: string): UblDocumentType | undefined {
  // A quick "could this be one?" before the root is parsed.
  if (!UBL_DOCUMENT_TYPES.some((t) => head.includes(t.namespace))) return undefined;
  // The first element that is not `<?…`, `<!…` (a signed document's root carries a dozen namespaces).
  const root = /<(?![?!])(?:([\w.-]+):)?([\w.-]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)/.exec(withoutComments(head));
  if (!root) return undefined;
  const [, prefix, local, attributes] = root;
  const binding = new RegExp(`\\s${prefix ? `xmlns:${prefix.replace(/\./g, '\\.')}` : 'xmlns'}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
  return documentTypeOf(local, binding?.[1] ?? binding?.[2]);
}

/**
 * The text without its comments, read once: what replace(/<!--[\s\S]*?-->/g, '') gave (an unclosed one
 * and all after it kept), without the regex's search to the end from each '<!--' (8 KB of them: 20 ms).
 */
export function withoutComments(text: string): string {
  let out = '';
  let from = 0;
  for (let open = text.indexOf('<!--'); open >= 0; open = text.indexOf('<!--', from)) {
    const close = text.indexOf('-->', open + 4);
    if (close < 0) break;
    out += text.slice(from, open);
    from = close + 3;
  }
  return out + text.slice(from);
}

const segmentsOf = new Map<string, string[]>();

function matches(rule: string, path: readonly string[]): boolean {
  let segments = segmentsOf.get(rule);
  if (!segments) segmentsOf.set(rule, (segments = rule.split('/')));
  if (segments[0] === '**') {
    const tail = segments.slice(1);
    if (tail.length > path.length) return false;
    const from = path.length - tail.length;
    return tail.every((s, i) => s === path[from + i]);
  }
  return segments.length === path.length && segments.every((s, i) => s === path[i]);
}

/**
 * The role of the party whose number sits at `path` (local names from the root's child down to the
 * number's element, e.g. ['AccountingSupplierParty', 'Party', 'PartyIdentification', 'ID']): the
 * first matching entry of the type's table, exact paths before '**' ones; 'other' when none matches.
 */
export function partyRoleOf(type: UblDocumentType, path: readonly string[]): PartyRole {
  const exact = type.partyRoles.find((r) => !r.path.startsWith('**') && matches(r.path, path));
  return (exact ?? type.partyRoles.find((r) => r.path.startsWith('**') && matches(r.path, path)))?.role ?? 'other';
}
