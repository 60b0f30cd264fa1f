// The root elements GİB's rules apply to, by local name and namespace. Apart from the engine so that
// the editor can recognise a UBL-TR document from the head of its text without loading the engine.
// Plain Node, no vscode.
import type { XsdDocumentType } from './xsd';

/** What is not a note or a finding: there was nothing to check. */
export const GIB_DOCUMENT_ROOTS: Readonly<Record<string, { ns: string; type: XsdDocumentType | 'Envelope' }>> = {
  Invoice: { ns: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2', type: 'Invoice' },
  DespatchAdvice: { ns: 'urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2', type: 'DespatchAdvice' },
  ReceiptAdvice: { ns: 'urn:oasis:names:specification:ubl:schema:xsd:ReceiptAdvice-2', type: 'ReceiptAdvice' },
  ApplicationResponse: { ns: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2', type: 'ApplicationResponse' },
  CreditNote: { ns: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2', type: 'CreditNote' },
  StandardBusinessDocument: { ns: 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader', type: 'Envelope' },
};
