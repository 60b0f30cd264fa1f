// Writes .xlsx workbooks (ECMA-376 SpreadsheetML) that Excel, LibreOffice and Numbers open as they are:
// text as inline strings in Text (`@`) cells, so a tax number, phone or IBAN stays exact (no dropped
// zero, no 1.23E+10) even when edited, and is never evaluated (no formula guard); dates as serials with
// a date format; a frozen bold header row; column widths from the longest value. Built in memory, as
// bytes for an AtomicFile (src/files/atomicFile.ts); jszip is loaded on first use.
import { escapeXml } from './xmlChars';
import { loadJsZip } from './xlsxZip';

export type XlsxValue = string | number | boolean | Date | null | undefined;

export interface XlsxSheetData {
  /** At most 31 characters, none of `[]:*?/\` (cut and replaced here). */
  name: string;
  header: readonly string[];
  rows: Iterable<readonly XlsxValue[]>;
}

/** Excel's limit on the characters of one cell. */
export const MAX_CELL_CHARS = 32_767;

/** Characters XML 1.0 does not allow, and the `_x` that would read as an escape: written as "_xHHHH_" (ECMA-376 ST_Xstring). */
// eslint-disable-next-line no-control-regex -- these are the characters to escape
const NEEDS_OOXML_ESCAPE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|_(?=x[0-9A-Fa-f]{4}_)/g;

/** A quick test for the usual case: nothing to escape at all. */
// eslint-disable-next-line no-control-regex -- the characters to escape
const NEEDS_ANY_ESCAPE = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|_x/;

/** Text for an element's content or an attribute: XML escapes plus ECMA-376's "_xHHHH_" for control characters. */
function escapeXmlText(text: string): string {
  if (!NEEDS_ANY_ESCAPE.test(text)) return text;
  return escapeXml(text).replace(NEEDS_OOXML_ESCAPE, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
}

// Cell styles (cellXfs): 0 general, 1 text, 2 date, 3 date and time, 4 bold text (the header).
const STYLE = { general: 0, text: 1, date: 2, dateTime: 3, header: 4 } as const;

const STYLES_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="5">' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>' +
  '</cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** 1 → `A`, 27 → `AA` (1-based). */
export function columnName(index1: number): string {
  let s = '';
  for (let n = index1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\, not empty, unique in the workbook. */
export function safeSheetName(name: string, taken: ReadonlySet<string> = new Set()): string {
  const base = name.replace(/[[\]:*?/\\]/g, ' ').replace(/^'|'$/g, '').trim().slice(0, 31) || 'Sheet';
  let candidate = base;
  for (let n = 2; [...taken].some((t) => t.toLowerCase() === candidate.toLowerCase()); n++) candidate = `${base.slice(0, 31 - String(n).length - 3)} (${n})`;
  return candidate;
}

/** Days since 1899-12-30 (the 1900 date system, correct from 1 March 1900), with the time of day as a fraction. */
export function dateToSerial(date: Date): number {
  return (date.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000;
}

const hasTime = (d: Date) => d.getUTCHours() !== 0 || d.getUTCMinutes() !== 0 || d.getUTCSeconds() !== 0;

/** Width of a column in characters, from its longest line. */
function widthOf(text: string): number {
  if (!text.includes('\n')) return text.length;
  let longest = 0;
  for (const line of text.split('\n')) longest = Math.max(longest, line.length);
  return longest;
}

function cellXml(ref: string, value: XlsxValue, header: boolean): { xml: string; width: number } {
  if (value === null || value === undefined || value === '') return { xml: '', width: 0 };
  if (typeof value === 'number' && Number.isFinite(value)) {
    const text = String(value);
    return { xml: `<c r="${ref}"><v>${text}</v></c>`, width: text.length };
  }
  if (typeof value === 'boolean') return { xml: `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`, width: 5 };
  if (value instanceof Date && Number.isFinite(value.getTime())) {
    const time = hasTime(value);
    return { xml: `<c r="${ref}" s="${time ? STYLE.dateTime : STYLE.date}"><v>${dateToSerial(value)}</v></c>`, width: time ? 16 : 10 };
  }
  const text = String(value).slice(0, MAX_CELL_CHARS);
  const space = /^\s|\s$|\n/.test(text) ? ' xml:space="preserve"' : '';
  return { xml: `<c r="${ref}" s="${header ? STYLE.header : STYLE.text}" t="inlineStr"><is><t${space}>${escapeXmlText(text)}</t></is></c>`, width: widthOf(text) };
}

/** One worksheet part: frozen header row, column widths, the rows. */
function sheetXml(sheet: XlsxSheetData): string {
  const widths: number[] = [];
  const rowsXml: string[] = [];
  const letters: string[] = [];
  const addRow = (values: readonly XlsxValue[], index1: number, header: boolean) => {
    let cells = '';
    for (let c = 0; c < values.length; c++) {
      const { xml, width } = cellXml(`${(letters[c] ??= columnName(c + 1))}${index1}`, values[c], header);
      cells += xml;
      if (width > (widths[c] ?? 0)) widths[c] = width;
    }
    for (let c = widths.length; c < values.length; c++) widths[c] = 0;
    rowsXml.push(`<row r="${index1}">${cells}</row>`);
  };
  addRow(sheet.header, 1, true);
  let n = 1;
  for (const row of sheet.rows) addRow(row, ++n, false);
  const cols = widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.min(80, Math.max(8, w + 2))}" customWidth="1"/>`).join('');
  const lastColumn = columnName(Math.max(1, widths.length));
  return (
    XML_HEAD +
    `<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    `<dimension ref="A1:${lastColumn}${n}"/>` +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    (cols ? `<cols>${cols}</cols>` : '') +
    `<sheetData>${rowsXml.join('')}</sheetData>` +
    '</worksheet>'
  );
}

/** A workbook of the given sheets (the first is the one Excel opens on), as the bytes of an .xlsx file. */
export async function writeWorkbook(sheets: readonly XlsxSheetData[]): Promise<Uint8Array> {
  const JSZip = await loadJsZip();
  const zip = new JSZip();
  const taken = new Set<string>();
  const names = sheets.map((s) => {
    const name = safeSheetName(s.name, taken);
    taken.add(name);
    return name;
  });
  const sheetOverrides = sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('');
  zip.file(
    '[Content_Types].xml',
    XML_HEAD +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      sheetOverrides +
      '</Types>',
  );
  zip.file(
    '_rels/.rels',
    XML_HEAD +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
      '</Relationships>',
  );
  zip.file(
    'xl/workbook.xml',
    XML_HEAD +
      `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><workbookPr/><bookViews><workbookView/></bookViews><sheets>` +
      names.map((name, i) => `<sheet name="${escapeXmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
      '</sheets></workbook>',
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    XML_HEAD +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
      `<Relationship Id="rId${sheets.length + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
      '</Relationships>',
  );
  zip.file('xl/styles.xml', STYLES_XML);
  sheets.forEach((s, i) => zip.file(`xl/worksheets/sheet${i + 1}.xml`, sheetXml(s)));
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 6 } });
}
