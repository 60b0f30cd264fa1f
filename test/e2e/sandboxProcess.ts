// Runs the sandbox API as its own process (`node dist/sandbox.js --json`), the way `npm start` and
// a person would, and talks to its control endpoints.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { codeServer, repoRoot } from './repo';

export interface SandboxProcessOptions {
  customers?: number;
  registry?: number;
  seed?: number;
  /** More CLI arguments, e.g. ['--latency', '200']. */
  args?: string[];
}

/** One company of a `--companies N` sandbox, as its "listening" line names it. */
export interface SandboxCompany {
  key: string;
  restrictedKey: string;
  name: string;
  taxNumber: string;
}

export interface SandboxProcess {
  url: string;
  /** The (first) company's keys. */
  keys: { full: string; restricted: string };
  /** With `--companies N` in `args`: every company served at `url`, each with its own key. */
  companies?: SandboxCompany[];
  /** fetch() against `${url}/__sandbox/<path>`; returns the parsed JSON body (or text, or undefined). */
  control(controlPath: string, init?: RequestInit): Promise<unknown>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

export async function startSandboxProcess(options: SandboxProcessOptions = {}): Promise<SandboxProcess> {
  const entry = path.join(repoRoot, 'dist', 'sandbox.js');
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: build it with \`node esbuild.js --only=sandbox\``);
  const args = [entry, '--json', '--port', '0'];
  if (options.customers !== undefined) args.push('--customers', String(options.customers));
  if (options.registry !== undefined) args.push('--registry', String(options.registry));
  if (options.seed !== undefined) args.push('--seed', String(options.seed));
  args.push(...(options.args ?? []));

  const child = spawn(process.execPath, args, { cwd: repoRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const listening = await new Promise<{ url: string; keys: { full: string; restricted: string }; companies?: SandboxCompany[] }>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`the sandbox did not report "listening" in ${START_TIMEOUT_MS} ms; stderr:\n${stderr}`)), START_TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      for (const line of buffered.split('\n')) {
        try {
          const event = JSON.parse(line) as { event?: string; url?: string; keys?: { full: string; restricted: string }; companies?: SandboxCompany[] };
          if (event.event === 'listening' && event.url && event.keys) {
            clearTimeout(timer);
            resolve({ url: event.url, keys: event.keys, ...(event.companies ? { companies: event.companies } : {}) });
          }
        } catch {
          // not the JSON line (yet)
        }
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (${code}) before listening; stderr:\n${stderr}`));
    });
  });
  child.stdout.resume();

  return {
    ...listening,
    async control(controlPath, init) {
      const res = await fetch(`${listening.url}/__sandbox/${controlPath.replace(/^\/+/, '')}`, init);
      const text = await res.text();
      if (!res.ok) throw new Error(`sandbox control ${controlPath}: HTTP ${res.status} ${text}`);
      if (!text) return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    },
    stop: () => codeServer().killGroup(child),
  };
}
