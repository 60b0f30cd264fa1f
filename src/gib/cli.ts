// `npm run validate -- [--json] [--include-draft] [--rules <e-FaturaPaketi.zip|folder>]
// [--schemas <UBL-TR1.2.1_Paketi.zip|folder>] <file or folder>…`: GİB's verdict outside VS Code, for
// build pipelines, with the engine the extension uses. One line per finding,
// `path:line:column: severity: message [source]`, or with --json an array of
// { file, line, column, severity, source, message }. Exit code 1 when any error is found, 2 when
// the command itself is wrong. Files that are not UBL-TR documents are skipped (named on stderr).

import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { loadGibEngine, type GibFinding } from './engine';
import { xmlFilesUnder } from './folderReport';

export interface CliOptions {
  json: boolean;
  includeDraft: boolean;
  rules?: string;
  schemas?: string;
  paths: string[];
}

export class UsageError extends Error {}

const USAGE = 'usage: npm run validate -- [--json] [--include-draft] [--rules <e-FaturaPaketi.zip or folder>] [--schemas <UBL-TR1.2.1_Paketi.zip or folder>] <file or folder>…';

export function parseArgs(argv: readonly string[]): CliOptions {
  const options: CliOptions = { json: false, includeDraft: false, paths: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') options.json = true;
    else if (a === '--include-draft') options.includeDraft = true;
    else if (a === '--rules' || a === '--schemas') {
      const value = argv[++i];
      if (!value || value.startsWith('--')) throw new UsageError(`${a} needs a ZIP or a folder`);
      options[a === '--rules' ? 'rules' : 'schemas'] = value;
    } else if (a === '--help' || a === '-h') throw new UsageError(USAGE);
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}\n${USAGE}`);
    else options.paths.push(a);
  }
  if (options.paths.length === 0) throw new UsageError(`no file or folder to validate\n${USAGE}`);
  if (!options.rules && !options.schemas) throw new UsageError(`give GİB's rules (--rules e-FaturaPaketi.zip) or schemas (--schemas UBL-TR1.2.1_Paketi.zip), or both\n${USAGE}`);
  return options;
}

/** Every .xml file under the paths (folders recursively, in name order). */
export async function xmlFilesOf(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const info = await stat(p).catch(() => undefined);
    if (!info) throw new UsageError(`${p} does not exist`);
    if (info.isDirectory()) out.push(...(await xmlFilesUnder(p)).map((file) => path.join(p, file)));
    else out.push(p);
  }
  return out;
}

export interface CliFinding {
  file: string;
  line: number;
  column: number;
  severity: GibFinding['severity'];
  source: string;
  message: string;
}

export interface CliRun {
  findings: CliFinding[];
  skipped: string[];
  release: string | undefined;
}

export async function runCli(options: CliOptions): Promise<CliRun> {
  const engine = await loadGibEngine({ rules: options.rules, schemas: options.schemas });
  const findings: CliFinding[] = [];
  const skipped: string[] = [];
  for (const file of await xmlFilesOf(options.paths)) {
    const result = await engine.validate(await readFile(file, 'utf8'));
    if (!result.documentType && !result.findings.length) {
      skipped.push(file);
      continue;
    }
    for (const f of result.findings) {
      if (f.draft && !options.includeDraft) continue;
      findings.push({ file, line: f.line, column: f.column, severity: f.severity, source: f.source, message: f.message });
    }
  }
  return { findings, skipped, release: engine.release };
}

export function formatLine(f: CliFinding): string {
  return `${f.file}:${f.line}:${f.column}: ${f.severity}: ${f.message} [${f.source}]`;
}

/** The command: parses process.argv, prints, and returns the exit code. */
export async function main(): Promise<number> {
  let options: CliOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }
  let run: CliRun;
  try {
    run = await runCli(options);
  } catch (e) {
    process.stderr.write(`validate: ${(e as Error).message}\n`);
    return 2;
  }
  for (const s of run.skipped) process.stderr.write(`${s}: skipped, not a UBL-TR document\n`);
  if (options.json) process.stdout.write(JSON.stringify(run.findings, null, 2) + '\n');
  else for (const f of run.findings) process.stdout.write(formatLine(f) + '\n');
  return run.findings.some((f) => f.severity === 'error') ? 1 : 0;
}
