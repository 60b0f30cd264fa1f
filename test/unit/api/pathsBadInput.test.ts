// Bad input, path and query parameters: awkward values through the client to the sandbox over real
// HTTP. Each value either arrives exactly as sent (the sandbox's request log holds the raw path; the
// created identification echoes the query value) or the client refuses it with a clear error and
// sends nothing. Which of the two is decided from the value, not listed per case.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, NilveraApiError } from '../../../src/api';
import type { NilveraClient } from '../../../src/api';
import { MAX_REQUEST_TARGET } from '../../../src/api/http';
import { startTestSandbox } from '../../support/sandbox';
import type { SandboxHandle } from '../../support/sandbox';

const TURKISH = 'ğüşıöçİĞÜŞÖÇ';

/** The values tried, each with what it exercises. */
const VALUES: ReadonlyArray<{ value: string; what: string }> = [
  { value: TURKISH, what: 'Turkish letters' },
  { value: 'Şirket A/Ş #1 %50 + İndirim?', what: 'Turkish company name with / # % + ?' },
  { value: 'S\u0327irket', what: 'decomposed Ş (S + combining cedilla), no normalisation' },
  { value: '/', what: 'slash' },
  { value: '?', what: 'question mark' },
  { value: '#', what: 'hash' },
  { value: '%', what: 'percent' },
  { value: '+', what: 'plus (must not become a space)' },
  { value: 'a+b c', what: 'plus and space' },
  { value: '%2F', what: 'text that looks percent-encoded' },
  { value: '%zz', what: 'broken percent escape as text' },
  { value: '%2e%2e', what: 'encoded dots as text' },
  { value: 'a/../b', what: 'dot segment inside the value' },
  { value: '...', what: 'three dots' },
  { value: ' ', what: 'one space' },
  { value: '   ', what: 'spaces only' },
  { value: ' \t ', what: 'white space only with a tab' },
  { value: ' padded ', what: 'leading and trailing spaces' },
  { value: 'line\nbreak', what: 'line break' },
  { value: 'nul\u0000byte', what: 'NUL character' },
  { value: 'emoji 😀', what: 'astral-plane character' },
  { value: '&=;', what: 'query-string delimiters' },
  { value: '', what: 'empty' },
  { value: '.', what: 'single dot' },
  { value: '..', what: 'double dot' },
  { value: 'broken \ud83d', what: 'lone surrogate' },
  { value: 'a'.repeat(10_240), what: '10 kB of ASCII' },
  { value: TURKISH.repeat(10_240 / TURKISH.length), what: '10 kB of Turkish letters' },
  { value: 'ğ'.repeat(1300), what: '1,300 Turkish letters (7,800 characters encoded)' },
];

interface PathOperation {
  name: string;
  /** The path before the encoded value. */
  prefix: string;
  /**
   * A value with a slash (spec-silent, src/api/specSilent.ts): a search text is cut at it, a
   * certificate serial is found in the list instead, a tax number is refused before sending.
   */
  slash: 'cut' | 'list' | 'refused';
  call(client: NilveraClient, value: string): Promise<unknown>;
}

const PATH_OPERATIONS: readonly PathOperation[] = [
  { name: 'customers.search', prefix: '/general/Customers/Search/', slash: 'cut', call: (c, v) => c.customers.search(v) },
  { name: 'registry.checkName', prefix: '/general/GlobalCompany/Check/Name/', slash: 'cut', call: (c, v) => c.registry.checkName(v, 'Invoice') },
  { name: 'registry.search', prefix: '/general/GlobalCompany/Search/', slash: 'cut', call: (c, v) => c.registry.search(v) },
  { name: 'certificates.get', prefix: '/general/Company/Certificate/', slash: 'list', call: (c, v) => c.certificates.get(v) },
  { name: 'customers.getByTaxNumber', prefix: '/general/Customers/GetCustomerInfo/', slash: 'refused', call: (c, v) => c.customers.getByTaxNumber(v) },
];

type Expected = { arrives: true; as?: string } | { arrives: false; reason: RegExp } | { arrives: 'list' } | { arrives: 'nothing' };

function isWellFormed(s: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

/** What the client must do with a value as a path segment. */
function expectedForPath(op: PathOperation, value: string): Expected {
  if (/[/\\]/.test(value) && isWellFormed(value)) {
    if (op.slash === 'refused') return { arrives: false, reason: /slash/ };
    if (op.slash === 'list') return { arrives: 'list' };
    const cut = value.split(/[/\\]/).map((p) => p.trim()).reduce((best, p) => (p.length > best.length ? p : best), '');
    if (cut === '') return { arrives: 'nothing' };
    const inner = expectedForPath({ ...op, slash: 'refused' }, cut);
    return inner.arrives === true ? { arrives: true, as: cut } : inner;
  }
  const prefix = op.prefix;
  if (!isWellFormed(value)) return { arrives: false, reason: /broken character/ };
  if (value === '') return { arrives: false, reason: /cannot be empty/ };
  if (value === '.' || value === '..') return { arrives: false, reason: /cannot be "\." or "\.\."/ };
  if (prefix.length + encodeURIComponent(value).length > MAX_REQUEST_TARGET) return { arrives: false, reason: /characters long once encoded/ };
  return { arrives: true };
}

/** Runs a call; a refusal may be thrown while the call is being built (encoding) or come as a rejection. */
async function outcome(call: () => Promise<unknown>): Promise<{ ok: true } | { ok: false; error: NilveraApiError }> {
  try {
    await call();
    return { ok: true };
  } catch (e) {
    assert.ok(e instanceof NilveraApiError, `not a NilveraApiError: ${String(e)}`);
    return { ok: false, error: e };
  }
}

const counts: Record<string, number> = {};
after(() => {
  console.log(`bad input tried (path/query parameters): ${Object.entries(counts).map(([k, v]) => `${k}=${v}`).join(', ')}`);
});

describe('path and query parameters over real HTTP', () => {
  let sandbox: SandboxHandle;
  let client: NilveraClient;
  const key = 'canary-path-params-key-0123456789';
  before(async () => {
    sandbox = await startTestSandbox({ seed: 3, customers: 30, registry: 200, key });
    client = createClient({ baseUrl: sandbox.url, getApiKey: async () => key, retry: { retries: 0 } });
  });
  after(async () => {
    await sandbox.close();
  });

  for (const op of PATH_OPERATIONS) {
    test(`${op.name}: each value arrives as sent or is refused before sending`, async () => {
      for (const { value, what } of VALUES) {
        sandbox.resetRequestLog();
        const expected = expectedForPath(op, value);
        const result = await outcome(() => op.call(client, value));
        const log = sandbox.requestLog();
        if (expected.arrives === 'list') {
          assert.deepEqual(log.map((l) => l.path), [op.prefix.replace(/\/$/, '')], `${what}: looked up in the list, no value in the path`);
          if (!result.ok) assert.equal(result.error.kind, 'notFound', `${what}: ${result.error.message}`);
        } else if (expected.arrives === 'nothing') {
          assert.deepEqual(log, [], `${what}: nothing sent`);
          assert.equal(result.ok, true, `${what}: an empty result`);
        } else if (expected.arrives) {
          assert.equal(log.length, 1, `${what}: one request`);
          const path = log[0].path;
          assert.ok(path.startsWith(op.prefix), `${what}: ${path.slice(0, 80)}`);
          const segment = path.slice(op.prefix.length);
          assert.ok(!/[/?#]/.test(segment), `${what}: the value stays one segment`);
          assert.equal(decodeURIComponent(segment), expected.as ?? value, `${what}: arrives exactly as sent`);
          // A server answer is fine (not found, no match); a client-side refusal is not.
          if (!result.ok) assert.ok(result.error.status !== undefined && result.error.status < 500, `${what}: ${result.error.message}`);
        } else {
          assert.deepEqual(log, [], `${what}: nothing sent`);
          assert.equal(result.ok, false, `${what}: refused`);
          if (!result.ok) {
            assert.equal(result.error.kind, 'badRequest', what);
            assert.match(result.error.message, expected.reason, what);
            assert.ok(!result.error.message.includes(key), 'the key stays out of the message');
          }
        }
        counts[op.name] = (counts[op.name] ?? 0) + 1;
      }
    });
  }

  test('the length limit is exact: a value filling the limit arrives, one more character is refused', async () => {
    const op = PATH_OPERATIONS[0];
    const fits = 'a'.repeat(MAX_REQUEST_TARGET - op.prefix.length);
    sandbox.resetRequestLog();
    assert.equal((await outcome(() => op.call(client, fits))).ok, true);
    assert.equal(sandbox.requestLog()[0].path.length, MAX_REQUEST_TARGET);
    const tooLong = await outcome(() => op.call(client, fits + 'a'));
    assert.equal(tooLong.ok, false);
    assert.equal(sandbox.requestLog().length, 1);
    counts['length limit'] = 2;
  });

  test('identifications.create (query parameters): the created entry echoes the value exactly', async () => {
    let tried = 0;
    for (const { value, what } of VALUES) {
      sandbox.resetRequestLog();
      const result = await (async () => client.identifications.create('MERSISNO', value))().then(
        (created) => ({ created }),
        (error: unknown) => ({ error }),
      );
      tried++;
      const log = sandbox.requestLog();
      const target = '/general/CompanyIdentification?Name=MERSISNO&Value=' + (isWellFormed(value) ? encodeURIComponent(value) : '');
      if (!isWellFormed(value) || target.length > MAX_REQUEST_TARGET) {
        assert.deepEqual(log, [], `${what}: nothing sent`);
        assert.ok('error' in result && result.error instanceof NilveraApiError && result.error.kind === 'badRequest', what);
        continue;
      }
      assert.equal(log.length, 1, what);
      if (value.trim() === '') {
        // The sandbox, like the platform, requires a value: it arrived and was refused by the server.
        assert.ok('error' in result && result.error instanceof NilveraApiError && result.error.status === 422, what);
        continue;
      }
      assert.ok('created' in result, `${what}: ${'error' in result ? String(result.error) : ''}`);
      // The sandbox trims, as a form field would be; everything else comes back byte for byte.
      assert.equal(result.created.Value, value.trim(), what);
      await client.identifications.delete(result.created.ID);
    }
    counts['identifications.create (query)'] = tried;
  });
});
