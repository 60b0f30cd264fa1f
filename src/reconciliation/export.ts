// Export of a reconciliation as a workbook (.xlsx) or CSV: one line per customer, in the same dialect as the customer export
// (UTF-8 with a BOM so Excel reads Turkish letters, CRLF, the separator Excel expects:
// src/shell/exportDialect.ts), written whole or not at all (src/files/userFiles.ts). Plain Node; the
// caller passes the localized labels and the separator.
import { CsvWriter, type CsvDelimiter } from '../domain/csv';
import { guardRow } from '../domain/formulaGuard';
import { writeWorkbook, type XlsxValue } from '../domain/xlsxWrite';
import { saveUserFile, type SaveOptions, type SavedFile } from '../files/userFiles';
import type { ReconRow, ReconStatus } from './classify';
import type { ReconciliationReport } from './report';

export type ChangeKind = 'newlyRegistered' | 'aliasChanged' | 'deregistered';

export interface ExportLabels {
  header: readonly [status: string, customerId: string, name: string, taxNumber: string, pkAlias: string, registryTitle: string, reason: string, change: string, previousAlias: string];
  status: Record<ReconStatus, string>;
  change: Record<ChangeKind, string>;
  reason(row: ReconRow): string;
}

/** The cells of each customer's line, users first, then non-users, invalid, unchecked. */
function* reconciliationRows(report: ReconciliationReport, labels: ExportLabels): Generator<string[]> {
  const changeOf = new Map<number, { kind: ChangeKind; previousAlias?: string }>();
  for (const r of report.changes?.newlyRegistered ?? []) changeOf.set(r.customerId, { kind: 'newlyRegistered' });
  for (const c of report.changes?.aliasChanged ?? []) changeOf.set(c.row.customerId, { kind: 'aliasChanged', ...(c.previousAlias ? { previousAlias: c.previousAlias } : {}) });
  for (const r of report.changes?.deregistered ?? []) changeOf.set(r.customerId, { kind: 'deregistered' });
  for (const group of [report.users, report.notUsers, report.invalid, report.unchecked]) {
    for (const row of group) {
      const change = changeOf.get(row.customerId);
      yield [
        labels.status[row.status],
        String(row.customerId),
        row.name,
        row.taxNumber,
        row.pkAlias ?? '',
        row.title ?? '',
        row.status === 'invalid' ? labels.reason(row) : '',
        change ? labels.change[change.kind] : '',
        change?.previousAlias ?? '',
      ];
    }
  }
}

/** The lines of the file (the first carries the BOM), users first, then non-users, invalid, unchecked. */
export function* reconciliationCsvLines(report: ReconciliationReport, labels: ExportLabels, delimiter: CsvDelimiter = ','): Generator<string> {
  const w = new CsvWriter({ bom: true, delimiter });
  // Names and registry titles come from users and servers: never a formula in Excel.
  yield w.row(guardRow(labels.header));
  for (const cells of reconciliationRows(report, labels)) yield w.row(guardRow(cells));
}

/**
 * The reconciliation as a workbook: the same columns, tax numbers and aliases as text cells, the
 * customer number as a number; the run's time on a second sheet as a date.
 */
export function reconciliationWorkbook(report: ReconciliationReport, labels: ExportLabels, sheetNames: { results: string; run: string; takenAt: string }): Promise<Uint8Array> {
  const rows = function* (): Generator<XlsxValue[]> {
    for (const cells of reconciliationRows(report, labels)) yield [cells[0], Number(cells[1]), ...cells.slice(2)];
  };
  const takenAt = new Date(report.takenAt);
  return writeWorkbook([
    { name: sheetNames.results, header: labels.header, rows: rows() },
    { name: sheetNames.run, header: [sheetNames.takenAt], rows: [[Number.isFinite(takenAt.getTime()) ? takenAt : report.takenAt]] },
  ]);
}

/**
 * Writes the file in pieces of about 64 kB to a temporary file that replaces `file` once complete; a
 * held `file` ends in a numbered name beside it (SavedFile.heldTarget). Throws what the writing threw,
 * with `file` as it was. `lines`: the customer lines written.
 */
export async function writeReconciliationCsv(
  file: string,
  report: ReconciliationReport,
  labels: ExportLabels,
  options: SaveOptions & { delimiter?: CsvDelimiter } = {},
): Promise<{ lines: number; saved: SavedFile }> {
  const saved = await saveUserFile(
    file,
    async (out) => {
      for (const line of reconciliationCsvLines(report, labels, options.delimiter)) await out.write(line);
    },
    options,
  );
  return { lines: report.totalCustomers, saved };
}

/** The workbook written whole in place of `file` (a held `file`: a numbered name beside it). */
export async function writeReconciliationXlsx(
  file: string,
  report: ReconciliationReport,
  labels: ExportLabels,
  sheetNames: { results: string; run: string; takenAt: string },
  options: SaveOptions = {},
): Promise<{ lines: number; saved: SavedFile }> {
  const bytes = await reconciliationWorkbook(report, labels, sheetNames);
  const saved = await saveUserFile(file, (out) => out.write(bytes), options);
  return { lines: report.totalCustomers, saved };
}
