// The offline registry index: every taxpayer found by tax number, word search equal to a brute-force
// scan, Turkish case folding, atomic replacement, cancelled builds, and a real sandbox download.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createClient } from '../../../src/api';
import type { Taxpayer } from '../../../src/domain/registryXml';
import { completeTckn, completeVkn } from '../../../src/domain/taxId';
import { buildIndex, buildIndexFromZip, currentIndexFolder, foldedWords, foldTurkish, IndexBuildCancelledError, RegistryIndexReader } from '../../../src/registry';
import { buildTaxpayer } from '../../support/registryFixtures';
import { withSandbox } from '../../support/sandbox';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-index-'));
}

async function* from<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}

const SOURCE = { aliasType: 'PK', userType: 'Invoice', zipBytes: 1234 };

/** Titles that exercise Turkish folding and punctuation, mixed into the fixture list. */
const SPECIAL: Taxpayer[] = [
  { ...buildTaxpayer(90001), Identifier: completeVkn('012345678'), Title: 'IŞIK İNŞAAT VE TİCARET A.Ş.' },
  { ...buildTaxpayer(90002), Identifier: completeVkn('123456780').slice(1), Title: 'Işıklar Gıda Ltd. Şti.' },
  { ...buildTaxpayer(90003), Identifier: completeTckn('198765432'), Title: 'İSTANBUL ısı SİSTEMLERİ' },
  { ...buildTaxpayer(90004), Identifier: completeVkn('555555555'), Title: 'istanbul Isı Teknik' },
];

function fixtureList(n: number): Taxpayer[] {
  const list: Taxpayer[] = [];
  for (let i = 0; i < n; i++) list.push(buildTaxpayer(i));
  return [...list.slice(0, 10), ...SPECIAL, ...list.slice(10)];
}

/** What a search must return: every taxpayer whose folded title words cover the query. */
function bruteForce(list: Taxpayer[], query: string): Taxpayer[] {
  const q = foldedWords(query);
  const lastIsPrefix = !/[^\p{L}\p{N}]$/u.test(query);
  return list.filter((t) => {
    const words = foldedWords(t.Title);
    return q.every((w, i) => (i === q.length - 1 && lastIsPrefix ? words.some((x) => x.startsWith(w)) : words.includes(w)));
  });
}

describe('registry index: fold', () => {
  test('Turkish dotted and dotless I fold apart', () => {
    assert.equal(foldTurkish('İSTANBUL'), 'istanbul');
    assert.equal(foldTurkish('IŞIK'), 'ışık');
    assert.deepEqual(foldedWords('Yılmaz & Oğulları Ticaret Ltd. Şti.'), ['yılmaz', 'oğulları', 'ticaret', 'ltd', 'şti']);
  });
});

describe('registry index: build and read', () => {
  const list = fixtureList(3000);
  const dir = tempDir();
  let reader: RegistryIndexReader;

  test('build writes a complete index and points `current` at it', async () => {
    const meta = await buildIndex(dir, from(list), { ...SOURCE, downloadedAt: new Date('2026-01-02T03:04:05Z') });
    assert.equal(meta.taxpayers, list.length);
    assert.equal(meta.downloadedAt, '2026-01-02T03:04:05.000Z');
    const folder = currentIndexFolder(dir);
    assert.ok(folder);
    assert.deepEqual(fs.readdirSync(dir).filter((e) => e.startsWith('tmp-')), []);
    reader = RegistryIndexReader.openFolder(currentIndexFolder(dir)!);
    assert.ok(reader);
    assert.equal(reader.meta.taxpayers, list.length);
  });

  test('every tax number finds its own taxpayer, aliases and deletion times included', () => {
    const firstById = new Map<string, Taxpayer>();
    for (const t of list) if (!firstById.has(t.Identifier)) firstById.set(t.Identifier, t);
    for (const [id, t] of firstById) assert.deepEqual(reader.byTaxNumber(id), t, id);
  });

  test('unknown, malformed and leading-zero numbers are told apart', () => {
    const known = new Set(list.map((t) => t.Identifier));
    let unknown = '';
    for (let i = 1; !unknown; i++) {
      const candidate = completeVkn(String(700000000 + i));
      if (!known.has(candidate)) unknown = candidate;
    }
    assert.equal(reader.byTaxNumber(unknown), undefined);
    assert.equal(reader.byTaxNumber('12ab'), undefined);
    assert.equal(reader.byTaxNumber(''), undefined);
    // "0123456787"-style VKN with a leading zero and the same digits without it are different keys.
    assert.equal(reader.byTaxNumber(SPECIAL[0].Identifier)?.Title, SPECIAL[0].Title);
    assert.equal(reader.byTaxNumber(SPECIAL[0].Identifier.slice(1)), undefined);
    assert.equal(reader.byTaxNumber(SPECIAL[1].Identifier)?.Title, SPECIAL[1].Title);
  });

  test('word search equals a brute-force scan (exact words, prefixes, several words)', () => {
    const queries = ['anadolu', 'ANADOLU GIDA', 'anad', 'gıda san', 'lojistik ltd ', 'Ayşe', 'ayse', '12', 'çukurova tekstil 1', 'oğul', 'istanbul', 'ISI', 'ışık', 'işık', 'nothing-like-this'];
    for (const q of queries) {
      const expected = bruteForce(list, q);
      const got = reader.searchWords(q, 25);
      assert.equal(got.total, expected.length, `total for "${q}"`);
      assert.deepEqual(got.taxpayers, expected.slice(0, 25), `results for "${q}"`);
    }
  });

  test('Turkish folding: İSTANBUL = istanbul, IŞIK = ışık but not işik', () => {
    assert.deepEqual(reader.searchWords('istanbul').taxpayers.map((t) => t.Title).sort(), ['istanbul Isı Teknik', 'İSTANBUL ısı SİSTEMLERİ']);
    assert.deepEqual(reader.searchWords('ışık ').taxpayers.map((t) => t.Title), ['IŞIK İNŞAAT VE TİCARET A.Ş.']);
    assert.deepEqual(reader.searchWords('ışık').taxpayers.map((t) => t.Title), ['IŞIK İNŞAAT VE TİCARET A.Ş.', 'Işıklar Gıda Ltd. Şti.']);
    assert.equal(reader.searchWords('işik').total, 0);
    assert.equal(reader.searchWords('  ').total, 0);
  });

  test('a new build replaces the index atomically and removes the old folder', async () => {
    const before = currentIndexFolder(dir);
    const smaller = fixtureList(50);
    await buildIndex(dir, from(smaller), SOURCE);
    const after = currentIndexFolder(dir);
    assert.notEqual(after, before);
    assert.deepEqual(fs.readdirSync(dir).filter((e) => e.startsWith('index-')), [path.basename(after as string)]);
    reader.close();
    reader = RegistryIndexReader.openFolder(currentIndexFolder(dir)!);
    assert.equal(reader.meta.taxpayers, smaller.length);
    assert.equal(reader.byTaxNumber(list[2500].Identifier), undefined);
  });

  test('a cancelled build keeps the current index and leaves no temporary folder', async () => {
    const current = currentIndexFolder(dir);
    const controller = new AbortController();
    async function* slow(): AsyncGenerator<Taxpayer> {
      for (let i = 0; i < 10_000; i++) {
        if (i === 3000) controller.abort();
        yield buildTaxpayer(i);
      }
    }
    await assert.rejects(buildIndex(dir, slow(), SOURCE, { signal: controller.signal }), IndexBuildCancelledError);
    assert.equal(currentIndexFolder(dir), current);
    assert.deepEqual(fs.readdirSync(dir).filter((e) => e.startsWith('tmp-')), []);
    reader.close();
  });
});

describe('registry index: from a sandbox download', () => {
  test('the downloaded PK/Invoice list is searchable offline and agrees with the API', async () => {
    await withSandbox({ registry: 2000, customers: 10, seed: 3 }, async (sandbox) => {
      const client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.keys.full });
      const dir = tempDir();
      const zip = path.join(dir, 'list.zip');
      const download = await client.registry.downloadList('PK', 'Invoice', { kind: 'file', path: zip });
      const meta = await buildIndexFromZip(zip, path.join(dir, 'index'), { aliasType: 'PK', userType: 'Invoice', zipBytes: download.bytes });
      assert.ok(meta.taxpayers > 1000, `only ${meta.taxpayers} taxpayers in the list`);
      const reader = RegistryIndexReader.openFolder(currentIndexFolder(path.join(dir, 'index'))!);
      const page = await client.registry.list({ PageSize: 20, Page: 3 });
      let checked = 0;
      for (const entry of page.Content ?? []) {
        const offline = reader.byTaxNumber(entry.TaxNumber as string);
        if (!offline) continue;
        checked++;
        assert.equal(offline.Title, entry.Title);
        const online = new Set((entry.Aliases ?? []).map((a) => a.Name));
        const offlineAliases = offline.Documents.flatMap((d) => d.aliases.map((a) => a.Name));
        assert.ok(offlineAliases.length > 0, `${entry.TaxNumber} has no alias offline`);
        for (const alias of offlineAliases) assert.ok(online.has(alias), `${alias} is not among the API's aliases`);
        const word = foldedWords(entry.Title as string)[0];
        assert.ok(reader.searchWords(word, 100_000).taxpayers.some((t) => t.Identifier === entry.TaxNumber), `"${word}" does not find ${entry.TaxNumber}`);
      }
      assert.ok(checked >= 10, `only ${checked} of the page were in the PK/Invoice list`);
      reader.close();
    });
  });
});
