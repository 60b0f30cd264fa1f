// How long the editor waits after the last edit before sending a UBL-TR document to GİB's rules again:
// in a module of its own so the benchmark (plain Node) reads the figure the editor uses.
//
// 200 ms (it was 300): a check no longer holds the worker once it is stale. The worker checks one text
// at a time; a document's waiting text is replaced by its newer one, and the text being checked is
// stopped between the check's steps as soon as a newer text of the same document is sent
// (src/gib/workerClient.ts, checkStop.ts). So typing with pauses just over the debounce starts at most
// one check per document, each stopped by the next, and the last edit's check never waits behind a
// stale one; a 600 KB invoice's check takes ~150 ms, less than the debounce, so one started in a pause
// has usually ended before the next is sent.

/** Quiet time after the last edit before a document is sent to GİB's rules again. */
export const GIB_DEBOUNCE_MS = 200;
