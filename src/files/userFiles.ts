// Files written for the user to open (exports, an import's rejected rows): whole or not at all (AtomicFile),
// and nothing lost when the chosen file is held open (Excel holds every file it shows): after a brief wait
// the finished file is saved beside it as the next free "name (2).csv", and the caller says so. Plain
// Node: the commands and the tests use it alike.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AtomicFile, sweepTempFiles } from './atomicFile';
import { FileLockedError, type RetryOptions } from './lockedFiles';

/** Temporary files of writers that died are swept from the folder of the next file saved there. */
const ABANDONED_TEMP_MS = 24 * 3600_000;

export interface SavedFile {
  /** Where the file is now. */
  path: string;
  /** The file the user chose, when another program held it and the file was saved as `path` instead. */
  heldTarget?: string;
}

export interface SaveOptions extends RetryOptions {
  /** Called once every row is written, before the (possibly waiting) rename. */
  onCommit?: () => void;
}

/** The first `name (n).ext` beside `target` that does not exist yet: `customers.csv` → `customers (2).csv`. */
export async function freeNumberedName(target: string): Promise<string | undefined> {
  const ext = path.extname(target);
  for (let n = 2; n < 100; n++) {
    const candidate = path.join(path.dirname(target), `${path.basename(target, ext)} (${n})${ext}`);
    if (!(await fs.promises.stat(candidate).then(() => true, () => false))) return candidate;
  }
  return undefined;
}

/**
 * Writes a file through `write` and puts it in place of `target`. When `write` throws (a cancel, a
 * failed request, a full disk), the temporary file is removed and the error passes on: `target` is as it
 * was. When `target` stays held through the retries, the file is saved under a numbered name beside it
 * (SavedFile.heldTarget tells); only if that fails too does the FileLockedError pass on.
 */
export async function saveUserFile(target: string, write: (file: AtomicFile) => Promise<void>, options: SaveOptions = {}): Promise<SavedFile> {
  await sweepTempFiles(path.dirname(target), ABANDONED_TEMP_MS).catch(() => undefined);
  const file = await AtomicFile.create(target);
  try {
    await write(file);
    options.signal?.throwIfAborted();
    options.onCommit?.();
    try {
      return { path: await file.commit(target, options) };
    } catch (error) {
      if (!(error instanceof FileLockedError) || error.path !== target) throw error;
      const other = await freeNumberedName(target);
      if (!other) throw error;
      await file.commit(other, { totalMs: 0 }).catch(() => {
        throw error;
      });
      return { path: other, heldTarget: target };
    }
  } finally {
    // Nothing to undo after a commit; otherwise the temporary file goes.
    await file.abort();
  }
}

export type SpreadsheetFormat = 'xlsx' | 'csv';

/** A workbook when the chosen name ends in .xlsx, else CSV (as every export was before workbooks). */
export function spreadsheetFormatOf(file: string): SpreadsheetFormat {
  return /\.xlsx$/i.test(file) ? 'xlsx' : 'csv';
}

/**
 * What a save dialog for a list offers: both forms, the default first and in the suggested name. A
 * workbook is the default where VS Code's display language is Turkish (Turkish Excel opens a CSV as one
 * column unless its separator matches the regional settings; a workbook has no separator), CSV elsewhere.
 */
export function spreadsheetSaveChoice(displayLanguage: string, baseName: string, labels: { xlsx: string; csv: string }): { filters: Record<string, string[]>; defaultName: string; format: SpreadsheetFormat } {
  const format: SpreadsheetFormat = /^tr\b/i.test(displayLanguage) ? 'xlsx' : 'csv';
  const xlsx: [string, string[]] = [labels.xlsx, ['xlsx']];
  const csv: [string, string[]] = [labels.csv, ['csv']];
  return { filters: Object.fromEntries(format === 'xlsx' ? [xlsx, csv] : [csv, xlsx]), defaultName: `${baseName}.${format}`, format };
}
