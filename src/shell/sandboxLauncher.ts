// Starts the local sandbox API (dist/sandbox.js) as a child process on a free loopback port, or
// uses an external one named by NILVERA_SANDBOX_URL / NILVERA_SANDBOX_KEY (a development hook used
// by `npm start` and the UI tests; that key is a sandbox key, never a real one). Each window's sandbox
// keeps its data in a file of its own (the first one of the data folder no other running sandbox
// holds); it is stopped by a message it answers once its data is saved, and it ends by itself when
// this extension host goes (src/sandbox/lifecycle.ts).
import type { ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StoppedMessage } from '../sandbox/lifecycle';
import { log } from './log';
import { rememberSecret } from './redact';
import { sandboxChildLaunch } from './sandboxChild';

export interface RunningSandbox {
  url: string;
  /** The full-permission key the sandbox accepts. */
  key: string;
  external: boolean;
}

const START_TIMEOUT_MS = 20_000;
/** How long a sandbox asked to stop may take to save and exit before it is killed. */
const STOP_TIMEOUT_MS = 5_000;

export function externalSandbox(env: NodeJS.ProcessEnv = process.env): RunningSandbox | undefined {
  const url = env.NILVERA_SANDBOX_URL?.trim();
  const key = env.NILVERA_SANDBOX_KEY?.trim();
  if (!url || !key) return undefined;
  rememberSecret(key);
  return { url: url.replace(/\/+$/, ''), key, external: true };
}

/** Reads the one `{"event":"listening",...}` line the sandbox prints with `--json`. */
export function parseListeningLine(line: string): { url: string; key: string } | undefined {
  try {
    const event = JSON.parse(line) as { event?: unknown; url?: unknown; keys?: { full?: unknown } };
    if (event.event === 'listening' && typeof event.url === 'string' && typeof event.keys?.full === 'string') {
      return { url: event.url, key: event.keys.full };
    }
  } catch {
    // Not JSON: ordinary output.
  }
  return undefined;
}

/** Context key: a sandbox this window started is running ("Stop the Sandbox" is offered only then). */
export const SANDBOX_RUNNING_CONTEXT_KEY = 'nilvera.sandboxRunning';

function publishRunning(running: boolean): void {
  void vscode.commands.executeCommand('setContext', SANDBOX_RUNNING_CONTEXT_KEY, running);
}

export class SandboxLauncher {
  private child: ChildProcess | undefined;
  private starting: Promise<RunningSandbox> | undefined;
  private running: RunningSandbox | undefined;

  constructor(
    private readonly extensionPath: string,
    /** The data folder (one file per running sandbox), and the one file an earlier version used. */
    private readonly data: { dir: string; legacyFile: string },
  ) {}

  current(): RunningSandbox | undefined {
    return externalSandbox() ?? this.running;
  }

  /** Returns the running sandbox, starting one with `key` when none runs (one start at a time). */
  async ensure(key: string): Promise<RunningSandbox> {
    const external = externalSandbox();
    if (external) return external;
    if (this.running && this.running.key === key) return this.running;
    if (this.running) await this.stop();
    this.starting ??= this.start(key).finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async start(key: string): Promise<RunningSandbox> {
    rememberSecret(key);
    const [{ fork }, { createInterface }] = await Promise.all([import('node:child_process'), import('node:readline')]);
    const script = path.join(this.extensionPath, 'dist', 'sandbox.js');
    // The extension's global storage folder does not exist until something creates it.
    await fs.mkdir(this.data.dir, { recursive: true });
    // The one data file of earlier versions becomes the first slot's, unless that exists (a link never replaces).
    const legacy = this.data.legacyFile;
    await fs.link(legacy, path.join(this.data.dir, 'sandbox-1.json')).then(() => fs.rm(legacy, { force: true }), () => undefined);
    const launch = sandboxChildLaunch(key, this.data.dir, process.env);
    const child = fork(script, launch.args, {
      env: launch.env,
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child = child;
    return new Promise<RunningSandbox>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`The sandbox did not start within ${START_TIMEOUT_MS / 1000} s.`)), START_TIMEOUT_MS);
      const fail = (error: Error): void => {
        clearTimeout(timer);
        child.kill();
        if (this.child === child) this.child = undefined;
        reject(error);
      };
      if (child.stdout) {
        createInterface({ input: child.stdout }).on('line', (line) => {
          const listening = parseListeningLine(line);
          if (!listening) return;
          clearTimeout(timer);
          this.running = { url: listening.url, key: listening.key, external: false };
          publishRunning(true);
          log.info(`Sandbox started at ${listening.url} (pid ${child.pid ?? '?'})`);
          resolve(this.running);
        });
      }
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => log.warn(`sandbox: ${chunk.trimEnd()}`));
      child.on('error', (error) => fail(error));
      child.on('exit', (code, signal) => {
        if (this.child === child) {
          this.child = undefined;
          this.running = undefined;
          publishRunning(false);
        }
        log.info(`Sandbox stopped (${signal ?? `exit code ${code ?? '?'}`})`);
        fail(new Error(`The sandbox exited before it was ready (${signal ?? `exit code ${code ?? '?'}`}).`));
      });
    });
  }

  /**
   * Stops the child this launcher started (an external sandbox is left alone): asks it to save and
   * exit, and kills it only if it has not within STOP_TIMEOUT_MS.
   */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.running = undefined;
    publishRunning(false);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        log.warn(`The sandbox (pid ${child.pid ?? '?'}) did not stop within ${STOP_TIMEOUT_MS / 1000} s; killed.`);
        child.kill('SIGKILL');
        resolve();
      }, STOP_TIMEOUT_MS);
      child.on('message', (message: unknown) => {
        const m = message as Partial<StoppedMessage> | null;
        if (m?.event === 'stopped' && !m.saved) log.warn(`The sandbox could not save its data: ${m.failure ?? 'unknown reason'}`);
      });
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      if (child.connected) child.send({ type: 'shutdown' });
      else child.kill();
    });
  }
}
