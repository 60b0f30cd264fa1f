// The offline registry index: build from a downloaded registry ZIP, then look taxpayers up by tax
// number or title words without the network.

export { buildIndex, buildIndexFromZip, IndexBuildCancelledError } from './builder';
export { currentIndexFolder, indexStorageDir, reindexRequest, requestReindex } from './listStorage';
export { downloadAndIndex, IndexDeferredError } from './streamingIndex';
export type { DownloadedIndex, DownloadIndexOptions, ZipDownload } from './streamingIndex';
export { RegistryIndexReader, readIndexMeta } from './reader';
export { foldTurkish, foldedWords } from './fold';
export { INDEX_FORMAT, RegistryIndexError } from './format';
