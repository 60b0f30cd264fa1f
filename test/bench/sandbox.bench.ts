// Sandbox benchmarks (the sandbox runs as a child process: dist/sandbox.js).
//  1. GET /general/Customers?PageSize=50 at 100,000 customers: keep-alive client, concurrency 16,
//     about 5 s, varying pages and sorts -> requests per second and latency percentiles.
//  2. Registry name search over 1.5 million taxpayers (a full scan with no match).
//  3. The registry ZIP for 1.5 million taxpayers: bytes, seconds, MB/s and the sandbox's peak RSS.
// Run: npm run bench -- sandbox   (options: --customers N --registry N --seconds S)
// No goals: every figure is reported (a BENCH line each, scripts/bench-report.js), with the sizes when
// they are not the defaults.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { printBench } from './benchLine';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const CUSTOMERS = arg('--customers', 100_000);
const REGISTRY = arg('--registry', 1_500_000);
const SECONDS = arg('--seconds', 5);
const CONCURRENCY = 16;
const MAX_REQUESTS = 500_000;
const SANDBOX = path.resolve(__dirname, '../../../dist/sandbox.js');

/** Sizes other than the defaults, for the BENCH lines' notes. */
function sizeNote(which: Array<'customers' | 'registry'>): string | undefined {
  const parts: string[] = [];
  if (which.includes('customers') && CUSTOMERS !== 100_000) parts.push(`${CUSTOMERS.toLocaleString('en')} customers, not the default 100,000`);
  if (which.includes('registry') && REGISTRY !== 1_500_000) parts.push(`${REGISTRY.toLocaleString('en')} taxpayers, not the default 1.5 M`);
  return parts.length ? parts.join('; ') : undefined;
}

/** The machine-readable line `npm run bench` collects: a figure without a goal. */
function benchLine(figure: string, value: number, unit: string, note?: string): void {
  printBench({ figure, goal: 'report', value, unit, ...(note ? { note } : {}) });
}

interface Running {
  child: ChildProcess;
  url: string;
  key: string;
}

async function startChild(extra: string[]): Promise<Running> {
  if (!fs.existsSync(SANDBOX)) throw new Error(`${SANDBOX} is missing: run node esbuild.js first`);
  const child = spawn(process.execPath, [SANDBOX, '--json', '--port', '0', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const msg = JSON.parse(line) as { event: string; url: string; keys: { full: string } };
    if (msg.event === 'listening') return { child, url: msg.url, key: msg.keys.full };
  }
  throw new Error('the sandbox exited before listening');
}

async function stopChild(r: Running): Promise<void> {
  const exited = new Promise((resolve) => r.child.once('exit', resolve));
  r.child.kill('SIGTERM');
  await exited;
}

/** VmHWM (peak resident set) and VmRSS of a process, in MB. */
function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}

/** One GET, body consumed and counted, never stored. */
function get(agent: http.Agent | false, url: string, key: string): Promise<{ status: number; bytes: number; head: string; tail: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { Authorization: `Bearer ${key}` } }, (res) => {
      let bytes = 0;
      let head = '';
      let tail = '';
      res.on('data', (c: Buffer) => {
        if (head.length < 8) head += c.subarray(0, 8).toString('latin1');
        tail = c.subarray(Math.max(0, c.length - 4)).toString('latin1');
        bytes += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, head, tail }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function customersThroughput(): Promise<void> {
  const started = Date.now();
  const sb = await startChild(['--customers', String(CUSTOMERS), '--registry', String(REGISTRY)]);
  console.log(`sandbox with ${CUSTOMERS} customers, ${REGISTRY} taxpayers ready in ${Date.now() - started} ms`);
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const pages = Math.ceil(CUSTOMERS / 50);
    const sorts = ['', '&SortColumn=Name&SortType=ASC', '&SortColumn=Name&SortType=DESC', '&SortColumn=City&SortType=ASC'];
    // The first request of each sort builds its cached view: time those separately.
    for (const sort of sorts.slice(1)) {
      const t = performance.now();
      const r = await get(agent, `${sb.url}/general/Customers?PageSize=50&Page=1${sort}`, sb.key);
      if (r.status !== 200) throw new Error(`status ${r.status}`);
      console.log(`first request with ${sort.slice(1)} (builds the sorted view): ${(performance.now() - t).toFixed(0)} ms`);
    }
    const latencies: number[] = [];
    let errors = 0;
    let bytes = 0;
    let n = 0;
    const deadline = performance.now() + SECONDS * 1000;
    const t0 = performance.now();
    const worker = async (w: number) => {
      for (let i = 0; performance.now() < deadline && n < MAX_REQUESTS; i++) {
        n++;
        const page = 1 + ((w * 7919 + i * 104729) % pages);
        const sort = sorts[(w + i) % sorts.length];
        const t = performance.now();
        const r = await get(agent, `${sb.url}/general/Customers?PageSize=50&Page=${page}${sort}`, sb.key);
        latencies.push(performance.now() - t);
        bytes += r.bytes;
        if (r.status !== 200) errors++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
    const elapsed = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);
    console.log(
      `GET /general/Customers?PageSize=50 (${CUSTOMERS} customers, concurrency ${CONCURRENCY}, keep-alive): ` +
        `${latencies.length} requests in ${elapsed.toFixed(1)} s = ${(latencies.length / elapsed).toFixed(0)} req/s, ` +
        `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ` +
        `${(bytes / latencies.length / 1024).toFixed(1)} KiB/answer, errors ${errors}`,
    );
    benchLine('sandbox GET /general/Customers?PageSize=50, concurrency 16', latencies.length / elapsed, 'req/s', sizeNote(['customers']));
    benchLine('sandbox GET /general/Customers?PageSize=50 p99', percentile(latencies, 99), 'ms', sizeNote(['customers']));

    for (const [label, text] of [['no match (full scan)', 'zzqqxx'], ['common word', 'Anadolu']] as const) {
      const times: number[] = [];
      for (let k = 0; k < 3; k++) {
        const t = performance.now();
        const r = await get(agent, `${sb.url}/general/GlobalCompany/Check/Name/${encodeURIComponent(text)}`, sb.key);
        if (r.status !== 200) throw new Error(`status ${r.status}`);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      console.log(`registry name search over ${REGISTRY} taxpayers, ${label}: median ${times[1].toFixed(0)} ms`);
      benchLine(`sandbox registry name search, ${label}, median`, times[1], 'ms', sizeNote(['registry']));
    }
    agent.destroy();
    const mem = memoryOf(sb.child.pid!);
    console.log(`sandbox memory with ${CUSTOMERS} customers: RSS ${mem.rssMb.toFixed(0)} MB, peak ${mem.peakMb.toFixed(0)} MB`);
    benchLine('sandbox peak RSS with the customers and the registry', mem.peakMb, 'MB', sizeNote(['customers', 'registry']));
  } finally {
    await stopChild(sb);
  }
}

async function registryZip(): Promise<void> {
  const sb = await startChild(['--customers', '300', '--registry', String(REGISTRY)]);
  try {
    const before = memoryOf(sb.child.pid!);
    let peak = before.peakMb;
    const poll = setInterval(() => {
      peak = Math.max(peak, memoryOf(sb.child.pid!).peakMb);
    }, 200);
    const t = performance.now();
    const r = await get(false, `${sb.url}/general/GlobalCompany/PK/Invoice`, sb.key);
    const seconds = (performance.now() - t) / 1000;
    clearInterval(poll);
    peak = Math.max(peak, memoryOf(sb.child.pid!).peakMb);
    if (r.status !== 200 || !r.head.startsWith('"UEsDB') || !r.tail.endsWith('"')) throw new Error(`unexpected answer ${r.status} ${r.head}…${r.tail}`);
    const zipBytes = ((r.bytes - 2) * 3) / 4;
    console.log(
      `registry ZIP PK/Invoice for ${REGISTRY} taxpayers: ${(r.bytes / 1e6).toFixed(1)} MB of JSON (≈ ${(zipBytes / 1e6).toFixed(1)} MB ZIP) ` +
        `in ${seconds.toFixed(1)} s = ${(r.bytes / 1e6 / seconds).toFixed(1)} MB/s; sandbox peak RSS ${peak.toFixed(0)} MB (${before.peakMb.toFixed(0)} MB before the download)`,
    );
    benchLine('sandbox registry ZIP PK/Invoice download', seconds, 's', sizeNote(['registry']));
    benchLine('sandbox peak RSS serving the registry ZIP', peak, 'MB', sizeNote(['registry']));
  } finally {
    await stopChild(sb);
  }
}

async function main(): Promise<void> {
  await customersThroughput();
  await registryZip();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
