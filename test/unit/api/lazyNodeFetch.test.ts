// node-fetch is loaded on the first request, not when the client is imported or created.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, NilveraApiError } from '../../../src/api';
import { replyJson, startLoopbackServer } from '../../support/loopbackServer';

const nodeFetchLoaded = () => Object.keys(require.cache).some((p) => /vendor[\\/]node-fetch\.js$/.test(p));

test('node-fetch loads on the first request only; a failing key provider is an auth error', async () => {
  const server = await startLoopbackServer((_req, res) => replyJson(res, 200, []));
  try {
    const baseUrl = server.url;
    const client = createClient({ baseUrl, getApiKey: async () => 'K' });
    assert.equal(nodeFetchLoaded(), false, 'not loaded by import or createClient');
    const broken = createClient({
      baseUrl,
      getApiKey: async () => {
        throw new Error('keyring locked');
      },
    });
    await assert.rejects(broken.account.alerts(), (e: unknown) => e instanceof NilveraApiError && e.kind === 'auth' && !e.message.includes('keyring'));
    assert.equal(nodeFetchLoaded(), false, 'no request, no load');
    assert.deepEqual(await client.account.alerts(), []);
    assert.equal(nodeFetchLoaded(), true);
  } finally {
    await server.close();
  }
});

test('a caller-supplied fetch gets a real AbortSignal that fires on cancel', async () => {
  let seen: AbortSignal | undefined;
  const ac = new AbortController();
  const client = createClient({
    baseUrl: 'http://127.0.0.1:9',
    getApiKey: async () => 'K',
    fetch: (_url, init) =>
      new Promise((_resolve, reject) => {
        seen = init.signal;
        init.signal.addEventListener('abort', () => reject(new Error('aborted')));
        setTimeout(() => ac.abort(), 10);
      }),
  });
  await assert.rejects(client.company.get({ signal: ac.signal }), (e: unknown) => e instanceof NilveraApiError && e.kind === 'cancelled');
  assert.ok(seen instanceof AbortSignal);
  assert.equal(seen.aborted, true);
});
