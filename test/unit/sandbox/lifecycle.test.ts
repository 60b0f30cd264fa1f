// The sandbox as each VS Code window runs it (src/shell/sandboxLauncher.ts): a data file per running
// sandbox in one shared folder, stopped by a message it answers once its data is saved, gone when the
// window's process is, and its saves under Windows' locks (test/support/windowsFileLocks.ts). The
// processes are the bundled dist/sandbox.js, forked with an IPC channel as the launcher forks it.
import * as assert from 'node:assert/strict';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { after, describe, test } from 'node:test';
import { completeVkn } from '../../../src/domain/taxId';
import { processIsAlive, setLockRetryDefault } from '../../../src/files/lockedFiles';
import type { StoppedMessage } from '../../../src/sandbox/lifecycle';
import { api, withSandbox, type SandboxHandle } from '../../support/sandbox';
import { WindowsFileLocks } from '../../support/windowsFileLocks';

const BUNDLE = path.resolve(__dirname, '../../../../dist/sandbox.js');
const roots: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-sandbox-life-'));
  roots.push(dir);
  return dir;
};
after(() => {
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

type Customer = { Name: string; TaxNumber: string };
const customersIn = (file: string): Customer[] => (JSON.parse(fs.readFileSync(file, 'utf8')) as { customers: Customer[] }).customers;
const addCustomer = async (sb: Pick<SandboxHandle, 'url' | 'keys'>, name: string, taxNumber: string): Promise<void> => {
  const res = await api(sb as SandboxHandle, 'POST', '/general/Customers', [{ Name: name, TaxNumber: taxNumber }]);
  assert.equal(res.status, 200, res.text);
};

/** Reads the sandbox's `--json` listening line from a child's stdout. */
function listening(child: ChildProcess): Promise<{ url: string; keys: { full: string; restricted: string } }> {
  const lines = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream });
  return new Promise((resolve, reject) => {
    lines.on('line', (line) => {
      const m = JSON.parse(line) as { event?: string; url: string; keys: { full: string; restricted: string } };
      if (m.event === 'listening') resolve(m);
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited early (${code})`)));
  });
}

const ARGS = (dir: string) => [BUNDLE, '--json', '--port', '0', '--customers', '5', '--registry', '50', '--data-dir', dir];

describe('the sandbox a window runs', { skip: !fs.existsSync(BUNDLE) && 'dist/sandbox.js not built' }, () => {
  test('two sandboxes running with one data folder keep a data file each; a sandbox started later takes the first free one', async () => {
    const dir = tempDir();
    const first = completeVkn('111222333');
    const second = completeVkn('444555666');
    await withSandbox({ customers: 5, registry: 50, dataDir: dir }, async (a) => {
      await withSandbox({ customers: 5, registry: 50, dataDir: dir }, async (b) => {
        assert.deepEqual([a.dataFile, b.dataFile].map((f) => path.basename(f ?? '')), ['sandbox-1.json', 'sandbox-2.json']);
        await addCustomer(a, 'Birinci Pencere', first);
        await addCustomer(b, 'İkinci Pencere', second);
      });
    });
    const names = (file: string) => customersIn(path.join(dir, file)).map((c) => c.TaxNumber);
    assert.ok(names('sandbox-1.json').includes(first) && !names('sandbox-1.json').includes(second), "window 1's changes only in its own file");
    assert.ok(names('sandbox-2.json').includes(second) && !names('sandbox-2.json').includes(first), "window 2's changes only in its own file");
    assert.deepEqual(fs.readdirSync(dir).sort(), ['sandbox-1.json', 'sandbox-2.json'], 'no lock or temporary file is left');
    await withSandbox({ customers: 5, registry: 50, dataDir: dir }, async (again) => {
      assert.equal(path.basename(again.dataFile ?? ''), 'sandbox-1.json');
      assert.equal((await api(again, 'GET', `/general/Customers/GetCustomerInfo/${first}`)).status, 200, 'the first file is kept across restarts');
    });
  });

  test('the shutdown message is answered once the last change is saved, and the sandbox exits', async () => {
    const dir = tempDir();
    const child = fork(BUNDLE, ARGS(dir).slice(1), { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv: [] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const sb = await listening(child);
    const taxNumber = completeVkn('777888999');
    await addCustomer(sb, 'Son Değişiklik', taxNumber);
    // At once: the change is still waiting for its save (200 ms after it).
    const answer = new Promise<StoppedMessage>((resolve) => child.once('message', (m) => resolve(m as StoppedMessage)));
    child.send({ type: 'shutdown' });
    assert.deepEqual(await answer, { event: 'stopped', saved: true });
    assert.deepEqual(await exited, { code: 0, signal: null });
    assert.ok(customersIn(path.join(dir, 'sandbox-1.json')).some((c) => c.TaxNumber === taxNumber), 'the last change was saved before the answer');
    assert.deepEqual(fs.readdirSync(dir), ['sandbox-1.json'], 'its data file is let go');
  });

  test('a sandbox whose window process dies stops by itself, saving first', async () => {
    const dir = tempDir();
    // The window: a process that forks the sandbox as the launcher does and reports its pid and address.
    const window = spawn(
      process.execPath,
      [
        '-e',
        `const { fork } = require('node:child_process');
         const c = fork(${JSON.stringify(BUNDLE)}, ${JSON.stringify(ARGS(dir).slice(1))}, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv: [] });
         c.stdout.on('data', (d) => process.stdout.write(JSON.stringify({ pid: c.pid, line: String(d).trim() }) + '\\n'));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const first = await new Promise<{ pid: number; line: string }>((resolve) => readline.createInterface({ input: window.stdout }).once('line', (l) => resolve(JSON.parse(l) as { pid: number; line: string })));
    const sb = JSON.parse(first.line) as { url: string; keys: { full: string; restricted: string } };
    const taxNumber = completeVkn('123123123');
    await addCustomer(sb, 'Pencere Kapandı', taxNumber);
    window.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (processIsAlive(first.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const alive = processIsAlive(first.pid);
    if (alive) process.kill(first.pid, 'SIGKILL');
    assert.ok(!alive, 'the sandbox outlived its window');
    assert.ok(customersIn(path.join(dir, 'sandbox-1.json')).some((c) => c.TaxNumber === taxNumber), 'its last change was saved');
    assert.deepEqual(fs.readdirSync(dir), ['sandbox-1.json'], 'its data file is let go');
  });

  test("a brief hold on the data file is waited out; one that lasts is reported and the save tried again at close", async () => {
    const dir = tempDir();
    const dataFile = path.join(dir, 'demo.json');
    const locks = new WindowsFileLocks().install();
    const restore = setLockRetryDefault(400);
    try {
      const brief = completeVkn('135135135');
      const lasting = completeVkn('246246246');
      await withSandbox({ customers: 5, registry: 50, dataFile }, async (sb) => {
        locks.hold(dataFile, { code: 'EPERM', forMs: 300 });
        await addCustomer(sb, 'Kısa Kilit', brief);
        for (let i = 0; i < 100 && !customersIn(dataFile).some((c) => c.TaxNumber === brief); i++) await new Promise((r) => setTimeout(r, 20));
        assert.ok(customersIn(dataFile).some((c) => c.TaxNumber === brief), 'saved once the hold cleared');
        assert.ok(locks.refusals(dataFile) > 0, 'the hold struck');
        locks.hold(dataFile, { code: 'EBUSY' });
        await addCustomer(sb, 'Uzun Kilit', lasting);
        for (let i = 0; i < 100 && !sb.saveFailure?.(); i++) await new Promise((r) => setTimeout(r, 20));
        assert.match(sb.saveFailure?.() ?? '', /demo\.json is open in another program/);
        locks.release(dataFile);
      });
      assert.ok(customersIn(dataFile).some((c) => c.TaxNumber === lasting), 'the save that failed was made at close');
      assert.deepEqual(fs.readdirSync(dir), ['demo.json'], 'no temporary file is left');
    } finally {
      restore();
      locks.uninstall();
    }
  });
});
