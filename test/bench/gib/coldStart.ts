// A fresh process for gibRules.bench.ts's cold start (run by file name, one start per process):
//   worker <storageRoot> <document> <workerFile>
//       the extension's path: GibWorkerClient starts dist/gibWorker.js on the package installed in
//       global storage and validates one document; prints when the worker said `loaded` and when the
//       first findings came, both from this process's start, and the process's CPU time.
//   steps <storageRoot> <document>
//       the same work in this thread, one step at a time, as the worker does it (engineSource.ts →
//       engine.ts), for the benchmark's breakdown: each step's wall and CPU time (the process's, so
//       WebAssembly compiling and garbage collection on V8's own threads count where they happen).
// Prints one JSON line.
import { readFileSync } from 'node:fs';
import { sync as parseXml } from 'slimdom-sax-parser';
import { GibWorkerClient } from '../../../src/gib/workerClient';
import { loadGibPackage } from '../../../src/gib/ruleStore';
import { readSchematron, SCHEMATRON_READER } from '../../../src/gib/schematron';
import { prepareRules, runRules } from '../../../src/gib/runner';
import { GibSchemas } from '../../../src/gib/xsd';

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function worker(storageRoot: string, document: string, workerFile: string): Promise<Record<string, unknown>> {
  const text = readFileSync(document, 'utf8');
  const client = await GibWorkerClient.start({ storageRoot }, { workerFile });
  const loadedMs = performance.now();
  const result = await client.validate(document, text);
  const firstFindingsMs = performance.now();
  const cpu = cpuMs();
  await client.dispose();
  return { loadedMs, firstFindingsMs, cpuMs: cpu, findings: result?.findings.map((f) => `${f.line}:${f.column}: ${f.message}`) ?? [] };
}

async function steps(storageRoot: string, document: string): Promise<Record<string, unknown>> {
  const out: Record<string, { wallMs: number; cpuMs: number }> = { 'node started (before this script)': { wallMs: performance.now(), cpuMs: cpuMs() } };
  let last = { wallMs: performance.now(), cpuMs: cpuMs() };
  const lap = (name: string): void => {
    const now = { wallMs: performance.now(), cpuMs: cpuMs() };
    out[name] = { wallMs: now.wallMs - last.wallMs, cpuMs: now.cpuMs - last.cpuMs };
    last = now;
  };
  const text = readFileSync(document, 'utf8');
  const installed = await loadGibPackage(storageRoot, SCHEMATRON_READER);
  if (!installed) throw new Error(`no GİB package in ${storageRoot}`);
  lap('read the stored package');
  const schemas = new GibSchemas(installed.schemas); // starts importing libxml2
  const rules = installed.schematron ?? readSchematron(installed.rules);
  lap(installed.schematron ? 'the Schematron as stored at install' : 'read the Schematron');
  const prepared = prepareRules(rules);
  lap('prepare the rules');
  await schemas.prepare('Invoice');
  lap('load libxml2 and compile the invoice XSD');
  const doc = parseXml(text, { position: true });
  lap('parse the document');
  await schemas.validate('Invoice', text);
  lap('XSD validation');
  runRules(prepared, doc);
  lap('rules, first run (XPath compiled)');
  runRules(prepared, doc);
  lap('rules, second run');
  return out;
}

async function main(): Promise<void> {
  const [mode, storageRoot, document, workerFile] = process.argv.slice(2);
  const result = mode === 'worker' ? await worker(storageRoot, document, workerFile) : await steps(storageRoot, document);
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
