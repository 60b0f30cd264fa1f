// Folds the server's per-row outcome of a customer import (refused, not confirmed, not sent) into
// the locally rejected rows, so one `<name>.rejected.csv` holds every row that was not created, in
// file order, ready to be fixed and imported again. Pure: the texts come from the caller.

import { fieldForHeader } from './customerImport';
import type { AcceptedCustomer, CustomerImportResult, CustomerRecord, ImportIssue, RejectedCustomer } from './customerImport';

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
export function cellsOf(header: readonly string[], customer: CustomerRecord): string[] {
  return header.map((h) => {
    const field = fieldForHeader(h);
    if (!field) return '';
    const value = customer[field];
    return typeof value === 'boolean' ? (value ? 'true' : 'false') : value;
  });
}

/** Adds the rows the server refused or never saw to the locally rejected ones, in file order. */
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
