// The XML of a workbook's parts is small and regular (ECMA-376 SpreadsheetML): a scanner of tags and
// text is all the reader needs. One pass with indexOf, no backtracking, no recursion: linear in the
// part's length whatever it holds. DOCTYPEs and processing instructions are skipped, never applied.
// Element names are given without their prefix (`x:row` → `row`), attributes by full and local name.
import { decodeXmlEntities, escapeXml } from './xmlChars';

export interface XmlEvents {
  open?(name: string, attrs: Record<string, string>, selfClosing: boolean): void;
  close?(name: string): void;
  /** Character data, entities decoded (may come in several pieces). */
  text?(text: string): void;
}

const localName = (qname: string): string => {
  const colon = qname.indexOf(':');
  return colon < 0 ? qname : qname.slice(colon + 1);
};

/** The attributes of a start tag's inside (`row r="1" spans="1:3"`, after the name). */
export function parseAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  let i = 0;
  for (;;) {
    const eq = text.indexOf('=', i);
    if (eq < 0) return attrs;
    const name = text.slice(i, eq).trim();
    let q = eq + 1;
    while (q < text.length && (text[q] === ' ' || text[q] === '\t' || text[q] === '\n' || text[q] === '\r')) q++;
    const quote = text[q];
    if (quote !== '"' && quote !== "'") return attrs;
    const end = text.indexOf(quote, q + 1);
    if (end < 0) return attrs;
    const value = decodeXmlEntities(text.slice(q + 1, end));
    attrs[name] = value;
    const local = localName(name);
    if (!(local in attrs)) attrs[local] = value;
    i = end + 1;
  }
}

const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Walks `xml` once, calling `events` for each start tag, end tag and piece of text. */
export function scanXml(xml: string, events: XmlEvents): void {
  let pos = 0;
  const length = xml.length;
  while (pos < length) {
    const lt = xml.indexOf('<', pos);
    const textEnd = lt < 0 ? length : lt;
    if (textEnd > pos && events.text) events.text(decodeXmlEntities(xml.slice(pos, textEnd)));
    if (lt < 0) return;
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      pos = end < 0 ? length : end + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      const stop = end < 0 ? length : end;
      if (events.text) events.text(xml.slice(lt + 9, stop));
      pos = end < 0 ? length : end + 3;
      continue;
    }
    if (xml[lt + 1] === '?' || xml[lt + 1] === '!') {
      // A processing instruction or a DOCTYPE (an internal subset's brackets are skipped, not read).
      const gt = xml.indexOf('>', lt);
      let bracket = -1;
      for (let i = lt + 2; i < gt && bracket < 0; i++) if (xml.charCodeAt(i) === 0x5b) bracket = i;
      if (xml[lt + 1] === '!' && bracket >= 0) {
        const close = xml.indexOf(']>', bracket);
        pos = close < 0 ? length : close + 2;
      } else pos = gt < 0 ? length : gt + 1;
      continue;
    }
    const gt = findTagEnd(xml, lt + 1);
    if (gt < 0) return;
    pos = gt + 1;
    if (xml[lt + 1] === '/') {
      events.close?.(localName(xml.slice(lt + 2, gt).trim()));
      continue;
    }
    const selfClosing = xml.charCodeAt(gt - 1) === 0x2f;
    const innerEnd = selfClosing ? gt - 1 : gt;
    let nameEnd = lt + 1;
    for (let c = xml.charCodeAt(nameEnd); nameEnd < innerEnd && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d; c = xml.charCodeAt(++nameEnd));
    const name = localName(xml.slice(lt + 1, nameEnd));
    if (events.open) events.open(name, nameEnd < innerEnd ? parseAttributes(xml.slice(nameEnd, innerEnd)) : NO_ATTRIBUTES, selfClosing);
    if (selfClosing) events.close?.(name);
  }
}

/** The `>` that ends the tag starting at `from`, skipping quoted attribute values. */
function findTagEnd(xml: string, from: number): number {
  const gt = xml.indexOf('>', from);
  if (gt < 0) return -1;
  // Usually no quote before the first `>`: then it ends the tag (searched within the tag only, so linear).
  let quoted = false;
  for (let i = from; i < gt && !quoted; i++) {
    const c = xml.charCodeAt(i);
    quoted = c === 0x22 || c === 0x27;
  }
  if (!quoted) return gt;
  let quote = '';
  for (let i = from; i < xml.length; i++) {
    const c = xml[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

/** Characters XML 1.0 does not allow, and the `_x` that would read as an escape: written as "_xHHHH_" (ECMA-376 ST_Xstring). */
// eslint-disable-next-line no-control-regex -- these are the characters to escape
const NEEDS_OOXML_ESCAPE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|_(?=x[0-9A-Fa-f]{4}_)/g;

/** A quick test for the usual case: nothing to escape at all. */
// eslint-disable-next-line no-control-regex -- the characters to escape
const NEEDS_ANY_ESCAPE = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|_x/;

/** Text for an element's content or an attribute: XML escapes plus ECMA-376's "_xHHHH_" for control characters. */
export function escapeXmlText(text: string): string {
  if (!NEEDS_ANY_ESCAPE.test(text)) return text;
  return escapeXml(text).replace(NEEDS_OOXML_ESCAPE, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
}

/** Undoes "_xHHHH_" escapes in a string cell's text. */
export function decodeOoxmlEscapes(text: string): string {
  if (!text.includes('_x')) return text;
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
