// API client benchmarks, each against the sandbox running in its own process (so the server's
// work does not share the measured event loop):
//  1. Overhead: N × GET /general/Customers/{ID} through the client vs the same requests with plain
//     node-fetch, interleaved rounds, median per side. Target ratio ≤ 1.10.
//  2. Registry ZIP (1.5 million taxpayers by default): client.registry.downloadList (streaming
//     base64 decode) + the ZIP reader (src/domain/zip.ts) + the streaming XML parser over every taxpayer, vs a baseline that only
//     downloads the body and inflates the entry with zlib. Each side runs in a fresh process so
//     its peak RSS is its own. Targets: time ≤ 2.0× the baseline, peak RSS ≤ 2 × ZIP + 150 MB.
// Run: npm run bench -- client   (options: --requests N --registry N --skip-zip)
// Prints its figures, each also as a BENCH line (scripts/bench-report.js); exits 1 when a target is missed.

import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as zlib from 'node:zlib';
import { createClient } from '../../src/api';
import type { FetchLike } from '../../src/api';
import { printBench, type BenchFigure } from './benchLine';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

interface ServeReady {
  url: string;
  key: string;
}

// ---- child roles -----------------------------------------------------------------------------

/** Child: runs the sandbox and reports its URL and key. */
async function serve(registry: number): Promise<void> {
  const { startSandbox } = await import('../../src/sandbox/server');
  const sb = await startSandbox({ quiet: true, customers: 500, registry, seed: 3 });
  process.send?.({ url: sb.url, key: sb.keys.full } satisfies ServeReady);
  process.on('disconnect', () => void sb.close().then(() => process.exit(0)));
}

/** Samples RSS every 20 ms; returns a stop function giving the peak. */
function rssSampler(): () => number {
  let peak = process.memoryUsage().rss;
  const t = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  return () => {
    clearInterval(t);
    return Math.max(peak, process.memoryUsage().rss);
  };
}

async function loadNodeFetch(): Promise<FetchLike> {
  const mod = (await import('node-fetch')) as unknown as { default: FetchLike | { default: FetchLike } };
  return typeof mod.default === 'function' ? mod.default : mod.default.default;
}

/** Child: the client's full path over the registry list. */
async function zipClient(url: string, key: string): Promise<void> {
  const { iterateRegistryZipBatches } = await import('../../src/domain/registryZip');
  const stop = rssSampler();
  const started = performance.now();
  const client = createClient({ baseUrl: url, getApiKey: async () => key, timeoutMs: 300_000 });
  const dl = await client.registry.downloadList('PK', 'Invoice', { kind: 'buffer' });
  const downloadedMs = performance.now() - started;
  let taxpayers = 0;
  let aliases = 0;
  for await (const batch of iterateRegistryZipBatches(dl.buffer!)) {
    taxpayers += batch.length;
    for (const t of batch) for (const d of t.Documents) aliases += d.aliases.length;
  }
  const ms = performance.now() - started;
  process.send?.({ ms, downloadedMs, peakRss: stop(), zipBytes: dl.bytes, taxpayers, aliases });
}

/** Child: baseline — download the body, base64-decode it, inflate the entry with zlib; no parsing. */
async function zipBaseline(url: string, key: string): Promise<void> {
  const nodeFetch = await loadNodeFetch();
  const stop = rssSampler();
  const started = performance.now();
  const res = await nodeFetch(`${url}/general/GlobalCompany/PK/Invoice`, { method: 'GET', headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' }, signal: new AbortController().signal });
  const zip = Buffer.from(JSON.parse(await res.text()) as string, 'base64');
  // One entry: skip the local file header and inflate the raw deflate data that follows.
  if (zip.readUInt32LE(0) !== 0x04034b50) throw new Error('not a ZIP');
  const dataStart = 30 + zip.readUInt16LE(26) + zip.readUInt16LE(28);
  let inflated = 0;
  await new Promise<void>((resolve, reject) => {
    const inflate = zlib.createInflateRaw();
    inflate.on('data', (c: Buffer) => (inflated += c.length));
    inflate.on('end', resolve);
    inflate.on('error', reject);
    inflate.end(zip.subarray(dataStart));
  });
  process.send?.({ ms: performance.now() - started, peakRss: stop(), zipBytes: zip.length, inflated });
}

// ---- parent ----------------------------------------------------------------------------------

function start(role: string[], execArgv: string[] = []): ChildProcess {
  return fork(__filename, role, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
}

function firstMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as T));
    child.once('exit', (code) => reject(new Error(`child exited with ${code} before answering`)));
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const MB = (b: number) => (b / 1024 / 1024).toFixed(1);

const ROUNDS = 11;
const FULL_REGISTRY = 1_500_000;

/** The machine-readable line `npm run bench` collects; a baseline is in the value's unit and the goal is about the ratio. */
function benchLine(f: BenchFigure): void {
  printBench(f);
}

const OVERHEAD_FIGURE = 'client overhead, GET /general/Customers/{ID} (baseline: plain node-fetch)';
const ZIP_FIGURES = ['client registry ZIP: downloadList + parse (baseline: download + base64 + zlib inflate, separate processes)', 'client peak RSS over the registry ZIP'];

async function overhead(requests: number): Promise<boolean> {
  const server = start(['--serve', '0']);
  const { url, key } = await firstMessage<ServeReady>(server);
  try {
    const nodeFetch = await loadNodeFetch();
    const client = createClient({ baseUrl: url, getApiKey: async () => key });
    const ids = (await client.customers.list({ PageSize: 100 })).Content!.map((c) => c.ID);
    const concurrency = 4;
    // This process's CPU per side (the sandbox is another process): what the client itself costs.
    const cpu = { plain: [] as number[], client: [] as number[] };
    const run = async (one: (id: number) => Promise<unknown>, side?: keyof typeof cpu): Promise<number> => {
      let next = 0;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < requests) {
            const i = next++;
            await one(ids[i % ids.length]);
          }
        }),
      );
      const wall = performance.now() - t0;
      const used = process.cpuUsage(cpu0);
      if (side) cpu[side].push((used.user + used.system) / 1000);
      return wall;
    };
    const plain = async (id: number) => {
      const res = await nodeFetch(`${url}/general/Customers/${id}`, { method: 'GET', headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' } } as never);
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      return JSON.parse(await res.text());
    };
    const viaClient = (id: number) => client.customers.get(id);
    // Warm-up, then interleaved rounds so drift (GC, CPU frequency) hits both sides alike.
    await run(plain);
    await run(viaClient);
    const plainMs: number[] = [];
    const clientMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plainMs.push(await run(plain, 'plain'));
      clientMs.push(await run(viaClient, 'client'));
    }
    const ratio = median(clientMs) / median(plainMs);
    const bestRatio = Math.min(...clientMs) / Math.min(...plainMs);
    console.log(`client overhead: ${requests} × GET /general/Customers/{ID}, concurrency ${concurrency}, median of ${ROUNDS} interleaved rounds`);
    console.log(`  plain node-fetch ${median(plainMs).toFixed(0)} ms (${((requests / median(plainMs)) * 1000).toFixed(0)} req/s)   rounds: ${plainMs.map((m) => m.toFixed(0)).join(', ')}`);
    console.log(`  client           ${median(clientMs).toFixed(0)} ms (${((requests / median(clientMs)) * 1000).toFixed(0)} req/s)   rounds: ${clientMs.map((m) => m.toFixed(0)).join(', ')}`);
    console.log(`  ratio of medians ${ratio.toFixed(3)} (target ≤ 1.10) ${ratio <= 1.1 ? 'OK' : 'MISSED'}; ratio of best rounds ${bestRatio.toFixed(3)}`);
    console.log(`  this process's CPU per round, median: plain ${median(cpu.plain).toFixed(0)} ms, client ${median(cpu.client).toFixed(0)} ms (${(median(cpu.client) / median(cpu.plain)).toFixed(3)}x; ${(((median(cpu.client) - median(cpu.plain)) / requests) * 1000).toFixed(1)} µs a call)`);
    benchLine({ figure: OVERHEAD_FIGURE, goal: '≤ 1.10×', value: median(clientMs), unit: 'ms', baseline: median(plainMs), met: ratio <= 1.1 });
    return ratio <= 1.1;
  } finally {
    server.disconnect();
  }
}

interface ZipResult {
  ms: number;
  peakRss: number;
  zipBytes: number;
  downloadedMs?: number;
  taxpayers?: number;
  aliases?: number;
  inflated?: number;
}

async function registryZip(registry: number): Promise<boolean> {
  const server = start(['--serve', String(registry)], ['--max-old-space-size=4096']);
  const { url, key } = await firstMessage<ServeReady>(server);
  try {
    const measure = (role: string) => {
      const child = start([role, url, key]);
      return firstMessage<ZipResult>(child);
    };
    const base: ZipResult[] = [];
    const full: ZipResult[] = [];
    for (let i = 0; i < 2; i++) {
      base.push(await measure('--zip-baseline'));
      full.push(await measure('--zip-client'));
    }
    const b = median(base.map((r) => r.ms));
    const c = median(full.map((r) => r.ms));
    const zipBytes = full[0].zipBytes;
    const peak = Math.max(...full.map((r) => r.peakRss));
    const rssLimit = 2 * zipBytes + 150 * 1024 * 1024;
    const ratio = c / b;
    const bestRatio = Math.min(...full.map((r) => r.ms)) / Math.min(...base.map((r) => r.ms));
    console.log(`registry ZIP: ${registry.toLocaleString('en')} taxpayers, ZIP ${MB(zipBytes)} MiB, XML ${MB(base[0].inflated ?? 0)} MiB`);
    console.log(`  baseline (download + base64 + zlib inflate, no parsing): ${base.map((r) => r.ms.toFixed(0)).join(', ')} ms; peak RSS ${MB(Math.max(...base.map((r) => r.peakRss)))} MiB`);
    console.log(
      `  client (downloadList streaming decode + ZIP reader + XML parser): ${full.map((r) => r.ms.toFixed(0)).join(', ')} ms ` +
        `(download+decode ${full.map((r) => r.downloadedMs!.toFixed(0)).join(', ')} ms); ${full[0].taxpayers?.toLocaleString('en')} taxpayers, ${full[0].aliases?.toLocaleString('en')} aliases`,
    );
    console.log(`  time ratio of medians ${ratio.toFixed(2)} (target ≤ 2.0) ${ratio <= 2 ? 'OK' : 'MISSED'}; of best runs ${bestRatio.toFixed(2)}`);
    console.log(`  client peak RSS ${MB(peak)} MiB (target ≤ 2 × ZIP + 150 MiB = ${MB(rssLimit)} MiB) ${peak <= rssLimit ? 'OK' : 'MISSED'}`);
    if (full[0].taxpayers !== registry) console.log(`  NOTE: parsed ${full[0].taxpayers} taxpayers of ${registry} (entries without PK aliases are left out of a PK list)`);
    const note = registry === FULL_REGISTRY ? undefined : `${registry.toLocaleString('en')} taxpayers, not the default 1.5 M`;
    benchLine({ figure: ZIP_FIGURES[0], goal: '≤ 2.0×', value: c / 1000, unit: 's', baseline: b / 1000, met: ratio <= 2, note });
    benchLine({ figure: ZIP_FIGURES[1], goal: `≤ ${MB(rssLimit)} MiB (2 × ZIP + 150 MiB)`, value: peak / 1024 / 1024, unit: 'MiB', met: peak <= rssLimit, note });
    return ratio <= 2 && peak <= rssLimit;
  } finally {
    server.disconnect();
  }
}

async function main(): Promise<void> {
  if (args[0] === '--serve') return serve(Number(args[1]) || 1000);
  if (args[0] === '--zip-client') return zipClient(args[1], args[2]).then(() => process.exit(0));
  if (args[0] === '--zip-baseline') return zipBaseline(args[1], args[2]).then(() => process.exit(0));
  let ok = await overhead(arg('--requests', 2000));
  if (!args.includes('--skip-zip')) ok = (await registryZip(arg('--registry', FULL_REGISTRY))) && ok;
  else for (const figure of ZIP_FIGURES) benchLine({ figure, goal: figure === ZIP_FIGURES[0] ? '≤ 2.0×' : '≤ 2 × ZIP + 150 MiB', skipped: '--skip-zip' });
  process.exit(ok ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
