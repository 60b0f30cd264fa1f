// How long the editor waits after the last edit before sending a UBL-TR document to GİB's rules again;
// a module of its own so the benchmark (plain Node) reads the figure the editor uses. Short, because a
// stale check never holds the worker: a waiting text is replaced by its newer one and the text being
// checked is stopped between steps (src/gib/workerClient.ts, checkStop.ts), so typing with pauses just
// over the debounce starts at most one check per document, and the last edit's never waits behind one.

/** Quiet time after the last edit before a document is sent to GİB's rules again. */
export const GIB_DEBOUNCE_MS = 200;
