// "Validate Documents against GİB Rules…" on a folder, and `npm run validate -- --report`: every UBL-TR
// file under the folder checked (progress, cancel between files), and a report a user can keep:
// Markdown for reading, CSV for a spreadsheet (UTF-8 with BOM, CRLF; file, line, column, severity,
// source, rule, message). Plain Node, no vscode; the wording comes in as labels (English by default).

import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { writeCsv, type CsvDelimiter } from '../domain/csv';
import { escapeMarkdown } from '../domain/markdown';
import type { GibEngine, GibFinding } from './engine';

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
  /** .xml files that are not UBL-TR documents. */
  readonly skipped: string[];
  readonly cancelled: boolean;
}

export interface FolderOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, total: number, file: string) => void;
  /** Keep the findings that only say a draft is not signed (off by default, as in the editor). */
  readonly includeDraft?: boolean;
}

async function xmlFiles(folder: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  const entries = (await readdir(path.join(folder, rel), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const name = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await xmlFiles(folder, name)));
    else if (e.isFile() && e.name.toLowerCase().endsWith('.xml')) out.push(name);
  }
  return out;
}

export async function validateFolder(engine: GibEngine, folder: string, options: FolderOptions = {}): Promise<FolderVerdict> {
  const all = await xmlFiles(folder);
  const files: FileVerdict[] = [];
  const skipped: string[] = [];
  for (let i = 0; i < all.length; i++) {
    if (options.signal?.aborted) return { folder, release: engine.release, files, skipped, cancelled: true };
    options.onProgress?.(i, all.length, all[i]);
    const result = await engine.validate(await readFile(path.join(folder, all[i]), 'utf8'));
    if (!result.documentType && !result.findings.length) {
      skipped.push(all[i]);
      continue;
    }
    files.push({ file: all[i], documentType: result.documentType ?? '', findings: result.findings.filter((f) => options.includeDraft || !f.draft) });
  }
  options.onProgress?.(all.length, all.length, '');
  return { folder, release: engine.release, files, skipped, cancelled: false };
}

export interface ReportLabels {
  title: string;
  /** {0} the release, e.g. 20260312 */
  rules: string;
  noRules: string;
  /** {0} documents, {1} with errors, {2} errors */
  summary: string;
  clean: string;
  skipped: string;
  cancelled: string;
  columns: { file: string; line: string; column: string; severity: string; source: string; rule: string; message: string };
}

export const ENGLISH_LABELS: ReportLabels = {
  title: "GİB's verdict",
  rules: 'GİB rules {0}',
  noRules: 'No GİB rules (XSD only)',
  summary: '{0} documents checked, {1} with errors, {2} errors in all.',
  clean: 'No findings.',
  skipped: 'Not UBL-TR documents (not checked)',
  cancelled: 'Cancelled: the files below were checked before it.',
  columns: { file: 'File', line: 'Line', column: 'Column', severity: 'Severity', source: 'Source', rule: 'Rule', message: 'Message' },
};

const fill = (s: string, ...args: (string | number)[]): string => s.replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)]));
/** The rule a finding names: GİB's abstract rule for Schematron findings (GİB's asserts have no ids). */
const ruleOf = (f: GibFinding): string => f.rule ?? (f.kind === 'xsd' ? 'XSD' : '');

export function reportMarkdown(v: FolderVerdict, labels: ReportLabels = ENGLISH_LABELS, when = new Date()): string {
  const errors = v.files.reduce((n, f) => n + f.findings.filter((x) => x.severity === 'error').length, 0);
  const withErrors = v.files.filter((f) => f.findings.some((x) => x.severity === 'error')).length;
  const lines = [
    `# ${escapeMarkdown(labels.title)}: ${escapeMarkdown(path.basename(v.folder))}`,
    '',
    `${escapeMarkdown(v.release ? fill(labels.rules, v.release) : labels.noRules)} · ${when.toISOString().slice(0, 10)}`,
    '',
    escapeMarkdown(fill(labels.summary, v.files.length, withErrors, errors)),
  ];
  if (v.cancelled) lines.push('', `**${escapeMarkdown(labels.cancelled)}**`);
  const c = labels.columns;
  for (const f of v.files) {
    lines.push('', `## ${escapeMarkdown(f.file)} (${escapeMarkdown(f.documentType)})`, '');
    if (!f.findings.length) {
      lines.push(escapeMarkdown(labels.clean));
      continue;
    }
    lines.push(`| ${c.line} | ${c.severity} | ${c.source} | ${c.rule} | ${c.message} |`, '|---:|---|---|---|---|');
    for (const x of f.findings) {
      lines.push(`| ${x.line} | ${x.severity} | ${escapeMarkdown(x.source)} | ${escapeMarkdown(ruleOf(x))} | ${escapeMarkdown(x.message).replace(/\n/g, ' ')} |`);
    }
  }
  if (v.skipped.length) lines.push('', `## ${escapeMarkdown(labels.skipped)}`, '', ...v.skipped.map((s) => `- ${escapeMarkdown(s)}`));
  return lines.join('\n') + '\n';
}

export function reportCsv(v: FolderVerdict, labels: ReportLabels = ENGLISH_LABELS, delimiter: CsvDelimiter = ','): string {
  const c = labels.columns;
  const rows: string[][] = [[c.file, c.line, c.column, c.severity, c.source, c.rule, c.message]];
  for (const f of v.files) for (const x of f.findings) rows.push([f.file, String(x.line), String(x.column), x.severity, x.source, ruleOf(x), x.message]);
  return writeCsv(rows, { delimiter, bom: true, guardFormulas: true });
}
