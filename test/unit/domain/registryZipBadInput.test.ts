// Bad input, registry ZIPs: path-traversal entry names, a zip bomb, no / two XML lists, empty,
// not-a-ZIP, truncated and damaged archives. Each gives a RegistryZipError with its code and a clear
// message, both when read directly and when the offline index is built from a file; and the build
// writes nothing outside the storage folder chosen for it (the whole temporary tree is compared before
// and after, and no file named evil.* may appear anywhere).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { RegistryZipError, iterateRegistryZipBatches } from '../../../src/domain/registryZip';
import JSZip from 'jszip';
import type { RegistryZipErrorCode } from '../../../src/domain/registryZip';
import { RegistryXmlError } from '../../../src/domain/registryXml';
import { buildIndexFromZip, currentIndexFolder, RegistryIndexReader } from '../../../src/registry';
import { buildTaxpayer, registryXml } from '../../support/registryFixtures';

const TAXPAYERS = Array.from({ length: 40 }, (_, i) => buildTaxpayer(i));
const XML = registryXml(TAXPAYERS);
/** Limit used for the bomb cases (the default, 2 GiB, is for the real ≈ 1 GB list). */
const BOMB_LIMIT = 1024 * 1024;

type Entry = { name: string; data: string | Buffer };

/** `n` letters from a fixed pseudo-random sequence: text that deflate cannot shrink much. */
function lettersInNoPattern(n: number): string {
  const bytes = Buffer.alloc(n);
  for (let i = 0, x = 12345; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = 65 + ((x >>> 16) % 26);
  }
  return bytes.toString('latin1');
}

async function makeZip(entries: Entry[], compression: 'DEFLATE' | 'STORE' = 'DEFLATE'): Promise<Buffer> {
  const zip = new JSZip();
  for (const e of entries) zip.file(e.name, e.data, { createFolders: false });
  return zip.generateAsync({ type: 'nodebuffer', compression, compressionOptions: { level: 9 } });
}

/** Offset of an entry's data in a single-entry ZIP (after its local header). */
function dataStart(zip: Buffer): number {
  return 30 + zip.readUInt16LE(26) + zip.readUInt16LE(28);
}

interface BadZip {
  what: string;
  build(): Promise<Buffer>;
  code: RegistryZipErrorCode | 'xml';
  message: RegExp;
  /** Cases that only fail beyond a limit pass it. */
  maxEntryBytes?: number;
}

const BAD_ZIPS: BadZip[] = [
  ...['../evil.xml', '/abs.xml', '..\\x.xml', 'sub/../../evil.xml', 'a/../../../../tmp/evil.xml', 'C:/evil.xml', 'C:\\evil.xml', '\\\\server\\share\\evil.xml', '..'].map(
    (name): BadZip => ({ what: `entry named ${JSON.stringify(name)}`, build: () => makeZip([{ name, data: XML }]), code: 'unsafeEntryName', message: /unsafe name/ }),
  ),
  {
    what: 'a safe list next to an unsafe entry',
    build: () => makeZip([{ name: 'list.xml', data: XML }, { name: '../evil.xml', data: 'x' }]),
    code: 'unsafeEntryName',
    message: /"\.\.\/evil\.xml"/,
  },
  {
    what: 'zip bomb: 64 MB of white space inside the list',
    build: () => makeZip([{ name: 'bomb.xml', data: Buffer.concat([Buffer.from('<?xml version="1.0"?>\n<UserList>'), Buffer.alloc(64 * 1024 * 1024, 0x20), Buffer.from('</UserList>')]) }]),
    code: 'entryTooLarge',
    message: /inflates to more than 1048576 bytes/,
    maxEntryBytes: BOMB_LIMIT,
  },
  {
    what: 'zip bomb: the real list followed by 32 MB of zeros',
    build: () => makeZip([{ name: 'list.xml', data: Buffer.concat([Buffer.from(XML), Buffer.alloc(32 * 1024 * 1024)]) }]),
    code: 'entryTooLarge',
    message: /list\.xml/,
    maxEntryBytes: BOMB_LIMIT,
  },
  {
    // Letters in no pattern, so the entry is no bomb by its ratio and the parser is what stops it.
    what: 'one 2 MB title (stopped by the parser, memory stays bounded)',
    build: () => makeZip([{ name: 'title.xml', data: `<UserList><User><Identifier>4540536920</Identifier><Title>${lettersInNoPattern(2 * 1024 * 1024)}</Title></User></UserList>` }]),
    code: 'xml',
    message: /longer than/,
  },
  {
    what: 'zip bomb: one 16 MB title of one letter (over 100 times its compressed size)',
    build: () => makeZip([{ name: 'title.xml', data: `<UserList><User><Identifier>4540536920</Identifier><Title>${'A'.repeat(16 * 1024 * 1024 + 1)}</Title></User></UserList>` }]),
    code: 'compressionRatio',
    message: /"title\.xml" inflates to more than 100 times its compressed size/,
  },
  { what: 'no XML entry (text and binary)', build: () => makeZip([{ name: 'readme.txt', data: 'nothing here' }, { name: 'a.bin', data: Buffer.from([0, 1, 2, 255]) }]), code: 'noUsableEntry', message: /None of the ZIP's 2 entries/ },
  { what: 'an XML name but binary content', build: () => makeZip([{ name: 'list.xml', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]) }]), code: 'noUsableEntry', message: /registry list/ },
  { what: 'a CSV list instead of XML', build: () => makeZip([{ name: 'list.csv', data: 'Identifier;Title\r\n4540536920;A\r\n' }]), code: 'unsupportedFormat', message: /CSV/ },
  {
    what: 'two XML lists',
    build: () => makeZip([{ name: 'part1.xml', data: XML }, { name: 'part2.xml', data: registryXml(TAXPAYERS.slice(0, 3)) }]),
    code: 'multipleLists',
    message: /"part1\.xml" and "part2\.xml"/,
  },
  { what: 'an empty ZIP', build: () => makeZip([]), code: 'noUsableEntry', message: /The ZIP is empty/ },
  { what: 'a zero-byte file', build: async () => Buffer.alloc(0), code: 'corrupt', message: /not a readable ZIP/ },
  { what: 'an HTML error page', build: async () => Buffer.from('<html><body>502 Bad Gateway</body></html>'), code: 'corrupt', message: /not a readable ZIP/ },
  { what: 'a gzip file', build: async () => Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]), code: 'corrupt', message: /not a readable ZIP/ },
  { what: 'the JSON string (base64) saved instead of the bytes', build: async () => Buffer.from(JSON.stringify((await makeZip([{ name: 'a.xml', data: XML }])).toString('base64'))), code: 'corrupt', message: /not a readable ZIP/ },
  ...[0.1, 0.5, 0.9, -1, -22].map(
    (cut): BadZip => ({
      what: `truncated (${cut < 0 ? `last ${-cut} byte(s) missing` : `${cut * 100}% kept`})`,
      build: async () => {
        const zip = await makeZip([{ name: 'a.xml', data: XML }]);
        return zip.subarray(0, cut < 0 ? zip.length + cut : Math.floor(zip.length * cut));
      },
      code: 'corrupt',
      message: /corrupt or truncated/,
    }),
  ),
  {
    what: 'deflate data that cannot inflate',
    build: async () => {
      const zip = Buffer.from(await makeZip([{ name: 'a.xml', data: XML }]));
      zip[dataStart(zip)] = 0xff; // "final block, reserved type 3"
      return zip;
    },
    code: 'corrupt',
    message: /"a\.xml" could not be inflated/,
  },
  {
    what: 'a damaged byte that still "inflates": a digit of a tax number changed (stored entry)',
    build: async () => {
      const zip = Buffer.from(await makeZip([{ name: 'a.xml', data: XML }], 'STORE'));
      const at = zip.indexOf(TAXPAYERS[20].Identifier, dataStart(zip));
      zip[at + 4] = zip[at + 4] === 0x31 ? 0x32 : 0x31;
      return zip;
    },
    code: 'corrupt',
    message: /does not match its checksum/,
  },
];

/** Every path under root (folders with a trailing separator), sorted. */
function tree(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      out.push(relative(root, p) + (e.isDirectory() ? sep : ''));
      if (e.isDirectory()) walk(p);
    }
  };
  walk(root);
  return out.sort();
}

const isEvil = (p: string): boolean => /(^|[\\/])evil\.[^\\/]*$/i.test(p.replace(/[\\/]$/, ''));

const counts: Record<string, number> = {};
after(() => {
  console.log(`bad input tried (registry ZIP): ${Object.entries(counts).map(([k, v]) => `${k}=${v}`).join(', ')}`);
});

async function expectFailure(p: Promise<unknown>, c: BadZip): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    if (c.code === 'xml') assert.ok(e instanceof RegistryXmlError, `${c.what}: ${String(e)}`);
    else {
      assert.ok(e instanceof RegistryZipError, `${c.what}: ${String(e)}`);
      assert.equal(e.code, c.code, c.what);
    }
    assert.match((e as Error).message, c.message, c.what);
    return true;
  });
}

describe('bad registry ZIPs', () => {
  let root: string;
  const zips = new Map<BadZip, Buffer>();
  before(async () => {
    root = fs.mkdtempSync(join(tmpdir(), 'nilvera-badzip-'));
    for (const c of BAD_ZIPS) zips.set(c, await c.build());
  });
  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  test(`${BAD_ZIPS.length} bad ZIPs read from memory: each a clear error with its code`, async () => {
    for (const c of BAD_ZIPS) {
      await expectFailure((async () => {
        for await (const _ of iterateRegistryZipBatches(zips.get(c)!, { maxEntryBytes: c.maxEntryBytes })) void _;
      })(), c);
      counts[c.code] = (counts[c.code] ?? 0) + 1;
    }
    // The bomb really is one: a small file that inflates far past the limit.
    const bomb = zips.get(BAD_ZIPS.find((c) => c.what.startsWith('zip bomb: 64 MB'))!)!;
    assert.ok(bomb.length < BOMB_LIMIT / 4, `bomb is ${bomb.length} bytes`);
  });

  test('building the offline index from each file: the same error, nothing written outside the chosen folder, no partial index', async () => {
    const zipFolder = join(root, 'downloads');
    fs.mkdirSync(zipFolder);
    const chosen = join(root, 'chosen');
    fs.mkdirSync(chosen);
    const tmpEvilBefore = fs.readdirSync(tmpdir()).filter(isEvil);
    for (const [i, c] of BAD_ZIPS.entries()) {
      const zipPath = join(zipFolder, `bad-${i}.zip`);
      fs.writeFileSync(zipPath, zips.get(c)!);
      const storage = join(chosen, `PK-Invoice-${i}`);
      const before = tree(root);
      await expectFailure(buildIndexFromZip(zipPath, storage, { aliasType: 'PK', userType: 'Invoice', zipBytes: zips.get(c)!.length }, { maxEntryBytes: c.maxEntryBytes }), c);
      // Only the (empty) storage folder is new; no temporary build folder or pointer is left behind.
      const added = tree(root).filter((p) => !before.includes(p));
      assert.deepEqual(added, [relative(root, storage) + sep], c.what);
      assert.deepEqual(fs.readdirSync(storage), [], c.what);
      assert.equal(currentIndexFolder(storage), undefined, c.what);
      counts['index builds refused'] = (counts['index builds refused'] ?? 0) + 1;
    }
    assert.deepEqual(tree(root).filter(isEvil), []);
    assert.deepEqual(fs.readdirSync(tmpdir()).filter(isEvil), tmpEvilBefore);
  });

  test('a damaged list never replaces a good index that is already there', async () => {
    const storage = join(root, 'kept');
    const goodZip = join(root, 'good.zip');
    fs.writeFileSync(goodZip, await makeZip([{ name: 'a.xml', data: XML }]));
    await buildIndexFromZip(goodZip, storage, { aliasType: 'PK', userType: 'Invoice', zipBytes: 1 });
    const good = RegistryIndexReader.openFolder(currentIndexFolder(storage)!);
    const folder = good.folder;
    assert.equal(good.meta.taxpayers, TAXPAYERS.length);
    good.close();
    const damaged = BAD_ZIPS.find((c) => c.what.startsWith('a damaged byte'))!;
    const damagedPath = join(root, 'damaged.zip');
    fs.writeFileSync(damagedPath, zips.get(damaged)!);
    const before = tree(storage);
    await expectFailure(buildIndexFromZip(damagedPath, storage, { aliasType: 'PK', userType: 'Invoice', zipBytes: 1 }), damaged);
    assert.deepEqual(tree(storage), before);
    const reader = RegistryIndexReader.openFolder(currentIndexFolder(storage)!);
    assert.equal(reader.folder, folder);
    assert.equal(reader.meta.taxpayers, TAXPAYERS.length);
    reader.close();
  });
});
