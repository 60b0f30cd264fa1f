// Control endpoints under /__sandbox/ (loopback only, no API key): inspect state, switch faults and
// the behaviour profile, read the request log, change registry entries at run time.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buffer } from 'node:stream/consumers';
import { sendJson } from './answers';
import type { BehaviourSettings } from './behaviour';
import type { SandboxContext } from './router';
import type { FaultInjector } from './faults';
import type { RegistryAction } from './registry';
import type { FaultPlan, RequestLogEntry } from './types';

export interface ControlDeps {
  app: SandboxContext;
  faults: FaultInjector;
  log: RequestLogEntry[];
  /** API requests whose answer has not finished yet. */
  inFlight: () => number;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = (await buffer(req)).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/** Every record of the state (documents without their content), and counts. */
function stateSnapshot(app: SandboxContext) {
  const { nextIds: _nextIds, documents, ...records } = app.state;
  return {
    counts: {
      customers: app.customers.size,
      registry: app.registry.count(),
      certificates: records.certificates.length,
      documents: documents.length,
      identifications: records.identifications.length,
    },
    ...records,
    documents: documents.map(({ Base64String: _content, ...rest }) => rest),
  };
}

const OK = Object.freeze({ ok: true });

function changeBehaviour(app: SandboxContext, settings: BehaviourSettings) {
  app.behaviour.change(settings);
  return app.behaviour.snapshot();
}

/** Each endpoint by "METHOD path": the JSON it answers with 200 (a throw answers 400). */
const ENDPOINTS: Record<string, (deps: ControlDeps, body: () => Promise<unknown>) => unknown> = {
  'GET state': ({ app, inFlight }) => ({ ...stateSnapshot(app), inFlight: inFlight(), behaviour: app.behaviour.snapshot() }),
  'GET behaviour': ({ app }) => app.behaviour.snapshot(),
  // { profile?, quirks? }: a profile replaces the earlier quirks; quirks merge (null removes one).
  'POST behaviour': async ({ app }, body) => changeBehaviour(app, ((await body()) ?? {}) as BehaviourSettings),
  'DELETE behaviour': ({ app }) => changeBehaviour(app, { profile: 'default' }),
  'POST faults': async ({ faults }, body) => {
    faults.set((await body()) as FaultPlan);
    return OK;
  },
  'DELETE faults': ({ faults }) => {
    faults.clear();
    return OK;
  },
  'GET faults': ({ faults }) => faults.current(),
  'GET requests': ({ log }) => log,
  'DELETE requests': ({ log }) => {
    log.length = 0;
    return OK;
  },
  'POST registry': async ({ app }, body) => {
    const entry = app.registry.apply((await body()) as RegistryAction);
    app.changed();
    return { ok: true, entry: entry ?? null };
  },
  'GET customers/count': ({ app }) => ({ count: app.customers.size }),
};

export async function handleControl(req: IncomingMessage, res: ServerResponse, subPath: string, deps: ControlDeps): Promise<unknown> {
  if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) return sendJson(res, 403, { error: 'control endpoints answer loopback clients only' });
  const route = `${req.method} ${subPath.toLowerCase().replace(/\/+$/, '')}`;
  const endpoint = Object.hasOwn(ENDPOINTS, route) ? ENDPOINTS[route] : undefined;
  if (!endpoint) return sendJson(res, 404, { error: `unknown control endpoint ${route}` });
  try {
    return sendJson(res, 200, await endpoint(deps, () => readJson(req)));
  } catch (e) {
    return sendJson(res, 400, { error: (e as Error).message });
  }
}
