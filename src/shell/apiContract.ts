// The slice of the API client (src/api, another module's contract) that the shell uses, typed
// structurally so the shell depends on the shape, not on the client's internals.

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface CreditPackage {
  Name?: string | null;
  TotalCredit?: number;
  UsedCredit?: number;
  RemainingCredit?: number;
  UsePercentage?: number;
  DurationType?: string;
  EndDate?: string;
}

export interface CompanySummary {
  Name?: string | null;
  TaxNumber?: string | null;
}

export interface ShellClient {
  company: { get(opts?: CallOptions): Promise<CompanySummary> };
  account: { credits(opts?: CallOptions): Promise<CreditPackage[]> };
}

export type ApiErrorKind =
  | 'auth'
  | 'forbidden'
  | 'notFound'
  | 'conflict'
  | 'validation'
  | 'badRequest'
  | 'rateLimited'
  | 'server'
  | 'timeout'
  | 'network'
  | 'cancelled'
  | 'malformed'
  | 'declined';

export interface ApiErrorShape {
  kind: ApiErrorKind;
  status?: number;
  operation: string;
  messages: Array<{ code?: number | string; description: string; detail?: string }>;
  message: string;
  /** A change that may or may not have been applied (the connection failed after it was sent). */
  outcomeUnknown?: boolean;
}

const KINDS = new Set<string>(['auth', 'forbidden', 'notFound', 'conflict', 'validation', 'badRequest', 'rateLimited', 'server', 'timeout', 'network', 'cancelled', 'malformed', 'declined']);

/** Recognises a NilveraApiError by shape (works across bundles, where `instanceof` would not). */
export function isApiError(error: unknown): error is ApiErrorShape {
  if (!(error instanceof Error)) return false;
  const e = error as Partial<ApiErrorShape>;
  return typeof e.kind === 'string' && KINDS.has(e.kind) && Array.isArray(e.messages);
}
