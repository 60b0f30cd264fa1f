// The sandbox child's key travels in its environment, not on its command line: every local user can
// read a process's command line (ps, /proc/<pid>/cmdline), only its own user its environment. The
// second test forks the bundled dist/sandbox.js exactly as the launcher does and reads the child's
// command line from /proc while it serves with that key.
import * as assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { describe, test } from 'node:test';
import { SANDBOX_KEY_ENV } from '../../../src/constants';
import { parseCli } from '../../../src/sandbox/cli';
import { sandboxChildLaunch } from '../../../src/shell/sandboxChild';

const BUNDLE = path.resolve(__dirname, '../../../../dist/sandbox.js');
const KEY = 'A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F90';

describe('the sandbox child launch', () => {
  test('the key is in the environment only, and the sandbox reads it from there', () => {
    const launch = sandboxChildLaunch(KEY, '/tmp/sandbox-data', { PATH: '/usr/bin' });
    assert.ok(!launch.args.some((a) => a.includes(KEY)), `the key is on the command line: ${launch.args.join(' ')}`);
    assert.ok(!launch.args.includes('--key'), 'no --key option');
    assert.equal(launch.env[SANDBOX_KEY_ENV], KEY);
    assert.equal(launch.env.PATH, '/usr/bin', 'the parent environment is kept');
    assert.deepEqual(launch.args.slice(-2), ['--data-dir', '/tmp/sandbox-data']);
    assert.equal(parseCli(launch.args, launch.env).key, KEY);
    // An explicit --key still wins (a developer's command line), and no variable means a random key.
    assert.equal(parseCli(['--key', 'K2'], launch.env).key, 'K2');
    assert.equal(parseCli(launch.args, {}).key, undefined);
  });

  test('a forked sandbox serves with the key while its command line, readable by everyone, does not hold it', { skip: (!fs.existsSync(BUNDLE) && 'dist/sandbox.js not built') || (!fs.existsSync('/proc/self/cmdline') && 'no /proc') }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-sandbox-child-'));
    const launch = sandboxChildLaunch(KEY, dir, process.env);
    const child = fork(BUNDLE, launch.args, { env: launch.env, execArgv: [], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    try {
      const first = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
      });
      const listening = JSON.parse(first) as { url: string; keys: { full: string } };
      assert.equal(listening.keys.full, KEY, 'the sandbox took the key from its environment');
      const commandLine = fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').join(' ');
      assert.match(commandLine, /sandbox\.js/);
      assert.ok(!commandLine.includes(KEY), `the key is on the command line: ${commandLine}`);
      const answer = await fetch(`${listening.url}/general/Company`, { headers: { Authorization: `Bearer ${KEY}` } });
      assert.equal(answer.status, 200);
    } finally {
      child.kill();
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
