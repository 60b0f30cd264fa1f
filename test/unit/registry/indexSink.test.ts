// The records and title words of an index build are written in a worker thread (src/registry/indexSink.ts,
// dist/registryIndexWorker.js): it is the one the product uses, its files equal this thread's (see also
// test/unit/registry/format.test.ts), and a worker that fails or is abandoned leaves no index, no folder
// and no thread behind.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Taxpayer } from '../../../src/domain/registryXml';
import { buildIndex, currentIndexFolder, IndexBuildCancelledError, RegistryIndexReader } from '../../../src/registry';
import { encodeRecord } from '../../../src/registry/format';
import { openIndexSink } from '../../../src/registry/indexSink';

const WORKER_BUNDLE = path.resolve(__dirname, '..', '..', '..', '..', 'dist', 'registryIndexWorker.js');

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-words-'));
}

function list(size: number): Taxpayer[] {
  const words = ['Ticaret', 'Sanayi', 'Limited', 'Şirketi', 'İnşaat', 'Gıda', 'Tekstil', 'Yılmaz', 'Kaya', 'Demir'];
  return Array.from({ length: size }, (_, i) => ({
    Identifier: String(1000000000 + i * 7),
    Title: `${words[i % 10]} ${words[(i * 3) % 10]} Firma${i % 997} ${words[(i * 7) % 10]}`,
    Type: 'Ozel',
    AccountType: 'Ozel',
    FirstCreationTime: '2020-01-01T00:00:00',
    Documents: [],
  }));
}

async function* slowly(items: Taxpayer[], onHalf?: () => void): AsyncGenerator<Taxpayer[]> {
  for (let i = 0; i < items.length; i += 500) {
    if (i >= items.length / 2 && onHalf) {
      onHalf();
      onHalf = undefined;
    }
    yield items.slice(i, i + 500);
    await new Promise((r) => setImmediate(r));
  }
}

const source = { aliasType: 'PK', userType: 'Invoice', zipBytes: 1 };

test('the worker bundle is built and the build uses it; without it the records and words are written in this thread, into the same files', async () => {
  assert.ok(fs.existsSync(WORKER_BUNDLE), 'dist/registryIndexWorker.js is built with the extension');
  const [a, b] = [tempDir(), tempDir()];
  const inWorker = await openIndexSink(a, 100);
  const inThread = await openIndexSink(b, 100, { worker: false });
  assert.equal(inWorker.where, 'worker');
  assert.equal(inThread.where, 'thread');
  // 3,000 taxpayers: one full batch of 2,048 and a last one ending in a short record block.
  for (const [i, t] of list(3000).entries()) {
    await inWorker.add(encodeRecord(t), t.Title, i);
    await inThread.add(encodeRecord(t), t.Title, i);
  }
  const [wordsA, wordsB] = [await inWorker.finish(), await inThread.finish()];
  assert.equal(wordsA, wordsB);
  assert.equal(wordsA, 10 + 997, 'ten common words and the 997 firm numbers');
  for (const f of ['words.dict', 'words.idx', 'words.post', 'records.z', 'records.idx', 'records.dict']) assert.ok(fs.readFileSync(path.join(a, f)).equals(fs.readFileSync(path.join(b, f))), f);
  assert.deepEqual(fs.readdirSync(a).filter((f) => f.endsWith('.tmp')), [], 'no run left behind');
  for (const d of [a, b]) fs.rmSync(d, { recursive: true, force: true });
});

test('a worker that fails mid-build fails the build with its reason; the previous index stays and nothing is left behind', async () => {
  const storage = tempDir();
  await buildIndex(storage, slowly(list(2000)), source);
  const previous = currentIndexFolder(storage);
  // The temporary folder disappears halfway (a disk cleaner, say): the worker's next spilled run cannot
  // be written, or, when the worker has only just started by then, its records file or the records'
  // dictionary (written with the first block) cannot be created.
  const removeBuildFolder = () => {
    for (const f of fs.readdirSync(storage)) if (f.startsWith('tmp-')) fs.rmSync(path.join(storage, f), { recursive: true, force: true });
  };
  await assert.rejects(buildIndex(storage, slowly(list(20000), removeBuildFolder), source, { wordPairsInMemory: 5000 }), /ENOENT.*(run-\d+\.tmp|records\.(z|dict))/, 'the worker\'s own error: its file could not be written');
  assert.equal(currentIndexFolder(storage), previous, 'the previous index is still the current one');
  assert.deepEqual(fs.readdirSync(storage).filter((f) => f.startsWith('tmp-')), []);
  const reader = RegistryIndexReader.openFolder(currentIndexFolder(storage)!);
  assert.equal(reader.byTaxNumber('1000000007')?.Title, list(2)[1].Title);
  reader.close();
  fs.rmSync(storage, { recursive: true, force: true });
});

test('a build cancelled halfway stops its worker: no index, no folder, and no thread keeps the process alive', async () => {
  const storage = tempDir();
  const controller = new AbortController();
  await assert.rejects(buildIndex(storage, slowly(list(20000), () => controller.abort()), source, { signal: controller.signal }), IndexBuildCancelledError);
  assert.equal(currentIndexFolder(storage), undefined);
  assert.deepEqual(fs.readdirSync(storage), []);
  fs.rmSync(storage, { recursive: true, force: true });
  // node:test waits for the event loop to empty after the last test: a worker left running would
  // hold the run open, and the file would time out instead of passing.
});
