// What the "our code or a library" benchmarks share (libraries*.bench.ts): the median, a row that
// gives the library's figure with ours as the same-run baseline, and the minified bytes a module adds.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { printBench } from './benchLine';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** A row without a goal: the library's `value`, ours as `baseline` (`ratio` > 1: the library is slower or bigger). */
export function report(figure: string, value: number, unit: string, baseline: number, note?: string): void {
  printBench({ figure, goal: 'report', value, unit, baseline, ...(note ? { note } : {}) });
}

/** Minified bytes that bundling `code` (an ES module importing the module under test, from the repository's root) adds. */
export async function bundleBytes(code: string, platform: 'node' | 'browser' = 'node'): Promise<number> {
  const out = await esbuild.build({
    stdin: { contents: code, resolveDir: repoRoot, loader: 'ts' },
    bundle: true,
    minify: true,
    write: false,
    platform,
    format: 'esm',
    logLevel: 'silent',
  });
  return out.outputFiles[0].contents.length;
}
