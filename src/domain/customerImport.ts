// Customer import from CSV (Excel exports in Turkish or English) and JSON, validated before anything
// is sent: POST /Customers rejects the whole array when one row is bad, so bad rows are set aside
// here, with reasons the user can read and fix in a `<name>.rejected.csv`.

import { createReadStream } from 'node:fs';
import { CsvReader, CsvWriter, parseCsv, readCsvChunks, type CsvDelimiter, type CsvWriterOptions } from './csv';
import { guardRow } from './formulaGuard';
import { foldHeader, HeaderNames, TAX_NUMBER_HEADER_NAMES } from './headerMatch';
import { checkTaxId, isValidVkn, type TaxIdKind, type TaxIdProblem } from './taxId';
import { english, taxIdProblemText, type Translator } from './taxIdWording';
import { isEmailAddressList } from './email';
import { decodeText, type SourceEncoding } from './textDecoding';

export const CUSTOMER_FIELDS = [
  'TaxNumber', 'Name', 'TaxDepartment', 'Address', 'Country', 'City', 'District',
  'PostalCode', 'Phone', 'Fax', 'Email', 'WebSite', 'IsExport',
] as const;

export type CustomerField = (typeof CUSTOMER_FIELDS)[number];

/** CustomerDto as POST /general/Customers takes it (PascalCase, as on the wire): text fields and the export flag. */
export type CustomerRecord = Record<Exclude<CustomerField, 'IsExport'>, string> & { IsExport: boolean };

const REQUIRED_FIELDS: readonly CustomerField[] = ['Name', 'TaxNumber'];

/** Header names accepted per field, compared after folding (headerMatch.ts); the Turkish export writes the first. */
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

const FIELD_BY_HEADER = new HeaderNames<CustomerField>(CUSTOMER_FIELDS.flatMap((f) => CUSTOMER_HEADER_ALIASES[f].map((a) => [a, f] as const)));

export const REASON_HEADERS = HeaderNames.of(REASON_ALIASES);

export function fieldForHeader(header: string): CustomerField | undefined {
  return FIELD_BY_HEADER.lookup(header);
}

type Params = Record<string, string | number | string[]>;

/** English text per issue code (the `message`); the extension words each code in the user's language with the same params. */
const MESSAGES = {
  'columns.missing': (p: Params) =>
    `Missing required column(s): ${(p.missing as string[]).join(', ')}. Headers found: ${(p.found as string[]).map((h) => `"${h}"`).join(', ') || '(none)'}. Accepted names: ${p.accepted}.`,
  'json.notArray': () => 'The JSON file must hold an array of customer objects.',
  'json.invalid': (p: Params) => `The file is not valid JSON: ${p.error}`,
  'row.notObject': () => 'This element is not an object.',
  'taxNumber.empty': (p: Params) => taxNumberIssueText(english, { code: 'taxNumber.empty', params: p }),
  'taxNumber.notDigits': (p: Params) => taxNumberIssueText(english, { code: 'taxNumber.notDigits', params: p }),
  'taxNumber.length': (p: Params) => taxNumberIssueText(english, { code: 'taxNumber.length', params: p }),
  'taxNumber.tcknLeadingZero': (p: Params) => taxNumberIssueText(english, { code: 'taxNumber.tcknLeadingZero', params: p }),
  'taxNumber.checksum': (p: Params) => taxNumberIssueText(english, { code: 'taxNumber.checksum', params: p }),
  'taxNumber.duplicate': (p: Params) => `Tax number ${p.taxNumber} already appears in row ${p.firstRow}.`,
  'name.empty': () => 'The name (title) is empty.',
  'isExport.invalid': (p: Params) => `Export flag "${p.value}" is not understood; use Evet/Hayır, yes/no, true/false or 1/0.`,
  'email.invalid': (p: Params) => `E-mail address "${p.value}" is not valid.`,
};

export type ImportIssueCode = keyof typeof MESSAGES;

/**
 * A tax-number issue (`taxNumber.*`) in the one wording of src/domain/taxIdWording.ts, plus the hint
 * for a VKN whose leading zero a spreadsheet dropped.
 */
export function taxNumberIssueText(l10n: Translator, issue: { code: string; params: Params }): string {
  const p = issue.params;
  const problem = issue.code.slice('taxNumber.'.length) as TaxIdProblem;
  const text = taxIdProblemText(l10n, {
    value: String(p.taxNumber ?? ''),
    problem,
    ...(p.kind ? { kind: p.kind as TaxIdKind } : {}),
    ...(p.expected ? { expectedCheckDigits: String(p.expected) } : {}),
  });
  if (!p.suggestion) return text;
  return `${text} ${l10n.t('A spreadsheet may have dropped a leading zero: {0} would be valid; format the column as text.', String(p.suggestion))}`;
}

export interface ImportIssue {
  code: ImportIssueCode;
  params: Params;
  message: string;
}

function issue(code: ImportIssueCode, params: Params): ImportIssue {
  return { code, params, message: MESSAGES[code](params) };
}

const TRUE_WORDS = new Set(['evet', 'e', 'true', '1', 'yes', 'y', 'var']);
const FALSE_WORDS = new Set(['hayir', 'h', 'false', '0', 'no', 'n', 'yok', '']);
/** The spellings Excel exports carry, looked up before the (slower) normalisation. */
const YES_NO_EXACT = new Map<string, boolean>([['Evet', true], ['Hayır', false], ['true', true], ['false', false], ['1', true], ['0', false], ['', false]]);

/** `undefined` when the value is not a recognisable yes/no. */
export function parseYesNo(value: string): boolean | undefined {
  const exact = YES_NO_EXACT.get(value);
  if (exact !== undefined) return exact;
  const v = foldHeader(value);
  if (TRUE_WORDS.has(v)) return true;
  if (FALSE_WORDS.has(v)) return false;
  return undefined;
}

/**
 * The VKN a spreadsheet's number stands for when it dropped the leading zero: `730871159` →
 * `0730871159`, only when those ten digits pass the VKN check digits; otherwise undefined.
 */
export function restoredLeadingZero(taxNumber: string): string | undefined {
  return /^[0-9]{9}$/.test(taxNumber) && isValidVkn('0' + taxNumber) ? '0' + taxNumber : undefined;
}

function taxNumberIssue(raw: string): ImportIssue | undefined {
  const check = checkTaxId(raw);
  if (check.valid) return undefined;
  const { value: taxNumber, problem } = check;
  const code = `taxNumber.${problem}` as const;
  if (problem === 'empty') return issue(code, {});
  if (problem === 'checksum') return issue(code, { taxNumber, kind: check.kind ?? 'VKN', expected: check.expectedCheckDigits ?? '' });
  if (problem !== 'length') return issue(code, { taxNumber });
  // Excel stores a VKN as a number and drops its leading zero; say so when that explains it.
  const suggestion = restoredLeadingZero(taxNumber);
  return issue(code, suggestion ? { taxNumber, digits: 9, suggestion } : { taxNumber, digits: taxNumber.length });
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
  if (email !== '' && !isEmailAddressList(email)) reasons.push(issue('email.invalid', { value: email }));
  if (reasons.length > 0) return { reasons };
  const customer = {} as CustomerRecord;
  for (const f of CUSTOMER_FIELDS) {
    if (f === 'IsExport') customer.IsExport = exportFlag === true;
    else customer[f] = text(f);
  }
  return { customer };
}

export interface AcceptedCustomer {
  /** 1-based data row (the header is not counted; a multi-line record counts once). */
  row: number;
  /** Physical line where the record starts in the file (CSV), or the row number of a workbook's sheet. */
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

/** Column index per field present in the header. */
export type ColumnMap = Partial<Record<CustomerField, number>>;

/** Maps header cells to fields; throws CustomerImportError when Name or TaxNumber is missing. */
export function mapCustomerColumns(header: readonly string[]): ColumnMap {
  const index: ColumnMap = {};
  header.forEach((h, i) => {
    const f = fieldForHeader(h);
    if (f && index[f] === undefined) index[f] = i;
  });
  const missing = REQUIRED_FIELDS.filter((f) => index[f] === undefined);
  if (missing.length > 0) {
    const accepted = missing.map((f) => `${f}: ${CUSTOMER_HEADER_ALIASES[f].join(' / ')}`).join('; ');
    throw new CustomerImportError(issue('columns.missing', { missing: [...missing], found: [...header], accepted }));
  }
  return index;
}

function rawRow(columns: ColumnMap, cells: readonly string[]): RawCustomer {
  const raw: RawCustomer = {};
  for (const f of CUSTOMER_FIELDS) if (columns[f] !== undefined) raw[f] = cells[columns[f]] ?? '';
  return raw;
}

/** The rows of one import (CSV or JSON), each accepted or rejected with its reasons, a repeated tax number too. */
class CustomerRows {
  private readonly firstRowByTaxNumber = new Map<string, number>();
  readonly result: CustomerImportResult = { accepted: [], rejected: [] };

  add(row: number, raw: RawCustomer | undefined, origin: { line?: number; cells?: string[]; source?: unknown }): void {
    let built = raw ? buildCustomer(raw) : { reasons: [issue('row.notObject', {})] };
    if ('customer' in built) {
      const { customer } = built;
      const firstRow = this.firstRowByTaxNumber.get(customer.TaxNumber);
      if (firstRow === undefined) {
        this.firstRowByTaxNumber.set(customer.TaxNumber, row);
        this.result.accepted.push({ row, ...(origin.line !== undefined ? { line: origin.line } : {}), customer });
        return;
      }
      built = { reasons: [issue('taxNumber.duplicate', { taxNumber: customer.TaxNumber, firstRow })] };
    }
    this.result.rejected.push({ row, ...origin, reasons: built.reasons });
  }
}

/**
 * Imports customers from a table already in memory (a workbook's sheet): `header` names the columns,
 * each record is one data row with its line (the sheet's row number).
 */
export function importCustomerTable(header: readonly string[], records: Iterable<{ cells: string[]; line: number }>): CustomerImportResult {
  const rows = new CustomerRows();
  const { result } = rows;
  result.header = header.map((c) => c.trim());
  const columns = mapCustomerColumns(result.header);
  let row = 0;
  for (const record of records) rows.add(++row, rawRow(columns, record.cells), { line: record.line, cells: record.cells });
  return result;
}

/** Imports customers from a CSV file, streamed, in `encoding` or the one its bytes show. */
export function importCustomersCsvFile(path: string, encoding?: SourceEncoding): Promise<CustomerImportResult> {
  return importCustomersCsvChunks(createReadStream(path, { highWaterMark: 64 * 1024 }), encoding);
}

/**
 * Imports customers from CSV byte/text chunks (any stream), in `encoding` or the one the bytes show.
 * Keeps only the results, never the whole text.
 */
export async function importCustomersCsvChunks(
  source: AsyncIterable<Buffer | Uint8Array | string>,
  encoding?: SourceEncoding,
): Promise<CustomerImportResult> {
  const reader = new CsvReader();
  const rows = new CustomerRows();
  const { result } = rows;
  let columns: ColumnMap | undefined;
  let row = 0;
  for await (const record of readCsvChunks(source, reader, encoding)) {
    if (!columns) {
      result.header = record.cells.map((c) => c.trim());
      columns = mapCustomerColumns(result.header);
      continue;
    }
    rows.add(++row, rawRow(columns, record.cells), { line: record.line, cells: record.cells });
  }
  // An input without a header at all.
  if (!columns) mapCustomerColumns([]);
  result.delimiter = reader.delimiter ?? ',';
  result.hasBom = reader.hasBom;
  if (reader.sourceEncoding && reader.sourceEncoding !== 'utf-8') result.encoding = reader.sourceEncoding;
  return result;
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
  const rows = new CustomerRows();
  value.forEach((element: unknown, i) => {
    if (element === null || typeof element !== 'object' || Array.isArray(element)) {
      return rows.add(i + 1, undefined, { source: element });
    }
    const raw: RawCustomer = {};
    for (const [key, v] of Object.entries(element as Record<string, unknown>)) {
      const f = fieldForHeader(key);
      if (!f || raw[f] !== undefined || v === null || v === undefined) continue;
      raw[f] = typeof v === 'boolean' ? String(v) : typeof v === 'number' ? String(v) : typeof v === 'string' ? v : JSON.stringify(v);
    }
    rows.add(i + 1, raw, { source: element });
  });
  return rows.result;
}

/**
 * `customers.csv` → `customers.rejected.csv`, `customers.xlsx` → `customers.rejected.xlsx` (a workbook's
 * rejected rows go to a workbook); a file that already is a rejected file keeps its name.
 */
export function rejectedFileName(sourcePath: string): string {
  if (/\.rejected\.(csv|xlsx)$/i.test(sourcePath)) return sourcePath;
  const m = /^(.*?)(\.[^./\\]*)?$/.exec(sourcePath)!;
  return `${m[1]}.rejected.${/^\.xlsx$/i.test(m[2] ?? '') ? 'xlsx' : 'csv'}`;
}

/**
 * The rejected rows as a table, for the CSV and the workbook alike: the source's header plus a Reason
 * column (or the source's own Reason column, refreshed), so the user can fix rows and import the file
 * again. `formatReason` lets the extension put localized text in the Reason cells.
 */
export function rejectedTable(result: CustomerImportResult, formatReason: (reason: ImportIssue) => string = (r) => r.message): { header: string[]; rows: string[][] } {
  const header = result.header ?? [];
  const reasonIndex = header.findIndex((h) => REASON_HEADERS.has(h));
  const width = reasonIndex >= 0 ? header.length : header.length + 1;
  const rows = result.rejected.map((r) => {
    const cells = (r.cells ?? []).slice(0, width);
    while (cells.length < width) cells.push('');
    cells[reasonIndex >= 0 ? reasonIndex : header.length] = r.reasons.map(formatReason).join(' | ');
    return cells;
  });
  return { header: reasonIndex >= 0 ? header : [...header, REASON_HEADER], rows };
}

/** The rejected rows as CSV (rejectedTable), with the source's delimiter and BOM. */
export function writeRejectedCsv(result: CustomerImportResult, formatReason?: (reason: ImportIssue) => string): string {
  const { header, rows } = rejectedTable(result, formatReason);
  // The rejected file is UTF-8: a BOM tells Excel so when the source was in another encoding.
  const bom = (result.hasBom ?? false) || (result.encoding !== undefined && result.encoding !== 'utf-8');
  const w = new CsvWriter({ delimiter: result.delimiter ?? ',', bom });
  // The cells and the reasons (a server's text goes in verbatim) never run as formulas in Excel.
  return [header, ...rows].map((cells) => w.row(guardRow(cells))).join('');
}

/** The parts of the bulk-create report (src/api/bulk.ts) this needs; indexes point into `sent`. */
export interface ServerImportOutcome {
  rejected: ReadonlyArray<{ index: number; messages: ReadonlyArray<{ description: string }>; status?: number }>;
  unknown: ReadonlyArray<{ index: number; error: { kind: string } }>;
  notSent: ReadonlyArray<{ index: number }>;
}

/** Reason texts for rows the server did not create (localized by the extension). */
export interface ServerOutcomeTexts {
  /** A refusal that came without a message. */
  rejectedWithoutMessage(status: number | string): string;
  /** Sent, but the answer did not say whether the row was stored. */
  unknown(errorKind: string): string;
  notSent(): string;
}

/** The cells of a row that passed the local checks, rebuilt in the source's column order. */
function cellsOf(header: readonly string[], customer: CustomerRecord): string[] {
  return header.map((h) => {
    const field = fieldForHeader(h);
    if (!field) return '';
    const value = customer[field];
    return typeof value === 'boolean' ? (value ? 'true' : 'false') : value;
  });
}

/** Adds the rows the server refused or never saw to the locally rejected ones: one rejected file, in file order. */
export function mergeServerOutcome(
  result: CustomerImportResult,
  report: ServerImportOutcome,
  sent: readonly AcceptedCustomer[],
  texts: ServerOutcomeTexts,
): RejectedCustomer[] {
  const header = result.header ?? [];
  const extra: RejectedCustomer[] = [];
  // A reason the server (or the transport) gave; the domain's issue codes cover local checks only.
  const add = (index: number, reason: string) => {
    const row = sent[index];
    const reasons: ImportIssue[] = [{ code: 'row.notObject', params: { server: reason }, message: reason }];
    extra.push({ row: row.row, ...(row.line !== undefined ? { line: row.line } : {}), cells: cellsOf(header, row.customer), source: row.customer, reasons });
  };
  for (const r of report.rejected) add(r.index, r.messages.map((m) => m.description).join(' ') || texts.rejectedWithoutMessage(r.status ?? '?'));
  for (const u of report.unknown) add(u.index, texts.unknown(u.error.kind));
  for (const n of report.notSent) add(n.index, texts.notSent());
  return [...result.rejected, ...extra].sort((a, b) => a.row - b.row);
}

export interface CustomerExportOptions extends CsvWriterOptions {
  /** 'api': PascalCase field names (default); 'tr': Turkish headers and Evet/Hayır. Both re-import. */
  headers?: 'api' | 'tr';
}

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
  yield w.row(CUSTOMER_FIELDS.map((f) => (tr ? CUSTOMER_HEADER_ALIASES[f][0] : f)));
  for (const c of customers) {
    yield w.row(guardRow(CUSTOMER_FIELDS.map((f) => {
      if (f === 'IsExport') return c.IsExport ? (tr ? 'Evet' : 'true') : tr ? 'Hayır' : 'false';
      const v = c[f];
      return v === undefined || v === null ? '' : String(v);
    })));
  }
}
