// Whether a document's text is something Nilvera is for: a UBL-TR document (an invoice, despatch
// advice, receipt advice, e-Müstahsil receipt or application response: its root element and namespace,
// src/domain/ubl/documentTypes.ts) or a customer list (a CSV/TSV header with a tax-number column).
// Decided by content, not by file name: a pom.xml or a .csproj is XML too, and a customer list may be
// a .txt. Pure: the workspace-use tracker and the unit tests call it with a document's opening text.
import { scanCsv } from '../domain/csvScan';
import { documentTypeOfHead } from '../domain/ubl/documentTypes';

/** How much of a document is looked at: the root element and its namespaces, or the header line. */
export const SNIFF_CHARS = 8 * 1024;

/** 'invoice': a UBL-TR document of any type of documentTypes.ts (the use reason keeps its first name). */
export type NilveraContent = 'invoice' | 'customerList';

/** The first line is a header naming a tax-number column (VKN, TCKN, Vergi No, TaxNumber…). */
function isCustomerList(head: string): boolean {
  const from = head.charCodeAt(0) === 0xfeff ? 1 : 0;
  const lineEnd = head.slice(from).search(/\r|\n/);
  // A header without a line break after it is a file still being typed or a lone line: not a list.
  if (lineEnd <= 0) return false;
  const header = head.slice(from, from + lineEnd);
  if (!/[,;\t]/.test(header)) return false;
  return scanCsv(header).columns.length > 0;
}

export function nilveraContentOf(text: string): NilveraContent | undefined {
  const head = text.slice(0, SNIFF_CHARS);
  if (documentTypeOfHead(head)) return 'invoice';
  if (isCustomerList(head)) return 'customerList';
  return undefined;
}
