// The compact offline index (format 2) on realistic data from the sandbox's generator: round trip,
// look-ups by tax number and by title words equal to a brute-force scan (Turkish İ/ı folding), runs
// spilled to disk giving the same bytes as one run, the size budget against the list's ZIP, an index
// of the previous format refused and rebuilt from its ZIP, and damaged indexes refused.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Taxpayer } from '../../../src/domain/registryXml';
import { parseRegistryXml } from '../../support/registryFixtures';
import { iterateRegistryZipBatches } from '../../../src/domain/registryZip';
import { SORT_SLICE, TaxNumberTable } from '../../../src/registry/taxNumberTable';
import { decodeRecord, encodeRecord, taxNumberKey } from '../../../src/registry/format';
import { buildIndex, buildIndexFromZip, currentIndexFolder, foldedWords, INDEX_FORMAT, RegistryIndexError, RegistryIndexReader } from '../../../src/registry';
import { OfflineRegistry } from '../../../src/registry/offlineLookup';
import { Registry } from '../../../src/sandbox/registry';
import { registryXmlChunks, userXml } from '../../../src/sandbox/registryXml';
import { zipOfOneEntry } from '../../../src/domain/zip';

const SEED = 20261123;
const FIXTURE_V1 = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'registry-index-v1');

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-index2-'));
}

async function* from<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}

/** The sandbox's PK/Invoice list of `size` taxpayers, as the parser reads it. */
function realisticList(size: number): Taxpayer[] {
  const xml = [...new Registry(SEED, size).entries()].map((e) => userXml(e, 'PK', 'Invoice')).join('');
  return parseRegistryXml(`<UserList>${xml}</UserList>`);
}

/** The same list as the sandbox serves it: a ZIP with one deflated XML entry. */
async function realisticZip(size: number, file: string): Promise<number> {
  const parts: Buffer[] = [];
  const xml = Readable.from(registryXmlChunks(new Registry(SEED, size).entries(), 'PK', 'Invoice'), { objectMode: false });
  await pipeline([
    zipOfOneEntry('KullaniciListesi_PK_Invoice_20261123.xml', xml, 1, new Date(Date.UTC(2026, 10, 23))),
    new Writable({
      write(chunk: Buffer, _e, cb) {
        parts.push(chunk);
        cb();
      },
    }),
  ]);
  fs.writeFileSync(file, Buffer.concat(parts));
  return fs.statSync(file).size;
}

function bruteForce(list: Taxpayer[], query: string): string[] {
  const q = foldedWords(query);
  const lastIsPrefix = !/[^\p{L}\p{N}]$/u.test(query);
  return list
    .filter((t) => {
      const words = foldedWords(t.Title);
      return q.every((w, i) => (i === q.length - 1 && lastIsPrefix ? words.some((x) => x.startsWith(w)) : words.includes(w)));
    })
    .map((t) => t.Identifier);
}

function indexBytes(storageDir: string): number {
  const folder = currentIndexFolder(storageDir) as string;
  return fs.readdirSync(folder).reduce((n, f) => n + fs.statSync(path.join(folder, f)).size, 0);
}

describe('registry index format 2 on a realistic list', () => {
  const list = realisticList(6000);
  const dir = tempDir();
  let reader: RegistryIndexReader;

  test('the list has a long tail of title words, as the real one does', () => {
    const counts = new Map<string, number>();
    for (const t of list) for (const w of new Set(foldedWords(t.Title))) counts.set(w, (counts.get(w) ?? 0) + 1);
    const once = [...counts.values()].filter((n) => n === 1).length;
    assert.ok(counts.size > 4000, `${counts.size} distinct words in 6,000 titles`);
    assert.ok(once > counts.size / 3, `${once} of ${counts.size} words occur once`);
    assert.ok(Math.max(...counts.values()) > 1500, 'legal forms and trades are common');
  });

  test('round trip: every taxpayer comes back whole by its tax number', async () => {
    const meta = await buildIndex(dir, from(list), { aliasType: 'PK', userType: 'Invoice', zipBytes: 1 });
    assert.equal(meta.format, INDEX_FORMAT);
    assert.equal(meta.taxpayers, list.length);
    reader = RegistryIndexReader.openFolder(currentIndexFolder(dir)!);
    const firstOf = new Map<string, Taxpayer>();
    for (const t of list) if (!firstOf.has(t.Identifier)) firstOf.set(t.Identifier, t);
    for (const t of firstOf.values()) assert.deepEqual(reader.byTaxNumber(t.Identifier), t);
    assert.equal(reader.byTaxNumber('1111111111'), undefined);
    assert.equal(reader.byTaxNumber('abc'), undefined);
  });

  test('title words: common, mid and rare words, prefixes and pairs equal a brute-force scan', () => {
    const counts = new Map<string, number>();
    for (const t of list) for (const w of new Set(foldedWords(t.Title))) counts.set(w, (counts.get(w) ?? 0) + 1);
    const byCount = [...counts].sort((a, b) => b[1] - a[1]).map(([w]) => w);
    const queries = [
      ...byCount.slice(0, 5).map((w) => w + ' '),
      ...byCount.slice(200, 205).map((w) => w + ' '),
      ...byCount.slice(-5).map((w) => w + ' '),
      ...byCount.slice(300, 305).map((w) => w.slice(0, 3)),
      `${byCount[0]} ${byCount[400].slice(0, 2)}`,
      `${byCount[1]} ${byCount[2]} `,
      'zzqx',
    ];
    for (const q of queries) {
      const expected = bruteForce(list, q);
      const found = reader.searchWords(q, 100_000);
      assert.equal(found.total, expected.length, q);
      assert.deepEqual(found.taxpayers.map((t) => t.Identifier), expected, q);
    }
  });

  test('Turkish case folding: İ/i and I/ı in titles and queries', () => {
    const withDotless = list.find((t) => /I/.test(t.Title) && /ı/.test(t.Title.toLocaleLowerCase('tr')));
    assert.ok(withDotless, 'some title has a dotless I');
    const word = foldedWords(withDotless.Title).find((w) => w.includes('ı')) as string;
    const upper = word.toLocaleUpperCase('tr');
    for (const q of [word + ' ', upper + ' ', word.replace(/ı/g, 'I') + ' ']) {
      const ids = reader.searchWords(q, 100_000).taxpayers.map((t) => t.Identifier);
      assert.ok(ids.includes(withDotless.Identifier), q);
      assert.deepEqual(ids, bruteForce(list, q), q);
    }
    // The dotted form is another word.
    assert.deepEqual(reader.searchWords(word.replace(/ı/g, 'i') + ' ', 100_000).taxpayers.map((t) => t.Identifier), bruteForce(list, word.replace(/ı/g, 'i') + ' '));
    reader.close();
  });

  test('word pairs spilled to disk in many runs give the same index files as one run', async () => {
    const small = tempDir();
    await buildIndex(small, from(list), { aliasType: 'PK', userType: 'Invoice', zipBytes: 1 }, { wordPairsInMemory: 997 });
    const a = currentIndexFolder(dir) as string;
    const b = currentIndexFolder(small) as string;
    for (const f of ['words.dict', 'words.idx', 'words.post', 'taxnums.z', 'taxnums.idx', 'records.z', 'records.idx', 'records.dict']) assert.ok(fs.readFileSync(path.join(a, f)).equals(fs.readFileSync(path.join(b, f))), f);
    assert.deepEqual(fs.readdirSync(b).filter((f) => f.endsWith('.tmp')), [], 'no run file left behind');
  });

  test('taxpayers handed over in batches give the same index files as one at a time, spills included', async () => {
    const a = currentIndexFolder(dir) as string;
    const batches = (size: number): Taxpayer[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
    // Batches of 1, of an uneven size and of everything; with 7 pairs in memory a spill falls inside most titles.
    // The same with the records and title words written in this thread instead of the worker.
    for (const [size, pairs, inWorker] of [[1, undefined, true], [157, undefined, true], [list.length, undefined, true], [157, 7, true], [157, undefined, false], [157, 7, false]] as const) {
      const other = tempDir();
      const progress: number[] = [];
      const meta = await buildIndex(other, from(batches(size)), { aliasType: 'PK', userType: 'Invoice', zipBytes: 1 }, { onProgress: (n) => progress.push(n), inWorker, ...(pairs ? { wordPairsInMemory: pairs } : {}) });
      assert.equal(meta.taxpayers, list.length);
      const b = currentIndexFolder(other) as string;
      for (const f of ['words.dict', 'words.idx', 'words.post', 'taxnums.z', 'taxnums.idx', 'records.z', 'records.idx', 'records.dict']) assert.ok(fs.readFileSync(path.join(a, f)).equals(fs.readFileSync(path.join(b, f))), `${f}, batches of ${size}, ${pairs ?? 'default'} pairs, ${inWorker ? 'worker' : 'this thread'}`);
      // Progress comes in multiples of 5,000 taxpayers, rising, up to the last multiple reached.
      assert.ok(progress.every((n, i) => n % 5000 === 0 && n <= list.length && (i === 0 || n > progress[i - 1])), `progress ${progress.join(', ')}, batches of ${size}`);
      assert.equal(progress.at(-1), Math.floor(list.length / 5000) * 5000, `last progress, batches of ${size}`);
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});

/** The (key, ordinal) pairs a table gives back, in its order. */
function mergedPairs(keys: readonly number[]): Array<[number, number]> {
  const table = new TaxNumberTable();
  for (const key of keys) table.add(key);
  const merged = table.sorted();
  const pairs: Array<[number, number]> = [];
  while (merged.next()) pairs.push([merged.key, merged.ordinal]);
  return pairs;
}

test('the tax-number table sorts slices as they fill and merges them into the order of one sort, duplicates by list order, malformed keys left out', () => {
  // Sizes around the 65,536 slice: none, one, one slice, one more, several slices.
  for (const size of [0, 1, SORT_SLICE, SORT_SLICE + 1, 200_003]) {
    // 10- and 11-digit numbers and a few short ones, each repeated within and across slices; every
    // fifth malformed (+Infinity as the builder gives it, or NaN).
    const keys = Array.from({ length: size }, (_, i) => {
      if (i % 5 === 0) return i % 10 === 0 ? Number.POSITIVE_INFINITY : Number.NaN;
      const n = (i * 7919) % 50_021;
      const number = i % 3 === 0 ? String(n) : i % 3 === 1 ? String(1_000_000_000 + n * 97) : String(10_000_000_000 + n * 13);
      return taxNumberKey(number.padStart(i % 7 === 0 ? 11 : number.length, '0'));
    });
    const expected = keys.flatMap((key, ordinal): Array<[number, number]> => (Number.isFinite(key) ? [[key, ordinal]] : [])).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    assert.deepEqual(mergedPairs(keys), expected, `size ${size}`);
  }
});

test('the tax-number table keeps every key exact, from one digit to eleven, and apart by digit count', () => {
  const numbers = ['99999999999', '0', '9', '00', '10', '99', '0123456789', '123456789', '1234567890', '00000000000', '12345678901', '99999999999', '9999999999'];
  const keys = numbers.map(taxNumberKey);
  const expected = keys.map((key, ordinal): [number, number] => [key, ordinal]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  assert.deepEqual(mergedPairs(keys), expected);
  assert.equal(new Set(mergedPairs(keys).map(([key]) => key)).size, new Set(numbers).size, 'a leading zero makes another number');
  // Numbers taxNumberKey never gives (a one-digit key holding 10, a fraction, a negative, 12 digits) take an ordinal and are left out.
  assert.deepEqual(mergedPairs([1e12 + 10, taxNumberKey('42'), 2e12 + 0.5, -1, 12e12, taxNumberKey('7')]), [[taxNumberKey('7'), 5], [taxNumberKey('42'), 1]]);
});

test('a record keeps every value in its place; a separator inside a value becomes a space', () => {
  const plain: Taxpayer = {
    Identifier: '4826153701',
    Title: 'Öztürk & Kaya <Bilişim> A.Ş.',
    Type: 'Özel',
    AccountType: 'Özel',
    FirstCreationTime: '2025-05-19T10:00:00',
    Documents: [
      { type: 'Invoice', aliases: [{ Name: 'urn:mail:defaultpk@ozturk3701.com.tr', CreationTime: '2025-05-19T10:00:00' }, { Name: 'urn:mail:eski@ozturk3701.com.tr', CreationTime: '2024-01-02T00:00:00', DeletionTime: '2025-01-02T00:00:00' }] },
      { type: 'DespatchAdvice', aliases: [] },
    ],
  };
  assert.deepEqual(decodeRecord(encodeRecord(plain)), plain);
  // A value can hold one only through a character reference (XML 1.0 allows none in text): each of
  // the four, in every kind of value, alone and all at once.
  const spoiled = (sep: string, where: string): Taxpayer => ({
    Identifier: where === 'number' ? `48${sep}26153701` : plain.Identifier,
    Title: where === 'title' ? `Öztürk${sep}Kaya` : plain.Title,
    Type: plain.Type,
    AccountType: where === 'account' ? `Öz${sep}el` : plain.AccountType,
    FirstCreationTime: plain.FirstCreationTime,
    Documents: [{ type: where === 'document' ? `Inv${sep}oice` : 'Invoice', aliases: [{ Name: where === 'alias' ? `urn${sep}mail` : 'urn:mail', CreationTime: '2025-05-19', ...(where === 'deleted' ? { DeletionTime: `2026${sep}` } : {}) }] }],
  });
  for (const sep of ['\x1c', '\x1d', '\x1e', '\x1f', '\x1c\x1d\x1e\x1f']) {
    for (const where of ['number', 'title', 'account', 'document', 'alias', 'deleted']) {
      const expected = JSON.parse(JSON.stringify(spoiled(sep, where)).replace(/\\u001[c-f]/g, ' ')) as Taxpayer;
      assert.deepEqual(decodeRecord(encodeRecord(spoiled(sep, where))), expected, `${JSON.stringify(sep)} in the ${where}`);
    }
  }
});

test('malformed tax numbers among valid ones: every valid one is found, the malformed ones are not indexed', async () => {
  // Before: one malformed number (a NaN key) made the sort inconsistent, and the index was refused as damaged.
  const valid = realisticList(30_000);
  for (const [label, malformed] of [['one', (i: number) => i === 15_000], ['every third', (i: number) => i % 3 === 1]] as const) {
    const storage = tempDir();
    const list = valid.map((t, i) => (malformed(i) ? { ...t, Identifier: `X${t.Identifier.slice(1)}` } : t));
    await buildIndex(storage, from(list), { aliasType: 'PK', userType: 'Invoice', zipBytes: 1 });
    const reader = RegistryIndexReader.openFolder(currentIndexFolder(storage)!);
    for (const [i, t] of list.entries()) {
      if (malformed(i)) assert.equal(reader.byTaxNumber(t.Identifier), undefined, `${label}: ${t.Identifier}`);
      else assert.equal(reader.byTaxNumber(t.Identifier)?.Title, t.Title, `${label}: ${t.Identifier}`);
    }
    reader.close();
    fs.rmSync(storage, { recursive: true, force: true });
  }
});

describe('registry index size budget', () => {
  // The word dictionary weighs most on small lists (a new word every few titles): 100,000 taxpayers
  // is the smallest list where the budget the full 1.5 M list meets with room (1.10×) still holds.
  test('a fixed-seed list of 100,000 taxpayers: index ≤ 1.2 × its ZIP, ≤ 72 bytes a taxpayer', async () => {
    const dir = tempDir();
    const zip = path.join(dir, 'list.zip');
    const zipBytes = await realisticZip(100_000, zip);
    const meta = await buildIndexFromZip(zip, path.join(dir, 'index'), { aliasType: 'PK', userType: 'Invoice', zipBytes });
    const bytes = indexBytes(path.join(dir, 'index'));
    assert.ok(meta.taxpayers > 90_000, `${meta.taxpayers} taxpayers`);
    assert.ok(bytes <= 1.2 * zipBytes, `index ${bytes} bytes for a ${zipBytes}-byte ZIP (${(bytes / zipBytes).toFixed(3)}×)`);
    assert.ok(bytes / meta.taxpayers <= 72, `${(bytes / meta.taxpayers).toFixed(1)} bytes a taxpayer`);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('an index of the previous format', () => {
  function copyFixture(): string {
    const root = tempDir();
    fs.cpSync(FIXTURE_V1, root, { recursive: true });
    return root;
  }

  test('is refused as outdated, never read, and the shared look-up finds nothing in it', () => {
    const root = copyFixture();
    const storageDir = path.join(root, 'registry-index', 'PK-Invoice');
    const folder = currentIndexFolder(storageDir) as string;
    assert.ok(folder, 'the fixture has a current index');
    assert.throws(() => RegistryIndexReader.openFolder(folder), (e: unknown) => e instanceof RegistryIndexError && e.reason === 'outdated');
    const offline = new OfflineRegistry(path.join(root, 'registry-index'), 'Invoice');
    assert.equal(offline.hasIndex(), false);
    offline.close();
  });

  test('is rebuilt from its ZIP into the current format, answering look-ups from the same list', async () => {
    const root = copyFixture();
    const storageDir = path.join(root, 'registry-index', 'PK-Invoice');
    const zip = path.join(root, 'registry-lists', 'registry-PK-Invoice.zip');
    const expected: Taxpayer[] = [];
    for await (const batch of iterateRegistryZipBatches(zip)) expected.push(...batch);
    const old = JSON.parse(fs.readFileSync(path.join(currentIndexFolder(storageDir) as string, 'meta.json'), 'utf8')) as { format: number; downloadedAt: string };
    assert.equal(old.format, 1);
    const meta = await buildIndexFromZip(zip, storageDir, { aliasType: 'PK', userType: 'Invoice', zipBytes: fs.statSync(zip).size, downloadedAt: new Date(old.downloadedAt) });
    assert.equal(meta.format, INDEX_FORMAT);
    assert.equal(meta.downloadedAt, old.downloadedAt, 'the list is as fresh as its download, not its rebuild');
    assert.equal(meta.zipPath, zip);
    assert.deepEqual(fs.readdirSync(storageDir).filter((f) => f.startsWith('index-')).length, 1, 'the old folder is gone');
    const offline = new OfflineRegistry(path.join(root, 'registry-index'), 'Invoice');
    for (const t of expected) assert.equal(offline.lookup(t.Identifier)?.title, t.Title);
    offline.close();
    const reader = RegistryIndexReader.openFolder(currentIndexFolder(storageDir)!);
    const word = foldedWords(expected[0].Title)[0];
    assert.deepEqual(reader.searchWords(word + ' ', 1000).taxpayers.map((t) => t.Identifier), bruteForce(expected, word + ' '));
    reader.close();
  });
});

describe('a damaged index is refused, never misread', () => {
  const list = realisticList(1500);

  async function fresh(): Promise<string> {
    const dir = tempDir();
    await buildIndex(dir, from(list), { aliasType: 'PK', userType: 'Invoice', zipBytes: 1 });
    return currentIndexFolder(dir) as string;
  }
  const isCorrupt = (e: unknown) => e instanceof RegistryIndexError && e.reason === 'corrupt';
  const flip = (file: string, at: number) => {
    const b = fs.readFileSync(file);
    b[at] ^= 0x5a;
    fs.writeFileSync(file, b);
  };

  test('a missing, truncated or unreadable file is refused on open', async () => {
    let folder = await fresh();
    fs.truncateSync(path.join(folder, 'records.z'), 100);
    assert.throws(() => RegistryIndexReader.openFolder(folder), isCorrupt);
    folder = await fresh();
    fs.rmSync(path.join(folder, 'words.post'));
    assert.throws(() => RegistryIndexReader.openFolder(folder), isCorrupt);
    folder = await fresh();
    fs.writeFileSync(path.join(folder, 'meta.json'), '{"format": 2, "taxpay');
    assert.throws(() => RegistryIndexReader.openFolder(folder), isCorrupt);
    folder = await fresh();
    fs.writeFileSync(path.join(folder, 'words.idx'), 'not json');
    assert.throws(() => RegistryIndexReader.openFolder(folder), isCorrupt);
  });

  test('a flipped byte in a record block or the dictionary is refused on read', async () => {
    let folder = await fresh();
    flip(path.join(folder, 'records.z'), 500);
    let reader = RegistryIndexReader.openFolder(folder);
    assert.throws(() => {
      for (const t of list) reader.byTaxNumber(t.Identifier);
    }, isCorrupt);
    reader.close();
    folder = await fresh();
    flip(path.join(folder, 'words.dict'), 40);
    reader = RegistryIndexReader.openFolder(folder);
    const words = [...new Set(list.flatMap((t) => foldedWords(t.Title)))];
    assert.throws(() => {
      for (const w of words) reader.searchWords(w + ' ');
    }, isCorrupt);
    reader.close();
  });

  test('a flipped byte in the tax-number table never returns another taxpayer', async () => {
    const folder = await fresh();
    const size = fs.statSync(path.join(folder, 'taxnums.z')).size;
    for (let at = 0; at < size; at += Math.ceil(size / 25)) {
      const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-flip-'));
      fs.cpSync(folder, copy, { recursive: true });
      flip(path.join(copy, 'taxnums.z'), at);
      const reader = RegistryIndexReader.openFolder(copy);
      for (const t of list.slice(0, 300)) {
        try {
          const found = reader.byTaxNumber(t.Identifier);
          if (found) assert.equal(found.Identifier, t.Identifier);
        } catch (e) {
          assert.ok(isCorrupt(e), String(e));
        }
      }
      reader.close();
    }
  });
});
