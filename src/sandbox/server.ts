// startSandbox(): the in-process HTTP server that stands in for the General API (SandboxServer).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorize, generateKey } from './auth';
import { Behaviour, type BehaviourSettings } from './behaviour';
import { handleControl } from './control';
import { CustomerStore } from './customerStore';
import { ApiError, ErrorCode } from './errors';
import { FaultInjector, type FaultDecision } from './faults';
import { claimDataSlot, loadData, SaveScheduler, type DataSlot, type PersistedData } from './persistence';
import { Registry } from './registry';
import { PreparedLists } from './registryDownload';
import { caseInsensitiveQuery, RESPONDED, Router, type RequestContext, type SandboxContext } from './router';
import { ROUTES } from './routes';
import { send, sendJson } from './answers';
import { reshapeAnswer } from './reshape';
import { generateCustomers, generateMutableState, generateStaticState } from './seed/generate';
import type { FaultPlan, RequestLogEntry, SandboxHandle, SandboxOptions } from './types';

const MAX_BODY_BYTES = 20 * 1024 * 1024;
const MAX_LOG_ENTRIES = 50_000;
const CONTROL_PREFIX = '/__sandbox/';

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new ApiError(413, ErrorCode.tooLarge, 'The request body is too large.', `limit ${MAX_BODY_BYTES} bytes`));
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function applyFault(res: http.ServerResponse, d: FaultDecision): unknown {
  const retryAfter = { 'Retry-After': String(d.retryAfterSeconds) };
  switch (d.fault) {
    case '500':
      return sendJson(res, 500, { Errors: [{ Code: 5000, Description: 'Internal server error (sandbox fault).', Detail: '' }] });
    case '503':
      return sendJson(res, 503, { Errors: [{ Code: 5030, Description: 'Service unavailable (sandbox fault).', Detail: '' }] }, retryAfter);
    case '429':
      return sendJson(res, 429, { Errors: [{ Code: 4290, Description: 'Too many requests (sandbox fault).', Detail: '' }] }, retryAfter);
    case 'reset':
      res.socket?.destroy();
      return;
    case 'truncate': {
      // Announce more bytes than are sent, then close.
      const partial = '{"Page":1,"PageSize":20,"TotalCount":1,"Content":[{"ID":1,"Name":"';
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(partial.length + 4096) });
      res.write(partial, () => res.socket?.destroy());
      return;
    }
    case 'malformed':
      send(res, 200, '{"Errors":[{"Code":5000,"Description":"trunc');
  }
}

/** A throw-away copy of the data that a handler may change without effect (and without saving). */
function scratchCopy(app: SandboxContext): SandboxContext {
  const customers = new CustomerStore(structuredClone([...app.customers.all()]), app.customers.nextIdValue());
  return { ...app, state: structuredClone(app.state), customers, changed: () => undefined };
}

/** The data a sandbox starts from: saved in its data file, or generated from its seed. */
async function loadOrGenerate(options: SandboxOptions, dataFile: string | undefined): Promise<{ app: SandboxContext; persisted: boolean }> {
  const persisted = dataFile ? await loadData(dataFile) : undefined;
  // A saved demo keeps the seed it was made with, so its registry and seed records stay the same.
  const seed = persisted?.seed ?? options.seed ?? 1;
  const registry = new Registry(seed, options.registry ?? 5000);
  const state = persisted?.state ?? generateMutableState(seed);
  if (persisted) registry.importOverrides(persisted.registry);
  const customers = persisted
    ? new CustomerStore(persisted.customers, persisted.nextCustomerId)
    : new CustomerStore(generateCustomers(seed, options.customers ?? 300, registry, options.invalidCustomers ?? 0));
  const preparedLists = options.keepLists ? new PreparedLists() : undefined;
  const app: SandboxContext = { seed, registry, preparedLists, customers, state, statics: generateStaticState(seed, state.company), behaviour: new Behaviour(options.behaviour), changed: () => undefined };
  return { app, persisted: persisted !== undefined };
}

class SandboxServer implements SandboxHandle {
  readonly keys: { full: string; restricted: string };
  url = '';
  port = 0;
  private readonly faults = new FaultInjector();
  private readonly log: RequestLogEntry[] = [];
  private readonly router = new Router(ROUTES);
  /** API requests received whose answer has not finished (or died) yet. */
  private inFlightCount = 0;
  private readonly server = http.createServer((req, res) => {
    this.handle(req, res).catch(() => res.destroy());
  });
  private closed: Promise<void> | undefined;

  constructor(
    private readonly app: SandboxContext,
    private readonly options: SandboxOptions,
    readonly dataFile: string | undefined,
    private readonly saver: SaveScheduler | undefined,
    private readonly slot: DataSlot | undefined,
  ) {
    this.keys = { full: options.key ?? generateKey(), restricted: options.restrictedKey ?? generateKey() };
    if (options.faults) this.faults.set(options.faults);
    this.server.keepAliveTimeout = 30_000;
  }

  async listen(): Promise<void> {
    ({ port: this.port, url: this.url } = await listen(this.server, this.options.port, this.options.host));
  }

  /** Changes held back by a `late` fault: stored once the next request has been answered. */
  private lateChanges: Array<() => Promise<void>> = [];
  /** The held-back changes being stored now: the next requests wait for them. */
  private storingLate: Promise<void> = Promise.resolve();

  readonly setFaults = (plan: FaultPlan): void => this.faults.set(plan);
  readonly clearFaults = (): void => this.faults.clear();
  readonly setBehaviour = (settings: BehaviourSettings): void => this.app.behaviour.change(settings);
  readonly inFlight = (): number => this.inFlightCount;
  readonly requestLog = (): RequestLogEntry[] => [...this.log];
  readonly resetRequestLog = (): void => void (this.log.length = 0);
  readonly saveFailure = (): string | undefined => this.saver?.failure?.message;

  close(): Promise<void> {
    return (this.closed ??= (async () => {
      await closeServer(this.server);
      // After the last request: every change is in the final save.
      await this.saver?.flushPending();
      await this.slot?.release();
    })());
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<unknown> {
    const { method, path, query } = requestLine(req);
    if (path.toLowerCase().startsWith(CONTROL_PREFIX)) {
      return handleControl(req, res, path.slice(CONTROL_PREFIX.length), { app: this.app, faults: this.faults, log: this.log, inFlight: () => this.inFlightCount });
    }
    await this.storingLate;
    const decision = this.faults.decide(method, path);
    const fault = decision?.fault;
    const zipFault = fault === 'corruptZip' || fault === 'truncatedZip' ? fault : undefined;
    let struck: RequestLogEntry['fault'];
    this.logWhenDone(res, () => ({ method, path, ...(query !== undefined ? { query } : {}), ...(struck ? { fault: struck } : {}) }));
    // The changes a `late` fault held back are stored once this request has been answered.
    const late = this.lateChanges.splice(0);
    if (late.length > 0) {
      let stored!: () => void;
      this.storingLate = new Promise((resolve) => (stored = resolve));
      res.once('close', () => void late.reduce((done, store) => done.then(store), Promise.resolve()).then(stored));
    }
    /** Latency, then the planned fault (if any); true when the fault answered. */
    const strike = async (): Promise<boolean> => {
      if (decision?.latencyMs) await new Promise((r) => setTimeout(r, decision.latencyMs));
      if (!decision?.fault || zipFault) return false;
      struck = { kind: decision.fault, phase: decision.phase };
      applyFault(res, decision);
      return true;
    };
    // Phase `late`: the answer is lost now; the handler runs (and stores its change) after the next request.
    if (decision?.phase === 'late' && fault && !zipFault) {
      const body = readBody(req);
      await body.catch(() => undefined);
      await strike();
      this.lateChanges.push(() => this.answer(method, path, query ?? '', req, res, undefined, body).then(() => undefined, () => undefined));
      return;
    }
    // Phase `after`: the handler runs (and stores its change) first; the answer is lost afterwards.
    const faultAfter = decision?.phase === 'after';
    if (!faultAfter && (await strike())) return;
    try {
      const result = await this.answer(method, path, query ?? '', req, res, zipFault);
      if (result === RESPONDED) return;
      if (faultAfter && (await strike())) return;
      sendJson(res, 200, result);
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (faultAfter && (await strike())) return;
      if (e instanceof ApiError) sendJson(res, e.status, e.body(), e.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {});
      else {
        // A bug in the sandbox, not a planned answer: say so on stderr (headers and bodies are never printed).
        if (!this.options.quiet) console.error(`sandbox: ${method} ${path} failed:`, e);
        sendJson(res, 500, { Errors: [{ Code: 5000, Description: 'Internal server error.', Detail: (e as Error)?.message ?? '' }] });
      }
    }
  }

  /** Logs the request when its answer is complete, or with status 0 when the connection dies first. */
  private logWhenDone(res: http.ServerResponse, entry: () => Omit<RequestLogEntry, 'status'>): void {
    let logged = false;
    const record = (status: number): void => {
      if (logged) return;
      logged = true;
      if (this.log.length >= MAX_LOG_ENTRIES) this.log.splice(0, this.log.length - MAX_LOG_ENTRIES + 1);
      this.log.push({ ...entry(), status } as RequestLogEntry);
    };
    this.inFlightCount++;
    res.once('finish', () => record(res.statusCode));
    res.once('close', () => {
      record(0);
      this.inFlightCount--;
    });
  }

  /** The operation's answer (already reshaped), or RESPONDED when its handler answered itself. */
  private async answer(method: string, path: string, query: string, req: http.IncomingMessage, res: http.ServerResponse, zipFault: RequestContext['zipFault'], body?: Promise<Buffer>): Promise<unknown> {
    const { behaviour } = this.app;
    const match = this.router.match(method, path, behaviour.answerFor('encodedSlash'));
    if (!match) throw new ApiError(404, ErrorCode.routeNotFound, 'API not found.', `${method} ${path}`);
    if ('methodNotAllowed' in match) throw new ApiError(405, ErrorCode.methodNotAllowed, 'Method not allowed.', `${method} ${path}`);
    // Spec-silent (behaviour point operations): a platform at the older export's level lacks some operations.
    if (behaviour.answerFor('operations') === 'olderExport' && match.route.notInOlderExport) return send(res, 404);
    authorize(req, this.keys, match.route.write, behaviour.answerFor('badKeyStatus'));
    // Spec-silent (behaviour point booleanAnswer): `false` runs the operation on a copy of the data
    // (so bad input still gets its error), answers false and keeps nothing.
    const answerFalse = behaviour.answerFor('booleanAnswer') === 'false' && match.route.answersBoolean;
    let bodyPromise: Promise<unknown> | undefined;
    const ctx: RequestContext = {
      params: match.params,
      query: caseInsensitiveQuery(query),
      res,
      app: answerFalse ? scratchCopy(this.app) : this.app,
      ...(zipFault ? { zipFault } : {}),
      json: () => (bodyPromise ??= (body ?? readBody(req)).then(parseJsonBody)),
    };
    const result = await match.route.handler(ctx);
    return result === RESPONDED ? RESPONDED : reshapeAnswer(answerFalse && result === true ? false : result, behaviour);
  }
}

function parseJsonBody(buf: Buffer): unknown {
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, ErrorCode.badRequest, 'The request body is not valid JSON.', '');
  }
}

/** Method, path and raw query string (undefined without '?') of a request. */
export function requestLine(req: http.IncomingMessage): { method: string; path: string; query?: string } {
  const [path, query] = (req.url ?? '/').split(/\?(.*)/s, 2);
  return { method: (req.method ?? 'GET').toUpperCase(), path, query };
}

/** Listens on host:port (default a free loopback port); the port taken and the URL to it. */
export async function listen(server: http.Server, port = 0, host = '127.0.0.1') {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const taken = (server.address() as AddressInfo).port;
  return { port: taken, url: `http://${host.includes(':') ? `[${host}]` : host}:${taken}` };
}

/** Stops accepting, ends every open connection and resolves once closed. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  // A data folder: a file of this sandbox's own, held while it runs (persistence.ts).
  const slot: DataSlot | undefined = !options.dataFile && options.dataDir ? await claimDataSlot(options.dataDir) : undefined;
  const dataFile = options.dataFile ?? slot?.file;
  const { app, persisted } = await loadOrGenerate(options, dataFile).catch(async (error: unknown) => {
    await slot?.release();
    throw error;
  });
  let saver: SaveScheduler | undefined;
  if (dataFile) {
    const snapshot = (): PersistedData => ({
      format: 1, seed: app.seed, state: app.state, customers: [...app.customers.all()], nextCustomerId: app.customers.nextIdValue(), registry: app.registry.exportOverrides(),
    });
    // A save that fails (the file held for longer than the retries) is said on stderr and tried again later.
    saver = new SaveScheduler(dataFile, snapshot, (error) => {
      if (!options.quiet) console.error(`sandbox: the data could not be saved to ${dataFile}: ${error.message}`);
    });
    app.changed = () => saver?.schedule();
    if (!persisted) await saver.flush();
  }
  const sandbox = new SandboxServer(app, options, dataFile, saver, slot);
  await sandbox.listen();
  return sandbox;
}
