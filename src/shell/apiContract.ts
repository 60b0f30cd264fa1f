// Recognises the API client's errors by shape: the shell does not load src/api to test `instanceof`,
// and a ProfileSwitchedError (staleAnswers.ts) passes as a 'cancelled' one.
import type { ApiErrorKind, NilveraApiError } from '../api';

export type ApiErrorShape = Pick<NilveraApiError, 'kind' | 'status' | 'operation' | 'messages' | 'message' | 'outcomeUnknown'>;

const KINDS: Record<ApiErrorKind, true> = { auth: true, forbidden: true, notFound: true, conflict: true, validation: true, badRequest: true, rateLimited: true, server: true, timeout: true, network: true, cancelled: true, malformed: true, declined: true, redirected: true, tooLarge: true };

export function isApiError(error: unknown): error is ApiErrorShape {
  if (!(error instanceof Error)) return false;
  const e = error as Partial<ApiErrorShape>;
  return typeof e.kind === 'string' && Object.hasOwn(KINDS, e.kind) && Array.isArray(e.messages);
}
