// The sandbox as its own process for the extension-host benchmarks: a separate event loop, so its
// work does not count against the extension host being measured. `args` are the CLI options.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

export interface BenchSandbox {
  url: string;
  key: string;
  /** With `--companies N`: each company served at `url`, with its own key. */
  companies?: Array<{ key: string; name: string; taxNumber: string }>;
  child: ChildProcess;
}

export async function startBenchSandbox(args: string[]): Promise<BenchSandbox> {
  const entry = path.resolve(__dirname, '..', '..', '..', '..', 'dist', 'sandbox.js');
  const child = spawn(process.execPath, [entry, '--json', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const nl = buffered.indexOf('\n');
      if (nl >= 0) resolve(buffered.slice(0, nl));
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const info = JSON.parse(line) as { url: string; keys: { full: string }; companies?: Array<{ key: string; name: string; taxNumber: string }> };
  return { url: info.url, key: info.keys.full, ...(info.companies ? { companies: info.companies } : {}), child };
}
