// Offline registry index on a sandbox with 1.5 million taxpayers whose titles draw from a realistic
// vocabulary (several hundred thousand distinct words). The sandbox runs as a child process, so its
// memory is not counted. The judged download + index figures download the list from a sandbox that
// built it once beforehand and serves it from memory (--keep-lists), as the platform serves a
// prepared file: generating and deflating 1.5 M taxpayers takes the sandbox about 20 s of CPU, on the
// same 2 cores as the client. The same figures with the list generated while served are reported
// beside them. Figures, each next to its goal:
//   - index bytes vs ZIP bytes (≤ 1.2×)
//   - download + index to searchable (≤ 12 s), the product's way: indexed while the ZIP downloads,
//     the ZIP checked whole, then the index installed (src/registry/streamingIndex.ts)
//   - peak RSS of this process while downloading and indexing (≤ 200 MB)
//   Both beside their floor in the same run: the same download with the entry only inflated on the way.
//   - download + inflate + parse vs download + zlib inflate alone, same run (≤ 1.25×)
//   - look-up p99 by tax number (≤ 1 ms) and by title words (≤ 50 ms): common, mid and rare words
//   - the index build from the ZIP fed by the list encoder vs the general parser, same run (report)
// Run: npm run bench -- registryIndex   (or node --expose-gc out/test/bench/registryIndex.bench.js --registry N)
// The goals are for 1.5 million taxpayers. At another size (`--registry N`, as `npm run bench -- --summary`
// does to stay quick) every BENCH line notes the size, and the figures that grow with the list (time,
// memory, look-ups by title words) are reported, not judged.

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { once } from 'node:events';
import * as readline from 'node:readline';
import * as zlib from 'node:zlib';
import { createClient } from '../../src/api';
import type { Taxpayer } from '../../src/domain/registryXml';
import { iterateRegistryZipBatches, streamFirstEntry } from '../../src/domain/registryZip';
import { ZipArchive } from '../../src/domain/zip';
import { buildIndexFromZip, currentIndexFolder, downloadAndIndex, foldedWords, RegistryIndexReader } from '../../src/registry';
import { PendingIndex } from '../../src/registry/builder';
import { TAXPAYERS_PER_BATCH } from '../../src/registry/indexSink';
import { ListEncoder } from '../../src/registry/listEncoder';
import { printBench } from './benchLine';

/** The size the goals are for. */
const GOAL_SIZE = 1_500_000;
const args = process.argv.slice(2);
const at = args.indexOf('--registry');
const REGISTRY = at >= 0 ? Number(args[at + 1]) : GOAL_SIZE;
const FULL_SIZE = REGISTRY === GOAL_SIZE;
const root = path.resolve(__dirname, '..', '..', '..');
const gc = (globalThis as { gc?: () => void }).gc;

interface Figure {
  figure: string;
  /** The goal's text, and whether the value meets it; undefined for a figure without a goal. */
  goal?: [string, boolean];
  value: number;
  unit: string;
  /** A same-run baseline in the same unit (a goal in × is about value / baseline; another goal is about the value). */
  baseline?: number;
  /** The figure grows with the list: at another size than the goal's, it is reported, not judged. */
  grows?: boolean;
}

/** The machine-readable line `npm run bench` collects (scripts/bench-report.js); exit code 1 for a judged goal missed. */
function benchLine(f: Figure): void {
  const size = `${REGISTRY.toLocaleString('en')} taxpayers, not the goals' 1.5 M`;
  const [goal, met] = f.goal ?? ['report', undefined];
  const judged = met !== undefined && (FULL_SIZE || !f.grows);
  if (judged && !met) process.exitCode = 1;
  printBench({
    figure: f.figure,
    goal: judged ? goal : 'report',
    value: f.value,
    unit: f.unit,
    ...(judged ? { met } : {}),
    ...(f.baseline !== undefined ? { baseline: f.baseline } : {}),
    ...(FULL_SIZE ? {} : { note: met !== undefined && !judged ? `${size}; goal ${goal} not judged` : size }),
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function buildSandbox(): void {
  const built = spawnSync(process.execPath, ['esbuild.js', '--only=sandbox'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('sandbox build failed');
}

/** A sandbox child process (buildSandbox first); with `keepLists`, each list's ZIP is built once and served from memory after. */
async function startSandboxProcess(keepLists = false): Promise<{ url: string; key: string; pid: number; stop: () => void }> {
  const args = ['--json', '--registry', String(REGISTRY), '--customers', '10', ...(keepLists ? ['--keep-lists'] : [])];
  const child = spawn(process.execPath, [path.join(root, 'dist/sandbox.js'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  for await (const line of lines) {
    const event = JSON.parse(line) as { event: string; url: string; keys: { full: string } };
    if (event.event === 'listening') return { url: event.url, key: event.keys.full, pid: child.pid ?? 0, stop: () => child.kill('SIGTERM') };
  }
  throw new Error('the sandbox exited before listening');
}

/** The one entry of a ZIP file inflated by zlib alone, bytes counted and dropped: the floor for any parser. */
async function inflateOnly(zipPath: string): Promise<number> {
  const zip = await ZipArchive.open(zipPath);
  let bytes = 0;
  try {
    for await (const chunk of await zip.open(zip.entries[0])) bytes += (chunk as Buffer).length;
  } finally {
    await zip.close();
  }
  return bytes;
}

/** Memory sampler: peak RSS between start() and stop(). */
function rssSampler(): { start(): void; stop(): number } {
  let peak = 0;
  let timer: NodeJS.Timeout | undefined;
  return {
    start() {
      peak = process.memoryUsage.rss();
      timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
    },
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

/** Words of the samples' titles by how many titles hold them: common, mid and rare picks. */
type Sample = Pick<Taxpayer, 'Identifier' | 'Title'>;

function wordsByFrequency(reader: RegistryIndexReader, samples: Sample[]): { common: string[]; mid: string[]; rare: string[]; counted: Map<string, number> } {
  const counted = new Map<string, number>();
  for (const t of samples) for (const w of foldedWords(t.Title)) if (!counted.has(w) && w.length > 2) counted.set(w, reader.searchWords(w + ' ', 1).total);
  const byCount = [...counted].sort((a, b) => b[1] - a[1]);
  const band = (lo: number, hi: number) => byCount.filter(([, n]) => n >= lo && n < hi).map(([w]) => w);
  return { common: band(10_000, Infinity).slice(0, 40), mid: band(100, 10_000).slice(0, 300), rare: band(1, 100).slice(0, 300), counted };
}

/** Wall and CPU time of each call (CPU time: this process only, steadier on a shared machine). */
function timeCalls(n: number, call: (i: number) => void): { p50: number; p99: number; cpuP50: number; cpuP99: number } {
  const ms: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < n; i++) {
    const c0 = process.cpuUsage();
    const s = performance.now();
    call(i);
    ms.push(performance.now() - s);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  ms.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), cpuP50: percentile(cpu, 0.5), cpuP99: percentile(cpu, 0.99) };
}

function timeQueries(reader: RegistryIndexReader, queries: string[]): ReturnType<typeof timeCalls> & { meanHits: number } {
  let hits = 0;
  const t = timeCalls(queries.length, (i) => {
    const r = reader.searchWords(queries[i], 50);
    hits += r.total;
    if (r.total === 0) throw new Error(`"${queries[i]}" found nothing`);
  });
  return { ...t, meanHits: hits / queries.length };
}

type Client = ReturnType<typeof createClient>;

/**
 * The list's first entry inflated as its ZIP bytes arrive (local header, then deflate data, which
 * ends by itself), its CRC-32 taken; nothing parsed or written. The floor's half of the download.
 */
class EntryInflater {
  private head = Buffer.alloc(0);
  private inflate: zlib.InflateRaw | undefined;
  private crc = 0;
  private bytes = 0;
  private finished = false;
  private markEnded: () => void = () => undefined;
  private readonly ended = new Promise<void>((resolve) => (this.markEnded = resolve));

  async write(chunk: Buffer): Promise<void> {
    if (this.finished) return;
    if (!this.inflate) {
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < 30) return;
      const start = 30 + this.head.readUInt16LE(26) + this.head.readUInt16LE(28);
      if (this.head.length < start) return;
      const inflate = zlib.createInflateRaw({ chunkSize: 1 << 16 });
      inflate.on('data', (d: Buffer) => {
        this.crc = zlib.crc32(d, this.crc);
        this.bytes += d.length;
      });
      // The bytes after the deflate data (descriptor, directory) make zlib end the entry.
      inflate.once('end', () => {
        this.finished = true;
        this.markEnded();
      });
      this.inflate = inflate;
      chunk = this.head.subarray(start);
    }
    if (!this.inflate.write(chunk)) await Promise.race([once(this.inflate, 'drain'), this.ended]);
  }

  /** Whether the finished ZIP's only entry has the size and CRC-32 inflated on the way. */
  async matches(zipPath: string): Promise<boolean> {
    if (!this.finished) this.inflate?.end();
    await this.ended;
    const zip = await ZipArchive.open(zipPath);
    await zip.close();
    return zip.entries.length === 1 && zip.entries[0].crc32 === this.crc && zip.entries[0].size === this.bytes;
  }
}

/**
 * The floor under download + index, measured the same way in the same run: the same download (to the
 * file, the ZIP checked against what was read on the way) with the entry only inflated on the way.
 * What any index built during the download pays before it parses a byte; the rest is the index's.
 */
async function downloadAndInflateOnce(client: Client, dir: string) {
  const zip = path.join(dir, 'floor.zip');
  const entry = new EntryInflater();
  const rss = rssSampler();
  gc?.();
  const rssBefore = process.memoryUsage.rss();
  rss.start();
  const started = performance.now();
  try {
    await client.registry.downloadList('PK', 'Invoice', {
      kind: 'file',
      path: zip,
      verifyZip: true,
      onZipBytes: (bytes) => entry.write(bytes),
      checkedOnTheWay: async (file) => {
        if (!('path' in file) || !(await entry.matches(file.path))) throw new Error('the entry inflated on the way does not match the ZIP');
        return true;
      },
    });
    return { ms: performance.now() - started, peakRss: rss.stop(), rssBefore };
  } finally {
    rss.stop();
    fs.rmSync(zip, { force: true });
  }
}

interface FloorFigures {
  ms: number;
  peakRss: number;
  rssBefore: number;
}

/**
 * The floor in a fresh process of this benchmark (--floor-of <url>, the key in the environment): its
 * peak RSS is then its own, from the same start as the judged run's, whatever ran before it here.
 */
function floorInChildProcess(sandbox: { url: string; key: string }, dir: string): FloorFigures {
  const r = spawnSync(process.execPath, ['--expose-gc', __filename, '--floor-of', sandbox.url, '--registry', String(REGISTRY)], {
    encoding: 'utf8',
    env: { ...process.env, NILVERA_BENCH_FLOOR_KEY: sandbox.key, NILVERA_BENCH_FLOOR_DIR: dir },
    timeout: 600_000,
  });
  const line = /^FLOOR (.*)$/m.exec(r.stdout ?? '');
  if (r.status !== 0 || !line) throw new Error(`the floor run failed (exit ${r.status}): ${(r.stderr ?? '').slice(-1000)}`);
  return JSON.parse(line[1]) as FloorFigures;
}

/** The child's side of floorInChildProcess. */
async function floorMain(url: string): Promise<void> {
  const key = process.env.NILVERA_BENCH_FLOOR_KEY ?? '';
  const dir = process.env.NILVERA_BENCH_FLOOR_DIR ?? os.tmpdir();
  const client = createClient({ baseUrl: url, getApiKey: async () => key, timeoutMs: 600_000 });
  const figures: FloorFigures = await downloadAndInflateOnce(client, dir);
  console.log(`FLOOR ${JSON.stringify(figures)}`);
}

/**
 * The product's way (the Download Registry List command): the index is built while the ZIP
 * downloads, the ZIP is checked whole before its rename, and only then is the index installed.
 */
async function downloadAndIndexOnce(client: Client, dir: string, name: string, serverPid: number) {
  const zip = path.join(dir, `${name}.zip`);
  const storage = path.join(dir, `index-${name}`);
  const rss = rssSampler();
  let downloaded = 0;
  gc?.();
  const rssBefore = process.memoryUsage.rss();
  rss.start();
  // How long the thread that runs the build (the extension host's, in VS Code) is kept from
  // answering anything else: every other extension waits that long.
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuMs();
  const server0 = processCpuMs(serverPid);
  let searchable = 0;
  try {
    const { value: result, gcs, gcMs } = await withGcCount(async () => {
      const built = await downloadAndIndex(
        (hooks) => client.registry.downloadList('PK', 'Invoice', { kind: 'file', path: zip, verifyZip: true, ...hooks }).finally(() => (downloaded = performance.now())),
        zip,
        storage,
        { aliasType: 'PK', userType: 'Invoice' },
      );
      searchable = performance.now();
      return built;
    });
    const cpu = process.cpuUsage(cpu0);
    const serverCpu = (processCpuMs(serverPid) ?? Number.NaN) - (server0 ?? Number.NaN);
    console.log(`  ${name}: CPU of this process (all threads) ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, this thread's CPU ${((mainThreadCpuMs() - main0) / 1000).toFixed(1)} s, its GCs ${gcs} (${(gcMs / 1000).toFixed(2)} s); the sandbox's CPU ${(serverCpu / 1000).toFixed(1)} s; load ${os.loadavg()[0].toFixed(1)}`);
    if (!result.streamed) throw new Error(`the index was not built on the way: ${result.notStreamedBecause}`);
    return { result, zip, storage, rssBefore, peakRss: rss.stop(), downloadMs: downloaded - started, afterMs: searchable - downloaded, stallP99: stalls.percentile(99) / 1e6, stallMax: stalls.max / 1e6 };
  } finally {
    rss.stop();
    stalls.disable();
  }
}

/** User + system CPU time (ms) in a /proc stat file (Linux); undefined elsewhere. */
function statCpuMs(statFile: string): number | undefined {
  try {
    const fields = fs.readFileSync(statFile, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** CPU time (ms) the process `pid` has used so far; undefined off Linux. */
const processCpuMs = (pid: number) => statCpuMs(`/proc/${pid}/stat`);

/** CPU time (ms) of this process's main thread so far; NaN off Linux. */
const mainThreadCpuMs = () => statCpuMs(`/proc/self/task/${process.pid}/stat`) ?? Number.NaN;

/** This thread's collections (count, ms) while `run` runs. */
async function withGcCount<T>(run: () => Promise<T>): Promise<{ value: T; gcs: number; gcMs: number }> {
  let gcs = 0;
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcs++;
      gcMs += e.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    const value = await run();
    await new Promise((resolve) => setImmediate(resolve));
    return { value, gcs, gcMs };
  } finally {
    observer.disconnect();
  }
}

/**
 * One index build from the finished ZIP, fed by the list encoder (the product's build on the way) or
 * by the general parser + encodeRecord (the build from a file).
 */
async function buildFedBy(encoder: boolean, zipPath: string, storage: string) {
  gc?.();
  const rss = rssSampler();
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuMs();
  rss.start();
  const t0 = performance.now();
  try {
    const { gcs, gcMs } = await withGcCount(async () => {
      const pending = await PendingIndex.start(storage, {});
      try {
        const feed = encoder ? streamFirstEntry(fs.createReadStream(zipPath), new ListEncoder(TAXPAYERS_PER_BATCH)) : iterateRegistryZipBatches(zipPath);
        await pending.addFrom(feed);
        await pending.finish({ aliasType: 'PK', userType: 'Invoice', zipBytes: 1 });
        await pending.install();
      } catch (e) {
        await pending.abandon();
        throw e;
      }
    });
    const cpu = process.cpuUsage(cpu0);
    return { ms: performance.now() - t0, mainCpuMs: mainThreadCpuMs() - main0, cpuMs: (cpu.user + cpu.system) / 1000, peakRss: rss.stop(), gcs, gcMs };
  } finally {
    rss.stop();
    fs.rmSync(storage, { recursive: true, force: true });
  }
}

/**
 * Same run, interleaved `rounds` times: the index build fed by the list encoder against the general
 * parser + encodeRecord. The list encoder stays only while it saves the extension host's thread a
 * clear share of the download-to-searchable time (this thread's CPU is the figure a loaded machine
 * does not distort; wall time is printed too).
 */
async function compareFeeds(zipPath: string, dir: string, rounds: number): Promise<void> {
  const label = (encoder: boolean) => (encoder ? 'list encoder' : 'general parser + encodeRecord');
  const runs = new Map<boolean, Array<Awaited<ReturnType<typeof buildFedBy>>>>([[true, []], [false, []]]);
  for (let round = 0; round < rounds; round++) {
    for (const encoder of [true, false]) {
      const r = await buildFedBy(encoder, zipPath, path.join(dir, 'feed'));
      runs.get(encoder)!.push(r);
      console.log(`  round ${round + 1}, ${label(encoder)}: ${(r.ms / 1000).toFixed(2)} s, this thread's CPU ${(r.mainCpuMs / 1000).toFixed(2)} s, all threads' CPU ${(r.cpuMs / 1000).toFixed(2)} s, this thread's GCs ${r.gcs} (${r.gcMs.toFixed(0)} ms), peak RSS ${(r.peakRss / 1e6).toFixed(0)} MB`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const of = (encoder: boolean, pick: (r: Awaited<ReturnType<typeof buildFedBy>>) => number) => median(runs.get(encoder)!.map(pick));
  for (const encoder of [true, false]) {
    console.log(`index from the ZIP, ${label(encoder)}: median ${(of(encoder, (r) => r.ms) / 1000).toFixed(2)} s, this thread's CPU ${(of(encoder, (r) => r.mainCpuMs) / 1000).toFixed(2)} s, all threads' CPU ${(of(encoder, (r) => r.cpuMs) / 1000).toFixed(2)} s`);
  }
  console.log(`the general parser costs this thread ${(of(false, (r) => r.mainCpuMs) / of(true, (r) => r.mainCpuMs)).toFixed(2)}× the list encoder's CPU, wall ${(of(false, (r) => r.ms) / of(true, (r) => r.ms)).toFixed(2)}×`);
  benchLine({ figure: "registry index from the ZIP, this thread's CPU, general parser (baseline: list encoder)", value: of(false, (r) => r.mainCpuMs) / 1000, unit: 's', baseline: of(true, (r) => r.mainCpuMs) / 1000 });
  benchLine({ figure: 'registry index from the ZIP, general parser (baseline: list encoder)', value: of(false, (r) => r.ms) / 1000, unit: 's', baseline: of(true, (r) => r.ms) / 1000 });
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores (a busy machine makes the times noisy)`);
  // Two sandboxes. `kept` serves the list from memory once built, as the platform serves a prepared
  // file: the judged download + index figures, where only the client uses the 2 cores. `sandbox`
  // generates and deflates the list while it serves it (tens of seconds of CPU on the same 2 cores):
  // the plain download of the parse ratio, and the same download + index reported beside.
  buildSandbox();
  const sandbox = await startSandboxProcess();
  const kept = await startSandboxProcess(true);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-index-bench-'));
  try {
    const client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.key, timeoutMs: 600_000 });
    const keptClient = createClient({ baseUrl: kept.url, getApiKey: async () => kept.key, timeoutMs: 600_000 });
    const w0 = performance.now();
    await keptClient.registry.downloadList('PK', 'Invoice', { kind: 'file', path: path.join(dir, 'warm-up.zip') });
    fs.rmSync(path.join(dir, 'warm-up.zip'));
    console.log(`the kept sandbox built its PK/Invoice list in ${((performance.now() - w0) / 1000).toFixed(1)} s (not timed below)`);
    if (args.includes('--feeds')) {
      await keptClient.registry.downloadList('PK', 'Invoice', { kind: 'file', path: path.join(dir, 'feeds.zip') });
      await compareFeeds(path.join(dir, 'feeds.zip'), dir, Number(args[args.indexOf('--feeds') + 1]) || 2);
      return;
    }

    const run = await downloadAndIndexOnce(keptClient, dir, 'kept', kept.pid);
    const floor = floorInChildProcess(kept, dir);
    const { result, rssBefore, peakRss, downloadMs, afterMs, stallP99, stallMax } = run;
    const meta = result.meta;
    const download = { bytes: result.zipBytes };
    const folder = fs.readdirSync(run.storage).find((e) => e.startsWith('index-')) as string;
    const files = fs.readdirSync(path.join(run.storage, folder)).map((x) => [x, fs.statSync(path.join(run.storage, folder, x)).size] as const);
    const indexBytes = files.reduce((a, [, size]) => a + size, 0);
    console.log(`registry ${REGISTRY.toLocaleString('en')} in the sandbox; PK/Invoice list: ${meta.taxpayers.toLocaleString('en')} taxpayers, ${meta.words.toLocaleString('en')} distinct title words`);
    console.log(`index ${(indexBytes / 1e6).toFixed(1)} MB for a ${(download.bytes / 1e6).toFixed(1)} MB ZIP: ${(indexBytes / download.bytes).toFixed(2)}× (goal ≤ 1.2×; format 1 on this list, measured apart: 4.07×); ${(indexBytes / meta.taxpayers).toFixed(1)} bytes a taxpayer`);
    console.log(`  ${files.map(([name, size]) => `${name} ${(size / 1e6).toFixed(2)} MB`).join(', ')}`);
    benchLine({ figure: 'registry index on disk (baseline: the list\'s ZIP)', goal: ['≤ 1.2× the ZIP', indexBytes / download.bytes <= 1.2], value: indexBytes / 1e6, unit: 'MB', baseline: download.bytes / 1e6 });
    console.log(`download (list kept by the sandbox), checked, indexed on the way ${(downloadMs / 1000).toFixed(1)} s + rest of the index ${(afterMs / 1000).toFixed(1)} s = download-to-searchable ${((downloadMs + afterMs) / 1000).toFixed(1)} s (goal ≤ 12 s)`);
    console.log(`  floor, same run (a process of its own): the same download with the entry only inflated on the way ${(floor.ms / 1000).toFixed(1)} s, peak RSS ${(floor.peakRss / 1e6).toFixed(0)} MB (${(floor.rssBefore / 1e6).toFixed(0)} MB before); the index adds ${((downloadMs + afterMs - floor.ms) / 1000).toFixed(1)} s and ${((peakRss - floor.peakRss) / 1e6).toFixed(0)} MB`);
    benchLine({ figure: 'registry download + index to searchable (baseline: the same download, entry only inflated)', goal: ['≤ 12 s', downloadMs + afterMs <= 12_000], value: (downloadMs + afterMs) / 1000, unit: 's', baseline: floor.ms / 1000, grows: true });
    benchLine({ figure: 'registry download with the index built on the way (of the above)', value: downloadMs / 1000, unit: 's' });
    benchLine({ figure: 'registry index after the download (of the above)', value: afterMs / 1000, unit: 's' });
    console.log(`peak RSS while downloading and indexing: ${(peakRss / 1e6).toFixed(0)} MB (goal ≤ 200 MB; ${(rssBefore / 1e6).toFixed(0)} MB before; format 1 on this list, measured apart: 574 MB)`);
    console.log(`this thread's stalls while downloading and indexing: p99 ${stallP99.toFixed(0)} ms, longest ${stallMax.toFixed(0)} ms`);
    benchLine({ figure: 'registry download + index: longest stall of the building thread', value: Math.round(stallMax), unit: 'ms' });
    benchLine({ figure: 'registry peak RSS while indexing (baseline: the same download, entry only inflated)', goal: ['≤ 200 MB', peakRss <= 200e6], value: Math.round(peakRss / 1e6), unit: 'MB', baseline: Math.round(floor.peakRss / 1e6), grows: true });
    fs.rmSync(run.zip);

    // The same with the list generated while it is served: the sandbox's CPU shares the 2 cores.
    const live = await downloadAndIndexOnce(client, dir, 'live', sandbox.pid);
    console.log(`the same, the list generated while served: download + index ${(live.downloadMs / 1000).toFixed(1)} s + ${(live.afterMs / 1000).toFixed(1)} s, peak RSS ${(live.peakRss / 1e6).toFixed(0)} MB`);
    benchLine({ figure: 'registry download + index to searchable, list generated while served (sandbox on the same 2 cores)', value: (live.downloadMs + live.afterMs) / 1000, unit: 's' });
    benchLine({ figure: 'registry peak RSS while indexing, list generated while served', value: Math.round(live.peakRss / 1e6), unit: 'MB' });
    fs.rmSync(live.zip);
    fs.rmSync(live.storage, { recursive: true, force: true });

    // Same run: a plain download (no index on the way, no check), then inflate + parse of its file
    // against zlib inflate alone. Every 97th taxpayer's number and title are kept as look-up samples.
    const plainZip = path.join(dir, 'plain.zip');
    const d0 = performance.now();
    const ourCpu0 = process.cpuUsage();
    const sandboxCpu0 = processCpuMs(sandbox.pid) ?? Number.NaN;
    await client.registry.downloadList('PK', 'Invoice', { kind: 'file', path: plainZip });
    const plainDownloadMs = performance.now() - d0;
    const ourCpu = process.cpuUsage(ourCpu0);
    // The download's length is set by the sandbox generating the list, not by this process.
    console.log(`plain download: the sandbox's CPU ${(((processCpuMs(sandbox.pid) ?? Number.NaN) - sandboxCpu0) / 1000).toFixed(1)} s, this process's ${((ourCpu.user + ourCpu.system) / 1e6).toFixed(1)} s`);
    gc?.();
    const samples: Sample[] = [];
    let parsed = 0;
    const p0 = performance.now();
    for await (const batch of iterateRegistryZipBatches(plainZip)) {
      for (const t of batch) if (parsed++ % 97 === 0) samples.push({ Identifier: t.Identifier, Title: t.Title });
    }
    const parseMs = performance.now() - p0;
    const i0 = performance.now();
    const inflated = await inflateOnly(plainZip);
    const inflateMs = performance.now() - i0;
    const ratio = (plainDownloadMs + parseMs) / (plainDownloadMs + inflateMs);
    console.log(`plain download ${(plainDownloadMs / 1000).toFixed(1)} s; ZIP → taxpayers: inflate + parse ${(parseMs / 1000).toFixed(1)} s (${parsed.toLocaleString('en')} taxpayers), zlib inflate alone ${(inflateMs / 1000).toFixed(1)} s (${(inflated / 1e6).toFixed(0)} MB XML)`);
    console.log(`download + decode + parse vs download + inflate alone: ${ratio.toFixed(2)}× (goal ≤ 1.25×; before: 1.40×)`);
    benchLine({ figure: 'registry inflate + parse of the file, no download (baseline: zlib inflate alone)', value: parseMs / 1000, unit: 's', baseline: inflateMs / 1000 });
    benchLine({ figure: 'registry download + decode + parse (baseline: download + zlib inflate alone)', goal: ['≤ 1.25×', ratio <= 1.25], value: (plainDownloadMs + parseMs) / 1000, unit: 's', baseline: (plainDownloadMs + inflateMs) / 1000 });

    // Same run: the index built from the finished ZIP (no download beside it), with the records and
    // title words written in the worker thread (the product) and in this thread (before the worker),
    // one after the other.
    const buildFromFile = async (inWorker: boolean): Promise<number> => {
      gc?.();
      const t0 = performance.now();
      await buildIndexFromZip(plainZip, path.join(dir, `from-file-${inWorker ? 'worker' : 'thread'}`), { aliasType: 'PK', userType: 'Invoice', zipBytes: download.bytes }, { inWorker });
      return performance.now() - t0;
    };
    const inThreadMs = await buildFromFile(false);
    const inWorkerMs = await buildFromFile(true);
    console.log(`index from the finished ZIP: records and title words written in a worker thread ${(inWorkerMs / 1000).toFixed(1)} s, in this thread ${(inThreadMs / 1000).toFixed(1)} s (${(inWorkerMs / inThreadMs).toFixed(2)}×)`);
    benchLine({ figure: 'registry index from the finished ZIP, written in a worker (baseline: in this thread)', value: inWorkerMs / 1000, unit: 's', baseline: inThreadMs / 1000 });
    // Same run: the list's two readers (--feeds N: only this, N interleaved rounds).
    await compareFeeds(plainZip, dir, 1);

    gc?.();
    const openStart = performance.now();
    const reader = RegistryIndexReader.openFolder(currentIndexFolder(run.storage)!);
    console.log(`open index: ${(performance.now() - openStart).toFixed(1)} ms, rss after open ${(process.memoryUsage.rss() / 1e6).toFixed(0)} MB`);

    const byNumber = timeCalls(samples.length * 3, (i) => {
      const t = samples[i % samples.length];
      if (reader.byTaxNumber(t.Identifier)?.Identifier !== t.Identifier) throw new Error(`lookup of ${t.Identifier} failed`);
    });
    console.log(`look-up by tax number (${samples.length * 3}): p50 ${byNumber.p50.toFixed(3)} ms, p99 ${byNumber.p99.toFixed(3)} ms (goal ≤ 1 ms); CPU time p50 ${byNumber.cpuP50.toFixed(3)} ms, p99 ${byNumber.cpuP99.toFixed(3)} ms`);
    benchLine({ figure: 'registry look-up by tax number p99', goal: ['≤ 1 ms', byNumber.p99 <= 1], value: byNumber.p99, unit: 'ms' });
    // CPU time: the steadier figure on a shared machine, reported beside the judged wall time.
    benchLine({ figure: 'registry look-up by tax number p99, CPU time', value: byNumber.cpuP99, unit: 'ms' });

    const { common, mid, rare, counted } = wordsByFrequency(reader, samples.slice(0, 3000));
    // A title's most common word with the first letters of its rarest one ("ticaret kar").
    const commonAndRare = samples.slice(0, 300).flatMap((t) => {
      const words = [...new Set(foldedWords(t.Title))].filter((w) => counted.has(w)).sort((a, b) => (counted.get(b) ?? 0) - (counted.get(a) ?? 0));
      return words.length > 1 ? [`${words[0]} ${words[words.length - 1].slice(0, 4)}`] : [];
    });
    const mixed = samples.slice(0, 1500).map((t, i) => {
      const words = foldedWords(t.Title);
      // Two whole words, or one word and the prefix of the next, or a single prefix.
      if (i % 3 === 0) return words.slice(0, 2).join(' ') + ' ';
      if (i % 3 === 1) return `${words[0]} ${(words[1] ?? words[0]).slice(0, 3)}`;
      return words[0].slice(0, 4);
    });
    let worst = 0;
    let worstCpu = 0;
    for (const [label, queries] of [
      ['common words', common.map((w) => w + ' ')],
      ['mid-frequency words', mid.map((w) => w + ' ')],
      ['rare words', rare.map((w) => w + ' ')],
      ['common word + rare prefix', commonAndRare],
      ['title words and prefixes', mixed],
    ] as const) {
      if (queries.length === 0) continue;
      const r = timeQueries(reader, [...queries]);
      worst = Math.max(worst, r.p99);
      worstCpu = Math.max(worstCpu, r.cpuP99);
      console.log(`look-up by ${label} (${queries.length} queries, mean ${r.meanHits.toFixed(0)} matches): p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms; CPU time p50 ${r.cpuP50.toFixed(2)} ms, p99 ${r.cpuP99.toFixed(2)} ms`);
    }
    console.log(`look-up by title words, worst p99: ${worst.toFixed(2)} ms (goal ≤ 50 ms); CPU time ${worstCpu.toFixed(2)} ms`);
    benchLine({ figure: 'registry look-up by title words p99 (worst kind of query)', goal: ['≤ 50 ms', worst <= 50], value: worst, unit: 'ms', grows: true });
    benchLine({ figure: 'registry look-up by title words p99, CPU time', value: worstCpu, unit: 'ms' });
    reader.close();
  } finally {
    sandbox.stop();
    kept.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const floorOf = args.indexOf('--floor-of');
(floorOf >= 0 ? floorMain(args[floorOf + 1]) : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
