// The "as new as" boundary of a deferred reindex: a download whose index could not be put in place
// leaves a request (reindex.json, with the download's date); the rebuild builds the index from the ZIP
// with that very date and then removes the request. When the request cannot be removed (held by another
// program, as on Windows), the rebuilt index is as new as the request, so the list is not rebuilt again,
// neither by this window nor by the next one; the next start-up sweep removes the leftover request.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildIndexFromZip, currentIndexFolder, readIndexMeta, reindexRequest, requestReindex } from '../../../src/registry';
import { listNeedingIndex, listsNeedingIndex, rebuildFromZip, sweepRegistryStorage } from '../../../src/registry/listMaintenance';
import { setLockRetryDefault } from '../../../src/files/lockedFiles';
import { WindowsFileLocks } from '../../support/windowsFileLocks';

const ZIP = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'registry-index-v1', 'registry-lists', 'registry-PK-Invoice.zip');
const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-reindex-as-new-'));
after(() => fs.rmSync(storage, { recursive: true, force: true }));

test('a rebuilt index whose reindex request could not be removed is not rebuilt again; the next sweep removes the request', async () => {
  const storageDir = path.join(storage, 'registry-index', 'PK-Invoice');
  const downloadedBefore = new Date('2026-11-01T08:00:00.000Z');
  const downloadedNow = '2026-11-25T08:00:00.000Z';
  await buildIndexFromZip(ZIP, storageDir, { aliasType: 'PK', userType: 'Invoice', zipBytes: fs.statSync(ZIP).size, downloadedAt: downloadedBefore });
  // A newer download finished, its index was not put in place; its window is gone (no pid).
  await requestReindex(storageDir, { zipPath: ZIP, downloadedAt: downloadedNow });
  const list = listNeedingIndex(storage, 'PK', 'Invoice');
  assert.equal(list?.reason, 'deferred');
  assert.equal(list?.downloadedAt, downloadedNow);

  const locks = new WindowsFileLocks().install();
  const restoreRetry = setLockRetryDefault(300);
  const request = path.join(storageDir, 'reindex.json');
  try {
    locks.hold(request, { code: 'EPERM' });
    assert.equal(await rebuildFromZip(storage, list!), 'rebuilt');
    assert.ok(locks.refusals(request) > 0, 'the removal of the request was refused');
  } finally {
    locks.release(request);
    restoreRetry();
  }
  assert.ok(fs.existsSync(request), 'the request is still there');
  const meta = readIndexMeta(currentIndexFolder(storageDir)!);
  assert.equal(meta.downloadedAt, downloadedNow, 'the rebuilt index keeps the download date of the request');

  // As new as the request: nothing to rebuild, in this window or the next.
  assert.equal(listNeedingIndex(storage, 'PK', 'Invoice'), undefined);
  assert.deepEqual(listsNeedingIndex(storage).map((l) => `${l.aliasType}-${l.userType} ${l.reason}`), []);
  assert.equal(await rebuildFromZip(storage, list!), 'notNeeded', 'a rebuild asked with the old decision finds nothing to do');
  const folders = () => fs.readdirSync(storageDir).filter((f) => f.startsWith('index-')).sort();
  const before = folders();

  // The next start-up sweep removes the request the index already answers.
  const swept = await sweepRegistryStorage(storage);
  assert.ok(swept.removed.includes(request), JSON.stringify(swept.removed));
  assert.equal(reindexRequest(storageDir), undefined);
  assert.equal(listNeedingIndex(storage, 'PK', 'Invoice'), undefined);
  assert.ok(folders().every((f) => before.includes(f)), 'no index was built by the sweep');
});

test('a request newer than the installed index, by a single millisecond, is still rebuilt', async () => {
  const storageDir = path.join(storage, 'registry-index', 'GB-Invoice');
  await buildIndexFromZip(ZIP, storageDir, { aliasType: 'GB', userType: 'Invoice', zipBytes: fs.statSync(ZIP).size, downloadedAt: new Date('2026-11-25T08:00:00.000Z') });
  await requestReindex(storageDir, { zipPath: ZIP, downloadedAt: '2026-11-25T08:00:00.001Z' });
  assert.equal(listNeedingIndex(storage, 'GB', 'Invoice')?.reason, 'deferred');
  await requestReindex(storageDir, { zipPath: ZIP, downloadedAt: '2026-11-25T08:00:00.000Z' });
  assert.equal(listNeedingIndex(storage, 'GB', 'Invoice'), undefined, 'as new as the index: answered');
});
