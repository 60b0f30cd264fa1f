// The offline index built while the registry ZIP downloads (src/registry/streamingIndex.ts), over real
// HTTP against the sandbox: the same index files as a build from the finished file, for every way the
// ZIP may travel; damaged, truncated and cancelled downloads install nothing and leave nothing behind;
// ZIPs of another layout are indexed from the finished file instead.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createClient, NilveraApiError, type NilveraClient } from '../../../src/api';
import { buildIndexFromZip, currentIndexFolder, downloadAndIndex, IndexBuildCancelledError, RegistryIndexReader, type DownloadedIndex, type DownloadIndexOptions, type ZipDownload } from '../../../src/registry';
import { buildTaxpayer, makeZip, registryXml } from '../../support/registryFixtures';
import { startTestSandbox, type SandboxHandle } from '../../support/sandbox';

const KIND = { aliasType: 'PK', userType: 'Invoice' };
const INDEX_FILES = ['words.dict', 'words.idx', 'words.post', 'taxnums.z', 'taxnums.idx', 'records.z', 'records.idx', 'records.dict'];

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-streaming-'));
}

/** Every index file of two storage folders is byte for byte the same. */
function assertSameIndex(a: string, b: string): void {
  const fa = currentIndexFolder(a) as string;
  const fb = currentIndexFolder(b) as string;
  for (const f of INDEX_FILES) assert.ok(fs.readFileSync(path.join(fa, f)).equals(fs.readFileSync(path.join(fb, f))), f);
}

/** Folders a build left in the storage folder besides the installed index. */
function leftovers(storageDir: string): string[] {
  if (!fs.existsSync(storageDir)) return [];
  return fs.readdirSync(storageDir).filter((e) => e.startsWith('tmp-'));
}

describe('registry index built while the ZIP downloads', () => {
  let sb: SandboxHandle;
  let client: NilveraClient;
  before(async () => {
    sb = await startTestSandbox({ registry: 12_000, customers: 10, seed: 5 });
    client = createClient({ baseUrl: sb.url, getApiKey: async () => sb.keys.full });
  });
  after(() => sb.close());

  /** What the build on the way answered when the download asked whether it had checked the ZIP. */
  let checkedOnTheWay: boolean | undefined;
  const download = (zipPath: string, signal?: AbortSignal): ZipDownload => (hooks) => {
    checkedOnTheWay = undefined;
    const checked = async (zip: { path: string } | { buffer: Buffer }): Promise<boolean> => (checkedOnTheWay = await hooks.checkedOnTheWay(zip));
    return client.registry.downloadList('PK', 'Invoice', { kind: 'file', path: zipPath, verifyZip: true, ...hooks, checkedOnTheWay: checked }, signal ? { signal } : undefined);
  };

  for (const encoding of ['jsonBase64', 'textBase64', 'rawZip'] as const) {
    test(`${encoding}: indexed on the way, the same files as a build from the finished ZIP`, async () => {
      sb.setBehaviour({ profile: 'default', quirks: { registryZipEncoding: encoding } });
      const dir = tempDir();
      const zip = path.join(dir, 'list.zip');
      const progress: number[] = [];
      let installing = 0;
      const result = await downloadAndIndex(download(zip), zip, path.join(dir, 'live'), KIND, { onProgress: (n) => progress.push(n), beforeInstall: () => installing++ });
      assert.equal(result.streamed, true, `not streamed: ${result.notStreamedBecause}`);
      assert.equal(checkedOnTheWay, true, 'the ZIP was checked on the way: no second inflate pass');
      assert.equal(installing, 1);
      assert.equal(result.zipBytes, fs.statSync(zip).size);
      assert.equal(result.meta.zipPath, path.resolve(zip));
      await buildIndexFromZip(zip, path.join(dir, 'fromFile'), { ...KIND, zipBytes: result.zipBytes });
      assertSameIndex(path.join(dir, 'live'), path.join(dir, 'fromFile'));
      assert.ok(result.meta.taxpayers > 5000 && progress.length > 0, `${result.meta.taxpayers} taxpayers, progress ${progress.join(',')}`);
      const reader = RegistryIndexReader.openFolder(currentIndexFolder(path.join(dir, 'live'))!);
      assert.equal(reader.meta.taxpayers, result.meta.taxpayers);
      reader.close();
      assert.deepEqual(leftovers(path.join(dir, 'live')), []);
      fs.rmSync(dir, { recursive: true, force: true });
    });
  }

  for (const fault of ['corruptZip', 'truncatedZip'] as const) {
    test(`${fault}: the download fails as before, the current index stays, nothing is left behind`, async () => {
      sb.setBehaviour({ profile: 'default', quirks: {} });
      const dir = tempDir();
      const zip = path.join(dir, 'list.zip');
      const storage = path.join(dir, 'live');
      await downloadAndIndex(download(zip), zip, storage, KIND);
      const before = currentIndexFolder(storage);
      const zipBefore = fs.readFileSync(zip);
      sb.setFaults({ queue: [fault], match: { path: '^/general/GlobalCompany/PK/Invoice$' } });
      await assert.rejects(downloadAndIndex(download(zip), zip, storage, KIND), (e: unknown) => e instanceof NilveraApiError && e.kind === 'malformed');
      // The build on the way did not vouch for it, so the full check ran and refused it.
      if (fault === 'corruptZip') assert.equal(checkedOnTheWay, false);
      assert.equal(currentIndexFolder(storage), before, 'the index in use did not change');
      assert.ok(fs.readFileSync(zip).equals(zipBefore), 'the good ZIP was kept');
      assert.deepEqual(leftovers(storage), []);
      assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.part')), []);
      fs.rmSync(dir, { recursive: true, force: true });
    });
  }

  test('a download cancelled halfway installs nothing and leaves nothing behind', async () => {
    sb.setBehaviour({ profile: 'default', quirks: {} });
    const dir = tempDir();
    const zip = path.join(dir, 'list.zip');
    const storage = path.join(dir, 'live');
    const controller = new AbortController();
    let seen = 0;
    let buildingWhenCancelled: string[] = [];
    const halfway: ZipDownload = (hooks) =>
      download(zip, controller.signal)({
        ...hooks,
        onZipBytes: async (bytes) => {
          await hooks.onZipBytes(bytes);
        seen += bytes.length;
          if (seen > 200_000 && !controller.signal.aborted) {
            buildingWhenCancelled = leftovers(storage);
            controller.abort();
          }
        },
      });
    await assert.rejects(downloadAndIndex(halfway, zip, storage, KIND, { signal: controller.signal }), (e: unknown) => e instanceof NilveraApiError || e instanceof IndexBuildCancelledError);
    assert.equal(buildingWhenCancelled.length, 1, 'the index was being built when the download was cancelled');
    assert.equal(currentIndexFolder(storage), undefined);
    assert.deepEqual(leftovers(storage), []);
    assert.equal(fs.existsSync(zip), false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('registry ZIPs that cannot be read on the way', () => {
  const taxpayers = Array.from({ length: 1500 }, (_, i) => buildTaxpayer(i));
  const xml = registryXml(taxpayers);

  /** A "download" that writes the ZIP to its path and hands it over in pieces, as the API layer does. */
  const fromBuffer = (zip: Buffer, zipPath: string): ZipDownload => async ({ onZipBytes }) => {
    for (let at = 0; at < zip.length; at += 7000) await onZipBytes(zip.subarray(at, at + 7000));
    fs.writeFileSync(zipPath, zip);
    return { bytes: zip.length };
  };

  /**
   * Downloads `entries` as one ZIP, indexed on the way where that can be, and builds the same ZIP's
   * index from the finished file: both give the same files and leave nothing behind.
   */
  async function indexedBothWays(entries: Parameters<typeof makeZip>[0], compression: 'DEFLATE' | 'STORE', options: DownloadIndexOptions = {}): Promise<DownloadedIndex> {
    const dir = tempDir();
    const zipPath = path.join(dir, 'list.zip');
    const zip = await makeZip(entries, compression);
    const result = await downloadAndIndex(fromBuffer(zip, zipPath), zipPath, path.join(dir, 'live'), KIND, options);
    await buildIndexFromZip(zipPath, path.join(dir, 'fromFile'), { ...KIND, zipBytes: zip.length });
    assertSameIndex(path.join(dir, 'live'), path.join(dir, 'fromFile'));
    assert.deepEqual(leftovers(path.join(dir, 'live')), []);
    fs.rmSync(dir, { recursive: true, force: true });
    return result;
  }

  for (const [label, entries, compression] of [
    ['a second entry after the list', [{ name: 'list.xml', data: xml }, { name: 'notes.txt', data: 'a note' }], 'DEFLATE'],
    ['a stored (not deflated) entry', [{ name: 'list.xml', data: xml }], 'STORE'],
    ['a first entry that is not the list', [{ name: 'notes.txt', data: 'just words' }, { name: 'list.xml', data: xml }], 'DEFLATE'],
  ] as const) {
    test(`${label}: indexed from the finished file, the same as before`, async () => {
      const result = await indexedBothWays([...entries], compression);
      assert.equal(result.streamed, false);
      assert.ok(result.notStreamedBecause, 'a reason is given');
      assert.equal(result.meta.taxpayers, taxpayers.length);
    });
  }

  test('a list of another shape (a comment inside a user) is indexed from the finished file by the general parser, the same as before', async () => {
    const result = await indexedBothWays([{ name: 'list.xml', data: xml.replace('<Type>', '<!-- checked --><Type>') }], 'DEFLATE');
    assert.equal(result.streamed, false);
    assert.match(result.notStreamedBecause ?? '', /usual shape/);
    assert.equal(result.meta.taxpayers, taxpayers.length);
  });

  test('indexed on the way with the records and words written in this thread (no worker): the same files', async () => {
    const result = await indexedBothWays([{ name: 'list.xml', data: xml }], 'DEFLATE', { inWorker: false });
    assert.equal(result.streamed, true, `not streamed: ${result.notStreamedBecause}`);
    assert.equal(result.writtenIn, 'thread');
  });

  test('a plain one-entry ZIP handed over in small pieces is indexed on the way', async () => {
    const dir = tempDir();
    const zipPath = path.join(dir, 'list.zip');
    const zip = await makeZip([{ name: 'list.xml', data: xml }], 'DEFLATE');
    const result = await downloadAndIndex(fromBuffer(zip, zipPath), zipPath, path.join(dir, 'live'), KIND);
    assert.equal(result.streamed, true, `not streamed: ${result.notStreamedBecause}`);
    assert.equal(result.meta.taxpayers, taxpayers.length);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
