// Offline registry index on a sandbox with 1.5 million taxpayers (run as a child process, so its
// memory is not counted): download-to-searchable time and peak memory of this process, then lookups
// by tax number and by title words over the full index, p50/p99.
// Run: npm run bench -- registryIndex   (options: --registry N, default 1,500,000)
// Targets: lookup by tax number <= 1 ms, by words <= 50 ms (p99).

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { createClient } from '../../src/api';
import type { Taxpayer } from '../../src/domain/registryXml';
import { iterateRegistryZip } from '../../src/domain/registryZip';
import { buildIndex, foldedWords, RegistryIndexReader } from '../../src/registry';

const args = process.argv.slice(2);
const at = args.indexOf('--registry');
const REGISTRY = at >= 0 ? Number(args[at + 1]) : 1_500_000;
const root = path.resolve(__dirname, '..', '..', '..');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function startSandboxProcess(): Promise<{ url: string; key: string; stop: () => void }> {
  const built = spawnSync(process.execPath, ['esbuild.js', '--only=sandbox'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('sandbox build failed');
  const child = spawn(process.execPath, [path.join(root, 'dist/sandbox.js'), '--json', '--registry', String(REGISTRY), '--customers', '10'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  for await (const line of lines) {
    const event = JSON.parse(line) as { event: string; url: string; keys: { full: string } };
    if (event.event === 'listening') return { url: event.url, key: event.keys.full, stop: () => child.kill('SIGTERM') };
  }
  throw new Error('the sandbox exited before listening');
}

async function main(): Promise<void> {
  const sandbox = await startSandboxProcess();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-index-bench-'));
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 20);
  try {
    const client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.key, timeoutMs: 600_000 });
    const started = performance.now();
    const zip = path.join(dir, 'PK-Invoice.zip');
    const download = await client.registry.downloadList('PK', 'Invoice', { kind: 'file', path: zip });
    const downloaded = performance.now();
    // Every 97th taxpayer is kept as a lookup sample.
    const samples: Taxpayer[] = [];
    async function* sampled(): AsyncGenerator<Taxpayer> {
      let i = 0;
      for await (const t of iterateRegistryZip(zip)) {
        if (i++ % 97 === 0) samples.push(t);
        yield t;
      }
    }
    const meta = await buildIndex(path.join(dir, 'index'), sampled(), { aliasType: 'PK', userType: 'Invoice', zipBytes: download.bytes });
    const searchable = performance.now();
    clearInterval(sampler);
    const indexBytes = fs.readdirSync(path.join(dir, 'index')).filter((e) => e.startsWith('index-')).flatMap((f) => fs.readdirSync(path.join(dir, 'index', f)).map((x) => fs.statSync(path.join(dir, 'index', f, x)).size)).reduce((a, b) => a + b, 0);
    console.log(`registry ${REGISTRY.toLocaleString('en')} in the sandbox; PK/Invoice list: ${meta.taxpayers.toLocaleString('en')} taxpayers, ZIP ${(download.bytes / 1e6).toFixed(1)} MB, index ${(indexBytes / 1e6).toFixed(1)} MB, ${meta.words.toLocaleString('en')} words`);
    console.log(`download ${((downloaded - started) / 1000).toFixed(1)} s + index build ${((searchable - downloaded) / 1000).toFixed(1)} s = download-to-searchable ${((searchable - started) / 1000).toFixed(1)} s`);
    console.log(`peak memory during download+build: rss ${(peakRss / 1e6).toFixed(0)} MB, heapUsed ${(peakHeap / 1e6).toFixed(0)} MB`);

    const openStart = performance.now();
    const reader = RegistryIndexReader.open(path.join(dir, 'index')) as RegistryIndexReader;
    console.log(`open index: ${(performance.now() - openStart).toFixed(1)} ms, rss after open ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);

    const byNumber: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const t of samples) {
        const s = performance.now();
        const found = reader.byTaxNumber(t.Identifier);
        byNumber.push(performance.now() - s);
        if (found?.Identifier !== t.Identifier) throw new Error(`lookup of ${t.Identifier} failed`);
      }
    }
    byNumber.sort((a, b) => a - b);
    console.log(`lookup by tax number (${byNumber.length}): p50 ${percentile(byNumber, 0.5).toFixed(3)} ms, p99 ${percentile(byNumber, 0.99).toFixed(3)} ms`);

    const byWords: number[] = [];
    const queries = samples.slice(0, 2000).map((t, i) => {
      const words = foldedWords(t.Title);
      // Two whole words, or one word and the prefix of the next, or a single prefix.
      if (i % 3 === 0) return words.slice(0, 2).join(' ') + ' ';
      if (i % 3 === 1) return `${words[0]} ${(words[1] ?? words[0]).slice(0, 3)}`;
      return words[0].slice(0, 4);
    });
    let totalHits = 0;
    for (let q = 0; q < queries.length; q++) {
      const s = performance.now();
      const result = reader.searchWords(queries[q], 50);
      byWords.push(performance.now() - s);
      totalHits += result.total;
      if (result.total === 0) throw new Error(`"${queries[q]}" found nothing`);
    }
    byWords.sort((a, b) => a - b);
    console.log(`lookup by title words (${byWords.length} queries, mean ${(totalHits / queries.length).toFixed(0)} matches): p50 ${percentile(byWords, 0.5).toFixed(2)} ms, p99 ${percentile(byWords, 0.99).toFixed(2)} ms, max ${byWords[byWords.length - 1].toFixed(2)} ms`);
    reader.close();
    const ok = percentile(byNumber, 0.99) <= 1 && percentile(byWords, 0.99) <= 50;
    console.log(ok ? 'targets met (tax number p99 <= 1 ms, words p99 <= 50 ms)' : 'TARGETS MISSED');
    if (!ok) process.exitCode = 1;
  } finally {
    clearInterval(sampler);
    sandbox.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
