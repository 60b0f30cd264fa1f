// The decisions of the offline index rebuild (src/registry/listMaintenance.ts), on a storage folder laid
// out as the extension's: which lists must be rebuilt (an index of another format, or one whose
// description cannot be read; never a current one), from which ZIP (the recorded one, else the
// default place's, else none: the user is asked to download again), and which download date the
// rebuilt index keeps. The extension-host suite (test/suite/registryIndexUpgrade.test.ts) runs the
// rebuild itself.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildIndexFromZip, currentIndexFolder, INDEX_FORMAT } from '../../../src/registry';
import { defaultZipPath, keptDownloadDate, listsNeedingIndex, zipToRebuildFrom } from '../../../src/registry/listMaintenance';

/** The lists an update must rebuild because their index is of another format (or unreadable). */
const outdatedLists = (globalStoragePath: string) => listsNeedingIndex(globalStoragePath).filter((l) => l.reason === 'outdated');

const FIXTURE = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'registry-index-v1');
const V1_ZIP = path.join(FIXTURE, 'registry-lists', 'registry-PK-Invoice.zip');

let storage: string;
const indexDir = (list: string) => path.join(storage, 'registry-index', list);

/** The format-1 index of the fixture, placed as the list `list` (its meta names that list). */
function placeV1(list: string): void {
  fs.cpSync(path.join(FIXTURE, 'registry-index', 'PK-Invoice'), indexDir(list), { recursive: true });
}

before(async () => {
  storage = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-index-upgrade-'));
  placeV1('PK-Invoice');
  // GB-Invoice: an index of today's format, built from the same ZIP.
  await buildIndexFromZip(V1_ZIP, indexDir('GB-Invoice'), { aliasType: 'GB', userType: 'Invoice', zipBytes: fs.statSync(V1_ZIP).size });
  // PK-DespatchAdvice: a description that cannot be read.
  placeV1('PK-DespatchAdvice');
  fs.writeFileSync(path.join(currentIndexFolder(indexDir('PK-DespatchAdvice'))!, 'meta.json'), '{"format": 1, "aliasTy');
  // GB-DespatchAdvice: a folder without a `current` pointer (a download that never finished).
  placeV1('GB-DespatchAdvice');
  fs.rmSync(path.join(indexDir('GB-DespatchAdvice'), 'current'));
});
after(() => fs.rmSync(storage, { recursive: true, force: true }));

describe('which lists are rebuilt', () => {
  test('an index of the older format and one whose description cannot be read; not the current one, not an unfinished folder', () => {
    assert.equal(INDEX_FORMAT > 1, true, 'the fixture is of an older format');
    const outdated = outdatedLists(storage);
    assert.deepEqual(outdated.map((l) => `${l.aliasType}-${l.userType}`).sort(), ['PK-DespatchAdvice', 'PK-Invoice']);
    const pk = outdated.find((l) => l.userType === 'Invoice')!;
    assert.equal(pk.storageDir, indexDir('PK-Invoice'));
    assert.equal(pk.meta?.format, 1);
    assert.equal(outdated.find((l) => l.userType === 'DespatchAdvice')!.meta, undefined, 'an unreadable description has no meta');
  });

  test('an empty storage folder: nothing to rebuild', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-index-upgrade-empty-'));
    try {
      assert.deepEqual(outdatedLists(empty), []);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('which ZIP it is rebuilt from', () => {
  const list = () => outdatedLists(storage).find((l) => l.aliasType === 'PK' && l.userType === 'Invoice')!;
  const defaultZip = () => defaultZipPath(storage, 'PK', 'Invoice');

  test('the ZIP the old index recorded, when it is still there (even with one at the default place)', () => {
    const recorded = path.join(storage, 'elsewhere', 'pk.zip');
    fs.mkdirSync(path.dirname(recorded), { recursive: true });
    fs.copyFileSync(V1_ZIP, recorded);
    fs.mkdirSync(path.dirname(defaultZip()), { recursive: true });
    fs.copyFileSync(V1_ZIP, defaultZip());
    try {
      assert.equal(zipToRebuildFrom(storage, { ...list(), zipPath: recorded }), recorded);
    } finally {
      fs.rmSync(path.dirname(recorded), { recursive: true, force: true });
      fs.rmSync(defaultZip(), { force: true });
    }
  });

  test('the default place when the recorded ZIP is gone or none was recorded', () => {
    fs.mkdirSync(path.dirname(defaultZip()), { recursive: true });
    fs.copyFileSync(V1_ZIP, defaultZip());
    try {
      assert.equal(zipToRebuildFrom(storage, { ...list(), zipPath: path.join(storage, 'gone.zip') }), defaultZip());
      assert.equal(zipToRebuildFrom(storage, { ...list(), zipPath: undefined }), defaultZip());
    } finally {
      fs.rmSync(defaultZip(), { force: true });
    }
  });

  test('none when neither exists: the list must be downloaded again', () => {
    assert.equal(zipToRebuildFrom(storage, { ...list(), zipPath: path.join(storage, 'gone.zip') }), undefined);
    assert.equal(zipToRebuildFrom(storage, list()), undefined);
  });
});

describe('the download date the rebuilt index keeps', () => {
  test("the old index's date; none when it is missing or cannot be read", () => {
    const list = outdatedLists(storage).find((l) => l.userType === 'Invoice')!;
    assert.equal(keptDownloadDate(list.downloadedAt)?.toISOString(), '2026-11-23T22:41:56.957Z');
    assert.equal(keptDownloadDate('dün'), undefined);
    assert.equal(keptDownloadDate(''), undefined);
    assert.equal(keptDownloadDate(undefined), undefined);
  });
});
