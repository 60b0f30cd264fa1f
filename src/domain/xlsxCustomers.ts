// Customer lists as .xlsx workbooks: the import matches headers and checks rows as the CSV import does
// (customerImport.ts); the export and the rejected rows keep tax numbers, phones and IBANs as text cells.
// A VKN typed into a number cell lost its leading zero (`730871159`): when the check digits pass with a
// 0 in front, the import takes it and reports the row (restoredTaxNumbers). A postal code stored as a
// number gets its zero back too (`6100` → `06100`).
import {
  CUSTOMER_FIELDS,
  CUSTOMER_HEADER_ALIASES,
  CustomerImportError,
  fieldForHeader,
  importCustomerTable,
  mapCustomerColumns,
  rejectedTable,
  REASON_HEADERS,
  restoredLeadingZero,
  type CustomerImportResult,
  type CustomerRecord,
  type ImportIssue,
} from './customerImport';
import { readWorkbook, type XlsxRow, type XlsxWorkbook } from './xlsxRead';
import { writeWorkbook, type XlsxValue } from './xlsxWrite';

export interface XlsxImportResult extends CustomerImportResult {
  /** The sheet that was read. */
  sheet: string;
  /** Rows whose tax number was a number without its leading zero, taken with it (the check digits agree). */
  restoredTaxNumbers: Array<{ row: number; line: number; stored: string; taxNumber: string }>;
}

/** How many rows at the top of a sheet may come before the header (a title, a date, a merged group heading). */
const HEADER_SEARCH_ROWS = 10;

function texts(row: XlsxRow | undefined): string[] {
  return (row?.cells ?? []).map((c) => c.text);
}

function mapsColumns(cells: readonly string[]): boolean {
  try {
    mapCustomerColumns(cells);
    return true;
  } catch {
    return false;
  }
}

/**
 * The header: the first of the top rows whose cells name the Name and TaxNumber columns. A header whose
 * cells are merged over two rows reads in both (xlsxRead spreads merged values), so a following row
 * that also names them is part of the header: its own header names fill the columns the first left
 * unnamed (a group heading merged over several columns above the real names).
 */
function findHeader(rows: readonly XlsxRow[]): { header: string[]; dataFrom: number } {
  const top = rows.slice(0, HEADER_SEARCH_ROWS);
  const at = top.findIndex((r) => mapsColumns(texts(r)));
  if (at < 0) mapCustomerColumns(texts(rows[0])); // throws the "missing columns" error naming row 1's cells
  let header = texts(rows[at]);
  let next = at + 1;
  while (next < rows.length && mapsColumns(texts(rows[next]))) {
    const lower = texts(rows[next]);
    const width = Math.max(header.length, lower.length);
    header = Array.from({ length: width }, (_, i) => {
      const own = lower[i] ?? '';
      return fieldForHeader(own) || REASON_HEADERS.has(own) ? own : (header[i] ?? '');
    });
    next++;
  }
  return { header, dataFrom: next };
}

/** Imports customers from one sheet of a workbook (the first unless `sheet` names another). Throws XlsxError or CustomerImportError. */
export async function importCustomersXlsx(bytes: Uint8Array, sheet?: number | string, workbook?: XlsxWorkbook): Promise<XlsxImportResult> {
  const book = workbook ?? (await readWorkbook(bytes));
  const { name, rows } = await book.readSheet(sheet ?? 0);
  if (rows.length === 0) throw new CustomerImportError(missingColumns());
  const { header, dataFrom } = findHeader(rows);
  const columns = mapCustomerColumns(header);
  const taxColumn = columns.TaxNumber as number;
  const postalColumn = columns.PostalCode;
  const restoredTaxNumbers: XlsxImportResult['restoredTaxNumbers'] = [];
  const records = rows.slice(dataFrom).map((r, i) => {
    const cells = r.cells.map((c) => c.text);
    const tax = r.cells[taxColumn];
    const restored = tax?.kind === 'number' ? restoredLeadingZero(tax.text) : undefined;
    if (restored) {
      restoredTaxNumbers.push({ row: i + 1, line: r.number, stored: tax.text, taxNumber: restored });
      cells[taxColumn] = restored;
    }
    const postal = postalColumn === undefined ? undefined : r.cells[postalColumn];
    if (postal?.kind === 'number' && /^[0-9]{4}$/.test(postal.text)) cells[postalColumn as number] = '0' + postal.text;
    return { cells, line: r.number };
  });
  const result = importCustomerTable(header, records);
  return { ...result, sheet: name, restoredTaxNumbers };
}

function missingColumns(): ImportIssue {
  try {
    mapCustomerColumns([]);
  } catch (error) {
    if (error instanceof CustomerImportError) return error.issue;
  }
  throw new Error('unreachable');
}

export const CUSTOMER_SHEET_NAME = 'Customers';

/**
 * Customers as a workbook: one text cell per field (tax numbers, phones and IBANs kept exactly), the
 * export flag as Evet/Hayır or true/false like the CSV export; re-importable by either header style.
 */
export function exportCustomersXlsx(customers: Iterable<Partial<CustomerRecord>>, options: { headers?: 'api' | 'tr'; sheetName?: string } = {}): Promise<Uint8Array> {
  const tr = options.headers === 'tr';
  const rows = function* (): Generator<XlsxValue[]> {
    for (const c of customers) {
      yield CUSTOMER_FIELDS.map((f) => {
        if (f === 'IsExport') return c.IsExport ? (tr ? 'Evet' : 'true') : tr ? 'Hayır' : 'false';
        const v = c[f];
        return v === undefined || v === null ? '' : String(v);
      });
    }
  };
  return writeWorkbook([{ name: options.sheetName ?? (tr ? 'Müşteriler' : CUSTOMER_SHEET_NAME), header: CUSTOMER_FIELDS.map((f) => (tr ? CUSTOMER_HEADER_ALIASES[f][0] : f)), rows: rows() }]);
}

/** The rejected rows of an import (rejectedTable) as a workbook, every cell text. */
export function writeRejectedXlsx(result: CustomerImportResult, formatReason?: (reason: ImportIssue) => string, sheetName = 'Rejected'): Promise<Uint8Array> {
  return writeWorkbook([{ name: sheetName, ...rejectedTable(result, formatReason) }]);
}
