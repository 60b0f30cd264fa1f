// Caps on what a server may send: a body is counted as it streams in and dropped past its cap, so a
// hostile or broken server cannot fill the extension host's memory (150 MB of JSON read whole killed
// a 1 GB heap) or the disk.

import { formatByteSize } from '../domain/byteSize';
import { NilveraApiError } from './errors';
import type { FetchResponseLike } from './http';

/** A JSON or text answer. The largest real ones (a page of 100 customers, a bulk look-up) are well under 1 MB. */
export const MAX_JSON_BODY_BYTES = 64 * 1024 * 1024;
/** An error answer: only its messages are read, the first 500 characters of plain text shown. */
export const MAX_ERROR_BODY_BYTES = 1024 * 1024;
/**
 * The registry list's ZIP. The real list is a ZIP of about 50–130 MB (1.5 M taxpayers; see
 * domain-and-numbers.md); eight times the upper estimate leaves room for years of growth.
 */
export const MAX_REGISTRY_ZIP_BYTES = 1024 * 1024 * 1024;

/** The caps a client applies; tests lower them to stay small. */
export interface BodyLimits {
  jsonBytes?: number;
  registryZipBytes?: number;
}

/** The 'tooLarge' error: the cap, written out, is the detail the user's message shows. */
export function tooLargeError(operation: string, limit: number, status: number | undefined, seen: string): NilveraApiError {
  const cap = formatByteSize(limit);
  return new NilveraApiError({
    kind: 'tooLarge',
    operation,
    ...(status !== undefined ? { status } : {}),
    messages: [{ description: `the answer is larger than ${cap} (${seen}); reading stopped`, detail: cap }],
  });
}

/** A Content-Length header as a number, or undefined when absent or not a plain count. */
export function declaredLength(header: string | null): number | undefined {
  return header !== null && /^\s*\d+\s*$/.test(header) ? Number(header) : undefined;
}

/** One decoder for every body: without `stream: true`, each decode starts afresh. */
const utf8 = new TextDecoder();

/**
 * Reads a body as UTF-8 text, at most `limit` bytes: a declared length past it is refused before
 * reading, and the count stops the download (the stream is closed) the moment it passes the cap.
 * `onTooLarge` builds the error thrown.
 */
export async function readTextCapped(response: Omit<FetchResponseLike, 'status'>, limit: number, onTooLarge: (seen: string) => Error): Promise<string> {
  const declared = declaredLength(response.headers.get('content-length'));
  if (declared !== undefined && declared > limit) {
    closeBody(response.body);
    throw onTooLarge(`${formatByteSize(declared)} announced`);
  }
  if (!response.body) {
    const text = await response.text();
    if (Buffer.byteLength(text) > limit) throw onTooLarge('more was sent');
    return text;
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    // Leaving the loop closes the stream, and with it the connection.
    if (bytes > limit) throw onTooLarge('more was sent');
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  // TextDecoder drops a UTF-8 byte order mark, as fetch's text() does.
  return utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, bytes));
}

/** Stops a body that will not be read. */
export function closeBody(body: AsyncIterable<Uint8Array> | null): void {
  if (!body) return;
  const stream = body as AsyncIterable<Uint8Array> & { destroy?: () => void };
  if (typeof stream.destroy === 'function') stream.destroy();
  else void body[Symbol.asyncIterator]().return?.();
}
