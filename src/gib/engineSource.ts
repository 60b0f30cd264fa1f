// The engine from where the rules are: the package installed in global storage (ruleStore.ts), or
// GİB's archives/folders named directly (the CLI, tests). Undefined when the store holds none.

import { createGibEngine, loadGibEngine, type GibEngine } from './engine';
import { loadGibPackage } from './ruleStore';
import { SCHEMATRON_READER } from './schematron';
import type { GibWorkerSource } from './workerProtocol';

export async function engineFrom(source: GibWorkerSource): Promise<GibEngine | undefined> {
  if ('storageRoot' in source) {
    const installed = await loadGibPackage(source.storageRoot, SCHEMATRON_READER);
    return installed ? createGibEngine(installed.rules, installed.schemas, { schematron: installed.schematron }) : undefined;
  }
  return loadGibEngine(source);
}
