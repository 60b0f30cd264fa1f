// The HTTP layer's retry policy: which failures are retried, and how long to wait before the next
// attempt (the loop itself is retrying.ts).

import type { ApiErrorKind } from './errors';

export interface RetryPolicy {
  /** Extra attempts after the first one (default 3). */
  retries?: number;
  /** First backoff step (default 250 ms); doubles each attempt. */
  baseDelayMs?: number;
  /** Cap of one backoff wait (default 10 s). A longer Retry-After is still honoured. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryPolicy> = { retries: 3, baseDelayMs: 250, maxDelayMs: 10_000 };

/** GET and PUT are idempotent; POST and DELETE are never repeated automatically. */
export function isIdempotent(method: string): boolean {
  return method === 'GET' || method === 'PUT';
}

const RETRIED_STATUSES = new Set([429, 502, 503, 504]);

export function isRetriable(kind: ApiErrorKind, status: number | undefined): boolean {
  return kind === 'network' || (status !== undefined && RETRIED_STATUSES.has(status));
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Wait before retry number `attempt` (1-based): full exponential step with "equal jitter"
 * (half fixed, half random) so that many clients do not retry in lockstep. A server-given
 * Retry-After wins over the computed step.
 */
export function backoffDelay(policy: Required<RetryPolicy>, attempt: number, retryAfterMs: number | undefined, random = Math.random): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return step / 2 + random() * (step / 2);
}
