// What the user reads when the registry ZIP is refused: every refusal of the ZIP reader
// (src/domain/registryZip.ts) has its own localized message, never the generic "Something went wrong".
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import nodeFetch from 'node-fetch';
import { createClient } from '../../src/api';
import { RegistryZipError, type RegistryZipErrorCode } from '../../src/domain/registryZip';
import { describeError } from '../../src/shell/errorMessages';
import { loopbackCa, startLoopbackServer } from '../support/loopbackServer';

const CODES: RegistryZipErrorCode[] = ['corrupt', 'unsafeEntryName', 'noUsableEntry', 'multipleLists', 'unsupportedFormat', 'entryTooLarge', 'compressionRatio'];

suite('Error messages: registry ZIP refusals', () => {
  test('each refusal has its own message, naming the entry where there is one, with Retry and the log', () => {
    const generic = describeError(new Error('x')).text.replace('x', '');
    const texts = new Set<string>();
    for (const code of CODES) {
      const described = describeError(new RegistryZipError(code, `internal ${code}`, '../evil.xml'));
      assert.ok(described.show);
      assert.ok(!described.text.startsWith(generic), `${code} fell through to the generic message`);
      assert.ok(!described.text.includes(`internal ${code}`), `${code} shows the untranslated internal text`);
      if (code === 'unsafeEntryName' || code === 'entryTooLarge' || code === 'compressionRatio' || code === 'unsupportedFormat') assert.ok(described.text.includes('../evil.xml'), `${code} names the entry`);
      assert.deepEqual(described.actions, ['retry', 'showLog']);
      texts.add(described.text);
    }
    assert.equal(texts.size, CODES.length, 'every refusal reads differently');
  });
});

// A redirect to another origin and an oversized answer, produced by the real client over loopback
// HTTP (issue 37 rows 7 and 9): each has its own message naming the origin or the cap.
suite('Error messages: refused redirects and oversized answers', () => {
  const servers: http.Server[] = [];
  const listen = (handler: http.RequestListener) =>
    new Promise<string>((resolve) => {
      const server = http.createServer(handler);
      servers.push(server);
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    });
  suiteTeardown(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  });

  async function failure(call: Promise<unknown>): Promise<unknown> {
    try {
      await call;
    } catch (err) {
      return err;
    }
    return assert.fail('the call succeeded');
  }

  test('a redirect to another origin names that origin and says the key was not sent there', async () => {
    const elsewhere = await listen((_req, res) => res.end('{}'));
    const home = await listen((_req, res) => {
      res.writeHead(307, { Location: `${elsewhere}/general/Company` });
      res.end();
    });
    const client = createClient({ baseUrl: home, getApiKey: async () => 'KEY-0000000000', retry: { retries: 0 } });
    const described = describeError(await failure(client.company.get()));
    assert.ok(described.show);
    assert.ok(described.text.includes(elsewhere), described.text);
    assert.match(described.text, /API key/);
    assert.deepEqual(described.actions, ['showLog']);
    assert.ok(!described.text.includes('company.get'), `the untranslated internal text: ${described.text}`);
  });

  test('a download from https handed to plain http says so and names the address', async () => {
    const plain = await listen((_req, res) => res.end('""'));
    const secure = await startLoopbackServer((_req, res) => {
      res.writeHead(302, { Location: `${plain}/files/list.zip`, 'Content-Length': '0' });
      res.end();
    }, { tls: true });
    const agent = new https.Agent({ ca: loopbackCa() });
    try {
      const fetchTrusting = ((url: string, init: object) => nodeFetch(url, { ...init, agent: (u: URL) => (u.protocol === 'https:' ? agent : undefined) })) as never;
      const client = createClient({ baseUrl: secure.url, getApiKey: async () => 'KEY-0000000000', retry: { retries: 0 }, fetch: fetchTrusting });
      const described = describeError(await failure(client.registry.downloadList('PK', 'Invoice', { kind: 'buffer' })));
      assert.ok(described.text.includes(plain), described.text);
      assert.match(described.text, /unencrypted/);
      assert.deepEqual(described.actions, ['showLog']);
    } finally {
      agent.destroy();
      await secure.close();
    }
  });

  test('an answer past its cap names the cap', async () => {
    const big = await listen((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`[${'"x",'.repeat(300_000)}"x"]`);
    });
    const client = createClient({ baseUrl: big, getApiKey: async () => 'KEY-0000000000', retry: { retries: 0 }, limits: { jsonBytes: 1024 * 1024 } });
    const described = describeError(await failure(client.company.list()));
    assert.ok(described.text.includes('1 MB'), described.text);
    assert.ok(!/Something went wrong|company\.list/.test(described.text), described.text);
  });
});
