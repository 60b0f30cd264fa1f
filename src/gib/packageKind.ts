// Which of GİB's two packages a file or folder is, read from the names it holds (a ZIP's directory,
// a folder's tree), without reading the files: so a command can tell "this is the XSD package, not the
// rules" or "this is not a ZIP" before anything is installed, and a user can pick both archives in any
// order. Plain Node, no vscode.

import { stat } from 'node:fs/promises';
import { ZipArchive } from '../domain/zip';
import { filesUnder } from './folderFiles';
import { isEntry } from './rulesSource';
import { wantRuleFile, wantSchemaFile } from './ruleStoreLayout';
import { XSD_DOCUMENT_TYPES } from './xsd';

export const RULES_ENTRY = 'schematron/UBL-TR_Main_Schematron.xml';
export const HISTORY_ENTRY = 'schematron/History.txt';
export const SCHEMA_ENTRY = (type: string): string => `xsdrt/maindoc/UBL-${type}-2.1.xsd`;

export interface GibSourceContents {
  /** Why nothing could be listed: it is not there, or it is a file that is not a readable ZIP. */
  readonly unreadable?: 'missing' | 'notZip';
  /** The ZIP reader's own words when it is not a readable ZIP (for the log). */
  readonly detail?: string;
  /** GİB's Schematron (e-FaturaPaketi). */
  readonly rules: boolean;
  /** History.txt naming the release (e-FaturaPaketi). */
  readonly history: boolean;
  /** The XSD of every document type (UBL-TR1.2.1_Paketi); `missingSchema` names the first one absent. */
  readonly schemas: boolean;
  readonly missingSchema?: string;
}

const endsWith = (names: readonly string[], suffix: string): boolean => names.some((n) => isEntry(n, suffix));

/**
 * What `source` (a ZIP or a folder) holds of GİB's packages. `verify`: also inflate the entries the
 * store will read (ruleStore.ts) and match their CRC-32, so a ZIP whose data is damaged counts as not readable.
 */
export async function inspectGibSource(source: string, options: { verify?: boolean } = {}): Promise<GibSourceContents> {
  const info = await stat(source).catch(() => undefined);
  const none = { rules: false, history: false, schemas: false };
  if (!info) return { ...none, unreadable: 'missing' };
  let names: string[];
  if (info.isDirectory()) {
    names = await filesUnder(source, { maxDepth: 6, limit: MAX_FOLDER_NAMES });
  } else {
    try {
      const zip = await ZipArchive.open(source);
      try {
        names = zip.files().map((e) => e.name);
        if (options.verify) for (const entry of zip.files()) if (wantRuleFile(entry.name) || wantSchemaFile(entry.name)) await zip.check(entry);
      } finally {
        await zip.close();
      }
    } catch (e) {
      return { ...none, unreadable: 'notZip', detail: (e as Error)?.message ?? String(e) };
    }
  }
  const missingSchema = XSD_DOCUMENT_TYPES.map(SCHEMA_ENTRY).find((entry) => !endsWith(names, entry));
  return { rules: endsWith(names, RULES_ENTRY), history: endsWith(names, HISTORY_ENTRY), schemas: !missingSchema, ...(missingSchema ? { missingSchema } : {}) };
}

/** GİB's packages hold a few hundred files: a folder chosen by mistake (a home folder) is not walked whole. */
const MAX_FOLDER_NAMES = 20_000;
