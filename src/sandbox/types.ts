// Public option and handle types of the sandbox (the contract other parts build on).
import type { BehaviourSettings } from './behaviour';
import type { FAULT_KINDS, FAULT_PHASES } from './faults';

/**
 * `corruptZip` and `truncatedZip` act on the registry ZIP download only (other routes answer normally):
 * the body stays a complete JSON string of valid base64, but the ZIP inside has bytes flipped in its
 * compressed data (fails CRC/inflate) or ends halfway (no central directory).
 */
export type FaultKind = (typeof FAULT_KINDS)[number];

export type FaultPhase = (typeof FAULT_PHASES)[number];

export interface FaultPlan {
  /** Added to every matching request. */
  latencyMs?: number;
  /** Probability per matching request of each fault (for benchmarks and demos). */
  rates?: Partial<Record<FaultKind, number>>;
  /** Retry-After seconds on 503 and 429 (default 1). */
  retryAfterSeconds?: number;
  /** Faults applied, in order, to the next matching requests (deterministic, for tests). */
  queue?: Array<FaultKind | { latencyMs: number }>;
  /**
   * When a fault strikes: `before` the handler runs (nothing stored; the default), `after` it ran and
   * stored its change (the answer is then lost: reset, truncate, malformed, 500, 503, or the latency),
   * or `either`, picked at random per fault; `late`: the answer is lost at once and the change is stored
   * only once the next request has been answered (a platform that stores a row after the client has
   * already looked it up). Streamed answers (the registry ZIP) always fault before.
   */
  phase?: FaultPhase;
  /** Limits the plan to some requests; `path` is a RegExp source tested case-insensitively against the path without query. */
  match?: { method?: string; path?: string };
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  key?: string;
  restrictedKey?: string;
  customers?: number;
  /** Extra legacy customers with bad tax-number checksums, after the regular ones (default 0). */
  invalidCustomers?: number;
  registry?: number;
  /**
   * Build each registry list's ZIP once and serve it from memory until the registry changes, as the real
   * platform serves a prepared file: benchmarks then do not share the CPU with deflating 1.5 M taxpayers.
   */
  keepLists?: boolean;
  seed?: number;
  dataFile?: string;
  /** Keep changes in a data file of this folder that no other running sandbox holds (persistence.ts). */
  dataDir?: string;
  faults?: FaultPlan;
  /** Profile and quirks of the spec-silent points (default profile when absent). */
  behaviour?: BehaviourSettings;
  quiet?: boolean;
}

export interface RequestLogEntry {
  method: string;
  /** Without the query string. */
  path: string;
  status: number;
  /** The raw query string without `?`, when the request had one (e.g. `Page=2&PageSize=100`). */
  query?: string;
  /** The planned fault that answered this request, and whether it struck before or after the handler ran. */
  fault?: { kind: FaultKind; phase: Exclude<FaultPhase, 'either'> };
}

export interface SandboxHandle {
  /** e.g. http://127.0.0.1:PORT (no trailing slash, no /general). */
  url: string;
  port: number;
  keys: { full: string; restricted: string };
  setFaults(plan: FaultPlan): void;
  clearFaults(): void;
  /** Changes the profile/quirks at run time (same rules as POST /__sandbox/behaviour). */
  setBehaviour(settings: BehaviourSettings): void;
  /** API requests received whose answer has not finished yet. */
  inFlight(): number;
  requestLog(): ReadonlyArray<RequestLogEntry>;
  resetRequestLog(): void;
  /** Where changes are kept (dataFile, or the file taken in dataDir). */
  dataFile?: string;
  /** Why the last save failed, while no later save has worked. */
  saveFailure?(): string | undefined;
  /** Stops serving, saves what is not saved yet and lets the data file go. */
  close(): Promise<void>;
}
