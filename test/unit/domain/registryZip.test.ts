import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RegistryZipError, isUnsafeEntryName, iterateRegistryZipBatches, sniffFormat } from '../../../src/domain/registryZip';
import type { RegistryZipErrorCode, RegistryZipOptions, RegistryZipSummary } from '../../../src/domain/registryZip';
import { RegistryXmlError } from '../../../src/domain/registryXml';
import type { Taxpayer } from '../../../src/domain/registryXml';
import { buildTaxpayer, makeZip, registryXml } from '../../support/registryFixtures';

/** The taxpayers of a ZIP, read batch by batch to the end; `seen` gets each batch as it comes. */
async function read(source: Buffer | string, options: RegistryZipOptions = {}, seen: Taxpayer[] = []): Promise<RegistryZipSummary> {
  const batches = iterateRegistryZipBatches(source, options);
  for (let r = await batches.next(); ; r = await batches.next()) {
    if (r.done) return r.value;
    seen.push(...r.value);
  }
}

async function collect(source: Buffer | string, maxEntryBytes?: number): Promise<Taxpayer[]> {
  const out: Taxpayer[] = [];
  await read(source, maxEntryBytes ? { maxEntryBytes } : {}, out);
  return out;
}

async function rejectsWith(p: Promise<unknown>, code: RegistryZipErrorCode, message?: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof RegistryZipError, `expected RegistryZipError, got ${String(e)}`);
    assert.equal(e.code, code);
    if (message) assert.match(e.message, message);
    return true;
  });
}

const TAXPAYERS = Array.from({ length: 200 }, (_, i) => buildTaxpayer(i));
const XML = registryXml(TAXPAYERS);

test('streams the taxpayers of an XML entry whatever its name', async () => {
  for (const name of ['list.xml', 'data.bin', 'nested/dir/KULLANICILAR']) {
    const zip = await makeZip([{ name, data: XML }]);
    assert.deepEqual(await collect(zip), TAXPAYERS, name);
  }
  const stored = await makeZip([{ name: 'x', data: XML }], 'STORE');
  const summary = await read(stored);
  assert.deepEqual(summary, { entryName: 'x', taxpayers: TAXPAYERS.length, bytes: Buffer.byteLength(XML) });
});

test('a tiny entry (shorter than the sniffed head) and an empty list work too', async () => {
  const one = registryXml([buildTaxpayer(7)], { declaration: false, separator: '' });
  assert.ok(Buffer.byteLength(one) < 512);
  for (const compression of ['DEFLATE', 'STORE'] as const) {
    assert.deepEqual(await collect(await makeZip([{ name: 'one', data: one }], compression)), [buildTaxpayer(7)], compression);
    assert.deepEqual(await collect(await makeZip([{ name: 'none', data: '<UserList/>' }], compression)), [], compression);
  }
});

test('picks the XML entry by content among other entries and folders', async () => {
  const zip = await makeZip([
    { name: 'docs', data: '', dir: true },
    { name: 'readme.xml', data: Buffer.from([0, 1, 2, 3, 255, 254]) }, // named .xml, but binary
    { name: 'notes.txt', data: 'just some words' },
    { name: 'payload', data: '\uFEFF\r\n  ' + XML },
  ]);
  const seen: Taxpayer[] = [];
  const summary = await read(zip, {}, seen);
  assert.equal(summary.entryName, 'payload');
  assert.deepEqual(seen, TAXPAYERS);
});

test('a consumer may stop early; the entry stream is released', async () => {
  const zip = await makeZip([{ name: 'a.xml', data: XML }]);
  const first: string[] = [];
  for await (const batch of iterateRegistryZipBatches(zip)) {
    first.push(...batch.map((t) => t.Identifier));
    if (first.length >= 5) break;
  }
  assert.deepEqual(first.slice(0, 5), TAXPAYERS.slice(0, 5).map((t) => t.Identifier));
  // The same buffer can be read again in full afterwards.
  assert.equal((await collect(zip)).length, TAXPAYERS.length);
});

test('reads a ZIP from a file path', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'regzip-'));
  try {
    const file = join(dir, 'registry.zip');
    writeFileSync(file, await makeZip([{ name: 'a.xml', data: XML }]));
    assert.deepEqual(await collect(file), TAXPAYERS);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the batch form hands out every taxpayer once, in list order, a chunk at a time, and returns the summary', async () => {
  // Large enough for several inflated chunks (64 KiB each).
  const many = Array.from({ length: 3000 }, (_, i) => buildTaxpayer(i));
  const xml = registryXml(many);
  assert.ok(Buffer.byteLength(xml) > 4 * 65536, 'the list spans several chunks');
  for (const compression of ['DEFLATE', 'STORE'] as const) {
    const batches = iterateRegistryZipBatches(await makeZip([{ name: 'a.xml', data: xml }], compression));
    const seen: Taxpayer[] = [];
    let count = 0;
    let r = await batches.next();
    for (; !r.done; r = await batches.next()) {
      assert.ok(r.value.length > 0, 'no empty batch');
      count++;
      seen.push(...r.value);
    }
    // Inflated chunks are 64 KiB; a stored entry in a Buffer arrives as one chunk.
    if (compression === 'DEFLATE') assert.ok(count > 1 && count < many.length, `${count} batches for ${many.length} taxpayers`);
    assert.deepEqual(seen, many, compression);
    assert.deepEqual(r.value, { entryName: 'a.xml', taxpayers: many.length, bytes: Buffer.byteLength(xml) }, compression);
  }
});

test('a damaged entry (CRC-32 mismatch) fails the batch form after the batches it handed out', async () => {
  const many = Array.from({ length: 3000 }, (_, i) => buildTaxpayer(i));
  const zip = Buffer.from(await makeZip([{ name: 'a.xml', data: registryXml(many) }], 'STORE'));
  // A stored entry inflates "fine" whatever its bytes: change one digit of a tax number late in the list.
  const at = zip.lastIndexOf(Buffer.from(`<Identifier>${many[2900].Identifier}`)) + '<Identifier>'.length;
  zip[at] = zip[at] === 0x31 ? 0x32 : 0x31;
  let handedOut = 0;
  await rejectsWith((async () => {
    for await (const batch of iterateRegistryZipBatches(zip)) handedOut += batch.length;
  })(), 'corrupt', /checksum/);
  assert.ok(handedOut > 0, 'batches came before the check at the end');
});

test('CSV or JSON lists are recognised and refused as not supported yet', async () => {
  await rejectsWith(collect(await makeZip([{ name: 'list.xml', data: 'Identifier;Title\r\n4540536920;A\r\n' }])), 'unsupportedFormat', /CSV/);
  await rejectsWith(collect(await makeZip([{ name: 'list', data: '[{"Identifier":"4540536920"}]' }])), 'unsupportedFormat', /JSON/);
  assert.equal(sniffFormat(Buffer.from('  <?xml')), 'xml');
  assert.equal(sniffFormat(Buffer.from('\uFEFF{"a":1}')), 'json');
  assert.equal(sniffFormat(Buffer.from('a,b\n1,2')), 'csv');
  assert.equal(sniffFormat(Buffer.from('just words\n')), 'unknown');
  assert.equal(sniffFormat(Buffer.from([0x50, 0x4b, 3, 4, 0x2c])), 'unknown');
  assert.equal(sniffFormat(Buffer.alloc(0)), 'unknown');
});

test('an empty ZIP or one without a usable entry is a clear error', async () => {
  await rejectsWith(collect(await makeZip([])), 'noUsableEntry', /empty/);
  await rejectsWith(collect(await makeZip([{ name: 'a.bin', data: Buffer.from([0, 0, 1, 2]) }, { name: 'b.txt', data: '' }])), 'noUsableEntry', /2 entries/);
});

test('entry names with .., absolute paths or backslashes are refused', async () => {
  for (const name of ['../evil.xml', 'a/../../evil.xml', '/etc/evil.xml', 'dir\\evil.xml', 'C:/evil.xml']) {
    assert.equal(isUnsafeEntryName(name), true, name);
    const zip = await makeZip([{ name, data: XML }]);
    await rejectsWith(collect(zip), 'unsafeEntryName', /unsafe name/);
  }
  for (const name of ['list.xml', 'a/b/list.xml', 'x..y.xml']) assert.equal(isUnsafeEntryName(name), false, name);
});

test('stops when an entry inflates beyond the limit', async () => {
  const zip = await makeZip([{ name: 'a.xml', data: XML }]);
  const limit = 10_000;
  assert.ok(Buffer.byteLength(XML) > limit * 4);
  const seen: Taxpayer[] = [];
  await rejectsWith(read(zip, { maxEntryBytes: limit }, seen), 'entryTooLarge', /more than 10000 bytes/);
  // It stopped early: only the users within the first chunks were delivered.
  assert.ok(seen.length < TAXPAYERS.length);
  // Exactly at the limit is fine.
  assert.equal((await collect(zip, Buffer.byteLength(XML))).length, TAXPAYERS.length);
});

test('a corrupt or truncated ZIP is a clear error', async () => {
  const zip = await makeZip([{ name: 'a.xml', data: XML }]);
  await rejectsWith(collect(Buffer.from('this is not a zip file at all')), 'corrupt');
  await rejectsWith(collect(zip.subarray(0, Math.floor(zip.length / 2))), 'corrupt');
  await rejectsWith(collect(Buffer.alloc(0)), 'corrupt');
  // Break the deflate stream itself: first byte 0xFF means "final block, reserved type 3" (invalid).
  const broken = Buffer.from(zip);
  const dataStart = 30 + broken.readUInt16LE(26) + broken.readUInt16LE(28);
  broken[dataStart] = 0xff;
  await rejectsWith(collect(broken), 'corrupt', /a\.xml/);
});

test('XML that is cut short inside the entry is reported by the parser', async () => {
  const zip = await makeZip([{ name: 'a.xml', data: XML.slice(0, XML.length - 200) }]);
  await assert.rejects(collect(zip), RegistryXmlError);
});
