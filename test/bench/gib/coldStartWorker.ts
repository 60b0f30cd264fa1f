// A fresh process for gibRules.bench.ts's cold start, the extension's path (one start per process):
//   node coldStartWorker.js <storageRoot> <document> <workerFile>
// GibWorkerClient starts dist/gibWorker.js on the package installed in global storage and validates one
// document. This script imports nothing of the engine (as the extension host's side, src/shell/gibRules.ts),
// so what it measures from the client's start is what the extension waits for: the worker thread's start,
// its bundle, the rules and schemas loaded, the first findings. Prints one JSON line: wall and CPU
// (the process's, all threads) from the client's start to the worker's `loaded` and to the first
// findings, and the process's CPU before the start (node's own, which the extension host does not pay).
import { readFileSync } from 'node:fs';
import { GibWorkerClient } from '../../../src/gib/workerClient';

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  const [storageRoot, document, workerFile] = process.argv.slice(2);
  const text = readFileSync(document, 'utf8');
  const before = { wallMs: performance.now(), cpuMs: cpuMs() };
  const client = await GibWorkerClient.start({ storageRoot }, { workerFile });
  const loadedMs = performance.now() - before.wallMs;
  const result = await client.validate(document, text);
  const firstFindingsMs = performance.now() - before.wallMs;
  const cpu = cpuMs() - before.cpuMs;
  await client.dispose();
  const findings = result?.findings.map((f) => `${f.line}:${f.column}: ${f.message}`) ?? [];
  process.stdout.write(JSON.stringify({ processCpuBeforeMs: before.cpuMs, loadedMs, firstFindingsMs, cpuMs: cpu, findings }) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
