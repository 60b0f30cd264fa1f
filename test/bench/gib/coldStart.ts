// A fresh process for gibRules.bench.ts's cold start (run by file name, one start per process):
//   worker <storageRoot> <document> <workerFile>
//       the extension's path: GibWorkerClient starts dist/gibWorker.js on the package installed in
//       global storage and validates one document; prints when the worker said `loaded` and when the
//       first findings came, both from this process's start, and the process's CPU time.
//   steps <storageRoot> <document>
//       the same work in this thread, one step at a time, as the worker does it (engineSource.ts →
//       engine.ts), for the benchmark's breakdown.
// Prints one JSON line.
import { readFileSync } from 'node:fs';
import { sync as parseXml } from 'slimdom-sax-parser';
import { GibWorkerClient } from '../../../src/gib/workerClient';
import { loadGibPackage } from '../../../src/gib/ruleStore';
import { readSchematron } from '../../../src/gib/schematron';
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
  const out: Record<string, number> = { processStart: performance.now() };
  let last = performance.now();
  const lap = (name: string): void => {
    const now = performance.now();
    out[name] = now - last;
    last = now;
  };
  const text = readFileSync(document, 'utf8');
  const installed = await loadGibPackage(storageRoot);
  if (!installed) throw new Error(`no GİB package in ${storageRoot}`);
  lap('read the stored package');
  const schemas = new GibSchemas(installed.schemas);
  const rules = readSchematron(installed.rules);
  lap('read the Schematron');
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
