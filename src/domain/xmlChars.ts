// The character codes XML markup is found by (all ASCII), for the scanners that read text with
// charCodeAt: the registry list parser, the UBL-TR reader and the hovers' context.
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
