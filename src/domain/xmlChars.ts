// The character codes XML markup is found by (all ASCII), for the scanners that read text with
// charCodeAt: the registry list parser and the UBL-TR reader.
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
