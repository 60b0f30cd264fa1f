// An index built from a registry ZIP file already on disk (after a download, or to upgrade an index
// of an older format).
import * as path from 'node:path';
import { iterateRegistryZipBatches, type RegistryZipOptions } from '../domain/registryZip';
import { buildIndex, type BuildOptions, type IndexSource } from './builder';
import type { IndexMeta } from './format';

/** Streams the taxpayers out of a registry ZIP file into a new index that replaces the current one. */
export async function buildIndexFromZip(
  zipPath: string,
  storageDir: string,
  source: IndexSource,
  options: BuildOptions & RegistryZipOptions = {},
): Promise<IndexMeta> {
  return buildIndex(storageDir, iterateRegistryZipBatches(zipPath, { maxEntryBytes: options.maxEntryBytes }), { zipPath: path.resolve(zipPath), ...source }, options);
}
