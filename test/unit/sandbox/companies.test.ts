// The multi-company sandbox over real HTTP, through the API client: each key sees its own company
// and customers, GET /Company/List answers every company of the caller, the log names the company
// of each request, and an unknown key is refused.
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createClient, NilveraApiError } from '../../../src/api';
import { parseCli } from '../../../src/sandbox/cli';
import { startCompaniesSandbox, type CompaniesSandboxHandle } from '../../../src/sandbox/companies';

let sandbox: CompaniesSandboxHandle;
before(async () => {
  sandbox = await startCompaniesSandbox({ companies: 2, customers: 20, registry: 10, quiet: true });
});
after(() => sandbox.close());

const clientFor = (key: string) => createClient({ baseUrl: sandbox.url, getApiKey: async () => key, retry: { retries: 0 } });

test('two companies at one address: own company record and own customers per key', async () => {
  const [a, b] = sandbox.companies;
  assert.notEqual(a.taxNumber, b.taxNumber);
  assert.notEqual(a.key, b.key);
  assert.equal((await clientFor(a.key).company.get()).TaxNumber, a.taxNumber);
  assert.equal((await clientFor(b.key).company.get()).TaxNumber, b.taxNumber);
  const namesA = new Set((await clientFor(a.key).customers.list({ Page: 1, PageSize: 100 })).Content?.map((c) => c.TaxNumber) ?? []);
  const namesB = new Set((await clientFor(b.key).customers.list({ Page: 1, PageSize: 100 })).Content?.map((c) => c.TaxNumber) ?? []);
  assert.equal(namesA.size, 20);
  assert.equal([...namesA].filter((t) => namesB.has(t)).length, 0, 'no customer is shared between the companies');
});

test('GET /Company/List answers the companies of the caller; the log names the company of each request', async () => {
  sandbox.resetRequestLog();
  const [a, b] = sandbox.companies;
  const list = await clientFor(b.key).company.list();
  assert.deepEqual(list.map((c) => c.TaxNumber), [a.taxNumber, b.taxNumber]);
  await clientFor(a.key).company.get();
  await assert.rejects(clientFor('NOT-A-KEY').company.get(), (e: unknown) => e instanceof NilveraApiError && e.status === 401);
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(
    sandbox.requestLog().map((r) => [r.path, r.company, r.status]),
    [
      ['/general/Company/List', 1, 200],
      ['/general/Company', 0, 200],
      ['/general/Company', -1, 401],
    ],
  );
});

test('--companies is parsed and bounded', () => {
  assert.equal(parseCli(['--companies', '2']).companies, 2);
  assert.throws(() => parseCli(['--companies', '0']), /--companies/);
});
