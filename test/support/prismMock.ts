// Stoplight Prism's mock server of an OpenAPI document on a free loopback port (the contract test, the
// suite's prism run): started, awaited until it listens, stopped.
import { spawn } from 'node:child_process';
import { freePort } from './freePort';

export interface PrismMock {
  readonly url: string;
  /** Everything prism printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs `command` (prism: its executable and leading arguments) as `mock [options] <spec>`; resolves once
 * it listens, fails with its output when it exits or is not listening within 60 s.
 */
export async function startPrismMock(command: readonly [string, ...string[]], spec: string, options: readonly string[] = []): Promise<PrismMock> {
  const port = await freePort();
  const [file, ...leading] = command;
  const child = spawn(file, [...leading, 'mock', ...options, '-h', '127.0.0.1', '-p', String(port), spec], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const started = Date.now();
  while (!/Prism is listening/.test(output)) {
    if (child.exitCode !== null || Date.now() - started > 60_000) {
      await stop();
      throw new Error(`prism did not start:\n${output.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
