// A fresh process for gibRules.bench.ts's cold start, the extension's path (one start per process):
//   node coldStartWorker.js <storageRoot> <document> <workerFile> [--wait-for-cache]
// GibWorkerClient starts dist/gibWorker.js on the package installed in global storage and validates one
// document. This script imports nothing of the engine (as the extension host's side, src/shell/gibRules.ts),
// so what it measures from the client's start is what the extension waits for: the worker thread's start,
// its bundle, the rules and schemas loaded, the first findings. Prints one JSON line: wall and CPU
// (the process's, all threads) from the client's start to the worker's `loaded` and to the first
// findings, and the process's CPU before the start (node's own, which the extension host does not pay).
// The worker uses the parsed XPath cache beside the package when there is one (src/gib/parsedXPathFile.ts)
// and writes it after the check; with --wait-for-cache this process waits for that file before it ends
// (a window that stays open), so the next start finds it; without, the worker ends at the first findings.
import { existsSync, readFileSync } from 'node:fs';
import { GibWorkerClient } from '../../../src/gib/workerClient';
import { parsedXPathFile } from '../../../src/gib/parsedXPathFile';

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  const [storageRoot, document, workerFile, wait] = process.argv.slice(2);
  const text = readFileSync(document, 'utf8');
  const before = { wallMs: performance.now(), cpuMs: cpuMs() };
  const client = await GibWorkerClient.start({ storageRoot }, { workerFile });
  const loadedMs = performance.now() - before.wallMs;
  const result = await client.validate(document, text);
  const firstFindingsMs = performance.now() - before.wallMs;
  const cpu = cpuMs() - before.cpuMs;
  if (wait === '--wait-for-cache') {
    for (const until = Date.now() + 20_000; !existsSync(parsedXPathFile(storageRoot)); ) {
      if (Date.now() > until) throw new Error('the worker wrote no parsed XPath cache');
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  await client.dispose();
  const findings = result?.findings.map((f) => `${f.line}:${f.column}: ${f.message}`) ?? [];
  process.stdout.write(JSON.stringify({ processCpuBeforeMs: before.cpuMs, loadedMs, firstFindingsMs, cpuMs: cpu, findings }) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
