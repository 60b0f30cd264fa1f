// Whether the surroundings of a number say "tax number" in JSON and plain text, where a 10- or 11-digit
// number is as likely a timestamp, an id or a phone number: the value of a key or label naming a tax
// number (`"vkn": "…"`, `TaxNumber = …`, `Vergi No: …`, `"identifier": …`), or a column whose header
// names one. Pure.
import { detectDelimiter } from '../../domain/csv';
import { foldHeader } from '../../domain/headerMatch';

/**
 * Folded label endings that name a tax number (see foldHeader: lower case, Turkish letters to ASCII,
 * only letters and digits). A label ending in one counts: "aliciVkn", "customerTaxNumber",
 * "Müşteri VKN", "partyIdentifier". Plurals are accepted for lists ("vkns": [...]).
 */
const TAX_LABEL_ENDINGS = [
  'vkn',
  'tckn',
  'vkntckn',
  'tcknvkn',
  'vergino',
  'verginumarasi',
  'vergikimlikno',
  'vergikimliknumarasi',
  'tckimlikno',
  'tckimliknumarasi',
  'tcno',
  'kimlikno',
  'kimliknumarasi',
  'taxnumber',
  'taxno',
  'taxid',
  'taxidentificationnumber',
  'vatnumber',
  'identifier',
];

export function isTaxNumberLabel(label: string): boolean {
  const folded = foldHeader(label);
  const singular = folded.length > 3 && folded.endsWith('s') ? folded.slice(0, -1) : folded;
  return TAX_LABEL_ENDINGS.some((ending) => folded.endsWith(ending) || singular.endsWith(ending));
}

/**
 * The label written right before a value: `"key": "`, `key: `, `key = `, `key - `, or a label and a
 * space ("VKN 1234567890"). For a JSON array on one line (`"vkns": ["…", "…"]`) the array's key.
 */
export function labelBefore(line: string, start: number): string | undefined {
  let before = line.slice(0, start);
  // Inside a one-line JSON array: step back over the earlier values to the array's key.
  const inArray = /\[\s*(?:(?:"[^"]*"|[\d.]+)\s*,\s*)*"?$/.exec(before);
  if (inArray) before = before.slice(0, inArray.index);
  const quotedKey = /"([^"]{1,80})"\s*:\s*"?$/.exec(before);
  if (quotedKey) return quotedKey[1];
  const label = /([\p{L}][\p{L}\p{N} ._/-]{0,60}?)["']?\s*(?:[:=]|-\s|\s)\s*["']?$/u.exec(before);
  return label?.[1];
}

/**
 * The header cell above a value: the first line's cell in the same column (`;`, `,` or tab
 * separated), or the whole first line above a one-column list.
 */
export function headerAbove(headerLine: string, line: string, start: number): string | undefined {
  const header = headerLine.replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(header);
  const unquote = (cell: string | undefined) => cell?.trim().replace(/^"|"$/g, '').trim();
  if (!header.includes(delimiter)) return line.includes(delimiter) ? undefined : unquote(header);
  const column = line.slice(0, start).split(delimiter).length - 1;
  return unquote(header.split(delimiter)[column]);
}

/** The number at [start, end) of `line` is labelled as a tax number by its key, label or column header. */
export function saysTaxNumber(line: string, start: number, firstLine: string | undefined): boolean {
  const label = labelBefore(line, start);
  if (label !== undefined && isTaxNumberLabel(label)) return true;
  if (firstLine === undefined || firstLine === line) return false;
  const header = headerAbove(firstLine, line, start);
  return header !== undefined && isTaxNumberLabel(header);
}
