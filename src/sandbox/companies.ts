// One sandbox address serving several companies of one user (an accountant's clients): each
// company is a complete sandbox of its own (own key, company record, customers, documents) behind
// a front server that hands each request to the company its key belongs to. GET /Company/List is
// answered by the front: the companies of the calling user, i.e. all of them.
import * as http from 'node:http';
import { sendJson } from './answers';
import { bearerKey, generateKey } from './auth';
import { closeServer, listen, requestLine, startSandbox } from './server';
import type { FaultPlan, RequestLogEntry, SandboxHandle, SandboxOptions } from './types';

export interface CompanyEntry {
  /** The company's full-permission key (its restricted key is keys.restricted of its backend). */
  key: string;
  restrictedKey: string;
  name: string;
  taxNumber: string;
}

export interface CompaniesLogEntry extends RequestLogEntry {
  /** Index into `companies` of the company whose key the request carried; -1 for none/unknown. */
  company: number;
}

export interface CompaniesSandboxHandle extends Omit<SandboxHandle, 'requestLog'> {
  companies: CompanyEntry[];
  /** Every API request at the front, with the company its key belongs to. */
  requestLog(): ReadonlyArray<CompaniesLogEntry>;
  /** Faults for one company's backend only (e.g. a slow company A). */
  setCompanyFaults(index: number, plan: FaultPlan): void;
}

export async function startCompaniesSandbox(options: SandboxOptions & { companies: number }): Promise<CompaniesSandboxHandle> {
  const count = Math.max(1, Math.floor(options.companies));
  const { port, host, dataFile: _ignoredDataFile, dataDir: _ignoredDataDir, key, restrictedKey: _r, ...shared } = options;
  const baseSeed = options.seed ?? 1;
  const backends: SandboxHandle[] = [];
  for (let i = 0; i < count; i++) {
    // Each company gets its own seed (its own company, customers and documents) and key; the first
    // keeps the key asked for. Persistence (--data) is single-company only.
    backends.push(await startSandbox({ ...shared, port: 0, host: '127.0.0.1', seed: baseSeed + i, key: i === 0 && key ? key : generateKey(), quiet: true }));
  }
  const companies = await Promise.all(backends.map(async (b): Promise<CompanyEntry> => {
    const res = await fetch(`${b.url}/general/Company`, { headers: { Authorization: `Bearer ${b.keys.full}` } });
    const company = (await res.json()) as { Name?: string; TaxNumber?: string };
    return { key: b.keys.full, restrictedKey: b.keys.restricted, name: company.Name ?? '', taxNumber: company.TaxNumber ?? '' };
  }));
  const byKey = new Map(companies.flatMap((c, i) => [[c.key, i], [c.restrictedKey, i]] as const));
  const log: CompaniesLogEntry[] = [];

  const server = http.createServer((req, res) => {
    const { method, path, query } = requestLine(req);
    const callerKey = bearerKey(req);
    const index = callerKey !== undefined ? (byKey.get(callerKey) ?? -1) : -1;
    if (!path.toLowerCase().startsWith('/__sandbox/')) {
      res.once('close', () => log.push({ method, path, status: res.statusCode, company: index, ...(query !== undefined ? { query } : {}) }));
    }
    if (index >= 0 && method === 'GET' && path.toLowerCase() === '/general/company/list') {
      // Assumed shape, as in seed/generate.ts: an array of { Name, TaxNumber, IsActive }.
      sendJson(res, 200, companies.map((c) => ({ Name: c.name, TaxNumber: c.taxNumber, IsActive: true })));
      return;
    }
    // An unknown key goes to the first company, which answers 401 like the single sandbox does;
    // control routes go there too.
    const target = new URL(backends[Math.max(0, index)].url);
    const upstream = http.request({ host: target.hostname, port: target.port, method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  const address = await listen(server, port, host);
  let closed: Promise<void> | undefined;
  return {
    ...address,
    keys: { full: companies[0].key, restricted: companies[0].restrictedKey },
    companies,
    setFaults: (plan) => backends.forEach((b) => b.setFaults(plan)),
    clearFaults: () => backends.forEach((b) => b.clearFaults()),
    setCompanyFaults: (i, plan) => backends[i].setFaults(plan),
    // Every company answers the spec-silent points the same way (src/sandbox/behaviour.ts).
    setBehaviour: (settings) => backends.forEach((b) => b.setBehaviour(settings)),
    inFlight: () => backends.reduce((n, b) => n + b.inFlight(), 0),
    requestLog: () => [...log],
    resetRequestLog: () => {
      log.length = 0;
      backends.forEach((b) => b.resetRequestLog());
    },
    close: () =>
      (closed ??= (async () => {
        await closeServer(server);
        await Promise.all(backends.map((b) => b.close()));
      })()),
  };
}
