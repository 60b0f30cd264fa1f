// NILVERA_VIA_PRISM=1: the API suite's sandboxes behind `prism proxy` with --errors, so every answer
// the sandbox gives for an operation of the platform's OpenAPI export (test/fixtures/general.swagger.json)
// is checked against the platform's own schema. An answer shape the sandbox invented then reaches the
// test as prism's 500 (and is printed on stderr with prism's violations), so the test fails.
//
// One prism process per test process; its upstream is an in-process "back" server that forwards to
// the sandbox named in the X-Sandbox-Target header. Each sandbox gets a "front" server whose URL the
// test sees as the sandbox URL. The front sends straight to the sandbox, unchecked and counted:
//   - control calls (/__sandbox/*);
//   - operations the export lacks (it is an older snapshot; prism would answer its own 404/405);
//   - requests without an Authorization header (prism would answer its own 401 from the export's
//     security scheme, never asking the sandbox);
//   - requests while the sandbox has a fault plan (faulted answers are deliberately not the platform's).
// Request validation is off (--validate-request=false): the tests send bad requests on purpose and
// must see the sandbox's answer to them.
//
// The export's `format: date-time` is RFC 3339, which requires an offset; the platform's ASP.NET
// service and every public fixture write date-times without one (behaviour point dateFormat). The
// schema prism checks against is the export with that format replaced by a pattern that accepts both.
// Where the newer specification changed an answer the export has, the export is patched to the newer
// one (NEWER_SPEC below), each with its reason.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FaultPlan, SandboxHandle } from '../../src/sandbox/types';

const root = path.resolve(__dirname, '../../..');
const EXPORT_FILE = path.join(root, 'test/fixtures/general.swagger.json');
/**
 * Prism's own script, run by this Node: node_modules/.bin/prism is a shell script (prism.cmd on Windows,
 * which Node does not spawn without a shell), the package's `bin` entry is the same everywhere.
 */
const PRISM_SCRIPT = path.join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const TARGET_HEADER = 'x-sandbox-target';
const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})?$';
const VIA_PRISM = Symbol('viaPrism');

export function prismRequested(): boolean {
  return process.env.NILVERA_VIA_PRISM === '1';
}

/** What went where, for the report printed at exit. */
/**
 * `violations` are answers of the default behaviour profile that break the export (the step fails on
 * them); `forkViolations` came while the test had switched to another behaviour answer on purpose.
 */
const stats = { checked: 0, notInExport: 0, noKey: 0, faultPlan: 0, control: 0, violations: 0, forkViolations: 0 };

interface Operation {
  /** e.g. `GET /general/Customers/{ID}` */
  name: string;
  method: string;
  pattern: RegExp;
}

/** Answers checked per export operation (name -> count). */
const checkedOperations: Record<string, number> = {};

type SwaggerDoc = { paths: Record<string, Record<string, unknown>> } & Record<string, unknown>;

function readExport(): SwaggerDoc {
  return JSON.parse(fs.readFileSync(EXPORT_FILE, 'utf8')) as SwaggerDoc;
}

/** The export's operations as method + path RegExp (case-sensitive, as prism matches). */
function exportOperations(doc: SwaggerDoc): Operation[] {
  const ops: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    const source = template
      .split('/')
      .map((seg) => (seg.startsWith('{') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    for (const method of Object.keys(methods)) ops.push({ name: `${method.toUpperCase()} ${template}`, method: method.toUpperCase(), pattern: new RegExp(`^${source}$`) });
  }
  // Literal segments win over parameters, as in prism and the sandbox's router.
  return ops.sort((a, b) => (a.name.match(/\{/g)?.length ?? 0) - (b.name.match(/\{/g)?.length ?? 0));
}

type JsonObject = Record<string, unknown>;

/**
 * The newer specification (the one src/api/operations.ts follows) against the older export, for operations both have:
 * GET /Customers/GetCustomerInfo/{TaxNumber} answers CustomerDetailResponse (spec's operation table),
 * the export's CustomerResponse plus CreatedDate and ModifiedDate (the sandbox's assumption for the
 * detail record, src/sandbox/routes/customers.ts).
 */
function newerSpec(doc: SwaggerDoc): SwaggerDoc {
  const out = structuredClone(doc) as SwaggerDoc & { components: { schemas: Record<string, JsonObject> } };
  const base = out.components.schemas.CustomerResponse as { properties: JsonObject };
  out.components.schemas.CustomerDetailResponse = {
    ...base,
    properties: { ...base.properties, CreatedDate: { type: 'string', format: 'date-time', nullable: true }, ModifiedDate: { type: 'string', format: 'date-time', nullable: true } },
  };
  const op = out.paths['/general/Customers/GetCustomerInfo/{TaxNumber}'].get as { responses: Record<string, { content: Record<string, { schema: JsonObject }> }> };
  op.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/CustomerDetailResponse' };
  return out;
}

/** The export with date-time formats relaxed to accept a missing offset (see the head comment). */
function relaxedExport(doc: SwaggerDoc): SwaggerDoc {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    if (o.type === 'string' && o.format === 'date-time') {
      const { format: _format, ...rest } = o;
      return { ...rest, pattern: DATE_TIME_PATTERN };
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, walk(x)]));
  };
  return walk(doc) as SwaggerDoc;
}

interface Shared {
  prismUrl: string;
  operations: Operation[];
}

let shared: Promise<Shared> | undefined;

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** Forwards one request to 127.0.0.1:port (headers and body as they came), and the answer back. */
function forward(req: http.IncomingMessage, res: http.ServerResponse, port: number, headers: http.OutgoingHttpHeaders, onAnswer?: (answer: http.IncomingMessage) => void): void {
  const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: { ...headers, host: `127.0.0.1:${port}` } }, (answer) => {
    onAnswer?.(answer);
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
    answer.on('error', () => res.destroy());
    answer.on('aborted', () => res.destroy());
  });
  // A dead upstream (a reset fault) kills the client's connection too, as it would have directly.
  upstream.on('error', () => res.destroy());
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

async function waitForPrism(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited (${child.exitCode}) before listening`);
    try {
      await fetch(`${url}/__prism_ready`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error('prism did not start within 60 s');
}

async function startShared(): Promise<Shared> {
  const doc = readExport();
  const specFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-prism-')), 'general.relaxed.json');
  fs.writeFileSync(specFile, JSON.stringify(relaxedExport(newerSpec(doc))));

  // prism's upstream: forwards to the sandbox named in the target header.
  const back = http.createServer((req, res) => {
    const port = Number(req.headers[TARGET_HEADER]);
    if (!Number.isInteger(port) || port <= 0) {
      res.writeHead(502).end('no sandbox target');
      return;
    }
    const { [TARGET_HEADER]: _target, ...headers } = req.headers;
    forward(req, res, port, headers);
  });
  const backPort = await listen(back);
  back.unref();

  const probe = http.createServer();
  const prismPort = await listen(probe);
  await new Promise<void>((r) => probe.close(() => r()));
  const child = spawn(process.execPath, [PRISM_SCRIPT, 'proxy', specFile, `http://127.0.0.1:${backPort}`, '--errors', '--validate-request=false', '-p', String(prismPort), '-h', '127.0.0.1', '-v', 'error'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[prism] ${d.toString()}`));
  child.unref();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  process.once('exit', () => {
    child.kill();
    const line = `prism proxy: ${stats.checked} answers checked against the export, ${stats.violations} with schema violations (default behaviour), ${stats.forkViolations} under a deliberately switched behaviour; ` +
      `sent to the sandbox unchecked: ${stats.notInExport} not in the export, ${stats.noKey} without a key, ${stats.faultPlan} under a fault plan, ${stats.control} control calls`;
    process.stderr.write(`${line}\n`);
    if (process.env.NILVERA_PRISM_REPORT) fs.appendFileSync(process.env.NILVERA_PRISM_REPORT, JSON.stringify({ file: path.basename(process.argv[1] ?? ''), ...stats, operations: checkedOperations }) + '\n');
  });
  const prismUrl = `http://127.0.0.1:${prismPort}`;
  await waitForPrism(prismUrl, child);
  return { prismUrl, operations: exportOperations(doc) };
}

/** True when the sandbox's fault plan can still strike (latency, rates, or queued faults left). */
async function faultPlanActive(sandboxUrl: string): Promise<boolean> {
  const plan = (await (await fetch(`${sandboxUrl}/__sandbox/faults`)).json()) as FaultPlan;
  return Boolean(plan.latencyMs) || Object.values(plan.rates ?? {}).some((r) => r > 0) || (plan.queue?.length ?? 0) > 0;
}

/** Puts the sandbox behind prism when NILVERA_VIA_PRISM=1; otherwise (or when done already) returns it as is. */
export async function maybeViaPrism(sandbox: SandboxHandle): Promise<SandboxHandle> {
  if (!prismRequested() || (sandbox as unknown as Record<symbol, unknown>)[VIA_PRISM]) return sandbox;
  const { prismUrl, operations } = await (shared ??= startShared());
  const prismPort = Number(new URL(prismUrl).port);
  const front = http.createServer((req, res) => {
    void (async () => {
      const method = (req.method ?? 'GET').toUpperCase();
      const pathOnly = (req.url ?? '/').split('?')[0];
      let direct: keyof typeof stats | undefined;
      // The most specific template first: fewer parameters (Search/{x} before {AliasType}/{GlobalUserType}).
      const op = operations.find((o) => o.method === method && o.pattern.test(pathOnly));
      if (pathOnly.toLowerCase().startsWith('/__sandbox/')) direct = 'control';
      else if (!op) direct = 'notInExport';
      else if (!req.headers.authorization) direct = 'noKey';
      else if (await faultPlanActive(sandbox.url)) direct = 'faultPlan';
      if (direct) {
        stats[direct]++;
        forward(req, res, sandbox.port, req.headers);
        return;
      }
      // The behaviour the answer is given under (asked before the request, so no later switch can blur it).
      const behaviour = (await (await fetch(`${sandbox.url}/__sandbox/behaviour`)).json()) as { profile: string; overrides: Record<string, string> };
      stats.checked++;
      checkedOperations[op!.name] = (checkedOperations[op!.name] ?? 0) + 1;
      forward(req, res, prismPort, { ...req.headers, [TARGET_HEADER]: String(sandbox.port) }, (answer) => {
        const violations = String(answer.headers['sl-violations'] ?? '');
        if (answer.statusCode === 500 && violations.includes('"severity":"Error"')) {
          const fork = behaviour.profile !== 'default' || Object.keys(behaviour.overrides).length > 0;
          stats[fork ? 'forkViolations' : 'violations']++;
          const why = fork ? `under behaviour ${JSON.stringify({ profile: behaviour.profile, ...behaviour.overrides })}` : 'with the default behaviour';
          process.stderr.write(`prism: ${method} ${req.url}: the sandbox's answer ${why} breaks the export's schema: ${violations}\n`);
        }
      });
    })().catch((e: unknown) => {
      process.stderr.write(`prism front: ${(e as Error).message}\n`);
      res.destroy();
    });
  });
  front.keepAliveTimeout = 30_000;
  const frontPort = await listen(front);
  let closed: Promise<void> | undefined;
  return {
    ...sandbox,
    url: `http://127.0.0.1:${frontPort}`,
    port: frontPort,
    [VIA_PRISM]: true,
    close: () =>
      (closed ??= (async () => {
        await new Promise<void>((r) => {
          front.close(() => r());
          front.closeAllConnections();
        });
        await sandbox.close();
      })()),
  } as SandboxHandle;
}
