// Which encoding a customer file is in, asked only when its bytes cannot tell (src/domain/textDecoding.ts):
// a Windows-1254 and a Mac Turkish file both look like Turkish when their only non-ASCII letters read as
// letters either way. The user sees a few names decoded each way and picks the one that reads right.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { namePreview } from '../../domain/customerImport';
import { readHead } from '../../files/fileHead';
import { detectEncoding, type SourceEncoding } from '../../domain/textDecoding';
import { prompts, UserCancelledError } from '../../shell/prompts';

/** How much of the file the detection and the preview read. */
const SAMPLE_BYTES = 256 * 1024;

export function encodingLabel(encoding: SourceEncoding): string {
  const labels: Record<SourceEncoding, string> = {
    'utf-8': 'UTF-8',
    'utf-16le': 'UTF-16 LE',
    'utf-16be': 'UTF-16 BE',
    'windows-1254': vscode.l10n.t('Windows-1254 (Turkish, Excel for Windows)'),
    'x-mac-turkish': vscode.l10n.t('Mac Turkish (Excel for Mac)'),
  };
  return labels[encoding];
}

/** The encoding to read `file` in: from its bytes, or the user's choice when they cannot tell. */
export async function chooseImportEncoding(file: string): Promise<SourceEncoding> {
  const sample = await readHead(file, SAMPLE_BYTES);
  const complete = sample.length < SAMPLE_BYTES;
  const guess = detectEncoding(sample, complete);
  if (guess.certain) return guess.encoding;
  const items = guess.candidates.map((encoding) => ({
    label: encodingLabel(encoding),
    detail: namePreview(sample, encoding, complete).join('  ·  ') || vscode.l10n.t('(no names to show)'),
    encoding,
  }));
  const picked = await prompts.quickPick(items, {
    title: vscode.l10n.t('Which encoding is {0} in? (It is not UTF-8.)', path.basename(file)),
    placeHolder: vscode.l10n.t('Pick the one whose names read right'),
    ignoreFocusOut: true,
  });
  if (!picked) throw new UserCancelledError();
  return picked.encoding;
}
