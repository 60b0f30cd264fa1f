// Route table with case-insensitive literal segments and URL-decoded parameters, and what a handler gets:
// the request and the sandbox's data. The raw path is split on '/' before decoding, so an encoded slash
// (%2F) stays inside its parameter.
import type { ServerResponse } from 'node:http';
import { OPERATION_IDS, OPERATIONS, type OperationId, type OperationSpec } from '../api/operations';
import type { Behaviour } from './behaviour';
import type { CustomerStore } from './customerStore';
import { badRequest } from './errors';
import type { ZipFaultKind } from './faults';
import type { MutableState } from './records';
import type { StaticState } from './seed/generate';
import type { Registry } from './registry';
import type { PreparedLists } from './registryDownload';
import type { QueryParams } from './validate';

/** The sandbox's data, shared by every route handler. */
export interface SandboxContext {
  readonly seed: number;
  readonly registry: Registry;
  /** The registry lists' ZIPs kept once built (--keep-lists); undefined: built as each download streams. */
  readonly preparedLists?: PreparedLists;
  readonly customers: CustomerStore;
  readonly state: MutableState;
  readonly statics: StaticState;
  /** The answers to spec-silent points (src/sandbox/behaviour.ts). */
  readonly behaviour: Behaviour;
  /** Call after every change (schedules persistence when a data file is set). */
  changed(): void;
}

export interface RequestContext {
  params: Record<string, string>;
  query: QueryParams;
  res: ServerResponse;
  app: SandboxContext;
  /** The parsed JSON body; undefined when the body is empty; 400 when it is not JSON. */
  json(): Promise<unknown>;
  /** A planned ZIP fault for this request (only the registry download acts on it). */
  zipFault?: ZipFaultKind;
}

/** Returned by a handler that wrote the response itself (streams). */
export const RESPONDED = Symbol('responded');

export type Handler = (ctx: RequestContext) => unknown;

export interface RouteSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** e.g. '/general/Customers/{ID}' */
  path: string;
  /** Writes need the full-permission key. */
  write: boolean;
  /** The operation's id in src/api/operations.ts, as the client's errors name it. */
  name: OperationId;
  handler: Handler;
  /** Its documented 200 answer is a boolean (behaviour point booleanAnswer: `false` changes nothing). */
  answersBoolean: boolean;
  /** The platform's older OpenAPI export lacks it (behaviour point operations: `olderExport` answers 404 with an empty body). */
  notInOlderExport: boolean;
}

/** The route of operation `id`: method, path and flags from the table of operations. */
export function route(id: OperationId, handler: Handler): RouteSpec {
  const op: OperationSpec = OPERATIONS[id];
  return {
    method: op.method,
    path: op.path,
    write: op.access === 'write',
    name: id,
    handler,
    answersBoolean: op.answer === 'boolean',
    notInOlderExport: op.notInOlderExport === true,
  };
}

/** `routes` when it has exactly one route per operation of the table; throws naming what is missing or doubled. */
export function routeForEveryOperation(routes: readonly RouteSpec[]): readonly RouteSpec[] {
  const names = routes.map((r) => r.name);
  const missing = OPERATION_IDS.filter((id) => !names.includes(id));
  const doubled = names.filter((n, i) => names.indexOf(n) !== i);
  if (missing.length || doubled.length) {
    const parts = [missing.length ? `no route for ${missing.join(', ')}` : '', doubled.length ? `more than one route for ${doubled.join(', ')}` : ''];
    throw new Error(`The sandbox's routes do not match src/api/operations.ts: ${parts.filter(Boolean).join('; ')}`);
  }
  return routes;
}

interface CompiledRoute extends RouteSpec {
  /** The path over the raw request path: literal segments in any case, a value per `{…}`, a trailing '/' allowed. */
  pattern: RegExp;
  params: string[];
  literalCount: number;
}

export type RouteMatch = { route: CompiledRoute; params: Record<string, string> } | { methodNotAllowed: true } | undefined;

export class Router {
  private readonly routes: CompiledRoute[];

  constructor(specs: readonly RouteSpec[]) {
    this.routes = specs.map((spec) => {
      const segments = spec.path.split('/').filter(Boolean);
      const params = segments.filter((s) => s.startsWith('{')).map((s) => s.slice(1, -1));
      const source = segments.map((s) => (s.startsWith('{') ? '([^/]+)' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
      return { ...spec, pattern: new RegExp(`^/${source}/?$`, 'i'), params, literalCount: segments.length - params.length };
    });
  }

  /**
   * The most specific route (most literal segments) for the path; 405 marker when only the method
   * differs. `encodedSlash` (spec-silent, behaviour point encodedSlash) says what %2F inside a value
   * becomes: decoded to '/', kept as '%2F', or no route at all.
   */
  match(method: string, rawPath: string, encodedSlash: 'decoded' | 'keptEncoded' | 'notFound' = 'decoded'): RouteMatch {
    if (encodedSlash === 'notFound' && /%2f/i.test(rawPath)) return undefined;
    let best: { route: CompiledRoute; values: string[] } | undefined;
    let pathMatched = false;
    for (const route of this.routes) {
      const values = route.pattern.exec(rawPath)?.slice(1);
      if (!values) continue;
      pathMatched = true;
      if (route.method === method && (!best || route.literalCount > best.route.literalCount)) best = { route, values };
    }
    if (best) return { route: best.route, params: decodeParams(best.route.params, best.values, encodedSlash === 'keptEncoded') };
    return pathMatched ? { methodNotAllowed: true } : undefined;
  }
}

function decodeParams(names: readonly string[], values: readonly string[], keepEncodedSlash: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  names.forEach((k, i) => {
    try {
      out[k] = keepEncodedSlash ? values[i].split(/%2f/i).map(decodeURIComponent).join('%2F') : decodeURIComponent(values[i]);
    } catch {
      throw badRequest('The request path is invalid.', `${k} is not valid percent-encoding.`);
    }
  });
  return out;
}

/** Query parameters with case-insensitive names ("pagesize" finds "PageSize"). */
export function caseInsensitiveQuery(search: string): QueryParams {
  const map = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(search)) {
    const key = k.toLowerCase();
    if (!map.has(key)) map.set(key, v);
  }
  return { get: (name) => map.get(name.toLowerCase()) ?? null };
}
