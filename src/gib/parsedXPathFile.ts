// The parsed XPath cache on disk (gib-rules/parsed-xpath.json), read when the worker starts and written
// by it after a check's findings are posted. Keyed by the rules' release, fontoxpath's version and this
// format: a file of another key, or one that does not read, is ignored and replaced by the next write.
// Written whole, so two windows writing at once leave one complete file. Plain Node.

import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { version as FONTOXPATH_VERSION } from 'fontoxpath/package.json';
import { writeFileAtomic } from '../files/atomicFile';
import { GIB_PARSED_XPATH_FILE, GIB_RULES_FOLDER } from './ruleStoreLayout';
import type { ParsedXPath, StoredNode } from './parsedXPath';

/** Changes when what is stored (parsedXPath.ts's StoredNode) changes. */
export const PARSED_XPATH_FORMAT = 1;

interface StoredCache {
  key: string;
  entries: Record<string, StoredNode>;
}

export function parsedXPathFile(storageRoot: string): string {
  return path.join(storageRoot, GIB_RULES_FOLDER, GIB_PARSED_XPATH_FILE);
}

export function parsedXPathKey(release: string): string {
  return `${release} fontoxpath ${FONTOXPATH_VERSION} format ${PARSED_XPATH_FORMAT}`;
}

/** The stored entries for this release (empty when there is no file, another key, or a damaged file). */
export async function readParsedXPath(storageRoot: string, release: string): Promise<Map<string, StoredNode>> {
  try {
    const stored = JSON.parse(await readFile(parsedXPathFile(storageRoot), 'utf8')) as StoredCache;
    if (stored?.key !== parsedXPathKey(release) || typeof stored.entries !== 'object' || stored.entries === null) return new Map();
    return new Map(Object.entries(stored.entries).filter(([, node]) => Array.isArray(node)));
  } catch {
    return new Map();
  }
}

/**
 * Writes the cache when the checks since the last write parsed something from text: what is stored
 * (another window's additions of the same key included) and this worker's. Never throws: the cache
 * only saves time.
 */
export async function writeParsedXPath(storageRoot: string, release: string, xpath: ParsedXPath): Promise<boolean> {
  if (!xpath.hasNew) return false;
  try {
    const entries = new Map([...(await readParsedXPath(storageRoot, release)), ...xpath.entries()]);
    const stored: StoredCache = { key: parsedXPathKey(release), entries: Object.fromEntries(entries) };
    await writeFileAtomic(parsedXPathFile(storageRoot), JSON.stringify(stored));
    return true;
  } catch {
    return false;
  }
}
