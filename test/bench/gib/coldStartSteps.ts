// A fresh process for gibRules.bench.ts's cold-start breakdown (the judged figure is coldStartWorker.ts):
//   node coldStartSteps.js <storageRoot> <document>
// The worker's work in this thread, one step at a time, as the worker does it (engineSource.ts →
// engine.ts): each step's wall and CPU time (the process's, so WebAssembly compiling and garbage
// collection on V8's own threads count where they happen), with the parsed XPath cache beside the package
// when there is one (src/gib/parsedXPathFile.ts; the bench runs it after a worker wrote it). Prints one JSON line.
import { readFileSync } from 'node:fs';
import { parseGibDocument } from '../../../src/gib/xmlTree';
import { loadGibPackage } from '../../../src/gib/ruleStore';
import { readSchematron, SCHEMATRON_READER } from '../../../src/gib/schematron';
import { prepareRules, runRules } from '../../../src/gib/runner';
import { GibSchemas } from '../../../src/gib/xsd';
import { ParsedXPath } from '../../../src/gib/parsedXPath';
import { readParsedXPath } from '../../../src/gib/parsedXPathFile';

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

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
  const xpath = new ParsedXPath(await readParsedXPath(storageRoot, installed.release));
  lap('read the stored package and parsed XPath cache');
  const schemas = new GibSchemas(installed.schemas); // starts importing libxml2
  const rules = installed.schematron ?? readSchematron(installed.rules);
  lap(installed.schematron ? 'the Schematron as stored at install' : 'read the Schematron');
  const prepared = prepareRules(rules, xpath);
  lap('prepare the rules');
  await schemas.prepare('Invoice');
  lap('load libxml2 and compile the invoice XSD');
  const doc = parseGibDocument(text);
  lap('parse the document');
  await schemas.validate('Invoice', text);
  lap('XSD validation');
  runRules(prepared, doc);
  lap(`rules, first run (XPath compiled; ${xpath.parsedFromText.size} parsed from text)`);
  runRules(prepared, doc);
  lap('rules, second run');
  return out;
}

async function main(): Promise<void> {
  const [storageRoot, document] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(await steps(storageRoot, document)) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
