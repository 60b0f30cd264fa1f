// GİB's rules on the user's computer, in the extension's global storage, shared by every window (file
// names: ruleStoreLayout.ts). One package file holds the files the engine needs from GİB's two archives,
// their release and source, and the Schematron as read at install (the worker's start skips parsing GİB's
// XML); it is written whole under an install lock, so a reader sees one package and two windows do not
// both replace it. The archives are not kept (GİB's files carry no licence to redistribute). Plain Node.
// The extension host imports this module for the installed release; what reads GİB's archives is
// imported only by an install.

import { mkdir, readFile, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { writeFileAtomic } from '../files/atomicFile';
import { withFileLock } from '../files/fileLock';
import type { GibFileSet } from './rulesSource';
import type { SchematronRules } from './schematron';
import { GIB_PACKAGE_FILE as PACKAGE_FILE, GIB_PARSED_XPATH_FILE, GIB_RULES_FOLDER, wantRuleFile, wantSchemaFile } from './ruleStoreLayout';

export { GIB_RULES_FOLDER };
const LOCK_FILE = 'install.lock';
const FORMAT = 1;

export interface InstalledGibPackage {
  readonly release: string;
  /** Where the files came from (an address or a path), for "Check for newer rules" and messages. */
  readonly source: { readonly rules: string; readonly schemas: string };
  readonly installedAt: string;
  readonly rules: GibFileSet;
  readonly schemas: GibFileSet;
  /**
   * The Schematron as this version's reader read it at install; undefined when the package was
   * installed by a version whose reader differs (or had none stored): then it is read from `rules`.
   */
  readonly schematron?: SchematronRules;
}

/**
 * Format 1 throughout: `schematron` and `schematronReader` sit beside the files (a reader that does
 * not know them ignores them), so windows on an older and a newer version read each other's package.
 */
interface StoredPackage {
  format: number;
  release: string;
  source: { rules: string; schemas: string };
  installedAt: string;
  rules: Record<string, string>;
  schemas: Record<string, string>;
  /** SCHEMATRON_READER of the version that read it; the stored reading is used only by the same reader. */
  schematronReader?: number;
  schematron?: SchematronRules;
}

/**
 * Reads GİB's two archives (or folders) and checks them as the engine will use them: the Schematron
 * reads (its includes and extends resolve), History.txt names a release, and the XSD of every document
 * type is there. Throws GibSourceError with what is wrong.
 */
export async function readGibPackage(rulesSource: string, schemasSource: string): Promise<{ release: string; rules: GibFileSet; schemas: GibFileSet; schematron: SchematronRules }> {
  const [{ readGibFiles, GibSourceError }, { readSchematron, releaseOf }, { XSD_DOCUMENT_TYPES }] = await Promise.all([import('./rulesSource'), import('./schematron'), import('./xsd')]);
  const [rules, schemas] = await Promise.all([readGibFiles(rulesSource, wantRuleFile), readGibFiles(schemasSource, wantSchemaFile)]);
  const schematron = readSchematron(rules);
  const release = releaseOf(rules);
  if (!release) throw new GibSourceError(`${rulesSource} has no schematron/History.txt naming its release (is it GİB's e-FaturaPaketi?)`);
  for (const type of XSD_DOCUMENT_TYPES) {
    if (![...schemas.files.keys()].some((n) => n.endsWith(`maindoc/UBL-${type}-2.1.xsd`))) {
      throw new GibSourceError(`${schemasSource} has no xsdrt/maindoc/UBL-${type}-2.1.xsd (is it GİB's UBL-TR1.2.1_Paketi?)`);
    }
  }
  return { release, rules, schemas, schematron };
}

/** Installs GİB's archives or folders into `storageRoot/gib-rules` (whole, under the install lock); returns the release. */
export async function installGibPackage(storageRoot: string, rulesSource: string, schemasSource: string, origin: { rules: string; schemas: string } = { rules: rulesSource, schemas: schemasSource }): Promise<string> {
  const read = await readGibPackage(rulesSource, schemasSource);
  const { SCHEMATRON_READER } = await import('./schematron');
  const dir = path.join(storageRoot, GIB_RULES_FOLDER);
  const stored: StoredPackage = {
    format: FORMAT,
    release: read.release,
    source: origin,
    installedAt: new Date().toISOString(),
    rules: encode(read.rules),
    schemas: encode(read.schemas),
    schematronReader: SCHEMATRON_READER,
    schematron: read.schematron,
  };
  await mkdir(dir, { recursive: true });
  await withFileLock(path.join(dir, LOCK_FILE), async () => {
    await writeFileAtomic(path.join(dir, PACKAGE_FILE), JSON.stringify(stored));
    // The previous release's parsed expressions: its key no longer matches (parsedXPathFile.ts), so unused; gone.
    await rm(path.join(dir, GIB_PARSED_XPATH_FILE), { force: true }).catch(() => undefined);
  });
  return read.release;
}

/**
 * The installed package, or undefined when none is (or what is there is not a package this version reads).
 * `schematronReader` is schematron.ts's SCHEMATRON_READER, passed by the worker (which has the reader
 * in its bundle anyway): the stored reading is returned only when it was made by that reader.
 */
export async function loadGibPackage(storageRoot: string, schematronReader?: number): Promise<InstalledGibPackage | undefined> {
  const file = path.join(storageRoot, GIB_RULES_FOLDER, PACKAGE_FILE);
  let stored: StoredPackage;
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as StoredPackage;
  } catch {
    return undefined;
  }
  if (stored?.format !== FORMAT || typeof stored.release !== 'string') return undefined;
  return {
    release: stored.release,
    source: stored.source,
    installedAt: stored.installedAt,
    rules: decode(`${file} (rules)`, stored.rules),
    schemas: decode(`${file} (schemas)`, stored.schemas),
    ...(schematronReader !== undefined && stored.schematronReader === schematronReader && Array.isArray(stored.schematron?.patterns) ? { schematron: stored.schematron } : {}),
  };
}

/** Just the installed release (reads the whole file: it is about 2 MB). */
export async function installedGibRelease(storageRoot: string): Promise<string | undefined> {
  return (await loadGibPackage(storageRoot))?.release;
}

function encode(set: GibFileSet): Record<string, string> {
  return Object.fromEntries([...set.files].map(([name, content]) => [name, content.toString('base64')]));
}

function decode(origin: string, files: Record<string, string>): GibFileSet {
  return { origin, files: new Map(Object.entries(files ?? {}).map(([name, b64]) => [name, Buffer.from(b64, 'base64')])) };
}
