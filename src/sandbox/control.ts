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

export async function handleControl(req: IncomingMessage, res: ServerResponse, subPath: string, deps: ControlDeps): Promise<unknown> {
  if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) return sendJson(res, 403, { error: 'control endpoints answer loopback clients only' });
  const route = `${req.method} ${subPath.toLowerCase().replace(/\/+$/, '')}`;
  try {
    switch (route) {
      case 'GET state':
        return sendJson(res, 200, { ...stateSnapshot(deps.app), inFlight: deps.inFlight(), behaviour: deps.app.behaviour.snapshot() });
      case 'GET behaviour':
        return sendJson(res, 200, deps.app.behaviour.snapshot());
      case 'POST behaviour':
        // { profile?, quirks? }: a profile replaces the earlier quirks; quirks merge (null removes one).
        deps.app.behaviour.change(((await readJson(req)) ?? {}) as BehaviourSettings);
        return sendJson(res, 200, deps.app.behaviour.snapshot());
      case 'DELETE behaviour':
        deps.app.behaviour.change({ profile: 'default' });
        return sendJson(res, 200, deps.app.behaviour.snapshot());
      case 'POST faults':
        deps.faults.set((await readJson(req)) as FaultPlan);
        return sendJson(res, 200, { ok: true });
      case 'DELETE faults':
        deps.faults.clear();
        return sendJson(res, 200, { ok: true });
      case 'GET faults':
        return sendJson(res, 200, deps.faults.current());
      case 'GET requests':
        return sendJson(res, 200, deps.log);
      case 'DELETE requests':
        deps.log.length = 0;
        return sendJson(res, 200, { ok: true });
      case 'POST registry': {
        const change = (await readJson(req)) as RegistryAction;
        const entry = deps.app.registry.apply(change);
        deps.app.changed();
        return sendJson(res, 200, { ok: true, entry: entry ?? null });
      }
      case 'GET customers/count':
        return sendJson(res, 200, { count: deps.app.customers.size });
      default:
        return sendJson(res, 404, { error: `unknown control endpoint ${route}` });
    }
  } catch (e) {
    return sendJson(res, 400, { error: (e as Error).message });
  }
}
