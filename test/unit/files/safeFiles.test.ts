// src/files/: whole-or-nothing writes, Windows' brief locks, the cross-window lock and the sweep of
// what crashed writers leave. Locks come from test/support/windowsFileLocks.ts (Windows' refusals in
// this process); crashes and other windows are real child processes running this same bundle.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { AtomicFile, sweepTempFiles, writeFileAtomic } from '../../../src/files/atomicFile';
import { LockTimeoutError, withFileLock } from '../../../src/files/fileLock';
import { FileLockedError, retryWhileLocked, setLockRetryDefault } from '../../../src/files/lockedFiles';
import { freshFolderPerTest, runAsChild, spawnChild, tempFilesIn } from '../../support/childProcess';

/** Child roles: a writer killed mid-write, and a window that increments a shared counter under the lock. */
async function child(role: string, dir: string, arg = ''): Promise<void> {
  if (role === 'crashWriter') {
    const file = await AtomicFile.create(path.join(dir, 'export.csv'));
    await file.write('x'.repeat(200_000));
    process.stdout.write('written\n');
    await new Promise(() => setInterval(() => undefined, 1000)); // killed here, before commit
  }
  if (role === 'counter') {
    const counter = path.join(dir, 'counter.txt');
    for (let i = 0; i < Number(arg); i++) {
      await withFileLock(path.join(dir, 'counter.lock'), async () => {
        // Read, wait, write: without the lock, two windows lose each other's increments.
        const n = Number(await fs.promises.readFile(counter, 'utf8'));
        await new Promise((r) => setTimeout(r, 2));
        await writeFileAtomic(counter, String(n + 1));
      });
    }
  }
  if (role === 'holdLock') {
    await withFileLock(path.join(dir, 'held.lock'), async () => {
      process.stdout.write('holding\n');
      await new Promise(() => setInterval(() => undefined, 1000)); // killed while holding
    });
  }
}

if (!runAsChild(child)) {
  let dir = '';
  const locks = freshFolderPerTest('safe-files-', (d) => (dir = d));

  test('an aborted write leaves the previous file as it was and no temporary file', async () => {
    const target = path.join(dir, 'customers.csv');
    fs.writeFileSync(target, 'previous export');
    const file = await AtomicFile.create(target);
    await file.write('a'.repeat(100_000));
    assert.equal(fs.readFileSync(target, 'utf8'), 'previous export', 'nothing reaches the target before the commit');
    await file.abort();
    assert.equal(fs.readFileSync(target, 'utf8'), 'previous export');
    assert.deepEqual(tempFilesIn(dir), []);
  });

  test('a committed write replaces the target whole', async () => {
    const target = path.join(dir, 'customers.csv');
    fs.writeFileSync(target, 'previous export');
    const file = await AtomicFile.create(target);
    for (let i = 0; i < 1000; i++) await file.write(`line ${i}\r\n`);
    await file.commit();
    await file.abort(); // after a commit: nothing to undo
    const lines = fs.readFileSync(target, 'utf8').split('\r\n');
    assert.equal(lines.length, 1001);
    assert.equal(lines[999], 'line 999');
    assert.deepEqual(tempFilesIn(dir), []);
  });

  test('a writer killed mid-write leaves the target untouched, and the sweep removes its temporary file', async () => {
    const target = path.join(dir, 'export.csv');
    fs.writeFileSync(target, 'previous export');
    const writer = spawnChild(__filename, 'crashWriter', dir);
    try {
      await writer.firstLine;
      assert.equal(tempFilesIn(dir).length, 1, 'the writer has its temporary file');
      assert.deepEqual(await sweepTempFiles(dir, 24 * 3600_000), [], 'a live writer is never swept');
    } finally {
      writer.kill();
      await writer.done;
    }
    assert.equal(fs.readFileSync(target, 'utf8'), 'previous export');
    const swept = await sweepTempFiles(dir, 24 * 3600_000);
    assert.equal(swept.length, 1);
    assert.deepEqual(tempFilesIn(dir), []);
  });

  test('a brief hold on the target (antivirus, indexer) is waited out', async () => {
    const target = path.join(dir, 'customers.csv');
    fs.writeFileSync(target, 'old');
    locks.hold(target, { code: 'EPERM', forMs: 150 });
    await writeFileAtomic(target, 'new');
    assert.equal(fs.readFileSync(target, 'utf8'), 'new');
    assert.ok(locks.refusals(target) > 0, 'the hold refused at least one rename');
  });

  test('a hold that lasts (Excel) ends in FileLockedError naming the file; the temporary file can go elsewhere', async () => {
    const restore = setLockRetryDefault(200);
    try {
      const target = path.join(dir, 'customers.rejected.csv');
      fs.writeFileSync(target, 'open in Excel');
      locks.hold(target, { code: 'EBUSY' });
      const file = await AtomicFile.create(target);
      await file.write('rows');
      const started = Date.now();
      const error = await file.commit().then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof FileLockedError, `got ${String(error)}`);
      assert.equal(error.path, target);
      assert.equal(error.code, 'EBUSY');
      assert.ok(Date.now() - started >= 180, 'it retried for the whole wait');
      assert.ok(locks.refusals(target) >= 3, 'several attempts were refused');
      const other = path.join(dir, 'customers.rejected (2).csv');
      await file.commit(other);
      assert.equal(fs.readFileSync(other, 'utf8'), 'rows');
      assert.equal(fs.readFileSync(target, 'utf8'), 'open in Excel');
      assert.deepEqual(tempFilesIn(dir), []);
    } finally {
      restore();
    }
  });

  test('errors that are not locks are not retried', async () => {
    let calls = 0;
    const missing = path.join(dir, 'missing');
    await assert.rejects(
      retryWhileLocked(missing, () => {
        calls++;
        return fs.promises.rename(missing, path.join(dir, 'x'));
      }),
      { code: 'ENOENT' },
    );
    assert.equal(calls, 1);
  });

  test('a cancel while a hold is waited out stops the wait at once, with the cancel as the error', async () => {
    const cancel = new AbortController();
    const reason = new Error('cancelled by the user');
    setTimeout(() => cancel.abort(reason), 50);
    const started = Date.now();
    const held = Object.assign(new Error('EBUSY'), { code: 'EBUSY' });
    const waiting = retryWhileLocked(path.join(dir, 'held.csv'), () => Promise.reject(held), { totalMs: 10_000, signal: cancel.signal });
    await assert.rejects(waiting, (e) => e === reason);
    assert.ok(Date.now() - started < 2000, 'the wait stopped with the cancel, not after the retries');
  });

  test('four windows incrementing one counter under the lock lose no increment', async () => {
    fs.writeFileSync(path.join(dir, 'counter.txt'), '0');
    locks.uninstall(); // the children have no fault layer; neither should this process while they run
    const windows = [1, 2, 3, 4].map(() => spawnChild(__filename, 'counter', dir, '25'));
    const codes = await Promise.all(windows.map((w) => w.done));
    assert.deepEqual(codes, [0, 0, 0, 0]);
    assert.equal(fs.readFileSync(path.join(dir, 'counter.txt'), 'utf8'), '100');
    assert.ok(!fs.existsSync(path.join(dir, 'counter.lock')), 'the last holder removed the lock');
  });

  test('a lock whose holder crashed is taken over; a live holder is waited for', async () => {
    const lockFile = path.join(dir, 'held.lock');
    const holder = spawnChild(__filename, 'holdLock', dir);
    try {
      await holder.firstLine;
      await assert.rejects(withFileLock(lockFile, async () => 'never', { waitMs: 300 }), LockTimeoutError);
    } finally {
      holder.kill();
      await holder.done;
    }
    const started = Date.now();
    assert.equal(await withFileLock(lockFile, async () => 'mine', { waitMs: 5000 }), 'mine');
    assert.ok(Date.now() - started < 2000, 'the dead holder was recognised, not waited out');
  });
}
