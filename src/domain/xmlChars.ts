// The character codes XML markup is found by (all ASCII), for the scanners that read text with
// charCodeAt (the registry list parser, the UBL-TR reader, the hovers' context), and the escapes that
// every XML writer and reader here shares.
export const LT = 60;
export const GT = 62;
export const SLASH = 47;
export const BANG = 33;
export const QUESTION = 63;
export const COLON = 58;
export const EQUALS = 61;
export const DQUOTE = 34;
export const SQUOTE = 39;

/** XML white space: space, tab, line feed, carriage return. */
export function isXmlSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * White space as a JavaScript regex's `\s` sees it: where a scan replaced a regex (the attribute
 * reader, the hover's attribute being typed), it keeps that regex's reading.
 */
export function isRegexSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

const MARKUP_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text for element content or a double-quoted attribute value. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => MARKUP_ESCAPES[c]);
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Replaces the five XML entities and numeric character references; anything else stays as written. */
export function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref];
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
