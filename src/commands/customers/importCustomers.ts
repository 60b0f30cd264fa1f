// Customer import from a workbook (.xlsx: the first sheet, or the one the user picks), a CSV or a JSON
// file: rows are checked here first (columns by English or Turkish header names, tax-number checksums;
// a CSV's encoding from its bytes, or asked), the good ones go to POST /Customers in batches under a
// cancellable progress, and every row not created goes to `<name>.rejected.csv` (`.rejected.xlsx` for a
// workbook) with a Reason column (saveRejectedRows), so nothing is lost.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  CUSTOMER_FIELDS,
  CustomerImportError,
  fieldForHeader,
  importCustomersCsvFile,
  importCustomersJson,
  mergeServerOutcome,
  rejectedFileName,
  writeRejectedCsv,
  type CustomerImportResult,
  type ServerOutcomeTexts,
} from '../../domain/customerImport';
import { importCustomersXlsx, writeRejectedXlsx, type XlsxImportResult } from '../../domain/xlsxCustomers';
import { readWorkbook } from '../../domain/xlsxRead';
import { MAX_UNPACKED_BYTES, XlsxError } from '../../domain/xlsxZip';
import { saveUserFile, spreadsheetFormatOf } from '../../files/userFiles';
import { describeError, UserFacingError } from '../../shell/errorMessages';
import { log } from '../../shell/log';
import { prompts, UserCancelledError } from '../../shell/prompts';
import { fileArgOrPick, type TreeCommandContext } from '../treeCommandContext';
import { fileWriteError, heldFileText } from '../../shell/fileMessages';
import { chooseImportEncoding, encodingLabel } from './importEncoding';
import { localizedReason, workbookProblemText } from './importReasons';
import { withCancellableProgress } from '../../shell/cancellableProgress';

export interface ImportSummary {
  created: number;
  rejected: number;
  /** Sent, but the answer did not say whether they were stored (check before importing them again). */
  unknown: number;
  notSent: number;
  rejectedFile: string | undefined;
  /** Workbooks: tax numbers stored as numbers, read with their leading zero (the check digits agree). */
  restoredTaxNumbers: number;
}

/** The sheet to read: the only visible one, or the one the user picks. */
async function readXlsxImport(file: string): Promise<XlsxImportResult> {
  // A workbook is read whole: one far beyond any customer list is refused before it is read.
  if ((await fs.promises.stat(file)).size > MAX_UNPACKED_BYTES) throw new XlsxError('tooLarge');
  const bytes = await fs.promises.readFile(file);
  const book = await readWorkbook(bytes);
  const visible = book.sheets.map((s, index) => ({ ...s, index })).filter((s) => !s.hidden);
  let index = visible[0]?.index ?? 0;
  if (visible.length > 1) {
    const picked = await prompts.quickPick(
      visible.map((s) => ({ label: s.name, index: s.index })),
      { title: vscode.l10n.t('Which sheet of {0} holds the customers?', path.basename(file)), ignoreFocusOut: true },
    );
    if (!picked) throw new UserCancelledError();
    index = picked.index;
  }
  return importCustomersXlsx(bytes, index, book);
}

async function readImport(file: string): Promise<CustomerImportResult | XlsxImportResult> {
  try {
    if (/\.json$/i.test(file)) return importCustomersJson(await fs.promises.readFile(file, 'utf8'));
    if (spreadsheetFormatOf(file) === 'xlsx') return await readXlsxImport(file);
    return await importCustomersCsvFile(file, await chooseImportEncoding(file));
  } catch (error) {
    // A file that cannot be read as a customer list at all: say why, in the user's language.
    if (error instanceof CustomerImportError) throw new UserFacingError(vscode.l10n.t('Cannot import {0}: {1}', path.basename(file), localizedReason(error.issue)));
    if (error instanceof XlsxError) throw new UserFacingError(vscode.l10n.t('Cannot import {0}: {1}', path.basename(file), workbookProblemText(error)));
    throw error;
  }
}

/** Reason texts for the rows the server did not create, in the user's language. */
const serverOutcomeTexts: ServerOutcomeTexts = {
  rejectedWithoutMessage: (status) => vscode.l10n.t('Rejected by the server (HTTP {0}).', status),
  unknown: (kind) => vscode.l10n.t('Not confirmed by the server ({0}): check whether it exists before importing it again.', kind),
  notSent: () => vscode.l10n.t('Not sent: the import was cancelled or stopped.'),
};

export async function importCustomers(ctx: TreeCommandContext, fileArg?: unknown): Promise<ImportSummary> {
  const file = await fileArgOrPick(fileArg, {
    title: vscode.l10n.t('Import Customers'),
    filters: { [vscode.l10n.t('Customer lists')]: ['csv', 'xlsx', 'json'] },
    ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
  });

  const result = await readImport(file);
  const client = await ctx.client();
  const api = await import('../../api');
  const sent = result.accepted;
  const report = await withCancellableProgress(vscode.l10n.t('Importing customers from {0}', path.basename(file)), async (signal, progress) => {
    let last = 0;
    return api.createCustomersInBatches(
      client.customers,
      sent.map((a) => a.customer),
      {
        batchSize: 100,
        concurrency: 2,
        signal,
        onProgress: (settled, total) => {
          progress.report({ message: vscode.l10n.t('{0} of {1} rows', settled, total), increment: ((settled - last) / Math.max(1, total)) * 100 });
          last = settled;
        },
      },
    );
  });

  const rejected = mergeServerOutcome(result, report, sent, serverOutcomeTexts);
  // The view shows what was created before anything else can go wrong.
  if (report.created.length > 0) ctx.trees.dataChanged('customers');
  let rejectedFile: string | undefined;
  let rejectedNote: string | undefined;
  if (rejected.length > 0) {
    // Only CSV sources keep their cells; a JSON source's rows are written with the API's column names.
    const header = result.header ?? [...CUSTOMER_FIELDS];
    const rows = rejected.map((r) => (r.cells ? r : { ...r, cells: jsonCells(header, r.source) }));
    const csv = writeRejectedCsv({ ...result, header, rejected: rows }, localizedReason);
    // A workbook's rejected rows go to a workbook; the CSV text is what an untitled editor can show.
    const target = rejectedFileName(file);
    const bytes = spreadsheetFormatOf(target) === 'xlsx' ? await writeRejectedXlsx({ ...result, header, rejected: rows }, localizedReason, vscode.l10n.t('Rejected')) : csv;
    ({ file: rejectedFile, note: rejectedNote } = await saveRejectedRows(target, bytes, csv));
  }
  const restored = 'restoredTaxNumbers' in result ? result.restoredTaxNumbers : [];

  const summary: ImportSummary = {
    created: report.created.length,
    rejected: result.rejected.length + report.rejected.length,
    unknown: report.unknown.length,
    notSent: report.notSent.length,
    rejectedFile,
    restoredTaxNumbers: restored.length,
  };
  const text = vscode.l10n.t('Import finished: {0} created, {1} rejected, {2} unconfirmed, {3} not sent.', summary.created, summary.rejected, summary.unknown, summary.notSent);
  const encoding = result.encoding ? ` ${vscode.l10n.t('Read as {0}.', encodingLabel(result.encoding))}` : '';
  const zeros = restored.length > 0 ? ` ${vscode.l10n.t('{0} tax number(s) stored as numbers had lost their leading zero and were read with it, as their check digits show (sheet rows {1}).', restored.length, restored.slice(0, 10).map((r) => r.line).join(', ') + (restored.length > 10 ? '…' : ''))}` : '';
  const openAction = vscode.l10n.t('Open Rejected Rows');
  const detail = rejectedNote ?? (rejectedFile ? vscode.l10n.t('Rows that were not created, with the reason: {0}', rejectedFile) : undefined);
  void prompts.message(rejected.length > 0 ? 'warning' : 'info', `${text}${encoding}${zeros}${detail ? ` ${detail}` : ''}`, undefined, ...(rejectedFile ? [openAction] : [])).then(async (choice) => {
    if (choice !== openAction || !rejectedFile) return;
    // A workbook opens in the program that opens workbooks (Excel); a CSV in the editor.
    if (spreadsheetFormatOf(rejectedFile) === 'xlsx') await vscode.env.openExternal(vscode.Uri.file(rejectedFile));
    else await vscode.window.showTextDocument(vscode.Uri.file(rejectedFile));
  });
  return summary;
}

/**
 * Writes the rejected rows whole to `target` (temporary file, then rename), or, when `target` is held
 * open (Excel holds the rejected file of the last import while the user fixes it), to a numbered file
 * beside it. When no file can be written, the rows open (as CSV) in an untitled editor so they can be
 * saved elsewhere. Never throws: the caller's summary must be shown.
 */
async function saveRejectedRows(target: string, content: string | Uint8Array, csv: string): Promise<{ file?: string; note?: string }> {
  try {
    // Shown while a file held open is waited for (about 10 s).
    const saved = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Saving the rows that were not created to {0}', path.basename(target)) }, () =>
      saveUserFile(target, (out) => out.write(content)),
    );
    return { file: saved.path, ...(saved.heldTarget ? { note: `${heldFileText(saved.heldTarget)} ${vscode.l10n.t('The rows that were not created, with the reason, are in {0}.', saved.path)}` } : {}) };
  } catch (error) {
    const reason = describeError(fileWriteError(error, target)).text;
    log.error(`rejected rows not written to ${target}: ${error instanceof Error ? error.message : String(error)}`);
    try {
      const untitled = await vscode.workspace.openTextDocument({ content: csv.replace(/^\uFEFF/, ''), language: 'csv' });
      await vscode.window.showTextDocument(untitled, { preview: false });
    } catch {
      return { note: vscode.l10n.t('The rows that were not created could not be saved ({0}).', reason) };
    }
    return { note: vscode.l10n.t('The rows that were not created could not be saved ({0}); they are open in an untitled editor: save them from there.', reason) };
  }
}

function jsonCells(header: readonly string[], source: unknown): string[] {
  const record = source !== null && typeof source === 'object' ? (source as Record<string, unknown>) : {};
  return header.map((h) => {
    const field = fieldForHeader(h);
    const value = field ? (record[field] ?? Object.entries(record).find(([k]) => fieldForHeader(k) === field)?.[1]) : undefined;
    return value === undefined || value === null ? '' : String(value);
  });
}
