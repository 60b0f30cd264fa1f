// The UBL-TR document types the preview recognises, by the root element's local name and namespace:
// the one place that says which documents it reads, what their parties, lines and totals are called,
// and which registry list (e-invoice or e-despatch users) their parties are looked up in.
import type { GlobalUserType } from '../../api/types';

export type DocumentKind = 'Invoice' | 'CreditNote' | 'DespatchAdvice' | 'ReceiptAdvice' | 'ApplicationResponse';

export interface DocumentType {
  kind: DocumentKind;
  namespace: string;
  /** The element of its type code (InvoiceTypeCode, DespatchAdviceTypeCode…), if it has one. */
  typeCodeElement?: string;
  /** Children of the root that are parties, in the order they are shown. */
  partyElements: readonly string[];
  /** The root's line elements and the quantity element of a line. */
  lineElement?: string;
  quantityElements: readonly string[];
  /** Whether it carries amounts (LegalMonetaryTotal, TaxTotal): invoices and credit notes. */
  hasTotals: boolean;
  /** The registry list its parties belong to. */
  registry: GlobalUserType;
}

const UBL = 'urn:oasis:names:specification:ubl:schema:xsd:';

export const DOCUMENT_TYPES: readonly DocumentType[] = [
  {
    kind: 'Invoice',
    namespace: `${UBL}Invoice-2`,
    typeCodeElement: 'InvoiceTypeCode',
    partyElements: ['AccountingSupplierParty', 'AccountingCustomerParty', 'BuyerCustomerParty', 'SellerSupplierParty', 'TaxRepresentativeParty', 'PayeeParty'],
    lineElement: 'InvoiceLine',
    quantityElements: ['InvoicedQuantity'],
    hasTotals: true,
    registry: 'Invoice',
  },
  {
    // e-Müstahsil makbuzu (profile EARSIVBELGE, type MUSTAHSILMAKBUZ) is a CreditNote in UBL-TR.
    kind: 'CreditNote',
    namespace: `${UBL}CreditNote-2`,
    typeCodeElement: 'CreditNoteTypeCode',
    partyElements: ['AccountingSupplierParty', 'AccountingCustomerParty', 'BuyerCustomerParty', 'SellerSupplierParty', 'PayeeParty'],
    lineElement: 'CreditNoteLine',
    quantityElements: ['CreditedQuantity'],
    hasTotals: true,
    registry: 'Invoice',
  },
  {
    kind: 'DespatchAdvice',
    namespace: `${UBL}DespatchAdvice-2`,
    typeCodeElement: 'DespatchAdviceTypeCode',
    partyElements: ['DespatchSupplierParty', 'DeliveryCustomerParty', 'BuyerCustomerParty', 'SellerSupplierParty', 'OriginatorCustomerParty'],
    lineElement: 'DespatchLine',
    quantityElements: ['DeliveredQuantity', 'OutstandingQuantity'],
    hasTotals: false,
    registry: 'DespatchAdvice',
  },
  {
    kind: 'ReceiptAdvice',
    namespace: `${UBL}ReceiptAdvice-2`,
    typeCodeElement: 'ReceiptAdviceTypeCode',
    partyElements: ['DeliveryCustomerParty', 'DespatchSupplierParty', 'BuyerCustomerParty', 'SellerSupplierParty'],
    lineElement: 'ReceiptLine',
    quantityElements: ['ReceivedQuantity', 'RejectedQuantity', 'ShortQuantity', 'OversupplyQuantity'],
    hasTotals: false,
    registry: 'DespatchAdvice',
  },
  {
    kind: 'ApplicationResponse',
    namespace: `${UBL}ApplicationResponse-2`,
    partyElements: ['SenderParty', 'ReceiverParty'],
    quantityElements: [],
    hasTotals: false,
    registry: 'Invoice',
  },
];

/** The document type of a root element, or undefined for anything else (a pom.xml, a UBL type not listed). */
export function documentTypeOf(local: string, namespace: string): DocumentType | undefined {
  return DOCUMENT_TYPES.find((t) => t.kind === local && t.namespace === namespace);
}

/** Whether the opening text of a file is one of these documents (the context key and the invoice picker). */
export function looksLikeUblDocument(head: string): boolean {
  const root = /<(?![?!])(?:([\w.-]+):)?([\w.-]+)[\s>]/.exec(head);
  if (!root) return false;
  const type = DOCUMENT_TYPES.find((t) => t.kind === root[2]);
  return type !== undefined && head.includes(type.namespace);
}
