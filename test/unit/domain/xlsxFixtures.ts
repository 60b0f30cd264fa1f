// Workbooks for the tests, built with jszip from literal XML in the structure ECMA-376 documents and
// the three programs write: Excel for Windows (shared strings, 1900 dates), Excel for Mac (the 1904 date
// system, rich-text shared strings with phonetic runs), LibreOffice (shared strings, cells without
// references, formulas with cached values), and other writers' inline strings. Also exceljs, the
// independent reader and writer, loaded outside the bundle (its own jszip).
import { createRequire } from 'node:module';
import JSZip from 'jszip';
import type ExcelJSType from 'exceljs';

/** exceljs as installed (devDependency), not bundled: a second reader that shares no code with ours. */
export function excelJs(): typeof ExcelJSType {
  return createRequire(__filename)('exceljs') as typeof ExcelJSType;
}

export interface FixtureSheet {
  name: string;
  /** The `<sheetData>` inside and anything after it (mergeCells). */
  sheetData: string;
  after?: string;
  state?: 'hidden';
}

export interface FixtureOptions {
  sheets: FixtureSheet[];
  sharedStrings?: string[] | string;
  /** `<numFmts>` and `<cellXfs>` inside styles.xml. */
  styles?: string;
  date1904?: boolean;
  /** Prefix on the SpreadsheetML elements (some writers use `x:`). */
  prefix?: string;
  /** Leave _rels/.rels out (then xl/workbook.xml is assumed). */
  noRootRels?: boolean;
}

const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Styles as Excel writes them: 0 General, 1 the built-in date 14, 2 a custom "dd.mm.yyyy", 3 a custom text-ish "0000000000". */
export const EXCEL_STYLES =
  '<numFmts count="2"><numFmt numFmtId="164" formatCode="dd\\.mm\\.yyyy;@"/><numFmt numFmtId="165" formatCode="0000000000"/></numFmts>' +
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>';

export async function buildWorkbook(o: FixtureOptions): Promise<Uint8Array> {
  const p = o.prefix ? `${o.prefix}:` : '';
  const ns = o.prefix ? `xmlns:${o.prefix}="${MAIN}"` : `xmlns="${MAIN}"`;
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    HEAD +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      o.sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      (o.sharedStrings ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : '') +
      '</Types>',
  );
  if (!o.noRootRels) {
    zip.file('_rels/.rels', HEAD + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
  }
  zip.file(
    'xl/workbook.xml',
    HEAD +
      `<${p}workbook ${ns} xmlns:r="${REL}"><${p}workbookPr${o.date1904 ? ' date1904="1"' : ''} defaultThemeVersion="124226"/><${p}sheets>` +
      o.sheets.map((s, i) => `<${p}sheet name="${esc(s.name)}" sheetId="${i + 1}"${s.state ? ` state="${s.state}"` : ''} r:id="rId${i + 3}"/>`).join('') +
      `</${p}sheets></${p}workbook>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    HEAD +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rId1" Type="${REL}/styles" Target="styles.xml"/>` +
      (o.sharedStrings ? `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : '') +
      o.sheets.map((_, i) => `<Relationship Id="rId${i + 3}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
      '</Relationships>',
  );
  zip.file('xl/styles.xml', HEAD + `<${p}styleSheet ${ns}>${o.prefix ? (o.styles ?? EXCEL_STYLES).replace(/<(\/?)(\w)/g, `<$1${p}$2`) : (o.styles ?? EXCEL_STYLES)}</${p}styleSheet>`);
  if (o.sharedStrings) {
    const sst = typeof o.sharedStrings === 'string' ? o.sharedStrings : o.sharedStrings.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join('');
    zip.file('xl/sharedStrings.xml', HEAD + `<sst xmlns="${MAIN}">${sst}</sst>`);
  }
  o.sheets.forEach((s, i) =>
    zip.file(`xl/worksheets/sheet${i + 1}.xml`, HEAD + `<${p}worksheet ${ns} xmlns:r="${REL}"><${p}sheetData>${s.sheetData}</${p}sheetData>${s.after ?? ''}</${p}worksheet>`),
  );
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** An inline-string cell. */
export const inl = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${esc(text)}</t></is></c>`;
/** A shared-string cell pointing at `index`. */
export const sst = (ref: string, index: number) => `<c r="${ref}" t="s"><v>${index}</v></c>`;
/** A number cell, with a style. */
export const num = (ref: string, value: number | string, style?: number) => `<c r="${ref}"${style !== undefined ? ` s="${style}"` : ''}><v>${value}</v></c>`;
