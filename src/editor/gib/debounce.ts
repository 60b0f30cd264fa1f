// How long the editor waits after the last edit before sending a UBL-TR document to GİB's rules again:
// in a module of its own so the benchmark (plain Node) reads the figure the editor uses.

/** Quiet time after the last edit before a document is sent to GİB's rules again. */
export const GIB_DEBOUNCE_MS = 300;
