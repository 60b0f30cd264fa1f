// Where a file the extension ships is: beside the running bundle in dist/, or, for tests and
// benchmarks that run from out/ (and the sources' own node_modules), further up the folder tree.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `beside` next to the module at `moduleUrl` (its import.meta.url), else `upward` in the nearest
 * folder above it that has it; undefined when neither is there.
 */
export function findPackageFile(moduleUrl: string, beside: string, upward: string): string | undefined {
  const here = path.dirname(fileURLToPath(moduleUrl));
  if (fs.existsSync(path.join(here, beside))) return path.join(here, beside);
  for (let dir = here; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, upward))) return path.join(dir, upward);
    if (path.dirname(dir) === dir) return undefined;
  }
}
