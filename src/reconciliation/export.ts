// CSV export of a reconciliation: one line per customer, in the same dialect as the customer export
// (src/commands/customers/exportCustomers.ts: UTF-8 with a BOM so Excel reads Turkish letters,
// comma separator, CRLF). Plain Node; the caller passes the localized labels.
import * as fs from 'node:fs';
import { CsvWriter } from '../domain/csv';
import type { ReconRow, ReconStatus } from './classify';
import type { ReconciliationReport } from './report';

export type ChangeKind = 'newlyRegistered' | 'aliasChanged' | 'deregistered';

export interface ExportLabels {
  header: readonly [status: string, customerId: string, name: string, taxNumber: string, pkAlias: string, registryTitle: string, reason: string, change: string, previousAlias: string];
  status: Record<ReconStatus, string>;
  change: Record<ChangeKind, string>;
  reason(row: ReconRow): string;
}

/** The lines of the file (the first carries the BOM), users first, then non-users, invalid, unchecked. */
export function* reconciliationCsvLines(report: ReconciliationReport, labels: ExportLabels): Generator<string> {
  const changeOf = new Map<number, { kind: ChangeKind; previousAlias?: string }>();
  for (const r of report.changes?.newlyRegistered ?? []) changeOf.set(r.customerId, { kind: 'newlyRegistered' });
  for (const c of report.changes?.aliasChanged ?? []) changeOf.set(c.row.customerId, { kind: 'aliasChanged', ...(c.previousAlias ? { previousAlias: c.previousAlias } : {}) });
  for (const r of report.changes?.deregistered ?? []) changeOf.set(r.customerId, { kind: 'deregistered' });
  const w = new CsvWriter({ bom: true });
  yield w.row(labels.header);
  for (const group of [report.users, report.notUsers, report.invalid, report.unchecked]) {
    for (const row of group) {
      const change = changeOf.get(row.customerId);
      yield w.row([
        labels.status[row.status],
        String(row.customerId),
        row.name,
        row.taxNumber,
        row.pkAlias ?? '',
        row.title ?? '',
        row.status === 'invalid' ? labels.reason(row) : '',
        change ? labels.change[change.kind] : '',
        change?.previousAlias ?? '',
      ]);
    }
  }
}

/** Writes the file in pieces; returns the number of customer lines. */
export async function writeReconciliationCsv(file: string, report: ReconciliationReport, labels: ExportLabels): Promise<number> {
  const out = fs.createWriteStream(file, { encoding: 'utf8' });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  let lines = -1;
  let buffer = '';
  for (const line of reconciliationCsvLines(report, labels)) {
    lines++;
    buffer += line;
    if (buffer.length > 64 * 1024) {
      if (!out.write(buffer)) await new Promise<void>((r) => out.once('drain', r));
      buffer = '';
    }
  }
  out.end(buffer);
  await done;
  return lines;
}
