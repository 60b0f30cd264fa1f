// Reads the cells of an .xlsx workbook as Excel and LibreOffice store them (ECMA-376 SpreadsheetML):
// sheets in the workbook's order, shared (plain and rich) and inline strings, numbers in full (never
// 1.23E+10), booleans, errors, formulas by their cached value, dates by cell style (1900 or 1904 system),
// and merged cells (each cell of a range reads its value, so a header merged over two rows is seen in
// both). Plain Node; jszip is loaded on first use (xlsxZip.ts).
import type JSZipType from 'jszip';
import { entryText, openWorkbookZip, XlsxError } from './xlsxZip';
import { decodeOoxmlEscapes, scanXml } from './xlsxXml';

export type XlsxCellKind = 'empty' | 'text' | 'number' | 'date' | 'boolean' | 'error';

export interface XlsxCell {
  kind: XlsxCellKind;
  /**
   * The value as text: a number in full (`730871159`, `12.5`), a date as ISO 8601 (`2026-03-01`, with
   * `T10:30:00` when it has a time of day), a boolean as `true`/`false`, an error as Excel writes it.
   */
  text: string;
}

export interface XlsxRow {
  /** The sheet's 1-based row number. */
  number: number;
  cells: XlsxCell[];
}

export interface XlsxSheetInfo {
  name: string;
  hidden: boolean;
}

export interface XlsxSheet {
  name: string;
  /** Only the rows that hold something, in order; each has cells from column A to its last non-empty one. */
  rows: XlsxRow[];
}

export interface XlsxWorkbook {
  sheets: XlsxSheetInfo[];
  /** The 1904 date system (Excel for Mac before 2011 and workbooks made from them). */
  date1904: boolean;
  /** Reads one sheet by its index in `sheets` or its name. */
  readSheet(which?: number | string): Promise<XlsxSheet>;
}

const EMPTY: XlsxCell = { kind: 'empty', text: '' };

/** The built-in number formats that are dates or times (ECMA-376 Part 1, 18.8.30). */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81]);

/** A custom format code that shows a date or time: d, m, y, h or s outside quotes, escapes and [colour] parts. */
export function isDateFormatCode(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\\.|\[[^\]]*\]|_.|\*./g, '');
  // Only the first section (positive numbers) decides.
  return /[dmyhs]/i.test(bare.split(';')[0]) && !/^General$/i.test(bare.trim());
}

/** `B12` → column 1 (0-based); undefined when the reference holds no column letters. */
export function columnIndex(ref: string): number | undefined {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) break;
    col = col * 26 + (c - 0x60);
  }
  return i === 0 ? undefined : col - 1;
}

function rowOf(ref: string): number {
  const m = /\d+$/.exec(ref);
  return m ? Number(m[0]) : NaN;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A serial date as ISO 8601 text (date only when it has no time of day). */
export function serialToIso(serial: number, date1904: boolean): string {
  // 1900 system: Excel counts 1900-02-29 (serial 60), which did not exist; days from 1 March 1900 on
  // are counted from 1899-12-30, earlier ones from 1899-12-31. 1904 system: day 0 is 1904-01-01.
  const epochDays = date1904 ? Date.UTC(1904, 0, 1) / 86_400_000 : serial < 61 ? Date.UTC(1899, 11, 31) / 86_400_000 : Date.UTC(1899, 11, 30) / 86_400_000;
  const whole = Math.floor(serial);
  let seconds = Math.round((serial - whole) * 86_400);
  let days = whole;
  if (seconds >= 86_400) {
    days += 1;
    seconds -= 86_400;
  }
  const d = new Date((epochDays + days) * 86_400_000);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (seconds === 0) return date;
  return `${date}T${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

/** A stored number as text: integers in full (no exponent), others as JavaScript prints them. */
export function numberText(raw: string): string {
  const n = Number(raw);
  if (!Number.isFinite(n) || raw.trim() === '') return raw;
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return BigInt(n).toString();
  return String(n);
}

/** Resolves a relationship target against the folder of the part that names it. */
function resolveTarget(target: string, baseFolder: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = (baseFolder + target).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return out.join('/');
}

async function readRelationships(zip: JSZipType, relsPath: string, baseFolder: string): Promise<Map<string, string>> {
  const xml = (await entryText(zip, relsPath)) ?? '';
  const targets = new Map<string, string>();
  scanXml(xml, {
    open(name, attrs) {
      if (name === 'Relationship' && attrs.Id && attrs.Target && attrs.TargetMode !== 'External') targets.set(attrs.Id, resolveTarget(attrs.Target, baseFolder));
    },
  });
  return targets;
}

/** The shared strings table: each `<si>`'s text, rich-text runs joined, phonetic runs left out. */
function readSharedStrings(xml: string): string[] {
  const strings: string[] = [];
  let current: string[] | undefined;
  let inText = false;
  let phonetic = 0;
  scanXml(xml, {
    open(name, _attrs, selfClosing) {
      if (name === 'si') current = [];
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && !selfClosing) inText = true;
    },
    close(name) {
      if (name === 'si') {
        strings.push(decodeOoxmlEscapes((current ?? []).join('')));
        current = undefined;
      } else if (name === 'rPh') phonetic--;
      else if (name === 't') inText = false;
    },
    text(t) {
      if (inText && phonetic === 0 && current) current.push(t);
    },
  });
  return strings;
}

/** For each cell style (`s` index), whether its number format is a date or time. */
function readDateStyles(xml: string): boolean[] {
  const customDate = new Map<number, boolean>();
  const styles: boolean[] = [];
  let inCellXfs = false;
  scanXml(xml, {
    open(name, attrs) {
      if (name === 'numFmt' && attrs.numFmtId) customDate.set(Number(attrs.numFmtId), isDateFormatCode(attrs.formatCode ?? ''));
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        const id = Number(attrs.numFmtId ?? 0);
        styles.push(customDate.get(id) ?? BUILTIN_DATE_FORMATS.has(id));
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return styles;
}

interface Context {
  shared: string[];
  dateStyles: boolean[];
  date1904: boolean;
}

/** Most rows a merged range is spread over (a merge of whole columns is cut to the rows that exist). */
const MAX_MERGE_CELLS = 100_000;

function readSheetXml(xml: string, ctx: Context): XlsxRow[] {
  const rows: XlsxRow[] = [];
  const merges: string[] = [];
  let row: XlsxRow | undefined;
  let nextRowNumber = 1;
  let nextColumn = 0;
  // The cell being read.
  let cellColumn = 0;
  let cellType = 'n';
  let cellStyle = 0;
  let value: string[] | undefined;
  let inlineText: string[] | undefined;
  let inInline = false;
  let collect: string[] | undefined;
  let phonetic = 0;
  scanXml(xml, {
    open(name, attrs, selfClosing) {
      switch (name) {
        case 'row': {
          const n = attrs.r ? Number(attrs.r) : nextRowNumber;
          row = { number: n, cells: [] };
          nextRowNumber = n + 1;
          nextColumn = 0;
          if (selfClosing) row = undefined;
          break;
        }
        case 'c':
          cellColumn = (attrs.r ? columnIndex(attrs.r) : undefined) ?? nextColumn;
          nextColumn = cellColumn + 1;
          cellType = attrs.t ?? 'n';
          cellStyle = Number(attrs.s ?? 0);
          value = undefined;
          inlineText = undefined;
          break;
        case 'v':
          if (!selfClosing) collect = value = [];
          break;
        case 'is':
          inInline = true;
          inlineText = [];
          break;
        case 'rPh':
          phonetic++;
          break;
        case 't':
          if (inInline && !selfClosing) collect = inlineText;
          break;
        case 'mergeCell':
          if (attrs.ref) merges.push(attrs.ref);
          break;
      }
    },
    close(name) {
      switch (name) {
        case 'v':
        case 't':
          collect = undefined;
          break;
        case 'is':
          inInline = false;
          break;
        case 'rPh':
          phonetic--;
          break;
        case 'c': {
          if (!row) break;
          const cell = cellValue(cellType, cellStyle, value?.join(''), inlineText?.join(''), ctx);
          if (cell.kind !== 'empty') {
            while (row.cells.length < cellColumn) row.cells.push(EMPTY);
            row.cells[cellColumn] = cell;
          }
          break;
        }
        case 'row':
          if (row && row.cells.length > 0) rows.push(row);
          row = undefined;
          break;
      }
    },
    text(t) {
      if (collect && phonetic === 0) collect.push(t);
    },
  });
  applyMerges(rows, merges);
  return rows;
}

function cellValue(type: string, style: number, v: string | undefined, inline: string | undefined, ctx: Context): XlsxCell {
  switch (type) {
    case 's': {
      const text = v === undefined ? undefined : ctx.shared[Number(v)];
      return text === undefined || text === '' ? EMPTY : { kind: 'text', text };
    }
    case 'inlineStr': {
      const text = decodeOoxmlEscapes(inline ?? v ?? '');
      return text === '' ? EMPTY : { kind: 'text', text };
    }
    case 'str':
      return v ? { kind: 'text', text: decodeOoxmlEscapes(v) } : EMPTY;
    case 'b':
      return v === undefined ? EMPTY : { kind: 'boolean', text: v.trim() === '1' || /^true$/i.test(v.trim()) ? 'true' : 'false' };
    case 'e':
      return v ? { kind: 'error', text: v } : EMPTY;
    case 'd':
      // An ISO 8601 date cell (strict Open XML, LibreOffice on request).
      return v ? { kind: 'date', text: v.replace(/T00:00:00(\.0+)?Z?$/, '').replace(/Z$/, '') } : EMPTY;
    default: {
      if (v === undefined || v.trim() === '') return EMPTY;
      if (ctx.dateStyles[style] && Number.isFinite(Number(v))) return { kind: 'date', text: serialToIso(Number(v), ctx.date1904) };
      return { kind: 'number', text: numberText(v) };
    }
  }
}

/** Every cell of a merged range reads the value of its top-left cell. */
function applyMerges(rows: XlsxRow[], merges: readonly string[]): void {
  if (merges.length === 0) return;
  const byNumber = new Map(rows.map((r) => [r.number, r]));
  const lastRow = rows.length > 0 ? rows[rows.length - 1].number : 0;
  let spread = 0;
  for (const ref of merges) {
    const [from, to = from] = ref.split(':');
    const c1 = columnIndex(from);
    const c2 = columnIndex(to);
    const r1 = rowOf(from);
    const r2 = Math.min(rowOf(to), lastRow);
    if (c1 === undefined || c2 === undefined || !Number.isFinite(r1) || !Number.isFinite(r2)) continue;
    const value = byNumber.get(r1)?.cells[c1];
    if (!value || value.kind === 'empty') continue;
    for (let r: number = r1; r <= r2; r++) {
      let row = byNumber.get(r);
      for (let c: number = c1; c <= c2; c++) {
        if (r === r1 && c === c1) continue;
        if (++spread > MAX_MERGE_CELLS) return;
        if (!row) {
          row = { number: r, cells: [] };
          byNumber.set(r, row);
          rows.push(row);
        }
        while (row.cells.length < c) row.cells.push(EMPTY);
        if (!row.cells[c] || row.cells[c].kind === 'empty') row.cells[c] = value;
      }
    }
  }
  rows.sort((a, b) => a.number - b.number);
}

/** Opens a workbook; its sheets are read one at a time with `readSheet`. Throws XlsxError when it cannot be read. */
export async function readWorkbook(bytes: Uint8Array): Promise<XlsxWorkbook> {
  const zip = await openWorkbookZip(bytes);
  // The workbook part is found through the package's relationships (_rels/.rels), usually xl/workbook.xml.
  const rootRels = await readRelationships(zip, '_rels/.rels', '');
  const rootXml = await entryText(zip, '_rels/.rels');
  let workbookPath = 'xl/workbook.xml';
  if (rootXml) {
    scanXml(rootXml, {
      open(name, attrs) {
        if (name === 'Relationship' && /\/officeDocument$/.test(attrs.Type ?? '') && attrs.Id && rootRels.get(attrs.Id)) workbookPath = rootRels.get(attrs.Id) as string;
      },
    });
  }
  const workbookXml = await entryText(zip, workbookPath);
  if (workbookXml === undefined) throw new XlsxError('notWorkbook');
  const folder = workbookPath.includes('/') ? workbookPath.slice(0, workbookPath.lastIndexOf('/') + 1) : '';
  const relsPath = `${folder}_rels/${workbookPath.slice(folder.length)}.rels`;
  const rels = await readRelationships(zip, relsPath, folder);

  const sheets: Array<XlsxSheetInfo & { path?: string }> = [];
  let date1904 = false;
  scanXml(workbookXml, {
    open(name, attrs) {
      if (name === 'workbookPr') date1904 = attrs.date1904 === '1' || attrs.date1904 === 'true';
      else if (name === 'sheet' && attrs.name !== undefined) {
        const id = attrs['r:id'] ?? attrs.id;
        sheets.push({ name: attrs.name, hidden: attrs.state === 'hidden' || attrs.state === 'veryHidden', path: id ? rels.get(id) : undefined });
      }
    },
  });
  const worksheets = sheets.filter((s) => s.path && zip.file(s.path));
  if (worksheets.length === 0) throw new XlsxError('noSheet');

  // Shared strings and styles are found by their relationship types; the usual names otherwise.
  const relsXml = (await entryText(zip, relsPath)) ?? '';
  let sharedPath = `${folder}sharedStrings.xml`;
  let stylesPath = `${folder}styles.xml`;
  scanXml(relsXml, {
    open(name, attrs) {
      if (name !== 'Relationship' || !attrs.Id) return;
      if (/\/sharedStrings$/.test(attrs.Type ?? '')) sharedPath = rels.get(attrs.Id) ?? sharedPath;
      if (/\/styles$/.test(attrs.Type ?? '')) stylesPath = rels.get(attrs.Id) ?? stylesPath;
    },
  });
  let loaded: Context | undefined;
  const context = async (): Promise<Context> => {
    loaded ??= {
      shared: readSharedStrings((await entryText(zip, sharedPath)) ?? ''),
      dateStyles: readDateStyles((await entryText(zip, stylesPath)) ?? ''),
      date1904,
    };
    return loaded;
  };

  return {
    sheets: worksheets.map(({ name, hidden }) => ({ name, hidden })),
    date1904,
    async readSheet(which = 0) {
      const sheet = typeof which === 'number' ? worksheets[which] : worksheets.find((s) => s.name === which);
      if (!sheet?.path) throw new XlsxError('noSheet', String(which));
      const xml = (await entryText(zip, sheet.path)) ?? '';
      const ctx: Context = await context();
      return { name: sheet.name, rows: readSheetXml(xml, ctx) };
    },
  };
}
