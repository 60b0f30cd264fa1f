// Test helper for unit tests that need a second process (a writer killed mid-write, another window
// holding a lock): the test file runs itself again as a child, with a role and arguments in its
// environment, and the parent reads the child's first line of output, waits for its exit or kills it.
// Also the fresh folder per test, with Windows' file locks emulated in this process.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, beforeEach } from 'node:test';
import { TEMP_SUFFIX } from '../../src/files/atomicFile';
import { WindowsFileLocks } from './windowsFileLocks';

const ROLE = 'NILVERA_TEST_CHILD_ROLE';
const ARGS = 'NILVERA_TEST_CHILD_ARGS';

/**
 * In a child, runs `body` with the role and arguments it was started with, then exits (1 after an
 * error); returns true. In the parent, returns false and does nothing.
 */
export function runAsChild(body: (role: string, ...args: string[]) => Promise<void>): boolean {
  const role = process.env[ROLE];
  if (!role) return false;
  const args = JSON.parse(process.env[ARGS] ?? '[]') as string[];
  void body(role, ...args).then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
  return true;
}

export interface ChildProcess {
  /** The child's first line on stdout, trimmed. */
  firstLine: Promise<string>;
  /** Its exit code (null when killed). */
  done: Promise<number | null>;
  /** SIGKILL: a crash, with no chance to clean up. */
  kill(): void;
}

/** Starts `file` (the calling test bundle, `__filename`) again as a child in `role`. */
export function spawnChild(file: string, role: string, ...args: string[]): ChildProcess {
  const p = spawn(process.execPath, [file], { env: { ...process.env, [ROLE]: role, [ARGS]: JSON.stringify(args) }, stdio: ['ignore', 'pipe', 'inherit'] });
  const firstLine = new Promise<string>((resolve) => {
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')).trim());
    });
  });
  const done = new Promise<number | null>((resolve) => p.once('exit', (code) => resolve(code)));
  return { firstLine, done, kill: () => p.kill('SIGKILL') };
}

/**
 * Gives each test of the file a fresh folder under the system's temp folder (through `use`), with
 * the Windows lock layer installed anew; removes the folders after the file.
 */
export function freshFolderPerTest(prefix: string, use: (dir: string) => void): WindowsFileLocks {
  const roots: string[] = [];
  const locks = new WindowsFileLocks();
  beforeEach(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    roots.push(dir);
    use(dir);
    locks.uninstall();
    locks.install();
  });
  after(() => {
    locks.uninstall();
    for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
  });
  return locks;
}

/** The temporary files of whole-or-nothing writes left in `dir`. */
export function tempFilesIn(dir: string): string[] {
  return fs.readdirSync(dir).filter((n) => n.endsWith(TEMP_SUFFIX));
}
