// "Validate Documents against GİB Rules…" on a folder: every UBL-TR file under it checked, and a report:
// Markdown for reading, CSV for a spreadsheet (UTF-8 with BOM, CRLF, every cell through the formula
// guard). Plain Node: the check of one file comes in as a function (the extension's worker, or an
// engine of its own), the wording as labels (English by default).

import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { readHead } from '../files/fileHead';
import { writeCsv, type CsvDelimiter } from '../domain/csv';
import { escapeMarkdown, markdownCell } from '../domain/markdown';
import { english } from '../domain/taxIdWording';
import { gibDocumentRoot, GIB_SNIFF_CHARS } from './documentRoots';
import { filesUnder } from './folderFiles';
import type { GibEngine, GibFinding, GibSeverity, GibValidation } from './engine';

export interface FileVerdict {
  /** Relative to the folder, '/' separators. */
  readonly file: string;
  readonly documentType: string;
  readonly findings: readonly GibFinding[];
}

export interface FolderVerdict {
  readonly folder: string;
  readonly release: string | undefined;
  readonly files: FileVerdict[];
  /** The UBL-TR files found; more than `files` when cancelled. */
  readonly total: number;
  /** .xml files that are not UBL-TR documents. */
  readonly skipped: string[];
  readonly cancelled: boolean;
  /** Whether the findings that only say a draft is not signed were left out. */
  readonly draftsLeftOut: boolean;
}

/** GİB's verdict on one file (its absolute path and its text) and the rules' release that gave it. */
export type CheckFile = (file: string, text: string) => Promise<{ readonly validation: GibValidation; readonly release: string | undefined }>;

export interface FolderOptions {
  readonly signal?: AbortSignal;
  /** Before each file (done = files checked so far, file relative) and once at the end (done = total, file ''); a cancel from here is heeded before the file. */
  readonly onProgress?: (done: number, total: number, file: string) => void;
  /** Keep the findings that only say a draft is not signed (off by default, as in the editor). */
  readonly includeDraft?: boolean;
}

/** Every .xml file under `folder` (recursively, in name order), relative with '/' separators. */
export async function xmlFilesUnder(folder: string): Promise<string[]> {
  return (await filesUnder(folder)).filter((name) => name.toLowerCase().endsWith('.xml'));
}

/** `check` for an engine in this thread (the unit tests). */
export function checkWithEngine(engine: GibEngine): CheckFile {
  return async (_file, text) => ({ validation: await engine.validate(text), release: engine.release });
}

export interface FolderDocuments {
  readonly folder: string;
  /** The UBL-TR files (relative, '/' separators) with the type their opening names. */
  readonly documents: ReadonlyArray<{ readonly file: string; readonly type: string }>;
  /** The other .xml files. */
  readonly skipped: readonly string[];
}

/** The UBL-TR files under `folder`, told from the other .xml files by their opening (a large file of another kind is not read whole). */
export async function findDocuments(folder: string): Promise<FolderDocuments> {
  const documents: Array<{ file: string; type: string }> = [];
  const skipped: string[] = [];
  for (const file of await xmlFilesUnder(folder)) {
    const type = gibDocumentRoot((await readHead(path.join(folder, file), GIB_SNIFF_CHARS)).toString('utf8'))?.localName;
    if (type) documents.push({ file, type });
    else skipped.push(file);
  }
  return { folder, documents, skipped };
}

export async function validateFolder(check: CheckFile, folder: string, options: FolderOptions = {}): Promise<FolderVerdict> {
  return checkDocuments(check, await findDocuments(folder), options);
}

/**
 * Checks the documents found, one at a time. A cancel stops between files: the verdict holds the files
 * checked before it and says it was cancelled.
 */
export async function checkDocuments(check: CheckFile, found: FolderDocuments, options: FolderOptions = {}): Promise<FolderVerdict> {
  const { folder, documents } = found;
  const skipped = [...found.skipped];
  const files: FileVerdict[] = [];
  let release: string | undefined;
  const verdict = (cancelled: boolean): FolderVerdict => ({ folder, release, files, total: documents.length, skipped, cancelled, draftsLeftOut: !options.includeDraft });
  for (let i = 0; i < documents.length; i++) {
    const { file, type } = documents[i];
    options.onProgress?.(i, documents.length, file);
    if (options.signal?.aborted) return verdict(true);
    const absolute = path.join(folder, file);
    const checked = await check(absolute, await readFile(absolute, 'utf8'));
    release ??= checked.release;
    const result = checked.validation;
    if (!result.documentType && !result.findings.length) {
      skipped.push(file);
      continue;
    }
    // A document that is not well-formed has no type from the engine: the opening named it.
    files.push({ file, documentType: result.documentType ?? type, findings: result.findings.filter((f) => options.includeDraft || !f.draft) });
  }
  options.onProgress?.(documents.length, documents.length, '');
  skipped.sort((a, b) => a.localeCompare(b));
  return verdict(false);
}

export interface FolderCounts {
  /** Files checked. */
  readonly checked: number;
  readonly errors: number;
  readonly filesWithErrors: number;
}

export function countsOf(v: FolderVerdict): FolderCounts {
  const errorsIn = (f: FileVerdict) => f.findings.filter((x) => x.severity === 'error').length;
  return {
    checked: v.files.length,
    errors: v.files.reduce((n, f) => n + errorsIn(f), 0),
    filesWithErrors: v.files.filter((f) => errorsIn(f) > 0).length,
  };
}

export interface ReportLabels {
  title: string;
  /** The title of a cancelled run's report. */
  partialTitle: string;
  /** {0} the release, e.g. 20260312 */
  rules: string;
  noRules: string;
  /** "12 files checked: 3 errors in 2 files." */
  summary: (counts: FolderCounts) => string;
  /** {0} files checked, {1} UBL-TR files found */
  cancelled: string;
  clean: string;
  /** Said once: the findings left out. */
  draftsLeftOut: string;
  /** {0} how many */
  skipped: string;
  severity: Record<GibSeverity, string>;
  columns: { file: string; line: string; column: string; severity: string; rule: string; message: string; source: string };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const ENGLISH_LABELS: ReportLabels = {
  title: "GİB's verdict",
  partialTitle: "GİB's verdict (partial)",
  rules: 'GİB rules {0}',
  noRules: 'No GİB rules (XSD only)',
  summary: (c) =>
    c.errors === 0
      ? `${plural(c.checked, 'file', 'files')} checked: no errors.`
      : `${plural(c.checked, 'file', 'files')} checked: ${plural(c.errors, 'error', 'errors')} in ${plural(c.filesWithErrors, 'file', 'files')}.`,
  cancelled: 'Partial report: cancelled after {0} of {1} files; the others were not checked.',
  clean: 'No findings.',
  draftsLeftOut: 'Findings that only say a document is not signed yet are left out.',
  skipped: 'Not UBL-TR documents, not checked: {0}',
  severity: { error: 'error', warning: 'warning', info: 'info' },
  columns: { file: 'File', line: 'Line', column: 'Column', severity: 'Severity', rule: 'Rule', message: 'Message', source: 'Source' },
};

/** The columns of a finding, the same in both reports; its rule is GİB's abstract rule for Schematron findings (GİB's asserts have no ids). */
const columnsOf = ({ columns: c }: ReportLabels): string[] => [c.line, c.column, c.severity, c.rule, c.message, c.source];
const cellsOf = (x: GibFinding, labels: ReportLabels): string[] => [String(x.line), String(x.column), labels.severity[x.severity], x.rule ?? (x.kind === 'xsd' ? 'XSD' : ''), x.message, x.source];

export function reportMarkdown(v: FolderVerdict, labels: ReportLabels = ENGLISH_LABELS, when = new Date()): string {
  const lines = [
    `# ${escapeMarkdown(v.cancelled ? labels.partialTitle : labels.title)}: ${escapeMarkdown(path.basename(v.folder))}`,
    '',
    `${escapeMarkdown(v.release ? english.t(labels.rules, v.release) : labels.noRules)} · ${localDay(when)}`,
    '',
    escapeMarkdown(labels.summary(countsOf(v))),
  ];
  if (v.cancelled) lines.push('', `**${escapeMarkdown(english.t(labels.cancelled, v.files.length, v.total))}**`);
  if (v.draftsLeftOut) lines.push('', escapeMarkdown(labels.draftsLeftOut));
  for (const f of v.files) {
    lines.push('', `## ${escapeMarkdown(f.file)} (${escapeMarkdown(f.documentType)})`, '');
    if (!f.findings.length) {
      lines.push(escapeMarkdown(labels.clean));
      continue;
    }
    lines.push(`| ${columnsOf(labels).map(markdownCell).join(' | ')} |`, '|---:|---:|---|---|---|---|');
    for (const x of f.findings) lines.push(`| ${cellsOf(x, labels).map(markdownCell).join(' | ')} |`);
  }
  if (v.skipped.length) lines.push('', `## ${escapeMarkdown(english.t(labels.skipped, v.skipped.length))}`, '', ...v.skipped.map((s) => `- ${escapeMarkdown(s)}`));
  return lines.join('\n') + '\n';
}

export function reportCsv(v: FolderVerdict, labels: ReportLabels = ENGLISH_LABELS, delimiter: CsvDelimiter = ','): string {
  const rows: string[][] = [[labels.columns.file, ...columnsOf(labels)]];
  for (const f of v.files) for (const x of f.findings) rows.push([f.file, ...cellsOf(x, labels)]);
  return writeCsv(rows, { delimiter, bom: true, guardFormulas: true });
}

/** yyyy-mm-dd as the user's clock shows the day. */
function localDay(when: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${when.getFullYear()}-${two(when.getMonth() + 1)}-${two(when.getDate())}`;
}

/** `gib-report-<yyyy-mm-dd>.md`, the day as the user's clock shows it. */
export function defaultReportName(when = new Date()): string {
  return `gib-report-${localDay(when)}.md`;
}

/** The two files of a report for the name chosen in the save dialog: `<name>.md` and `<name>.csv` beside it. */
export function reportFilesFor(chosen: string): { markdown: string; csv: string } {
  const ext = path.extname(chosen);
  const base = /^\.(md|markdown|csv)$/i.test(ext) ? chosen.slice(0, -ext.length) : chosen;
  return { markdown: /^\.(md|markdown)$/i.test(ext) ? chosen : `${base}.md`, csv: `${base}.csv` };
}
