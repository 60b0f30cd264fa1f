// Stands in for src/sandbox/server in the prism build of the API suite (scripts/test-prism.js):
// the same exports, but startSandbox puts each sandbox behind `prism proxy` (test/support/prismProxy.ts).
import { startSandbox as startRealSandbox } from '../../src/sandbox/server';
import type { SandboxHandle, SandboxOptions } from '../../src/sandbox/types';
import { maybeViaPrism } from './prismProxy';

export * from '../../src/sandbox/server';

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  return maybeViaPrism(await startRealSandbox(options));
}
