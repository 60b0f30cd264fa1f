// Whether the XML around a number says it is a tax number: the hover shows in XML only there (in
// UBL-TR a 10- or 11-digit number is as often a phone number without its 0, a part, order, MERSİS or
// trade-registry number). It belongs only to
//   - an element whose schemeID is a tax scheme (src/domain/ubl/taxSchemes.ts: party identifications
//     under VKN/TCKN, MALSAHIBIVKNTCKN, ARACIKURUMVKN, the VKN_TCKN of a signature),
//   - an element whose place names a tax number (taxNumberElement: a driver's NationalityID) and a
//     cac:Signature's cbc:ID (GİB requires it to be the signer's VKN/TCKN),
//   - in any other XML, an element or attribute whose name says tax number (<VKN>, taxNumber="…",
//     <sh:Identifier>), as keys and labels do in JSON and text (./taxNumberContext.ts).
// Pure: the hover provider passes the text before the number (at most XML_CONTEXT_CHARS of it).
import { TAX_NUMBER_ELEMENTS, taxNumberElement, taxSchemeOf } from '../../domain/ubl/taxSchemes';
import { attributesOf, scanXml } from '../../domain/ubl/xmlReader';
import { BANG, DQUOTE, EQUALS, GT, isRegexSpace, LT, QUESTION, SLASH, SQUOTE } from '../../domain/xmlChars';
import { isTaxNumberLabel } from './taxNumberContext';

/** How much text before a number is read to find its element and that element's parent. */
export const XML_CONTEXT_CHARS = 8 * 1024;

/** Elements that can hold a tax number by their place alone: a signature's ID, a driver's NationalityID. */
const PLACED = new Set(['ID', ...TAX_NUMBER_ELEMENTS.filter((e) => e.scheme !== 'schemeID').map((e) => e.element)]);

interface OpenElement {
  local: string;
  schemeId: string | undefined;
}

/** Whether the element holds a tax number by its scheme, name or place (below `parent`). */
function elementSaysTaxNumber(element: OpenElement, parent: string | undefined): boolean {
  if (taxSchemeOf(element.schemeId) || isTaxNumberLabel(element.local)) return true;
  if (!PLACED.has(element.local)) return false;
  const implied = taxNumberElement(parent, element.local)?.scheme;
  return (parent === 'Signature' && element.local === 'ID') || (implied !== undefined && implied !== 'schemeID');
}

/**
 * Whether the number that starts right after `before` (the document's text up to its first digit) is
 * labelled a tax number by the XML around it: read forward with the reader the diagnostics use.
 */
export function xmlSaysTaxNumber(before: string): boolean {
  const open: OpenElement[] = [];
  /** Where `before` ends: in an element's text (CDATA included), or inside a tag still open at its end. */
  let end: 'text' | { tagAt: number } | undefined;
  scanXml(before, {
    malformed: () => undefined,
    text(_from, to) {
      end = to === before.length ? 'text' : undefined;
    },
    start(tag) {
      if (tag.gt < 0) end = tag.resume === before.length ? { tagAt: tag.lt } : undefined;
      else if (!tag.selfClosing) {
        open.push({ local: before.slice(tag.localStart, tag.nameEnd), schemeId: attributesOf(before, tag, 'schemeID').get('schemeID') });
        end = tag.resume === before.length ? 'text' : undefined;
      }
      return undefined;
    },
    end: () => void open.pop(),
  });
  if (end === undefined || (end === 'text' && open.length === 0)) return false;
  if (end === 'text') return elementSaysTaxNumber(open[open.length - 1], open[open.length - 2]?.local);
  // Inside a tag: an attribute's value, named by the attribute.
  const attribute = attributeBeingTyped(before.slice(end.tagAt));
  return attribute !== undefined && isTaxNumberLabel(attribute.slice(attribute.lastIndexOf(':') + 1));
}

/** What ends a tag's name for the attribute reading below: white space, '/', '>', '!', '?'. */
function endsTagName(code: number): boolean {
  return isRegexSpace(code) || code === SLASH || code === GT || code === BANG || code === QUESTION;
}

/** A name character of an attribute being typed: not white space, '=', '<', '>' or a quote. */
function isAttributeNameChar(code: number): boolean {
  return !(isRegexSpace(code) || code === EQUALS || code === LT || code === GT || code === DQUOTE || code === SQUOTE);
}

/**
 * The name of the attribute whose quoted value a tag being typed ends in (`<cbc:ID schemeID="` gives
 * schemeID), read back from the end: what /^<[^\s/>!?]+\s[\s\S]*?([^\s=<>"']+)\s*=\s*["']\s*$/
 * found, without its backtracking (8 KB of a tag cost it 40 ms, four times 4 KB's).
 */
export function attributeBeingTyped(tag: string): string | undefined {
  let end = tag.length;
  const skipSpaceBack = (): void => {
    while (end > 0 && isRegexSpace(tag.charCodeAt(end - 1))) end--;
  };
  skipSpaceBack();
  const quote = tag.charCodeAt(end - 1);
  if (quote !== DQUOTE && quote !== SQUOTE) return undefined;
  end--;
  skipSpaceBack();
  if (tag.charCodeAt(end - 1) !== EQUALS) return undefined;
  end--;
  skipSpaceBack();
  let start = end;
  while (start > 0 && isAttributeNameChar(tag.charCodeAt(start - 1))) start--;
  // The tag's own name, then white space: the attribute's name starts after it.
  if (tag.charCodeAt(0) !== LT) return undefined;
  let afterName = 1;
  while (afterName < tag.length && !endsTagName(tag.charCodeAt(afterName))) afterName++;
  if (afterName === 1 || afterName >= tag.length || !isRegexSpace(tag.charCodeAt(afterName))) return undefined;
  start = Math.max(start, afterName + 1);
  return start < end ? tag.slice(start, end) : undefined;
}
