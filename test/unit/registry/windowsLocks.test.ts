// Windows' locks (test/support/windowsFileLocks.ts) on what the registry download, its index install
// and the reconciliation snapshot write: a brief hold (antivirus, the search indexer) is waited out; a
// hold that lasts (the previous ZIP open in 7-Zip, a file an indexer keeps) never costs a finished
// download: the ZIP is kept under a name of its own, or kept and marked to be indexed later.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createClient, type NilveraClient } from '../../../src/api';
import { completeVkn } from '../../../src/domain/taxId';
import { FileLockedError, setLockRetryDefault } from '../../../src/files/lockedFiles';
import { snapshotOf, SnapshotStore } from '../../../src/reconciliation/snapshot';
import type { ReconRow } from '../../../src/reconciliation/classify';
import { downloadAndIndex, IndexDeferredError, type DownloadedIndex } from '../../../src/registry';
import { defaultZipPath, listsNeedingIndex, rebuildFromZip } from '../../../src/registry/listMaintenance';
import { currentIndexName } from '../../../src/registry/listStorage';
import { OfflineRegistry, registryIndexRoot } from '../../../src/registry/offlineLookup';
import { startTestSandbox, type SandboxHandle } from '../../support/sandbox';
import { WindowsFileLocks } from '../../support/windowsFileLocks';

const NEW_TAXPAYER = completeVkn('753186420');

describe("Windows' locks on the registry list", () => {
  let sandbox: SandboxHandle;
  let client: NilveraClient;
  const locks = new WindowsFileLocks();
  let storage = '';
  let restoreRetry: () => void = () => undefined;
  const roots: string[] = [];
  const listDir = () => path.join(registryIndexRoot(storage), 'PK-Invoice');
  const zip = () => defaultZipPath(storage, 'PK', 'Invoice');

  const download = (): Promise<DownloadedIndex> => {
    fs.mkdirSync(path.dirname(zip()), { recursive: true });
    return downloadAndIndex((hooks) => client.registry.downloadList('PK', 'Invoice', { kind: 'file', path: zip(), verifyZip: true, ...hooks }), zip(), listDir(), { aliasType: 'PK', userType: 'Invoice' });
  };

  /** What a window's hovers see now: 'new' when the list holds the taxpayer registered after the first download. */
  const seen = (): string => {
    const registry = new OfflineRegistry(registryIndexRoot(storage), 'Invoice');
    try {
      if (!registry.hasIndex()) return 'no list';
      return registry.lookup(NEW_TAXPAYER) ? 'new' : 'old';
    } finally {
      registry.close();
    }
  };

  before(async () => {
    sandbox = await startTestSandbox({ registry: 6000, customers: 1, seed: 3 });
    client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.keys.full });
  });
  after(async () => {
    locks.uninstall();
    await sandbox.close();
    for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
  });
  beforeEach(async () => {
    storage = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-locks-'));
    roots.push(storage);
    // An old list first (without the new taxpayer), then the registry changes.
    await fetch(`${sandbox.url}/__sandbox/registry`, { method: 'POST', body: JSON.stringify({ action: 'deregister', TaxNumber: NEW_TAXPAYER }) });
    await download();
    await fetch(`${sandbox.url}/__sandbox/registry`, { method: 'POST', body: JSON.stringify({ action: 'register', TaxNumber: NEW_TAXPAYER, Title: 'YENİ MÜKELLEF A.Ş.' }) });
    assert.equal(seen(), 'old');
    locks.install();
    // A lock that "lasts" outlasts a shortened retry; a brief one clears well within it.
    restoreRetry = setLockRetryDefault(600);
  });
  afterEach(() => {
    for (const poll of polls.splice(0)) clearInterval(poll);
    restoreRetry();
    locks.uninstall();
  });

  /** A hold that clears 150 ms after it first refused something (a scan of a file just written); resolves with its refusals. */
  const polls: NodeJS.Timeout[] = [];
  const briefly = (file: string, code: 'EBUSY' | 'EPERM'): Promise<number> => {
    locks.hold(file, { code });
    return new Promise((resolve) => {
      const poll = setInterval(() => {
        const refused = locks.refusals(file);
        if (refused === 0) return;
        clearInterval(poll);
        setTimeout(() => {
          const total = locks.refusals(file);
          locks.release(file);
          resolve(total);
        }, 150);
      }, 5);
      polls.push(poll);
    });
  };

  test('brief holds on the ZIP, the pointer and the index folders are waited out', async () => {
    const previous = currentIndexName(listDir()) as string;
    const struck = [briefly(zip(), 'EPERM'), briefly(path.join(listDir(), 'current'), 'EBUSY'), briefly(path.join(listDir(), previous), 'EBUSY')];
    const result = await download();
    assert.equal(result.zipPath, zip(), 'the ZIP went to its own name');
    assert.equal(result.heldTarget, undefined);
    assert.equal(seen(), 'new');
    const refusals = await Promise.all(struck);
    assert.ok(refusals.every((n) => n > 0), `every hold struck: ${refusals.join(', ')} refusals`);
    assert.deepEqual(
      fs.readdirSync(listDir()).filter((e) => e !== 'in-use'),
      ['current', currentIndexName(listDir()) as string].sort(),
      'the replaced index was removed once its hold cleared; nothing else is left',
    );
  });

  test('the previous ZIP open in another program: the new one is kept beside it, indexed, and nothing is lost', async () => {
    locks.hold(zip(), { code: 'EBUSY' });
    const result = await download();
    assert.equal(result.heldTarget, zip());
    assert.equal(result.zipPath, zip().replace(/\.zip$/, ' (2).zip'));
    assert.ok(fs.statSync(result.zipPath).size === result.zipBytes);
    assert.equal(result.meta.zipPath, result.zipPath, 'the index records the file it was built from');
    assert.equal(seen(), 'new');
    assert.ok(locks.refusals(zip()) >= 2, 'the rename was retried before the new name was used');
    assert.deepEqual(fs.readdirSync(path.dirname(zip())).sort(), ['registry-PK-Invoice (2).zip', 'registry-PK-Invoice.zip']);
  });

  test('the index cannot be put in place: the ZIP is kept, marked for indexing, and indexed later; the old list answers meanwhile', async () => {
    const pointer = path.join(listDir(), 'current');
    locks.hold(pointer, { code: 'EPERM' });
    const error = await download().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof IndexDeferredError, `got ${String(error)}`);
    assert.ok(error.lock instanceof FileLockedError);
    assert.equal(error.lock.path, pointer, 'the message names the file that was held');
    assert.equal(error.zipPath, zip());
    assert.ok(fs.statSync(zip()).size === error.zipBytes, 'the downloaded ZIP is kept');
    assert.equal(seen(), 'old', 'the old list still answers');
    assert.deepEqual(fs.readdirSync(listDir()).filter((e) => e.startsWith('tmp-') || e.startsWith('index-')).length, 1, 'the build that could not be installed is gone');
    const [pending] = listsNeedingIndex(storage);
    assert.equal(pending?.reason, 'deferred');
    assert.equal(pending.requestedByLiveProcess, true, 'this window asked: a start-up sweep of another window leaves it alone');
    // The other program lets go; "Index Now" (or the next start) builds it from the kept ZIP.
    locks.release(pointer);
    assert.equal(await rebuildFromZip(storage, pending), 'rebuilt');
    assert.equal(seen(), 'new');
    assert.deepEqual(listsNeedingIndex(storage), []);
    assert.ok(!fs.existsSync(path.join(listDir(), 'reindex.json')));
  });

  test('the replaced index held by another program stays until the sweep after it is let go', async () => {
    const previous = currentIndexName(listDir()) as string;
    locks.hold(path.join(listDir(), previous), { code: 'EBUSY' });
    await download();
    assert.equal(seen(), 'new');
    assert.ok(fs.existsSync(path.join(listDir(), previous)), 'a held folder is not half-deleted');
    locks.release(path.join(listDir(), previous));
    const { sweepListStorage } = await import('../../../src/registry/listStorage');
    const sweep = await sweepListStorage(listDir());
    assert.deepEqual(sweep.removed.map((p) => path.basename(p)), [previous]);
  });
});

describe("Windows' locks on the reconciliation snapshot", () => {
  const locks = new WindowsFileLocks();
  let restoreRetry: () => void = () => undefined;
  let folder = '';
  const row = (i: number, status: ReconRow['status']): ReconRow => ({ customerId: i, name: `C${i}`, taxNumber: completeVkn(String(300000000 + i)), status }) as ReconRow;
  const url = 'https://api.nilvera.com';
  const older = snapshotOf(url, '2026-01-01T00:00:00.000Z', [row(1, 'user')]);
  const newer = snapshotOf(url, '2026-02-01T00:00:00.000Z', [row(1, 'notUser'), row(2, 'user')]);

  beforeEach(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-snapshot-locks-'));
    await new SnapshotStore(folder).save(older);
    locks.install();
    restoreRetry = setLockRetryDefault(500);
  });
  afterEach(() => {
    restoreRetry();
    locks.uninstall();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  test('a brief hold on the snapshot is waited out', async () => {
    const store = new SnapshotStore(folder);
    const file = store.fileFor(url);
    locks.hold(file, { code: 'EPERM', forMs: 200 });
    await store.save(newer);
    assert.ok(locks.refusals(file) > 0);
    assert.equal((await store.load(url))?.takenAt, newer.takenAt);
  });

  test('a hold that lasts fails the save with the file named, keeps the previous snapshot whole and leaves no temporary file', async () => {
    const store = new SnapshotStore(folder);
    const file = store.fileFor(url);
    locks.hold(file, { code: 'EBUSY' });
    await assert.rejects(store.save(newer), (e: unknown) => e instanceof FileLockedError && e.path === file && /open in another program/.test(e.message));
    locks.release(file);
    assert.equal((await store.load(url))?.takenAt, older.takenAt);
    assert.deepEqual(fs.readdirSync(folder), [path.basename(file)]);
  });

  test("a run that started earlier never replaces a later run's snapshot (two windows)", async () => {
    const store = new SnapshotStore(folder);
    await store.save(newer);
    await store.save(older);
    assert.equal((await store.load(url))?.takenAt, newer.takenAt);
  });
});
