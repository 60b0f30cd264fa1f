// The root elements GİB's rules apply to, by local name and namespace, and the recognition of one from
// the head of a document's text (the root element after the prolog, comments and a doctype, and the
// namespace its prefix is bound to on it). Apart from the engine so that the editor and the folder
// check can tell a UBL-TR document without loading the engine. Plain Node, no vscode.
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

/** How much of a document's opening is read (a signed document's root carries a dozen namespaces). */
export const GIB_SNIFF_CHARS = 8192;

export interface GibDocumentRoot {
  /** The root's local name: Invoice, DespatchAdvice, …, StandardBusinessDocument. */
  readonly localName: string;
  /** Offsets in the text of the root's name as written in its start tag (prefix included). */
  readonly nameStart: number;
  readonly nameEnd: number;
}

const NAME = /(?:([\w.-]+):)?([\w.-]+)/y;
const ATTRIBUTE = /\s+([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

/** The root of a UBL-TR document (or GİB envelope) from its head; undefined for any other text. */
export function gibDocumentRoot(head: string): GibDocumentRoot | undefined {
  const open = rootStartTag(head);
  if (open < 0) return undefined;
  NAME.lastIndex = open + 1;
  const name = NAME.exec(head);
  if (!name) return undefined;
  const [, prefix, localName] = name;
  const known = Object.prototype.hasOwnProperty.call(GIB_DOCUMENT_ROOTS, localName) ? GIB_DOCUMENT_ROOTS[localName] : undefined;
  if (!known) return undefined;
  const wanted = prefix ? `xmlns:${prefix}` : 'xmlns';
  let namespace: string | undefined;
  ATTRIBUTE.lastIndex = NAME.lastIndex;
  for (let a = ATTRIBUTE.exec(head); a; a = ATTRIBUTE.exec(head)) if (a[1] === wanted) namespace = a[2] ?? a[3];
  if (namespace !== known.ns) return undefined;
  return { localName, nameStart: open + 1, nameEnd: open + 1 + name[0].length };
}

/** The offset of the root's `<`, past a BOM, whitespace, `<?…?>`, comments and a doctype; -1 when the head has none. */
function rootStartTag(text: string): number {
  let at = 0;
  for (;;) {
    while (at < text.length && (text[at] === '\uFEFF' || /\s/.test(text[at]))) at++;
    if (text[at] !== '<') return -1;
    if (text.startsWith('<?', at)) at = after(text, '?>', at + 2);
    else if (text.startsWith('<!--', at)) at = after(text, '-->', at + 4);
    else if (text.startsWith('<!', at)) {
      // A doctype, possibly with an internal subset in brackets.
      const bracket = text.indexOf('[', at);
      const close = text.indexOf('>', at);
      at = bracket >= 0 && bracket < close ? after(text, ']', bracket) : close;
      at = at < 0 ? -1 : after(text, '>', at);
    } else return at;
    if (at < 0) return -1;
  }
}

function after(text: string, token: string, from: number): number {
  const i = text.indexOf(token, from);
  return i < 0 ? -1 : i + token.length;
}
