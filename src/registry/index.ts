// The offline registry index: build from a downloaded registry ZIP, then look taxpayers up by tax
// number or title words without the network.

import * as path from 'node:path';
import { iterateRegistryZipBatches, type RegistryZipOptions } from '../domain/registryZip';
import { buildIndex, type BuildOptions, type IndexSource } from './builder';
import type { IndexMeta } from './format';

export { buildIndex, IndexBuildCancelledError, installIndex } from './builder';
export { downloadAndIndex } from './streamingIndex';
export type { DownloadedIndex, DownloadIndexOptions, ZipDownload } from './streamingIndex';
export type { BuildOptions, IndexSource } from './builder';
export { RegistryIndexReader, currentIndexFolder, readIndexMeta } from './reader';
export type { WordSearchResult } from './reader';
export { foldTurkish, foldedWords } from './fold';
export { INDEX_FORMAT, RegistryIndexError } from './format';
export type { IndexMeta } from './format';

/** The folder holding the indexes of one list kind (PK/GB × Invoice/DespatchAdvice). */
export function indexStorageDir(root: string, aliasType: string, userType: string): string {
  return path.join(root, `${aliasType}-${userType}`);
}

/** Streams the taxpayers out of a registry ZIP file into a new index that replaces the current one. */
export async function buildIndexFromZip(
  zipPath: string,
  storageDir: string,
  source: IndexSource,
  options: BuildOptions & RegistryZipOptions = {},
): Promise<IndexMeta> {
  return buildIndex(storageDir, iterateRegistryZipBatches(zipPath, { maxEntryBytes: options.maxEntryBytes }), { zipPath: path.resolve(zipPath), ...source }, options);
}
