// Whether a document's text is something Nilvera is for: a UBL-TR invoice (the UBL Invoice-2
// namespace near the top) or a customer list (a CSV/TSV header with a tax-number column). Decided by
// content, not by file name: a pom.xml or a .csproj is XML too, and a customer list may be a .txt.
// Pure: the workspace-use tracker and the unit tests call it with a document's opening text.
import { scanCsv } from '../editor/diagnostics/csvScan';
import { UBL_INVOICE_NAMESPACE } from '../editor/diagnostics/ublScan';

/** How much of a document is looked at: the root element and its namespaces, or the header line. */
export const SNIFF_CHARS = 8 * 1024;

export type NilveraContent = 'invoice' | 'customerList';

/** The root element (after the prolog, comments and a doctype) is an Invoice in the UBL namespace. */
function isUblInvoice(head: string): boolean {
  if (!head.includes(UBL_INVOICE_NAMESPACE)) return false;
  // The first element that is not `<?…`, `<!…`: its local name must be Invoice.
  const root = /<(?![?!])(?:[\w.-]+:)?([\w.-]+)/.exec(head);
  return root?.[1] === 'Invoice';
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
  if (isUblInvoice(head)) return 'invoice';
  if (isCustomerList(head)) return 'customerList';
  return undefined;
}
