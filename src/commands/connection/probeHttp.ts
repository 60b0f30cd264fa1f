// One raw, read-only HTTP exchange for Check Connection: status, time, content type and the first
// bytes of the answer, whatever the status (the API client would turn a 404 into an error and
// retry a 503; the check wants to see exactly what the server said, once). Plain Node, no `vscode`.
import { buildQuery, type QueryValue } from '../../api/paths';
import { loadNodeFetch, type FetchLike } from '../../api/http';

export interface ProbeTarget {
  /** Host root without /general. */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** A fetch to use instead of node-fetch (tests record the exchanges with it). */
  fetch?: FetchLike;
  /** Told about every exchange: method, the path *template* (no tax numbers or IDs), status, time. */
  log?: (method: string, pathTemplate: string, status: number | undefined, ms: number) => void;
}

export interface ProbeRequest {
  method: 'GET' | 'POST';
  /** The encoded path sent, from the host root. */
  path: string;
  /** The path as the report and the log show it, e.g. `/general/Customers/{ID}`. */
  template: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** A POST is sent only when it is a look-up that changes nothing (the bulk registry look-up). */
  readOnlyPost?: true;
  /** Another key than the target's (the wrong-key probe's generated fake). */
  key?: string;
  /** Stop reading (and abort) after this many bytes; default 256 KB. */
  maxBytes?: number;
  headers?: Record<string, string>;
}

export type ProbeBody =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'binary'; head: Uint8Array };

export interface ProbeAnswer {
  /** Undefined when no answer came (network failure, time limit). */
  status?: number;
  ms: number;
  contentType?: string;
  /** Bytes read (at most maxBytes). */
  bytes: number;
  /** Reading stopped at maxBytes: the answer is longer. */
  truncated: boolean;
  body: ProbeBody;
  /** Why no answer came: a short reason (an error code), never a URL. */
  failure?: string;
}

const DEFAULT_MAX_BYTES = 256 * 1024;

/** Thrown when the caller's signal fired: the check was cancelled. */
export class ProbeCancelledError extends Error {
  constructor() {
    super('Check Connection was cancelled');
    this.name = 'AbortError';
  }
}

function failureReason(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown }; type?: unknown };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return typeof e?.type === 'string' ? e.type : 'connection failed';
}

function looksBinary(bytes: Uint8Array, contentType: string | undefined): boolean {
  if (contentType && /zip|octet-stream/i.test(contentType)) return true;
  const n = Math.min(bytes.length, 512);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return bytes.length >= 2 && bytes[0] === 0x50 && bytes[1] === 0x4b; // "PK": a ZIP
}

function parseBody(bytes: Uint8Array, truncated: boolean, contentType: string | undefined): ProbeBody {
  if (bytes.length === 0) return { kind: 'empty' };
  if (looksBinary(bytes, contentType)) return { kind: 'binary', head: bytes.slice(0, 64) };
  const text = Buffer.from(bytes).toString('utf8');
  if (text.trim() === '') return { kind: 'empty' };
  if (!truncated) {
    try {
      return { kind: 'json', value: JSON.parse(text) };
    } catch {
      // Not JSON: kept as text (its shape in the report is its type and length, never the text).
    }
  }
  return { kind: 'text', text };
}

/** Sends one read-only request and reads at most maxBytes of the answer. */
export async function sendProbe(target: ProbeTarget, request: ProbeRequest, signal: AbortSignal): Promise<ProbeAnswer> {
  if (request.method !== 'GET' && !(request.method === 'POST' && request.readOnlyPost)) {
    throw new Error(`Check Connection sends only read-only requests, not ${request.method} ${request.template}`);
  }
  if (signal.aborted) throw new ProbeCancelledError();
  const fetchFn = target.fetch ?? (await loadNodeFetch());
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, target.timeoutMs);
  const started = performance.now();
  const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
  const headers: Record<string, string> = { Authorization: `Bearer ${request.key ?? target.apiKey}`, Accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['Content-Type'] = 'application/json';
  }
  let status: number | undefined;
  let contentType: string | undefined;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let truncated = false;
  let failure: string | undefined;
  try {
    const response = await fetchFn(target.baseUrl.replace(/\/+$/, '') + request.path + buildQuery(request.query), {
      method: request.method,
      headers,
      body,
      signal: controller.signal,
    });
    status = response.status;
    contentType = response.headers.get('content-type') ?? undefined;
    if (response.body) {
      for await (const chunk of response.body) {
        const room = maxBytes - bytes;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        bytes += Math.min(chunk.length, room);
        if (chunk.length >= room) {
          // Enough seen: stop the download (the registry list is megabytes).
          truncated = true;
          controller.abort();
          break;
        }
      }
    }
  } catch (err) {
    if (signal.aborted) throw new ProbeCancelledError();
    if (!truncated) failure = timedOut ? 'timeout' : failureReason(err);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
  const ms = Math.round(performance.now() - started);
  try {
    target.log?.(request.method, request.template, status, ms);
  } catch {
    // A failing logger must not fail the check.
  }
  const all = Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
  return {
    ...(status !== undefined ? { status } : {}),
    ms,
    ...(contentType ? { contentType } : {}),
    bytes,
    truncated,
    body: parseBody(all, truncated, contentType),
    ...(failure ? { failure } : {}),
  };
}
