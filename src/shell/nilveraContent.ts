// Whether a document's text is something Nilvera is for: a UBL-TR document (an invoice, despatch
// advice, receipt advice, e-Müstahsil receipt or application response: its root element and namespace,
// src/domain/ubl/documentTypes.ts) or a customer list (a CSV/TSV header with a tax-number column).
// Decided by content, not by file name: a pom.xml or a .csproj is XML too, and a customer list may be
// a .txt. Pure: the workspace-use tracker and the unit tests call it with a document's opening text.
import { scanCsv } from '../domain/csvScan';
import { documentTypeOf, UBL_DOCUMENT_NAMESPACES } from '../domain/ubl/documentTypes';

/** How much of a document is looked at: the root element and its namespaces, or the header line. */
export const SNIFF_CHARS = 8 * 1024;

/** 'invoice': a UBL-TR document of any type of documentTypes.ts (the use reason keeps its first name). */
export type NilveraContent = 'invoice' | 'customerList';

/**
 * The root element (after the prolog, comments and a doctype) is a UBL-TR document type: its local
 * name and the namespace its prefix (or the default) is bound to on that element.
 */
function isUblDocument(head: string): boolean {
  if (!UBL_DOCUMENT_NAMESPACES.some((ns) => head.includes(ns))) return false;
  // The first element that is not `<?…`, `<!…` (a signed document's root carries a dozen namespaces).
  const root = /<(?![?!])(?:([\w.-]+):)?([\w.-]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)/.exec(head.replace(/<!--[\s\S]*?-->/g, ''));
  if (!root) return false;
  const [, prefix, local, attributes] = root;
  const binding = new RegExp(`\\s${prefix ? `xmlns:${prefix.replace(/\./g, '\\.')}` : 'xmlns'}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
  return documentTypeOf(local, binding?.[1] ?? binding?.[2]) !== undefined;
}

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
  if (isUblDocument(head)) return 'invoice';
  if (isCustomerList(head)) return 'customerList';
  return undefined;
}
