// Whether the XML around a number says it is a tax number: the hover shows in XML only there. In
// UBL-TR documents a 10- or 11-digit number is as often a telephone or fax number written without its
// leading 0, a part number, an order or despatch number, a MERSİS or trade-registry number: the card
// belongs only to
//   - an element whose schemeID is a tax scheme (src/domain/ubl/taxSchemes.ts: party identifications
//     under VKN/TCKN, MALSAHIBIVKNTCKN, ARACIKURUMVKN, the VKN_TCKN of a signature),
//   - an element whose place names a tax number (taxNumberElement: a driver's NationalityID) and a
//     cac:Signature's cbc:ID (GİB requires it to be the signer's VKN/TCKN),
//   - in any other XML, an element or attribute whose name says tax number (<VKN>, taxNumber="…",
//     <sh:Identifier>), as keys and labels do in JSON and text (./taxNumberContext.ts).
// Pure: the hover provider passes the text before the number (at most XML_CONTEXT_CHARS of it).
import { TAX_NUMBER_ELEMENTS, taxNumberElement, taxSchemeOf } from '../../domain/ubl/taxSchemes';
import { isTaxNumberLabel } from './taxNumberContext';

/** How much text before a number is read to find its element and that element's parent. */
export const XML_CONTEXT_CHARS = 8 * 1024;

const CDATA_OPEN = '<![CDATA[';

function localName(qname: string): string {
  const colon = qname.lastIndexOf(':');
  return colon < 0 ? qname : qname.slice(colon + 1);
}

interface StartTag {
  local: string;
  attributes: Map<string, string>;
}

/** A start tag's name and attributes, or undefined for an end tag, comment, PI or self-closing tag. */
function startTag(tag: string): StartTag | undefined {
  const m = /^<([^\s/>!?]+)([\s\S]*?)(\/?)>$/.exec(tag);
  if (!m || m[3] === '/') return undefined;
  const attributes = new Map<string, string>();
  for (const a of m[2].matchAll(/([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attributes.set(localName(a[1]), a[2] ?? a[3] ?? '');
  return { local: localName(m[1]), attributes };
}

/** The local name of the element enclosing the tag that starts at `from`, read backwards. */
function parentOf(before: string, from: number): string | undefined {
  let depth = 0;
  let position = from;
  while (position > 0) {
    const lt = before.lastIndexOf('<', position - 1);
    if (lt < 0) return undefined;
    const gt = before.indexOf('>', lt);
    position = lt;
    const kind = before.charCodeAt(lt + 1);
    if (gt < 0 || gt > from || kind === 33 /* ! */ || kind === 63 /* ? */) continue;
    if (kind === 47 /* / */) {
      depth++;
      continue;
    }
    const tag = startTag(before.slice(lt, gt + 1));
    if (!tag) continue;
    if (depth === 0) return tag.local;
    depth--;
  }
  return undefined;
}

/** Elements that can hold a tax number by their place alone: a signature's ID, a driver's NationalityID. */
const PLACED = new Set(['ID', ...TAX_NUMBER_ELEMENTS.filter((e) => e.scheme !== 'schemeID').map((e) => e.element)]);

/** Whether the element `tag` (starting at `at` in `before`) holds a tax number by its scheme, name or place. */
function elementSaysTaxNumber(before: string, at: number, tag: StartTag): boolean {
  if (taxSchemeOf(tag.attributes.get('schemeID')) || isTaxNumberLabel(tag.local)) return true;
  if (!PLACED.has(tag.local)) return false;
  const parent = parentOf(before, at);
  const implied = taxNumberElement(parent, tag.local)?.scheme;
  return (parent === 'Signature' && tag.local === 'ID') || (implied !== undefined && implied !== 'schemeID');
}

/**
 * Whether the number that starts right after `before` (the document's text up to its first digit) is
 * labelled a tax number by the XML around it.
 */
export function xmlSaysTaxNumber(before: string): boolean {
  let end = before.length;
  let lt = before.lastIndexOf('<', end - 1);
  if (lt < 0) return false;
  // Inside a CDATA section: its element is the one before it.
  if (before.startsWith(CDATA_OPEN, lt) && before.indexOf(']]>', lt) < 0) {
    end = lt;
    lt = before.lastIndexOf('<', end - 1);
    if (lt < 0) return false;
  }
  const gt = before.indexOf('>', lt);
  if (gt < 0 || gt >= end) {
    // Inside a tag: an attribute's value, named by the attribute.
    const attribute = /^<[^\s/>!?]+\s[\s\S]*?([^\s=<>"']+)\s*=\s*["']\s*$/.exec(before.slice(lt, end));
    return attribute !== null && isTaxNumberLabel(localName(attribute[1]));
  }
  // Element text: the element that contains it says what it is.
  const tag = startTag(before.slice(lt, gt + 1));
  return tag !== undefined && elementSaysTaxNumber(before, lt, tag);
}
