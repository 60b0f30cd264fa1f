// The cross-window lock (src/files/fileLock.ts) with holders that are real processes:
// - a live holder that keeps the lock past its stale time, refreshing it while it works, is waited for:
//   a second process waits longer than the stale time and enters only after the holder has left;
// - a holder presumed dead (its event loop blocked: no refresh, so the lock ages past the stale time)
//   is taken over, and when it then finishes late it must not delete the lock of the process that
//   took over: that one still holds it, and a third window cannot enter.
// Each process writes what it does, with the time, to one log in the test's folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LockTimeoutError, withFileLock } from '../../../src/files/fileLock';
import { freshFolderPerTest, runAsChild, spawnChild } from '../../support/childProcess';

const LOCK = 'shared.lock';
const LOG = 'events.log';

function log(dir: string, event: string): void {
  fs.appendFileSync(path.join(dir, LOG), `${Date.now()} ${event}\n`);
}

/** The events of the log: [time, name] in the order written. */
function events(dir: string): Array<[number, string]> {
  return fs
    .readFileSync(path.join(dir, LOG), 'utf8')
    .trim()
    .split('\n')
    .map((l) => [Number(l.slice(0, l.indexOf(' '))), l.slice(l.indexOf(' ') + 1)] as [number, string]);
}

const lockOwnerPid = (dir: string): number | undefined => {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, LOCK), 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
};

/** Child roles, each a window of its own. */
async function child(role: string, dir: string, staleText: string, msText: string): Promise<void> {
  const staleMs = Number(staleText);
  const ms = Number(msText);
  const lockFile = path.join(dir, LOCK);
  if (role === 'liveHolder') {
    await withFileLock(lockFile, async () => {
      log(dir, 'holder enters');
      process.stdout.write('holding\n');
      await sleep(ms); // works (and refreshes the lock) for longer than the stale time
      log(dir, 'holder leaves');
    }, { staleMs });
  }
  if (role === 'waiter') {
    log(dir, 'waiter starts');
    await withFileLock(lockFile, async () => {
      log(dir, 'waiter enters');
      log(dir, 'waiter leaves');
    }, { staleMs, waitMs: 60_000 });
  }
  if (role === 'frozenHolder') {
    await withFileLock(lockFile, async () => {
      log(dir, 'frozen enters');
      process.stdout.write('holding\n');
      await sleep(50);
      // Blocked (a debugger, a suspended machine, a long synchronous step): no refresh runs.
      const until = Date.now() + ms;
      while (Date.now() < until) {
        /* busy */
      }
      log(dir, 'frozen finishes');
    }, { staleMs });
    log(dir, `frozen done, lock owner ${lockOwnerPid(dir)}`);
  }
  if (role === 'taker') {
    await withFileLock(lockFile, async () => {
      log(dir, 'taker enters');
      process.stdout.write('holding\n');
      await sleep(ms);
      log(dir, lockOwnerPid(dir) === process.pid ? 'taker still holds the lock' : `taker lost the lock (owner ${lockOwnerPid(dir)})`);
      log(dir, 'taker leaves');
    }, { staleMs, waitMs: 60_000 });
  }
}

if (!runAsChild(child)) {
  let dir = '';
  const locks = freshFolderPerTest('lock-holders-', (d) => (dir = d));

  test('a live holder that keeps the lock past its stale time is waited for: the second window enters only after it leaves', async () => {
    locks.uninstall(); // the children have no fault layer
    const staleMs = 2400;
    const holdMs = Math.round(staleMs * 2.5);
    const holder = spawnChild(__filename, 'liveHolder', dir, String(staleMs), String(holdMs));
    assert.equal(await holder.firstLine, 'holding');
    const waiter = spawnChild(__filename, 'waiter', dir, String(staleMs), '0');
    assert.deepEqual(await Promise.all([holder.done, waiter.done]), [0, 0]);
    const e = events(dir);
    assert.deepEqual(e.map(([, name]) => name), ['holder enters', 'waiter starts', 'holder leaves', 'waiter enters', 'waiter leaves'], JSON.stringify(e));
    const at = (name: string) => (e.find(([, n]) => n === name) as [number, string])[0];
    assert.ok(at('holder leaves') - at('waiter starts') > staleMs, `the waiter waited ${at('holder leaves') - at('waiter starts')} ms, longer than the stale time`);
    assert.ok(at('waiter enters') >= at('holder leaves'));
    assert.ok(!fs.existsSync(path.join(dir, LOCK)), 'the last holder removed the lock');
  });

  test('a holder presumed dead that finishes late leaves the lock of the window that took over alone', async () => {
    locks.uninstall();
    const staleMs = 1000;
    const frozen = spawnChild(__filename, 'frozenHolder', dir, String(staleMs), String(3 * staleMs));
    assert.equal(await frozen.firstLine, 'holding');
    const taker = spawnChild(__filename, 'taker', dir, String(staleMs), String(5 * staleMs));
    assert.equal(await taker.firstLine, 'holding', 'the blocked holder was taken over');
    assert.equal(await frozen.done, 0);
    // The late holder has finished; the window that took over still works under the lock.
    assert.ok(fs.existsSync(path.join(dir, LOCK)), 'the lock of the window that took over is still there');
    await assert.rejects(withFileLock(path.join(dir, LOCK), async () => 'a third window', { waitMs: 300 }), LockTimeoutError);
    assert.equal(await taker.done, 0);
    const names = events(dir).map(([, name]) => name);
    assert.deepEqual(names.slice(0, 2), ['frozen enters', 'taker enters'], names.join(' | '));
    assert.ok(names.includes('frozen finishes') && names.indexOf('frozen finishes') < names.indexOf('taker leaves'), names.join(' | '));
    assert.ok(names.some((n) => /^frozen done, lock owner \d+$/.test(n) && !n.endsWith('undefined')), `after the late holder finished the lock still had an owner: ${names.join(' | ')}`);
    assert.ok(names.includes('taker still holds the lock'), names.join(' | '));
    assert.ok(!fs.existsSync(path.join(dir, LOCK)), 'the window that took over removed its lock when done');
  });
}
