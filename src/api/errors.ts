// One error class for every failed call, with a kind the UI can act on (set key, refresh, retry...).

/** Each kind of failure, which the UI can act on, and what its message says after the operation's name. */
const KIND_TEXT = {
  auth: 'the API key was rejected (401)', // missing, wrong or expired
  forbidden: 'the API key lacks the permission for this operation (403)',
  notFound: 'not found (404)',
  conflict: 'already exists (409)',
  validation: 'rejected by the business rules (422)',
  badRequest: 'invalid request', // 400 and other 4xx
  rateLimited: 'too many requests (429)',
  server: 'server error', // 5xx
  timeout: 'timed out',
  network: 'network failure',
  cancelled: 'cancelled',
  malformed: 'unexpected response body', // a 2xx body that is not what the operation returns
  declined: 'the service declined (answered false)', // a 200 whose boolean answer is false: nothing was changed
  redirected: 'redirect not followed', // to another origin, or too many hops (redirects.ts)
  tooLarge: 'the answer is larger than the limit', // a body past its size cap (bodyLimits.ts)
} as const;

export type ApiErrorKind = keyof typeof KIND_TEXT;

export interface ApiMessage {
  code?: number | string;
  description: string;
  detail?: string;
}

export interface NilveraApiErrorInit {
  kind: ApiErrorKind;
  operation: string;
  status?: number;
  messages?: ApiMessage[];
  /** Seconds the server asked to wait (Retry-After), when it did. */
  retryAfterSeconds?: number;
  /**
   * A change (POST/DELETE) that failed after it may have reached the server (connection broken,
   * time limit, unreadable answer): it may or may not have been applied, so it must not be retried blindly.
   */
  outcomeUnknown?: boolean;
}

export class NilveraApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status?: number;
  readonly operation: string;
  readonly messages: ApiMessage[];
  readonly retryAfterSeconds?: number;
  readonly outcomeUnknown?: boolean;

  constructor(init: NilveraApiErrorInit) {
    const messages = init.messages ?? [];
    super(summarize(init.kind, init.operation, init.status, messages));
    this.name = 'NilveraApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.operation = init.operation;
    this.messages = messages;
    this.retryAfterSeconds = init.retryAfterSeconds;
    if (init.outcomeUnknown) this.outcomeUnknown = true;
    // The cause is not passed to Error: transport errors can quote the request URL, whose query may
    // hold a password (PUT /InteractiveTaxOffice). Callers get the kind and a sanitized message.
  }
}

function summarize(kind: ApiErrorKind, operation: string, status: number | undefined, messages: ApiMessage[]): string {
  const head = `${operation}: ${KIND_TEXT[kind]}${status !== undefined && !KIND_TEXT[kind].includes(String(status)) ? ` (HTTP ${status})` : ''}`;
  if (messages.length === 0) return head;
  const listed = messages.slice(0, 5).map((m) => (m.code !== undefined ? `[${m.code}] ` : '') + m.description + (m.detail ? ` (${m.detail})` : ''));
  return `${head}: ${listed.join('; ')}${messages.length > 5 ? ` (+${messages.length - 5} more)` : ''}`;
}

/** The statuses with a kind of their own; any other 5xx is `server`, any other 4xx `badRequest`. */
const KIND_OF_STATUS: Readonly<Record<number, ApiErrorKind>> = {
  401: 'auth', 403: 'forbidden', 404: 'notFound', 409: 'conflict', 422: 'validation', 429: 'rateLimited',
};

export function kindForStatus(status: number): ApiErrorKind {
  return KIND_OF_STATUS[status] ?? (status >= 500 ? 'server' : 'badRequest');
}

const MAX_TEXT = 500;

function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/**
 * The server's messages from an error body in any of the shapes seen for this platform:
 * `{"Errors":[{"Code","Description","Detail"}]}` (optionally with a top-level `Message`),
 * a top-level `Message`/`message`, a JSON array of strings, ProblemDetails (`title`, `errors`),
 * a JSON string, or plain text.
 */
export function parseErrorMessages(body: string): ApiMessage[] {
  const trimmed = body.trim();
  if (trimmed === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    // Plain text (or an HTML error page): keep it short.
    return [{ description: trimmed.length > MAX_TEXT ? trimmed.slice(0, MAX_TEXT) + '…' : trimmed }];
  }
  return messagesFromJson(parsed);
}

function messagesFromJson(parsed: unknown): ApiMessage[] {
  if (typeof parsed === 'string') return parsed ? [{ description: parsed }] : [];
  if (Array.isArray(parsed)) {
    return parsed.flatMap((item) => (typeof item === 'string' ? [{ description: item }] : messagesFromJson(item)));
  }
  if (parsed === null || typeof parsed !== 'object') return [];
  const obj = parsed as Record<string, unknown>;
  const out: ApiMessage[] = [];
  const errors = obj.Errors ?? obj.errors;
  if (Array.isArray(errors)) {
    for (const e of errors) {
      if (typeof e === 'string') {
        out.push({ description: e });
      } else if (e && typeof e === 'object') {
        const r = e as Record<string, unknown>;
        const code = typeof r.Code === 'number' || typeof r.Code === 'string' ? r.Code : undefined;
        const description = text(r.Description ?? r.description ?? r.Message ?? r.message) ?? '';
        const detail = text(r.Detail ?? r.detail);
        out.push({ ...(code !== undefined ? { code } : {}), description, ...(detail ? { detail } : {}) });
      }
    }
  } else if (errors && typeof errors === 'object') {
    // ProblemDetails validation map: { field: [messages] }
    for (const [field, list] of Object.entries(errors as Record<string, unknown>)) {
      for (const m of Array.isArray(list) ? list : [list]) {
        const description = text(m);
        if (description) out.push({ description, detail: field });
      }
    }
  }
  const message = text(obj.Message ?? obj.message ?? obj.title ?? obj.Title);
  if (message && !out.some((m) => m.description === message)) out.unshift({ description: message });
  return out;
}

/** Replaces every occurrence of the secrets in the error's messages (servers may echo a request back). */
export function redactMessages(messages: ApiMessage[], secrets: ReadonlyArray<string | undefined>): ApiMessage[] {
  const list = secrets.filter((s): s is string => !!s && s.length >= 3);
  if (list.length === 0) return messages;
  const scrub = (s: string) => list.reduce((acc, secret) => acc.split(secret).join('***'), s);
  return messages.map((m) => ({
    ...m,
    description: scrub(m.description),
    ...(m.detail !== undefined ? { detail: scrub(m.detail) } : {}),
    ...(typeof m.code === 'string' ? { code: scrub(m.code) } : {}),
  }));
}
