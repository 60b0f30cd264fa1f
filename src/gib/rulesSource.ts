// Where GİB's files come from: its archives as published (e-FaturaPaketi.zip with the Schematron,
// UBL-TR1.2.1_Paketi.zip with the XSDs) or a folder they were unpacked into. Either way the engine
// sees the same thing: the files it needs by their names, read whole (they are small: 170 KB of
// Schematron, about 1 MB of XSD). Plain Node, no vscode.

import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { ZipArchive } from '../domain/zip';
import { filesUnder } from './folderFiles';

/** A file set as GİB ships it, keyed by the path inside the archive or folder ('/' separators). */
export interface GibFileSet {
  /** Where it was read from (for messages). */
  readonly origin: string;
  readonly files: ReadonlyMap<string, Buffer>;
}

/** The archive or folder is not one of GİB's packages: the message names what is missing. */
export class GibSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GibSourceError';
  }
}

/** Reads the files whose path passes `want` from a ZIP or from a folder (recursively, at most 6 levels). */
export async function readGibFiles(source: string, want: (name: string) => boolean): Promise<GibFileSet> {
  const info = await stat(source).catch(() => undefined);
  if (!info) throw new GibSourceError(`${source} does not exist`);
  const files = new Map<string, Buffer>();
  if (info.isDirectory()) {
    for (const name of await filesUnder(source, { maxDepth: 6 })) if (want(name)) files.set(name, await readFile(path.join(source, name)));
  } else {
    const zip = await ZipArchive.open(source);
    try {
      for (const entry of zip.files()) {
        if (want(entry.name)) files.set(entry.name, Buffer.concat(await (await zip.open(entry)).toArray()));
      }
    } finally {
      await zip.close();
    }
  }
  return { origin: source, files };
}

/** Whether a path inside a package is `suffix` or ends with `/suffix` (in any case). */
export function isEntry(name: string, suffix: string): boolean {
  const [n, s] = [name.toLowerCase(), suffix.toLowerCase()];
  return n === s || n.endsWith('/' + s);
}

/** The one file whose path ends with `/suffix` (or is `suffix`), shallowest first; undefined when there is none. */
export function findFile(set: GibFileSet, suffix: string): { name: string; content: Buffer } | undefined {
  const hits = [...set.files.keys()].filter((n) => isEntry(n, suffix)).sort((a, b) => a.split('/').length - b.split('/').length);
  return hits.length ? { name: hits[0], content: set.files.get(hits[0])! } : undefined;
}
