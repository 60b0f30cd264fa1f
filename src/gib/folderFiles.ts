// The files under a folder by their relative names, as a ZIP names its entries. Plain Node.
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';

/** The files under `root` ('/' separators, depth first in name order), at most `maxDepth` folders down and `limit` names. */
export async function filesUnder(root: string, options: { maxDepth?: number; limit?: number } = {}, rel = '', depth = 0, out: string[] = []): Promise<string[]> {
  const { maxDepth = Infinity, limit = Infinity } = options;
  if (depth > maxDepth) return out;
  const entries = (await readdir(path.join(root, rel), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (out.length >= limit) break;
    const name = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await filesUnder(root, options, name, depth + 1, out);
    else if (entry.isFile()) out.push(name);
  }
  return out;
}
