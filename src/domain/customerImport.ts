// Customer import from CSV (Excel exports in Turkish or English) and JSON, validated before anything
// is sent: POST /Customers rejects the whole array when one row is bad, so bad rows are set aside
// here, with reasons the user can read and fix in a `<name>.rejected.csv`.

import { CsvReader, CsvWriter, parseCsv, readCsvChunks, readCsvFile } from './csv';
import type { CsvDelimiter, CsvRecord, CsvWriterOptions } from './csv';
import { foldHeader, HeaderNames, TAX_NUMBER_HEADER_NAMES } from './headerMatch';
import { checkTaxId, isValidVkn } from './taxId';
import { decodeText, type SourceEncoding } from './textDecoding';

/** CustomerDto as POST /general/Customers takes it (PascalCase, as on the wire). */
export interface CustomerRecord {
  TaxNumber: string;
  Name: string;
  TaxDepartment: string;
  Address: string;
  Country: string;
  City: string;
  District: string;
  PostalCode: string;
  Phone: string;
  Fax: string;
  Email: string;
  WebSite: string;
  IsExport: boolean;
}

export type CustomerField = keyof CustomerRecord;

export const CUSTOMER_FIELDS: readonly CustomerField[] = [
  'TaxNumber', 'Name', 'TaxDepartment', 'Address', 'Country', 'City', 'District',
  'PostalCode', 'Phone', 'Fax', 'Email', 'WebSite', 'IsExport',
];

const REQUIRED_FIELDS: readonly CustomerField[] = ['Name', 'TaxNumber'];

/** Header names accepted per field (compared after folding: src/domain/headerMatch.ts). */
export const CUSTOMER_HEADER_ALIASES: Readonly<Record<CustomerField, readonly string[]>> = {
  TaxNumber: TAX_NUMBER_HEADER_NAMES,
  Name: ['Ünvan', 'Unvan', 'Ünvanı', 'Adı Soyadı / Ünvan', 'Firma Adı', 'Firma', 'Müşteri Adı', 'Name', 'Title', 'Company Name'],
  TaxDepartment: ['Vergi Dairesi', 'TaxDepartment', 'Tax Department', 'Tax Office', 'TaxOffice'],
  Address: ['Adres', 'Address'],
  Country: ['Ülke', 'Country'],
  City: ['İl', 'Şehir', 'City', 'Province'],
  District: ['İlçe', 'District'],
  PostalCode: ['Posta Kodu', 'PostalCode', 'Postal Code', 'Zip', 'Zip Code'],
  Phone: ['Telefon', 'Tel', 'Phone', 'Phone Number'],
  Fax: ['Faks', 'Fax'],
  Email: ['E-posta', 'Eposta', 'E-mail', 'Email', 'Mail'],
  WebSite: ['Web', 'Web Sitesi', 'WebSite', 'Web Site', 'Website'],
  IsExport: ['İhracat', 'İhracat Müşterisi', 'IsExport', 'Export'],
};

/** The column the rejected-rows file adds; on re-import it is recognised and replaced, not doubled. */
export const REASON_HEADER = 'Reason';
const REASON_ALIASES = ['Reason', 'Sebep', 'Ret Sebebi', 'Hata'];

/** The shared header folding (src/domain/headerMatch.ts): "Vergi Numarası" → "verginumarasi". */
export const normalizeHeader = foldHeader;

const FIELD_BY_HEADER = new HeaderNames<CustomerField>(CUSTOMER_FIELDS.flatMap((f) => CUSTOMER_HEADER_ALIASES[f].map((a) => [a, f] as const)));

const REASON_HEADERS = HeaderNames.of(REASON_ALIASES);

export function fieldForHeader(header: string): CustomerField | undefined {
  return FIELD_BY_HEADER.lookup(header);
}

// ---------------------------------------------------------------------------------------------
// Reasons: a code plus parameters so the extension can localise; `message` is the English default.

export type ImportIssueCode =
  | 'columns.missing'
  | 'json.notArray'
  | 'json.invalid'
  | 'row.notObject'
  | 'taxNumber.empty'
  | 'taxNumber.notDigits'
  | 'taxNumber.length'
  | 'taxNumber.tcknLeadingZero'
  | 'taxNumber.checksum'
  | 'taxNumber.duplicate'
  | 'name.empty'
  | 'isExport.invalid'
  | 'email.invalid';

export interface ImportIssue {
  code: ImportIssueCode;
  params: Record<string, string | number | string[]>;
  message: string;
}

function issue(code: ImportIssueCode, params: ImportIssue['params']): ImportIssue {
  return { code, params, message: defaultMessage(code, params) };
}

/** English text for an issue; the extension maps codes to localized strings with the same params. */
export function defaultMessage(code: ImportIssueCode, p: ImportIssue['params']): string {
  switch (code) {
    case 'columns.missing':
      return `Missing required column(s): ${(p.missing as string[]).join(', ')}. Headers found: ${(p.found as string[]).map((h) => `"${h}"`).join(', ') || '(none)'}. Accepted names: ${p.accepted}.`;
    case 'json.notArray':
      return 'The JSON file must hold an array of customer objects.';
    case 'json.invalid':
      return `The file is not valid JSON: ${p.error}`;
    case 'row.notObject':
      return 'This element is not an object.';
    case 'taxNumber.empty':
      return 'The tax number is empty.';
    case 'taxNumber.notDigits':
      return `Tax number ${p.taxNumber}: only digits are allowed.`;
    case 'taxNumber.length':
      return `Tax number ${p.taxNumber}: ${p.digits} digits; a VKN has 10 digits, a TCKN 11.` +
        (p.suggestion ? ` A spreadsheet may have dropped a leading zero: ${p.suggestion} would be valid; format the column as text.` : '');
    case 'taxNumber.tcknLeadingZero':
      return `Tax number ${p.taxNumber}: a TCKN cannot start with 0.`;
    case 'taxNumber.checksum':
      return `Tax number ${p.taxNumber}: bad ${p.kind} checksum (the first digits call for ${p.expected} at the end).`;
    case 'taxNumber.duplicate':
      return `Tax number ${p.taxNumber} already appears in row ${p.firstRow}.`;
    case 'name.empty':
      return 'The name (title) is empty.';
    case 'isExport.invalid':
      return `Export flag "${p.value}" is not understood; use Evet/Hayır, yes/no, true/false or 1/0.`;
    case 'email.invalid':
      return `E-mail address "${p.value}" is not valid.`;
  }
}

// ---------------------------------------------------------------------------------------------
// Row validation (shared by CSV and JSON)

const TRUE_WORDS = new Set(['evet', 'e', 'true', '1', 'yes', 'y', 'var']);
const FALSE_WORDS = new Set(['hayir', 'h', 'false', '0', 'no', 'n', 'yok', '']);
/** The spellings Excel exports carry, looked up before the (slower) normalisation. */
const YES_NO_EXACT = new Map<string, boolean>([['Evet', true], ['Hayır', false], ['true', true], ['false', false], ['1', true], ['0', false], ['', false]]);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `undefined` when the value is not a recognisable yes/no. */
export function parseYesNo(value: string): boolean | undefined {
  const exact = YES_NO_EXACT.get(value);
  if (exact !== undefined) return exact;
  const v = normalizeHeader(value);
  if (TRUE_WORDS.has(v)) return true;
  if (FALSE_WORDS.has(v)) return false;
  return undefined;
}

function taxNumberIssue(raw: string): ImportIssue | undefined {
  const check = checkTaxId(raw);
  if (check.valid) return undefined;
  const taxNumber = check.value;
  switch (check.problem) {
    case 'empty':
      return issue('taxNumber.empty', {});
    case 'notDigits':
      return issue('taxNumber.notDigits', { taxNumber });
    case 'length':
      // Excel stores a VKN as a number and drops its leading zero; say so when that explains it.
      return taxNumber.length === 9 && isValidVkn('0' + taxNumber)
        ? issue('taxNumber.length', { taxNumber, digits: 9, suggestion: '0' + taxNumber })
        : issue('taxNumber.length', { taxNumber, digits: taxNumber.length });
    case 'tcknLeadingZero':
      return issue('taxNumber.tcknLeadingZero', { taxNumber });
    case 'checksum':
      return issue('taxNumber.checksum', { taxNumber, kind: check.kind ?? 'VKN', expected: check.expectedCheckDigits ?? '' });
  }
}

type RawCustomer = Partial<Record<CustomerField, string>>;

/** Validates one row's raw values and builds the record, or lists everything wrong with it. */
function buildCustomer(raw: RawCustomer): { customer: CustomerRecord } | { reasons: ImportIssue[] } {
  const reasons: ImportIssue[] = [];
  const text = (f: CustomerField): string => (raw[f] ?? '').trim();
  const taxProblem = taxNumberIssue(text('TaxNumber'));
  if (taxProblem) reasons.push(taxProblem);
  if (text('Name') === '') reasons.push(issue('name.empty', {}));
  const exportFlag = parseYesNo(text('IsExport'));
  if (exportFlag === undefined) reasons.push(issue('isExport.invalid', { value: text('IsExport') }));
  const email = text('Email');
  if (email !== '' && !email.split(/[;,]\s*/).every((e) => EMAIL.test(e))) reasons.push(issue('email.invalid', { value: email }));
  if (reasons.length > 0) return { reasons };
  const customer = {} as CustomerRecord;
  for (const f of CUSTOMER_FIELDS) {
    if (f === 'IsExport') customer.IsExport = exportFlag === true;
    else customer[f] = text(f);
  }
  return { customer };
}

// ---------------------------------------------------------------------------------------------
// Import results

export interface AcceptedCustomer {
  /** 1-based data row (the header is not counted; a multi-line record counts once). */
  row: number;
  /** Physical line where the record starts in the file (CSV only). */
  line?: number;
  customer: CustomerRecord;
}

export interface RejectedCustomer {
  row: number;
  line?: number;
  /** The original cells (CSV) so the row can be written back unchanged. */
  cells?: string[];
  /** The original element (JSON). */
  source?: unknown;
  reasons: ImportIssue[];
}

export interface CustomerImportResult {
  accepted: AcceptedCustomer[];
  rejected: RejectedCustomer[];
  /** CSV only: the source's layout, reused for the rejected-rows file. */
  header?: string[];
  delimiter?: CsvDelimiter;
  hasBom?: boolean;
  /** CSV bytes only, and only when not UTF-8: the encoding detected (windows-1254 for Turkish Excel's "CSV"). */
  encoding?: SourceEncoding;
}

export class CustomerImportError extends Error {
  constructor(readonly issue: ImportIssue) {
    super(issue.message);
    this.name = 'CustomerImportError';
  }
}

export interface ColumnMap {
  /** Column index per field present in the header. */
  index: Partial<Record<CustomerField, number>>;
  /** Index of an existing Reason column (a re-imported rejected file), if any. */
  reasonIndex?: number;
}

/** Maps header cells to fields; throws CustomerImportError when Name or TaxNumber is missing. */
export function mapCustomerColumns(header: readonly string[]): ColumnMap {
  const index: ColumnMap['index'] = {};
  let reasonIndex: number | undefined;
  header.forEach((h, i) => {
    const f = fieldForHeader(h);
    if (f && index[f] === undefined) index[f] = i;
    else if (!f && reasonIndex === undefined && REASON_HEADERS.has(h)) reasonIndex = i;
  });
  const missing = REQUIRED_FIELDS.filter((f) => index[f] === undefined);
  if (missing.length > 0) {
    const accepted = missing.map((f) => `${f}: ${CUSTOMER_HEADER_ALIASES[f].join(' / ')}`).join('; ');
    throw new CustomerImportError(issue('columns.missing', { missing: [...missing], found: [...header], accepted }));
  }
  return { index, reasonIndex };
}

/**
 * Incremental CSV customer import: give it records (header first) as they are read. Keeps only the
 * results, never the whole text.
 */
export class CustomerCsvImport {
  private columns: ColumnMap | undefined;
  private header: string[] | undefined;
  private row = 0;
  private readonly firstRowByTaxNumber = new Map<string, number>();
  readonly result: CustomerImportResult = { accepted: [], rejected: [] };

  add(record: CsvRecord): void {
    if (!this.columns) {
      this.header = record.cells.map((c) => c.trim());
      this.columns = mapCustomerColumns(this.header);
      this.result.header = this.header;
      return;
    }
    this.row++;
    const raw: RawCustomer = {};
    for (const f of CUSTOMER_FIELDS) {
      const i = this.columns.index[f];
      if (i !== undefined) raw[f] = record.cells[i] ?? '';
    }
    const built = buildCustomer(raw);
    if ('reasons' in built) {
      this.result.rejected.push({ row: this.row, line: record.line, cells: record.cells, reasons: built.reasons });
      return;
    }
    const tax = built.customer.TaxNumber;
    const firstRow = this.firstRowByTaxNumber.get(tax);
    if (firstRow !== undefined) {
      this.result.rejected.push({ row: this.row, line: record.line, cells: record.cells, reasons: [issue('taxNumber.duplicate', { taxNumber: tax, firstRow })] });
      return;
    }
    this.firstRowByTaxNumber.set(tax, this.row);
    this.result.accepted.push({ row: this.row, line: record.line, customer: built.customer });
  }

  /** Call after the last record; throws when the input had no header at all. */
  finish(reader?: CsvReader): CustomerImportResult {
    if (!this.columns) mapCustomerColumns([]);
    if (reader) {
      this.result.delimiter = reader.delimiter;
      this.result.hasBom = reader.hasBom;
      if (reader.sourceEncoding && reader.sourceEncoding !== 'utf-8') this.result.encoding = reader.sourceEncoding;
    }
    return this.result;
  }

  /** Column map in use (after the header). */
  get columnMap(): ColumnMap | undefined {
    return this.columns;
  }
}

/** Imports customers from CSV text. */
export function importCustomersCsvText(text: string): CustomerImportResult {
  const parsed = parseCsv(text);
  const imp = new CustomerCsvImport();
  for (const r of parsed.records) imp.add(r);
  const result = imp.finish();
  result.delimiter = parsed.delimiter;
  result.hasBom = parsed.hasBom;
  return result;
}

/** Imports customers from a CSV file, streamed, in `encoding` or the one its bytes show. */
export async function importCustomersCsvFile(path: string, encoding?: SourceEncoding): Promise<CustomerImportResult> {
  const reader = new CsvReader();
  const imp = new CustomerCsvImport();
  for await (const r of readCsvFile(path, reader, encoding)) imp.add(r);
  return imp.finish(reader);
}

/**
 * Up to `count` names from the start of a CSV file decoded in `encoding`, those with non-ASCII letters
 * first (where encodings differ), for the user to see which reading is right. The Name column by its
 * header, else the first column. Unless `complete`, the sample may end inside its last record, which is left out.
 */
export function namePreview(sample: Uint8Array, encoding: SourceEncoding, complete: boolean, count = 3): string[] {
  const { records } = parseCsv(decodeText(sample, encoding));
  if (records.length < 2) return [];
  const column = Math.max(0, records[0].cells.findIndex((h) => fieldForHeader(h) === 'Name'));
  const names = records.slice(1, complete ? undefined : -1).map((r) => (r.cells[column] ?? '').trim()).filter((n) => n.length > 0);
  const nonAscii = names.filter((n) => [...n].some((c) => c.charCodeAt(0) > 0x7f));
  return [...nonAscii, ...names.filter((n) => !nonAscii.includes(n))].slice(0, count);
}

/** Imports customers from CSV byte/text chunks (any stream). */
export async function importCustomersCsvChunks(source: AsyncIterable<Buffer | Uint8Array | string>): Promise<CustomerImportResult> {
  const reader = new CsvReader();
  const imp = new CustomerCsvImport();
  for await (const r of readCsvChunks(source, reader)) imp.add(r);
  return imp.finish(reader);
}

/**
 * Imports customers from JSON: an array of objects whose keys are the field names or any header alias
 * (`"VKN"`, `"Ünvan"`...). `IsExport` may be a boolean, number or yes/no word.
 */
export function importCustomersJson(input: string | unknown): CustomerImportResult {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input);
    } catch (e) {
      throw new CustomerImportError(issue('json.invalid', { error: (e as Error).message }));
    }
  }
  if (!Array.isArray(value)) throw new CustomerImportError(issue('json.notArray', {}));
  const result: CustomerImportResult = { accepted: [], rejected: [] };
  const firstRowByTaxNumber = new Map<string, number>();
  value.forEach((element: unknown, i) => {
    const row = i + 1;
    if (element === null || typeof element !== 'object' || Array.isArray(element)) {
      result.rejected.push({ row, source: element, reasons: [issue('row.notObject', {})] });
      return;
    }
    const raw: RawCustomer = {};
    for (const [key, v] of Object.entries(element as Record<string, unknown>)) {
      const f = fieldForHeader(key);
      if (!f || raw[f] !== undefined || v === null || v === undefined) continue;
      raw[f] = typeof v === 'boolean' ? String(v) : typeof v === 'number' ? String(v) : typeof v === 'string' ? v : JSON.stringify(v);
    }
    const built = buildCustomer(raw);
    if ('reasons' in built) {
      result.rejected.push({ row, source: element, reasons: built.reasons });
      return;
    }
    const firstRow = firstRowByTaxNumber.get(built.customer.TaxNumber);
    if (firstRow !== undefined) {
      result.rejected.push({ row, source: element, reasons: [issue('taxNumber.duplicate', { taxNumber: built.customer.TaxNumber, firstRow })] });
      return;
    }
    firstRowByTaxNumber.set(built.customer.TaxNumber, row);
    result.accepted.push({ row, customer: built.customer });
  });
  return result;
}

// ---------------------------------------------------------------------------------------------
// Writers

/** Rejected JSON elements with a `Reason` property added (ignored on re-import), for a `.rejected.json`. */
export function writeRejectedJson(
  result: CustomerImportResult,
  formatReason: (reason: ImportIssue) => string = (r) => r.message,
): string {
  const rows = result.rejected.map((r) => {
    const reason = r.reasons.map(formatReason).join(' | ');
    return r.source !== null && typeof r.source === 'object' && !Array.isArray(r.source)
      ? { ...(r.source as Record<string, unknown>), Reason: reason }
      : { Value: r.source, Reason: reason };
  });
  return JSON.stringify(rows, null, 2);
}

/** `customers.csv` → `customers.rejected.csv`; a file that already is a rejected file keeps its name. */
export function rejectedFileName(sourcePath: string): string {
  if (/\.rejected\.csv$/i.test(sourcePath)) return sourcePath;
  const m = /^(.*?)(\.[^./\\]*)?$/.exec(sourcePath)!;
  return `${m[1]}.rejected.csv`;
}

/**
 * The rejected rows as CSV: the source header plus a Reason column (or the source's own Reason column,
 * refreshed), same delimiter and BOM as the source, so the user can fix rows and import the file again.
 * `formatReason` lets the extension put localized text in the Reason cells.
 */
export function writeRejectedCsv(
  result: CustomerImportResult,
  formatReason: (reason: ImportIssue) => string = (r) => r.message,
): string {
  const header = result.header ?? [];
  const reasonIndex = header.findIndex((h) => REASON_HEADERS.has(h));
  const width = reasonIndex >= 0 ? header.length : header.length + 1;
  const at = reasonIndex >= 0 ? reasonIndex : header.length;
  // The rejected file is UTF-8: a BOM tells Excel so when the source was in another encoding.
  const bom = (result.hasBom ?? false) || (result.encoding !== undefined && result.encoding !== 'utf-8');
  const w = new CsvWriter({ delimiter: result.delimiter ?? ',', bom });
  let out = w.row(reasonIndex >= 0 ? header : [...header, REASON_HEADER]);
  for (const r of result.rejected) {
    const cells = (r.cells ?? []).slice(0, width);
    while (cells.length < width) cells.push('');
    cells[at] = r.reasons.map(formatReason).join(' | ');
    out += w.row(cells);
  }
  return out;
}

export interface CustomerExportOptions extends CsvWriterOptions {
  /** 'api': PascalCase field names (default); 'tr': Turkish headers and Evet/Hayır. Both re-import. */
  headers?: 'api' | 'tr';
}

const TURKISH_HEADERS: Record<CustomerField, string> = {
  TaxNumber: 'VKN/TCKN', Name: 'Ünvan', TaxDepartment: 'Vergi Dairesi', Address: 'Adres', Country: 'Ülke',
  City: 'İl', District: 'İlçe', PostalCode: 'Posta Kodu', Phone: 'Telefon', Fax: 'Faks', Email: 'E-posta',
  WebSite: 'Web', IsExport: 'İhracat',
};

/**
 * Customer export, one piece at a time: the first yielded string is the header (with the BOM if
 * asked), then one line per customer, so a caller can write pages to a stream as they arrive.
 */
export function* exportCustomersCsv(
  customers: Iterable<Partial<CustomerRecord>>,
  options: CustomerExportOptions = {},
): Generator<string> {
  const tr = options.headers === 'tr';
  const w = new CsvWriter(options);
  yield w.row(CUSTOMER_FIELDS.map((f) => (tr ? TURKISH_HEADERS[f] : f)));
  for (const c of customers) {
    yield w.row(CUSTOMER_FIELDS.map((f) => {
      if (f === 'IsExport') return c.IsExport ? (tr ? 'Evet' : 'true') : tr ? 'Hayır' : 'false';
      const v = c[f];
      return v === undefined || v === null ? '' : String(v);
    }));
  }
}
