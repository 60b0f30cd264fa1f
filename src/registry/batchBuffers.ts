// The buffers encoded batches travel in (listEncoder.ts → the index worker → back here), reused
// rather than allocated for each of the ~730 batches of a full list (about 0.5 MB each): buffers that
// only a full collection frees were what raised the peak RSS of the streamed build (see
// ListEncoder.readAheadBytes). This pool was not measured apart from the other changes made with it.
const spare: ArrayBuffer[] = [];
/** More than the batches in flight (indexSink.ts's BATCHES_AHEAD) plus the one being written. */
const MAX_SPARE = 8;
const MIN_BYTES = 1 << 19;

/** A buffer of at least `bytes`: a spare one if one is large enough. */
export function batchBuffer(bytes: number): ArrayBuffer {
  for (let i = 0; i < spare.length; i++) if (spare[i].byteLength >= bytes) return spare.splice(i, 1)[0];
  // Room to spare, so the next batches (a little longer, perhaps) fit too.
  return new ArrayBuffer(Math.max(MIN_BYTES, Math.ceil(bytes * 1.25)));
}

/** A batch's buffer is free again (its batch was written). */
export function recycleBatchBuffer(buffer: ArrayBuffer): void {
  if (spare.length < MAX_SPARE && buffer.byteLength > 0) spare.push(buffer);
}

/** Lets the spare buffers go (a build is over). */
export function releaseBatchBuffers(): void {
  spare.length = 0;
}
