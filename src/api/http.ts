// The HTTP layer: auth header, time limits, cancellation, retries, error mapping, logging.
// node-fetch is loaded on the first request (the build turns the dynamic import into a lazy require).

import { NilveraApiError, kindForStatus, parseErrorMessages, redactMessages, type ApiErrorKind } from './errors';
import { buildQuery, type QueryValue } from './paths';
import { MAX_ERROR_BODY_BYTES, MAX_JSON_BODY_BYTES, MAX_REGISTRY_ZIP_BYTES, readTextCapped, tooLargeError, type BodyLimits } from './bodyLimits';
import { fetchWithinOrigin, hopInit, RedirectRefusedError } from './redirects';
import { DEFAULT_RETRY, backoffDelay, isIdempotent, isRetriable, parseRetryAfter, type RetryPolicy } from './retry';
import { retrying, type RetryRule } from './retrying';

/** The part of a fetch Response the client uses; node-fetch v3 and Node's global fetch both fit. */
export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  body: AsyncIterable<Uint8Array> | null;
}

export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal; redirect?: 'manual' },
) => Promise<FetchResponseLike>;

export interface RequestLogEntry {
  method: string;
  /** Path without host and query (a query can hold a password). */
  path: string;
  status?: number;
  ms: number;
  attempt: number;
  /** Error kind and a short reason, never a header or a body. */
  error?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Time limit of the whole call, retries included (default: the client's timeoutMs). */
  timeoutMs?: number;
}

/** The client's options: base URL, key provider, timeout, retry policy, logger, fetch. */
export interface ClientOptions {
  /** Host root without /general, e.g. https://api.nilvera.com */
  baseUrl: string;
  /** Asked on every call, so a changed or removed key takes effect at once and is never kept here. */
  getApiKey: () => Promise<string | undefined>;
  /** Time limit of one call, retries included (default 30 000 ms). */
  timeoutMs?: number;
  retry?: RetryPolicy;
  logger?: { request(info: RequestLogEntry): void };
  /** A fetch to use instead of node-fetch (tests). */
  fetch?: FetchLike;
  /** Aborts every call of this client, in flight or later (the extension's per-profile generation). */
  signal?: AbortSignal;
  /** Caps on answer bodies (default: bodyLimits.ts). */
  limits?: BodyLimits;
}

export interface RequestSpec {
  /** Name used in errors, e.g. `customers.get`. */
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Already-encoded path from the host root, e.g. `/general/Customers/12`. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Serialized as JSON when present. */
  body?: unknown;
  /** Values to blank out of any server message (besides the key), e.g. a password sent in the query. */
  redact?: string[];
  /** A POST that only reads (the bulk registry look-up): as safe to repeat as a GET, so retried like one. */
  readOnly?: boolean;
  /** A GET that may be redirected to another origin, followed there without the API key (redirects.ts). */
  crossOriginGet?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * Longest path plus query sent. RFC 9110 §4.1 asks servers to take at least 8000 octets; many stop
 * there (a Turkish letter is 6 once percent-encoded), and their answer (414/431) says nothing useful.
 */
export const MAX_REQUEST_TARGET = 8000;

let nodeFetchPromise: Promise<FetchLike> | undefined;
/** node-fetch once loaded: a call then starts without waiting a turn for the load's promise. */
let nodeFetchLoaded: FetchLike | undefined;

/**
 * node-fetch, loaded on first use from dist/vendor/node-fetch.js (esbuild.js, lazyVendor). That file is
 * CommonJS: imported from the ES module build, the namespace's `default` is its exports object, which
 * holds the function as `default` again.
 */
export function loadNodeFetch(): Promise<FetchLike> {
  nodeFetchPromise ??= import('node-fetch').then((m) => {
    const exported = m.default as unknown as FetchLike | { default: FetchLike };
    return (nodeFetchLoaded = typeof exported === 'function' ? exported : exported.default);
  });
  return nodeFetchPromise;
}

/**
 * Deadline and cancellation of one call: one abort signal that fires on the caller's signal or on
 * the timer, remembering which of the two it was. The scope itself is the signal handed to node-fetch,
 * which only reads `aborted` and adds/removes one 'abort' listener (it accepts any object tagged
 * "AbortSignal"); Node's EventTarget-based AbortController costs several microseconds per call for
 * that, about a tenth of a local request. A fetch passed in by the caller (which may insist on a real
 * AbortSignal) gets a real one, created on demand and kept in step.
 */
class CallScope {
  private listeners: Array<() => void> = [];
  private real: AbortController | undefined;
  private reason: 'timeout' | 'cancelled' | undefined;
  private timer: NodeJS.Timeout | undefined;
  private onUserAbort: (() => void) | undefined;
  readonly deadline: number;

  constructor(
    private readonly userSignal: AbortSignal | undefined,
    readonly timeoutMs: number,
    private readonly clientSignal?: AbortSignal,
  ) {
    this.deadline = Date.now() + timeoutMs;
    if (userSignal?.aborted || clientSignal?.aborted) this.abort('cancelled');
    else if (userSignal || clientSignal) {
      this.onUserAbort = () => this.abort('cancelled');
      userSignal?.addEventListener('abort', this.onUserAbort, { once: true });
      clientSignal?.addEventListener('abort', this.onUserAbort, { once: true });
    }
    this.restartTimer(timeoutMs);
  }

  get [Symbol.toStringTag](): string {
    return 'AbortSignal';
  }

  addEventListener(type: string, listener: () => void): void {
    if (type === 'abort' && !this.aborted) this.listeners.push(listener);
  }

  removeEventListener(type: string, listener: () => void): void {
    const i = type === 'abort' ? this.listeners.indexOf(listener) : -1;
    if (i >= 0) this.listeners.splice(i, 1);
  }

  /** A real AbortSignal, for a caller-supplied fetch and for consumers. */
  get signal(): AbortSignal {
    if (!this.real) {
      this.real = new AbortController();
      if (this.aborted) this.real.abort();
    }
    return this.real.signal;
  }

  get aborted(): boolean {
    return this.reason !== undefined;
  }

  /** Re-arms the timer, e.g. as an inactivity limit while a long body streams in. */
  restartTimer(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.aborted) return;
    this.timer = setTimeout(() => this.abort('timeout'), ms);
  }

  abort(reason: 'timeout' | 'cancelled'): void {
    if (this.reason) return;
    this.reason = reason;
    if (this.timer) clearTimeout(this.timer);
    const listeners = this.listeners;
    this.listeners = [];
    for (const l of listeners) l();
    this.real?.abort();
  }

  abortError(operation: string): NilveraApiError {
    const kind = this.reason ?? 'cancelled';
    return new NilveraApiError({
      kind,
      operation,
      messages: [{ description: kind === 'timeout' ? `no complete answer within ${this.timeoutMs} ms` : 'the call was cancelled' }],
    });
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.onUserAbort) {
      this.userSignal?.removeEventListener('abort', this.onUserAbort);
      this.clientSignal?.removeEventListener('abort', this.onUserAbort);
    }
  }
}

/** A short transport-failure reason without the URL (its query may hold a password). */
function networkReason(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown }; type?: unknown };
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
  if (code) return code;
  const msg = err instanceof Error ? err.message : '';
  if (/premature close/i.test(msg)) return 'ERR_STREAM_PREMATURE_CLOSE';
  if (/socket hang up/i.test(msg)) return 'ECONNRESET';
  return typeof e?.type === 'string' ? e.type : 'connection failed';
}

function networkError(operation: string, err: unknown): NilveraApiError {
  return new NilveraApiError({ kind: 'network', operation, messages: [{ description: networkReason(err) }] });
}

/** A redirect not followed: the target's origin in `detail`, for the message the user sees. */
function redirectError(operation: string, err: RedirectRefusedError): NilveraApiError {
  return new NilveraApiError({ kind: 'redirected', operation, messages: [{ code: err.code, description: err.message, detail: err.toOrigin }] });
}

/**
 * Failures after which a change may or may not have been applied by the server. A 5xx is one of
 * them: nothing in the specification says the server fails before it stores (the sandbox's fault
 * phase `after` shows the other case). A 429 is not: rate limiting refuses before the work.
 */
const UNCERTAIN_KINDS = new Set(['network', 'timeout', 'malformed', 'server', 'tooLarge']);
/** Transport failures that prove nothing was sent. */
const NOT_SENT_REASONS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function markOutcomeUnknown(spec: RequestSpec, err: unknown): unknown {
  if (!(err instanceof NilveraApiError) || isIdempotent(spec.method) || spec.readOnly || !UNCERTAIN_KINDS.has(err.kind)) return err;
  if (err.kind === 'network' && NOT_SENT_REASONS.has(err.messages[0]?.description ?? '')) return err;
  return new NilveraApiError({ kind: err.kind, operation: err.operation, status: err.status, messages: err.messages, retryAfterSeconds: err.retryAfterSeconds, outcomeUnknown: true });
}

/** A call refused before anything is sent. */
function refused(spec: RequestSpec, kind: ApiErrorKind, description: string): NilveraApiError {
  return new NilveraApiError({ kind, operation: spec.operation, messages: [{ description }] });
}

/**
 * When a call's failed attempt is tried again (retrying.ts). A class, not an object literal: the
 * `signal` getter of a literal made on every call costs more than the rest of the rule.
 */
class CallRetryRule implements RetryRule {
  constructor(
    private readonly policy: Required<RetryPolicy>,
    private readonly maxAttempts: number,
    private readonly scope: CallScope,
    private readonly operation: string,
  ) {}

  retriable(error: unknown): boolean {
    return error instanceof NilveraApiError && isRetriable(error.kind, error.status);
  }

  waitMs(attempt: number, error: unknown): number | undefined {
    const retryAfter = (error as NilveraApiError).retryAfterSeconds;
    const wait = backoffDelay(this.policy, attempt, retryAfter !== undefined ? retryAfter * 1000 : undefined);
    // Waiting past the call's deadline would only end in a timeout: report the real failure.
    return attempt >= this.maxAttempts || Date.now() + wait >= this.scope.deadline ? undefined : wait;
  }

  /** scope.signal makes a real AbortController, needed only when a retry waits. */
  get signal(): AbortSignal {
    return this.scope.signal;
  }

  aborted(): NilveraApiError {
    return this.scope.abortError(this.operation);
  }
}

const CROSS_ORIGIN_GET = { crossOriginGet: true } as const;

/** The error a non-2xx answer makes: its kind, the server's own messages (secrets blanked), Retry-After. */
async function statusError(response: FetchResponseLike, call: Attempts<unknown>): Promise<NilveraApiError> {
  const { status } = response;
  const { spec, scope } = call;
  let text = '';
  try {
    // Only the messages are wanted: past the cap they are dropped, the status still counts.
    text = await readTextCapped(response, MAX_ERROR_BODY_BYTES, () => new Error('error body too large'));
  } catch {
    // The status is known even if the error body broke off; keep going with no messages.
    if (scope.aborted) return scope.abortError(spec.operation);
  }
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  return new NilveraApiError({
    kind: kindForStatus(status),
    operation: spec.operation,
    status,
    messages: redactMessages(parseErrorMessages(text), [call.key, ...(spec.redact ?? [])]),
    ...(retryAfterMs !== undefined ? { retryAfterSeconds: retryAfterMs / 1000 } : {}),
  });
}

/** One call's attempts: what each sends, and what it does with a 2xx. */
interface Attempts<R> {
  spec: RequestSpec;
  scope: CallScope;
  fetchFn: FetchLike;
  url: string;
  /** The fetch init: the same for each attempt. */
  request: Parameters<FetchLike>[1];
  /** Blanked out of the server's messages. */
  key: string;
  retryBrokenBody: boolean;
  onSuccess: (r: FetchResponseLike, scope: CallScope, spec: RequestSpec) => Promise<R>;
}

/** A failure of a 2xx's body that is not tried again: passed through retrying.ts as a value. */
class NotRetried {
  constructor(readonly error: unknown) {}
}

export class HttpTransport {
  private readonly baseUrl: string;
  private readonly retry: Required<RetryPolicy>;
  readonly defaultTimeoutMs: number;
  /** The body caps in force (the registry download applies its own). */
  readonly limits: Required<BodyLimits>;

  constructor(private readonly options: ClientOptions) {
    this.limits = { jsonBytes: options.limits?.jsonBytes ?? MAX_JSON_BODY_BYTES, registryZipBytes: options.limits?.registryZipBytes ?? MAX_REGISTRY_ZIP_BYTES };
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const given = Object.entries(options.retry ?? {}).filter(([, v]) => v !== undefined);
    this.retry = { ...DEFAULT_RETRY, ...(Object.fromEntries(given) as Partial<RetryPolicy>) };
    this.defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** A call whose 2xx body is JSON (an empty body gives undefined). */
  json<T>(spec: RequestSpec, opts?: CallOptions): Promise<T> {
    return this.run(spec, opts, true, this.readJson) as Promise<T>;
  }

  /** The 2xx body of a `json` call (one function for every call, made with the transport). */
  private readonly readJson = async (response: FetchResponseLike, scope: CallScope, spec: RequestSpec): Promise<unknown> => {
    let text: string;
    const limit = this.limits.jsonBytes;
    try {
      text = await readTextCapped(response, limit, (seen) => tooLargeError(spec.operation, limit, response.status, seen));
    } catch (err) {
      if (err instanceof NilveraApiError) throw err;
      throw scope.aborted ? scope.abortError(spec.operation) : networkError(spec.operation, err);
    }
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new NilveraApiError({ kind: 'malformed', operation: spec.operation, status: response.status, messages: [{ description: 'the response is not valid JSON' }] });
    }
  };

  /**
   * A call whose 2xx body is handed to `consume` as it arrives. Once the body starts, the time
   * limit becomes an inactivity limit (no data for timeoutMs), since a large body may take longer
   * than one call's limit. The body is never retried: a failure mid-body is the consumer's to report.
   */
  async stream<R>(
    spec: RequestSpec,
    opts: CallOptions | undefined,
    consume: (body: AsyncIterable<Uint8Array>, signal: AbortSignal, contentLength: number | undefined) => Promise<R>,
  ): Promise<R> {
    return this.run(spec, opts, false, async (response, scope) => {
      const body = response.body;
      if (!body) throw new NilveraApiError({ kind: 'malformed', operation: spec.operation, status: response.status, messages: [{ description: 'the response has no body' }] });
      const idleMs = scope.timeoutMs;
      scope.restartTimer(idleMs);
      async function* watched(): AsyncGenerator<Uint8Array> {
        for await (const chunk of body as AsyncIterable<Uint8Array>) {
          scope.restartTimer(idleMs);
          yield chunk;
        }
      }
      try {
        const lengthHeader = response.headers.get('content-length');
        const contentLength = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
        return await consume(watched(), scope.signal, contentLength);
      } catch (err) {
        if (scope.aborted) throw scope.abortError(spec.operation);
        // The consumer maps body failures itself; its own errors (e.g. a full disk) pass through.
        throw err;
      }
    });
  }

  private async run<R>(spec: RequestSpec, opts: CallOptions | undefined, retryBrokenBody: boolean, onSuccess: Attempts<R>['onSuccess']): Promise<R> {
    const scope = new CallScope(opts?.signal, opts?.timeoutMs ?? this.defaultTimeoutMs, this.options.signal);
    try {
      if (scope.aborted) throw scope.abortError(spec.operation);
      const path = spec.path;
      // URL parsing resolves "." and ".." segments (even percent-encoded), which would silently
      // send the call to another route. (The expression runs only on a path with a dot or a "%".)
      if ((path.includes('.') || path.includes('%')) && /\/(\.|%2e){1,2}(?=\/|$)/i.test(path)) {
        throw refused(spec, 'badRequest', 'a path parameter cannot be "." or ".."');
      }
      // An empty parameter leaves "//" or a trailing "/", which another route (a list) would answer.
      if (path.endsWith('/') || path.includes('//')) throw refused(spec, 'badRequest', 'a path parameter cannot be empty');
      const target = path + buildQuery(spec.query);
      if (target.length > MAX_REQUEST_TARGET) {
        throw refused(spec, 'badRequest', `the request address would be ${target.length} characters long once encoded (at most ${MAX_REQUEST_TARGET}); shorten the text`);
      }
      let key: string | undefined;
      try {
        key = await this.options.getApiKey();
      } catch {
        throw refused(spec, 'auth', 'the API key could not be read');
      }
      if (scope.aborted) throw scope.abortError(spec.operation);
      if (!key) throw refused(spec, 'auth', 'no API key is set');
      const fetchFn = this.options.fetch ?? nodeFetchLoaded ?? (await loadNodeFetch());
      // node-fetch gets the scope itself as its signal; a caller's fetch a real AbortSignal (CallScope).
      const signal = this.options.fetch ? scope.signal : (scope as unknown as AbortSignal);
      const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: 'application/json' };
      let body: string | undefined;
      if (spec.body !== undefined) {
        body = JSON.stringify(spec.body);
        headers['Content-Type'] = 'application/json';
      }
      const request = hopInit(spec.method, headers, body, signal);
      const call: Attempts<R> = { spec, scope, fetchFn, url: this.baseUrl + target, request, key, retryBrokenBody, onSuccess };
      const maxAttempts = 1 + (isIdempotent(spec.method) || spec.readOnly ? Math.max(0, this.retry.retries) : 0);
      const outcome = await retrying((attempt) => this.attempt(attempt, call), new CallRetryRule(this.retry, maxAttempts, scope, spec.operation));
      if (outcome instanceof NotRetried) throw outcome.error;
      return outcome;
    } catch (err) {
      throw markOutcomeUnknown(spec, err);
    } finally {
      scope.dispose();
    }
  }

  /**
   * One attempt: the request, then the 2xx body handed to `onSuccess`. A failed request throws its
   * error (retrying.ts decides whether it is tried again); a failed body is thrown only when re-reading
   * it is harmless and it broke off, otherwise returned as NotRetried.
   */
  private async attempt<R>(attempt: number, call: Attempts<R>): Promise<R | NotRetried> {
    const { spec, scope } = call;
    const started = this.options.logger ? performance.now() : 0;
    let response: FetchResponseLike;
    try {
      response = await fetchWithinOrigin(call.fetchFn, call.url, call.request, spec.crossOriginGet === true && spec.method === 'GET' ? CROSS_ORIGIN_GET : undefined);
    } catch (err) {
      const error = err instanceof RedirectRefusedError ? redirectError(spec.operation, err) : scope.aborted ? scope.abortError(spec.operation) : networkError(spec.operation, err);
      this.log(spec, attempt, started, undefined, error);
      throw error;
    }
    const status = response.status;
    if (status < 200 || status >= 300) {
      const error = await statusError(response, call);
      this.log(spec, attempt, started, status, error);
      throw error;
    }
    this.log(spec, attempt, started, status, undefined);
    try {
      return await call.onSuccess(response, scope, spec);
    } catch (err) {
      // A body that broke off (reset, truncated) is a network failure like any other, and
      // retriable when re-reading is harmless; a body handed to a consumer is not re-read.
      if (call.retryBrokenBody && err instanceof NilveraApiError && err.kind === 'network') throw err;
      return new NotRetried(err);
    }
  }

  /** One attempt in the request log: server messages stay out (they may echo request data). */
  private log(spec: RequestSpec, attempt: number, started: number, status: number | undefined, error: NilveraApiError | undefined): void {
    if (!this.options.logger) return;
    const first = error?.kind === 'network' ? error.messages[0] : undefined;
    const reason = first ? `network: ${first.description}` : error?.kind;
    try {
      this.options.logger.request({
        method: spec.method,
        path: spec.path,
        ...(status !== undefined ? { status } : {}),
        ms: Math.round(performance.now() - started),
        attempt,
        ...(reason ? { error: reason } : {}),
      });
    } catch {
      // A failing logger must not fail the call.
    }
  }
}
