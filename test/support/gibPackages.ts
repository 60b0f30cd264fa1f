// GİB's two archives, byte for byte, for the GİB rule tests and benchmarks: read from the shared
// data folder (../shared/data/gib beside the repository, or NILVERA_GIB_DATA), never copied into the
// repository (they carry no licence). Tests skip, saying why, where the archives are not there.

import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { ZipArchive } from '../../src/domain/zip';
import { loadGibEngine, type GibEngine, type GibEngineSources } from '../../src/gib/engine';

export const RULES_ZIP_NAME = 'e-FaturaPaketi.zip';
export const SCHEMAS_ZIP_NAME = 'UBL-TR1.2.1_Paketi.zip';

/** The folder holding GİB's archives, or undefined. */
export function gibDataDir(): string | undefined {
  const fromEnv = process.env.NILVERA_GIB_DATA;
  if (fromEnv && existsSync(path.join(fromEnv, RULES_ZIP_NAME))) return fromEnv;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'data', 'gib');
    if (existsSync(path.join(candidate, RULES_ZIP_NAME)) && existsSync(path.join(candidate, SCHEMAS_ZIP_NAME))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export const NO_GIB_DATA = `GİB's archives (${RULES_ZIP_NAME}, ${SCHEMAS_ZIP_NAME}) are not in ../shared/data/gib (or NILVERA_GIB_DATA)`;

export function gibArchives(): { rules: string; schemas: string } | undefined {
  const dir = gibDataDir();
  return dir ? { rules: path.join(dir, RULES_ZIP_NAME), schemas: path.join(dir, SCHEMAS_ZIP_NAME) } : undefined;
}

const engines = new Map<string, Promise<GibEngine>>();
/** One engine per set of options for a test process (the XSD compiles once). */
export function sharedGibEngine(options: Omit<GibEngineSources, 'rules' | 'schemas'> & { rulesOnly?: boolean } = {}): Promise<GibEngine> | undefined {
  const archives = gibArchives();
  if (!archives) return undefined;
  const key = JSON.stringify({ ...options, chooseType: options.chooseType?.toString() });
  let e = engines.get(key);
  if (!e) {
    e = loadGibEngine({ rules: archives.rules, schemas: options.rulesOnly ? undefined : archives.schemas, ...options });
    engines.set(key, e);
  }
  return e;
}

export interface GibSample {
  /** archive/path inside it */
  readonly name: string;
  readonly text: string;
}

/** GİB's sample documents: UBL-TR1.2.1_Paketi's xml/*.xml (43) and e-FaturaPaketi's xml/*.xml. */
export async function gibSamples(): Promise<GibSample[]> {
  const archives = gibArchives();
  if (!archives) return [];
  const out: GibSample[] = [];
  for (const zipPath of [archives.schemas, archives.rules]) {
    const zip = await ZipArchive.open(zipPath);
    try {
      for (const entry of zip.files()) {
        if (!/(^|\/)xml\/[^/]+\.xml$/i.test(entry.name)) continue;
        const chunks: Buffer[] = [];
        for await (const c of await zip.open(entry)) chunks.push(c as Buffer);
        out.push({ name: `${path.basename(zipPath)}/${entry.name}`, text: Buffer.concat(chunks).toString('utf8') });
      }
    } finally {
      await zip.close();
    }
  }
  return out;
}
