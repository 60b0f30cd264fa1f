// Finds the tax number (VKN: 10 digits, TCKN: 11 digits) under a position in one line of text. Pure.
// A token is a run of exactly 10 or 11 ASCII digits that stands on its own. Longer digit runs (IBANs,
// invoice numbers, timestamps) and digits glued to letters (hashes, base64 blobs, ids like ABC2024…)
// are not tax numbers; neither is a run joined by a dot to more digits (decimals, dotted dates) or
// followed by a Turkish decimal comma and one or two digits (an amount: 1234567890,50). Eleven
// digits starting with 0 are a Turkish phone number (0 + area code + number), which no TCKN can be:
// a card there would only be noise in customer lists full of phone columns.

export interface TaxNumberToken {
  /** Character index of the first digit. */
  start: number;
  /** Character index after the last digit. */
  end: number;
  text: string;
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** Letters of any script, digits and underscore glue a digit run into a longer word. */
function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);
}

function isDigitAt(line: string, index: number): boolean {
  return index >= 0 && index < line.length && isDigit(line.charCodeAt(index));
}

/** Whether the run [start, end) is the integer part or a fraction of a longer number. */
function partOfLongerNumber(line: string, start: number, end: number): boolean {
  if (line[start - 1] === '.' && isDigitAt(line, start - 2)) return true;
  if (line[end] === '.' && isDigitAt(line, end + 1)) return true;
  if (line[end] === ',' && isDigitAt(line, end + 1)) {
    // A decimal comma takes one or two digits; a longer run after a comma is the next list/cell value.
    let fractionEnd = end + 1;
    while (isDigitAt(line, fractionEnd)) fractionEnd++;
    if (fractionEnd - (end + 1) <= 2) return true;
  }
  return false;
}

/**
 * The tax-number token at `character` (on a digit, or right after the last digit as the editor
 * reports a position at a word's end), or undefined when there is none.
 */
export function taxNumberAt(line: string, character: number): TaxNumberToken | undefined {
  let probe = character;
  if (!isDigitAt(line, probe)) {
    if (!isDigitAt(line, probe - 1)) return undefined;
    probe -= 1;
  }
  let start = probe;
  while (isDigitAt(line, start - 1)) start--;
  let end = probe + 1;
  while (isDigitAt(line, end)) end++;
  const length = end - start;
  if (length !== 10 && length !== 11) return undefined;
  if (length === 11 && line[start] === '0') return undefined;
  if (isWordChar(line[start - 1]) || isWordChar(line[end])) return undefined;
  if (partOfLongerNumber(line, start, end)) return undefined;
  return { start, end, text: line.slice(start, end) };
}

/** Every tax-number token of a line, left to right (for tests and for callers scanning a line). */
export function taxNumbersIn(line: string): TaxNumberToken[] {
  const found: TaxNumberToken[] = [];
  for (let i = 0; i < line.length; i++) {
    if (!isDigit(line.charCodeAt(i)) || isDigitAt(line, i - 1)) continue;
    const token = taxNumberAt(line, i);
    if (token) found.push(token);
  }
  return found;
}
