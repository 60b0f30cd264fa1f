// Issue 37, row 9 (the ZIP part): a registry ZIP of 1 MB whose one XML entry inflates to 1 GB was
// inflated in full and accepted. Now an entry whose declared size breaks the limits (more than 100 times
// its compressed size, or more than 2 GiB) is refused before a byte is inflated, an entry that inflates
// past what its directory declares is stopped there, and a ZIP read as it downloads (no directory yet)
// is stopped once what has inflated is 100 times the deflate data read. Each refusal is a typed error
// (ZipLimitError, RegistryZipError 'compressionRatio' / 'entryTooLarge') that the command layer turns
// into its own localized message (src/shell/errorMessages.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { checkInflation, checkZip, ENTRY_LIMITS, ZipArchive, ZipError, ZipLimitError } from '../../../src/domain/zip';
import { iterateRegistryZipBatches, RegistryZipError, streamFirstEntry } from '../../../src/domain/registryZip';
import { RegistryXmlParser } from '../../../src/domain/registryXml';
import { buildTaxpayer, registryXml } from '../../support/registryFixtures';
import { createClient, NilveraApiError } from '../../../src/api';
import { startLoopbackServer } from '../../support/loopbackServer';
import { xmlBomb, zipOfDeflated } from '../../support/zipBomb';

const MB = 1024 * 1024;

async function drain(source: AsyncGenerator<unknown, unknown>): Promise<unknown> {
  for (;;) {
    const next = await source.next();
    if (next.done) return next.value;
  }
}

describe('ZIP limits (issue 37 row 9)', () => {
  // Built once: 1 GB of spaces in about 1 MB of ZIP.
  const bomb = xmlBomb(1024);

  test('the reproduction: a 1 MB registry ZIP with a 1 GB entry is refused as a bomb, before it is inflated', async () => {
    assert.ok(bomb.zip.length < 1.5 * MB, `the ZIP is ${bomb.zip.length} bytes`);
    assert.ok(bomb.size > 1024 * MB);
    let batches = 0;
    const refused = await (async () => {
      for await (const _batch of iterateRegistryZipBatches(bomb.zip)) batches++;
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(refused instanceof RegistryZipError, `the 1 GB entry was accepted (${String(refused)})`);
    assert.equal(refused.code, 'compressionRatio');
    assert.equal(refused.entryName, 'list.xml');
    assert.match(refused.message, /"list\.xml" inflates to more than 100 times its compressed size/);
    assert.equal(batches, 0);
  });

  test('checkZip refuses the same ZIP with a ZipLimitError (the download check), before inflating it', async () => {
    const zip = await ZipArchive.open(bomb.zip);
    try {
      await assert.rejects(zip.open(zip.files()[0]), (e: unknown) => e instanceof ZipLimitError && e.limit === 'ratio' && e.entryName === 'list.xml');
    } finally {
      await zip.close();
    }
    await assert.rejects(checkZip(bomb.zip), (e: unknown) => e instanceof ZipLimitError && e instanceof ZipError && /100 times/.test(e.message));
  });

  test('read as it downloads (no directory yet), the bomb is stopped once 100 times the deflate data read has inflated', async () => {
    const parser = new RegistryXmlParser();
    const stream = Readable.from((function* () {
      for (let at = 0; at < bomb.zip.length; at += 64 * 1024) yield bomb.zip.subarray(at, at + 64 * 1024);
    })());
    let inflatedWhenStopped = 0;
    const reader = {
      write(chunk: Buffer): void {
        inflatedWhenStopped += chunk.length;
        parser.write(chunk);
      },
      end: () => parser.end(),
      take: () => parser.take(),
      get taxpayerCount() {
        return parser.taxpayerCount;
      },
    };
    await assert.rejects(
      drain(streamFirstEntry(stream, reader)),
      (e: unknown) => e instanceof RegistryZipError && e.code === 'compressionRatio',
    );
    // Stopped soon after the 16 MiB below which ratios are not judged, not at 1 GB.
    assert.ok(inflatedWhenStopped <= ENTRY_LIMITS.ratioFloorBytes + 4 * MB, `${inflatedWhenStopped} bytes inflated before the stop`);
  });

  test('downloaded (registry.downloadList with verifyZip, over HTTP): the bomb is the registry ZIP\'s own refusal, not "could not be read"', async () => {
    const server = await startLoopbackServer((_req, res) => {
      const body = Buffer.from(`"${bomb.zip.toString('base64')}"`);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
      res.end(body);
    });
    try {
      const client = createClient({ baseUrl: server.url, getApiKey: async () => 'K-123', retry: { retries: 0 } });
      const refused = await client.registry.downloadList('PK', 'Invoice', { kind: 'buffer', verifyZip: true }).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(!(refused instanceof NilveraApiError), `a generic API error: ${String(refused)}`);
      assert.ok(refused instanceof RegistryZipError && refused.code === 'compressionRatio', String(refused));
    } finally {
      await server.close();
    }
  });

  test('a directory that lies (1 KB declared, 1 GB inside) is stopped at the declared size', async () => {
    const liar = xmlBomb(1024, 1024);
    const zip = await ZipArchive.open(liar.zip);
    try {
      await assert.rejects(zip.check(zip.files()[0]), /inflates to more than the 1024 bytes its directory entry declares/);
    } finally {
      await zip.close();
    }
    await assert.rejects(drain(iterateRegistryZipBatches(liar.zip)), (e: unknown) => e instanceof RegistryZipError && e.code === 'corrupt' && /declares/.test(e.message));
  });

  test('an entry declared over 2 GiB is refused by its size, whatever its ratio', () => {
    assert.throws(() => checkInflation('big.xml', ENTRY_LIMITS.maxBytes + 1, ENTRY_LIMITS.maxBytes), (e: unknown) => e instanceof ZipLimitError && e.limit === 'size');
    assert.doesNotThrow(() => checkInflation('big.xml', ENTRY_LIMITS.maxBytes, ENTRY_LIMITS.maxBytes / 8));
  });

  test('the limits admit the real list: the sandbox-shaped list compresses about 8:1, a GİB-shaped one 15:1', async () => {
    // 20:1, well past what a real list does, at 1 GB: accepted.
    assert.doesNotThrow(() => checkInflation('list.xml', 1024 * MB, (1024 * MB) / 20));
    // Small entries are not judged by their ratio at all.
    assert.doesNotThrow(() => checkInflation('list.xml', ENTRY_LIMITS.ratioFloorBytes, 1));
    // A list of 40 taxpayers, deflated, is read whole.
    const xml = registryXml(Array.from({ length: 40 }, (_, i) => buildTaxpayer(i)));
    const data = zlib.deflateRawSync(Buffer.from(xml));
    const zip = zipOfDeflated('list.xml', data, zlib.crc32(Buffer.from(xml)), Buffer.byteLength(xml));
    const summary = (await drain(iterateRegistryZipBatches(zip))) as { taxpayers: number };
    assert.equal(summary.taxpayers, 40);
  });
});
