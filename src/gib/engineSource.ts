// The engine from where the rules are: the package installed in global storage (ruleStore.ts), with the
// parsed XPath an earlier worker stored (parsedXPathFile.ts), or GİB's archives/folders named directly
// (the CLI, tests). Undefined when the store holds none.

import { createGibEngine, loadGibEngine, type GibEngine } from './engine';
import { loadGibPackage } from './ruleStore';
import { SCHEMATRON_READER } from './schematron';
import { ParsedXPath } from './parsedXPath';
import { readParsedXPath, writeParsedXPath } from './parsedXPathFile';
import type { GibWorkerSource } from './workerProtocol';

export async function engineFrom(source: GibWorkerSource): Promise<GibEngine | undefined> {
  if ('storageRoot' in source) {
    const installed = await loadGibPackage(source.storageRoot, SCHEMATRON_READER);
    if (!installed) return undefined;
    const xpath = new ParsedXPath(await readParsedXPath(source.storageRoot, installed.release));
    const engine = createGibEngine(installed.rules, installed.schemas, { schematron: installed.schematron, xpath });
    let writing: Promise<void> = Promise.resolve();
    return {
      ...engine,
      storeParsedXPath: () => (writing = writing.then(async () => void (await writeParsedXPath(source.storageRoot, installed.release, xpath)))),
    };
  }
  return loadGibEngine(source);
}
