// "Bulk Check Tax Numbers": numbers from the selection, the clipboard or a file; wrong checksums are
// listed without a call, the rest go through POST GetGlobalCustomerInfo in batches with progress and
// cancel. The result opens as a CSV document the user can save, and "Save Results…" writes it as a
// workbook (.xlsx) or a CSV file.
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { lookupRegistryInBatches } from '../../api/bulk';
import type { GlobalUserType } from '../../api/types';
import { writeCsv } from '../../domain/csv';
import { guardRow } from '../../domain/formulaGuard';
import { writeWorkbook } from '../../domain/xlsxWrite';
import { saveUserFile, spreadsheetFormatOf } from '../../files/userFiles';
import { askSpreadsheetTarget, fileWriteError, reportSavedFile } from '../../shell/fileMessages';
import { decodeText, detectEncoding } from '../../domain/textDecoding';
import { describeError, UserFacingError } from '../../shell/errorMessages';
import { formatBytes } from '../../shell/displayFormat';
import { prompts, UserCancelledError } from '../../shell/prompts';
import type { PaletteContext } from './paletteContext';
import { activeAliases, detailFromInfo } from './registryDetail';
import { askUserType } from './registryPrompts';
import { extractTaxNumbers } from './taxNumberList';
import { withCancellableProgress } from '../../shell/cancellableProgress';

export interface BulkCheckArgs {
  /** A file to read instead of asking (tests, the explorer's context menu passes a Uri). */
  file?: string | vscode.Uri;
  text?: string;
  userType?: GlobalUserType;
  /** Do not open the CSV document (tests). */
  noDocument?: boolean;
}

export interface BulkCheckRow {
  taxNumber: string;
  status: 'registered' | 'notRegistered' | 'invalid' | 'failed';
  title: string;
  pk: string[];
  gb: string[];
  note: string;
}

export interface BulkCheckResult {
  rows: BulkCheckRow[];
  csv: string;
  cancelled: boolean;
  document?: vscode.TextDocument;
}

const MAX_FILE_BYTES = 20 * 1024 * 1024;

async function readFileText(file: string | vscode.Uri): Promise<string> {
  const p = typeof file === 'string' ? file : file.fsPath;
  const stat = await fs.stat(p);
  if (stat.size > MAX_FILE_BYTES) throw new UserFacingError(vscode.l10n.t('The file is larger than {0}.', formatBytes(MAX_FILE_BYTES)));
  // The same encodings as the customer import: a list saved by Excel is rarely UTF-8.
  const bytes = await fs.readFile(p);
  return decodeText(bytes, detectEncoding(bytes).encoding);
}

async function askSource(): Promise<string> {
  const selection = vscode.window.activeTextEditor?.selection;
  const items: Array<vscode.QuickPickItem & { source: 'selection' | 'clipboard' | 'file' }> = [];
  if (selection && !selection.isEmpty) items.push({ label: vscode.l10n.t('Editor selection'), source: 'selection' });
  items.push({ label: vscode.l10n.t('Clipboard'), source: 'clipboard' }, { label: vscode.l10n.t('A file…'), description: vscode.l10n.t('one per line, or a CSV column'), source: 'file' });
  const picked = await prompts.quickPick(items, { title: vscode.l10n.t('Where are the tax numbers?'), ignoreFocusOut: true });
  if (!picked) throw new UserCancelledError();
  if (picked.source === 'selection') {
    const editor = vscode.window.activeTextEditor as vscode.TextEditor;
    return editor.document.getText(editor.selection);
  }
  if (picked.source === 'clipboard') return vscode.env.clipboard.readText();
  const files = await prompts.openDialog({ canSelectMany: false, filters: { [vscode.l10n.t('Text and CSV')]: ['txt', 'csv', 'tsv'] } });
  if (!files?.[0]) throw new UserCancelledError();
  return readFileText(files[0]);
}

export async function bulkCheck(ctx: PaletteContext, args: BulkCheckArgs = {}): Promise<BulkCheckResult> {
  const text = args.text ?? (args.file ? await readFileText(args.file) : await askSource());
  const list = extractTaxNumbers(text);
  if (list.valid.length === 0 && list.invalid.length === 0) throw new UserFacingError(vscode.l10n.t('No tax numbers found.'));
  const userType = list.valid.length > 0 ? (args.userType ?? (await askUserType(ctx))) : 'Invoice';
  const client = await ctx.shell.client();
  const rows: BulkCheckRow[] = [];
  let cancelled = false;
  if (list.valid.length > 0) {
    const title = list.valid.length === 1 ? vscode.l10n.t('Checking {0} tax number', 1) : vscode.l10n.t('Checking {0} tax numbers', list.valid.length);
    const report = await withCancellableProgress(title, async (signal, progress) => {
      let reported = 0;
      try {
        return await lookupRegistryInBatches(client.registry, list.valid, {
          userType,
          signal,
          onProgress: (settled, total) => {
            progress.report({ increment: ((settled - reported) / total) * 100, message: `${settled}/${total}` });
            reported = settled;
          },
        });
      } finally {
        cancelled = signal.aborted;
      }
    });
    const failed = new Map(report.failed.flatMap((f) => f.taxNumbers.map((t) => [t, f.error.kind === 'cancelled' ? vscode.l10n.t('cancelled') : f.error.message] as const)));
    for (const t of list.valid) {
      const found = report.found.get(t);
      const detail = found && detailFromInfo(found);
      if (detail) rows.push({ taxNumber: t, status: 'registered', title: detail.title, pk: activeAliases(detail, 'PK'), gb: activeAliases(detail, 'GB'), note: '' });
      else rows.push(unregisteredRow(t, failed.has(t) ? 'failed' : 'notRegistered', failed.get(t)));
    }
  }
  // Invalid numbers are listed after the checked ones, never sent.
  for (const bad of list.invalid) rows.push(unregisteredRow(bad.value, 'invalid', vscode.l10n.t('line {0}: not a valid VKN/TCKN', bad.line)));

  const csv = toCsv(rows);
  const counts = (s: BulkCheckRow['status']) => rows.filter((r) => r.status === s).length;
  const summary = vscode.l10n.t(
    '{0} registered, {1} not registered, {2} invalid (not sent), {3} failed.',
    counts('registered'),
    counts('notRegistered'),
    counts('invalid'),
    counts('failed'),
  );
  let document: vscode.TextDocument | undefined;
  if (!args.noDocument) {
    // VS Code has no CSV language of its own; a CSV extension may add one.
    const language = (await vscode.languages.getLanguages()).includes('csv') ? 'csv' : 'plaintext';
    document = await vscode.workspace.openTextDocument({ language, content: csv });
    await vscode.window.showTextDocument(document, { preview: false });
  }
  const saveAction = vscode.l10n.t('Save Results…');
  void prompts
    .message(counts('failed') > 0 ? 'warning' : 'info', `${vscode.l10n.t('Bulk check:')} ${summary} ${vscode.l10n.t('Save the CSV document, or save the results as a workbook, to keep them.')}`, undefined, saveAction)
    // A workbook or a CSV; the workbook first where VS Code is in Turkish.
    .then((choice) => (choice === saveAction ? askSpreadsheetTarget('bulk-check', vscode.l10n.t('Save Bulk Check Results')) : undefined))
    .then((target) => (target ? saveResults(rows, target) : undefined))
    .then(undefined, (error: unknown) => {
      const described = describeError(error);
      if (described.show) void prompts.message('error', described.text);
    });
  return { rows, csv, cancelled, document };
}

/** A row without a registry record. */
function unregisteredRow(taxNumber: string, status: BulkCheckRow['status'], note = ''): BulkCheckRow {
  return { taxNumber, status, title: '', pk: [], gb: [], note };
}

/** The results as a table: the header, then one row per number. */
function resultTable(rows: BulkCheckRow[]): string[][] {
  const statusText: Record<BulkCheckRow['status'], string> = {
    registered: vscode.l10n.t('registered'),
    notRegistered: vscode.l10n.t('not registered'),
    invalid: vscode.l10n.t('invalid checksum'),
    failed: vscode.l10n.t('lookup failed'),
  };
  const header = [vscode.l10n.t('Tax number'), vscode.l10n.t('Status'), vscode.l10n.t('Title'), vscode.l10n.t('Active PK aliases'), vscode.l10n.t('Active GB aliases'), vscode.l10n.t('Note')];
  return [header, ...rows.map((r) => [r.taxNumber, statusText[r.status], r.title, r.pk.join(' '), r.gb.join(' '), r.note])];
}

export function toCsv(rows: BulkCheckRow[]): string {
  return writeCsv(resultTable(rows).map(guardRow), { lineEnding: '\n' });
}

/** The results as a workbook: every cell text (a tax number keeps its leading zero), the header frozen. */
export function toXlsx(rows: BulkCheckRow[]): Promise<Uint8Array> {
  const [header, ...body] = resultTable(rows);
  return writeWorkbook([{ name: vscode.l10n.t('Bulk check'), header, rows: body }]);
}

/** Saves the results as a workbook or a CSV, as the file's name says, written whole. */
async function saveResults(rows: BulkCheckRow[], target: string): Promise<string> {
  const content = spreadsheetFormatOf(target) === 'xlsx' ? await toXlsx(rows) : '\uFEFF' + toCsv(rows).replace(/\n/g, '\r\n');
  try {
    const saved = await saveUserFile(target, (out) => out.write(content));
    return (await reportSavedFile(saved, (file) => vscode.l10n.t('Bulk check results saved to {0}.', file))).path;
  } catch (error) {
    throw fileWriteError(error, target);
  }
}
