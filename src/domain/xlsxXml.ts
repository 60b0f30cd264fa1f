// The XML of a workbook's parts, read by the one forgiving, linear XML scanner (src/domain/ubl/xmlReader.ts):
// DOCTYPEs and processing instructions are skipped, never applied; a tag that does not end ends the part.
// Element names are given without their prefix (`x:row` → `row`), attributes by full and local name.
import { attributesOf, scanXml as scanTags, type XmlTag } from './ubl/xmlReader';
import { decodeXmlEntities } from './xmlChars';

export interface XmlEvents {
  open?(name: string, attrs: Record<string, string>, selfClosing: boolean): void;
  close?(name: string): void;
  /** Character data, entities decoded (may come in several pieces). */
  text?(text: string): void;
}

/** A start tag's attributes, values decoded, by full name and (unless taken) local name. */
function attributesByName(xml: string, tag: XmlTag): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const [name, raw] of attributesOf(xml, tag)) {
    const value = decodeXmlEntities(raw);
    attrs[name] = value;
    const local = name.slice(name.indexOf(':') + 1);
    if (!(local in attrs)) attrs[local] = value;
  }
  return attrs;
}

/** Walks `xml` once, calling `events` for each start tag, end tag and piece of text. */
export function scanXml(xml: string, events: XmlEvents): void {
  scanTags(xml, {
    start(tag) {
      if (tag.gt < 0) return xml.length;
      const name = xml.slice(tag.localStart, tag.nameEnd);
      events.open?.(name, attributesByName(xml, tag), tag.selfClosing);
      if (tag.selfClosing) events.close?.(name);
      return undefined;
    },
    end(tag) {
      if (tag.gt >= 0) events.close?.(xml.slice(tag.localStart, tag.nameEnd));
    },
    text(from, to, cdata) {
      if (events.text) events.text(cdata ? xml.slice(from, to) : decodeXmlEntities(xml.slice(from, to)));
    },
    malformed: () => undefined,
  });
}

/** Undoes "_xHHHH_" escapes in a string cell's text. */
export function decodeOoxmlEscapes(text: string): string {
  if (!text.includes('_x')) return text;
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
