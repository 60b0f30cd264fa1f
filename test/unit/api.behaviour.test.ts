// The client where the specification is silent (issue 15): every row of the behaviour table, under
// both sandbox profiles (`default` and `alternate`) and under the single answers neither profile
// shows, over real HTTP. Each test asserts the same correct outcome whatever the server's answer.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, createCustomersInBatches, lookupRegistryInBatches, NilveraApiError } from '../../src/api';
import type { CustomerDto, NilveraClient } from '../../src/api';
import { completeVkn } from '../../src/domain/taxId';
import { readRegistryZip } from '../../src/domain/registryZip';
import { runReconciliation } from '../../src/reconciliation/run';
import { PROFILES } from '../../src/sandbox/behaviour';
import { api as rawApi, sandboxState, startTestSandbox, type SandboxHandle } from '../support/sandbox';

const CUSTOMERS = 130;

function clientFor(sb: SandboxHandle, key = sb.keys.full): NilveraClient {
  return createClient({ baseUrl: sb.url, getApiKey: async () => key, retry: { baseDelayMs: 5, maxDelayMs: 20 } });
}

async function fails(p: Promise<unknown>, kinds: string[]): Promise<NilveraApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof NilveraApiError, String(e));
    assert.ok(kinds.includes(e.kind), `${e.kind} is not one of ${kinds.join(', ')}: ${e.message}`);
    return e;
  }
  assert.fail(`expected ${kinds.join(' or ')}`);
}

/**
 * Every customer tax number in the sandbox (the checker's view, so paging and nulls are switched to
 * their plain answers while it reads, then back to the profile's).
 */
async function allCustomerTaxNumbers(sb: SandboxHandle): Promise<string[]> {
  const plain = { nullableFields: 'filled', pageSizeLimit: 'cap100', pageBeyondEnd: 'emptyContent', sortColumns: 'anyField' } as const;
  sb.setBehaviour({ quirks: plain });
  try {
    return await readAllTaxNumbers(sb);
  } finally {
    sb.setBehaviour({ quirks: { nullableFields: null, pageSizeLimit: null, pageBeyondEnd: null, sortColumns: null } });
  }
}

async function readAllTaxNumbers(sb: SandboxHandle): Promise<string[]> {
  const out: string[] = [];
  for (let page = 1; page < 10_000; page++) {
    const r = await rawApi(sb, 'GET', `/general/Customers?Page=${page}&PageSize=100&SortColumn=ID`);
    const body = r.json as { Content: Array<{ TaxNumber: string | null }> | null; Page: number };
    const rows = body.Content ?? [];
    if (rows.length === 0 || body.Page < page) break;
    out.push(...rows.map((c) => c.TaxNumber ?? '?'));
  }
  return out;
}

async function customerCount(sb: SandboxHandle): Promise<number> {
  return ((await rawApi(sb, 'GET', '/__sandbox/customers/count')).json as { count: number }).count;
}

/** Valid VKNs that neither the customers nor the registry hold. */
function freshVkns(n: number, salt: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) out.push(completeVkn(String(870_000_000 - salt * 100_000 - i).padStart(9, '0')));
  return out;
}

/** A registered tax number (first registry entry that has one) and an unregistered valid one. */
async function registryNumbers(api: NilveraClient): Promise<{ registered: string[]; unregistered: string[] }> {
  const page = await api.registry.list({ Page: 1, PageSize: 20 });
  const registered = (page.Content ?? []).map((e) => e?.TaxNumber).filter((t): t is string => !!t && /^\d{10}$/.test(t)).slice(0, 4);
  const unregistered: string[] = [];
  for (const t of freshVkns(20, 9)) if ((await api.registry.checkTaxNumber(t)).length === 0 && unregistered.length < 3) unregistered.push(t);
  return { registered, unregistered };
}

for (const profile of PROFILES) {
  describe(`profile ${profile}: the client is right whatever the server answers`, () => {
    let sb: SandboxHandle;
    let api: NilveraClient;
    before(async () => {
      sb = await startTestSandbox({ customers: CUSTOMERS, registry: 800, seed: 21, behaviour: { profile } });
      api = clientFor(sb);
    });
    after(async () => sb?.close());

    test('rows 1 and 2: an unregistered or unknown number is "not found", in whatever shape it comes', async () => {
      const { unregistered } = await registryNumbers(api);
      assert.ok(unregistered.length > 0);
      await fails(api.registry.info(unregistered[0]), ['notFound']);
      await fails(api.customers.getByTaxNumber(unregistered[0]), ['notFound']);
      await fails(api.certificates.get('YOK-BOYLE-BIR-SERI'), ['notFound']);
      const someone = (await api.customers.list({ Page: 1, PageSize: 5 })).Content?.find((c) => c.TaxNumber);
      assert.ok(someone?.TaxNumber);
      assert.equal((await api.customers.getByTaxNumber(someone.TaxNumber)).TaxNumber, someone.TaxNumber);
    });

    test('row 4: the bulk look-up tells registered from not registered (left out, empty aliases, null, null TaxNumber)', async () => {
      const { registered, unregistered } = await registryNumbers(api);
      const report = await lookupRegistryInBatches(api.registry, [...registered, ...unregistered], { userType: 'Invoice', batchSize: 50 });
      assert.deepEqual(report.failed, []);
      for (const t of registered) {
        const single = await api.registry.info(t, 'Invoice').catch(() => undefined);
        if (single && (single.Aliases ?? []).length > 0) assert.ok(report.found.has(t), `${t} is registered`);
      }
      for (const t of unregistered) assert.ok(report.notRegistered.includes(t), `${t} is not registered`);
      assert.equal(report.found.size + report.notRegistered.length, registered.length + unregistered.length);
    });

    test('rows 3 and 16: a batch with bad rows creates exactly the good ones, reports the bad ones, whatever the 200 answer is', async () => {
      const fresh = freshVkns(10, 1 + PROFILES.indexOf(profile));
      const existing = (await api.customers.list({ Page: 1, PageSize: 1 })).Content?.[0]?.TaxNumber;
      assert.ok(existing);
      const rows: CustomerDto[] = fresh.map((t, i) => ({ TaxNumber: t, Name: `Toplu Müşteri ${profile} ${i}` }));
      rows[2] = { TaxNumber: fresh[2].slice(0, 9) + String((Number(fresh[2][9]) + 1) % 10), Name: 'Bozuk Sağlama' };
      rows[5] = { TaxNumber: existing, Name: 'Zaten Var' };
      const before = await customerCount(sb);
      const report = await createCustomersInBatches(api.customers, rows, { batchSize: 10 });
      assert.deepEqual(report.rejected.map((r) => r.index), [2, 5]);
      assert.deepEqual(report.created.map((r) => r.index), [0, 1, 3, 4, 6, 7, 8, 9]);
      assert.deepEqual(report.unknown, []);
      assert.ok(report.rejected.every((r) => r.messages.length > 0 && r.status === (profile === 'default' ? 400 : 422)));
      assert.equal(await customerCount(sb), before + 8, 'the good rows stored once each');
      const stored = await allCustomerTaxNumbers(sb);
      assert.equal(new Set(stored).size, stored.length, 'no customer doubled');
    });

    test('row 5: a boolean answer of false is a "declined" error, never success; true is success', async () => {
      const target = (await api.customers.list({ Page: 1, PageSize: 3 })).Content?.find((c) => c.TaxNumber && c.Name);
      assert.ok(target);
      const update = api.customers.update({ ID: target.ID, TaxNumber: target.TaxNumber, Name: `${target.Name} (yeni)` });
      if (profile === 'alternate') {
        const e = await fails(update, ['declined']);
        assert.match(e.message, /declined/);
        assert.equal((await api.customers.getByTaxNumber(target.TaxNumber as string)).Name, target.Name, 'nothing changed');
      } else {
        assert.equal(await update, true);
        assert.equal((await api.customers.getByTaxNumber(target.TaxNumber as string)).Name, `${target.Name} (yeni)`);
      }
    });

    test('row 13: a customer opens by ID even where GET /Customers/{ID} is missing (older platform)', async () => {
      const rows = (await api.customers.list({ Page: 2, PageSize: 20, SortColumn: 'ID', SortType: 'ASC' })).Content ?? [];
      const target = rows.find((c) => c.TaxNumber) ?? rows[0];
      assert.ok(target);
      sb.resetRequestLog();
      assert.equal((await api.customers.get(target.ID, undefined, { taxNumber: target.TaxNumber })).ID, target.ID);
      assert.equal((await api.customers.get(target.ID)).ID, target.ID, 'found in the list without a hint');
      const missing = await fails(api.customers.get(9_999_999), ['notFound']);
      assert.equal(missing.status, 404);
    });

    test('row 8: a wrong key is an auth or forbidden error carrying the server description, never the key', async () => {
      const e = await fails(clientFor(sb, 'YANLIS-ANAHTAR-123').company.get(), ['auth', 'forbidden']);
      assert.equal(e.status, profile === 'alternate' ? 403 : 401);
      assert.ok(e.messages.some((m) => /not valid/.test(m.description)), e.message);
      assert.ok(!e.message.includes('YANLIS-ANAHTAR-123'));
    });

    test('rows 9, 14, 15: reconciliation follows the Page/PageSize/TotalPages answered (capped, missing, negative, last page again)', async () => {
      const total = await customerCount(sb);
      const result = await runReconciliation({ customers: api.customers, source: { kind: 'offline', lookup: () => undefined }, pageSize: 100 });
      const ids = result.rows.map((r) => r.customerId);
      assert.equal(new Set(ids).size, ids.length);
      assert.equal(ids.length, total, `${ids.length} of ${total} customers classified`);
    });

    test('row 10: the registry list downloads and opens, whatever encoding the body has', async () => {
      const result = await api.registry.downloadList('PK', 'Invoice', { kind: 'buffer', verifyZip: true });
      assert.ok(result.buffer && result.bytes > 100);
      const read = await readRegistryZip(result.buffer, () => undefined);
      assert.ok(read.taxpayers > 0);
    });

    test('row 11: an undocumented sort column falls back to the server order; documented ones sort', async () => {
      const byCity = await api.customers.list({ Page: 1, PageSize: 20, SortColumn: 'City', SortType: 'ASC' });
      assert.equal(byCity.Content?.length, 20);
      assert.equal((byCity as { sortRefused?: boolean }).sortRefused === true, profile === 'alternate');
      const byName = await api.customers.list({ Page: 1, PageSize: 20, SortColumn: 'Name', SortType: 'ASC' });
      assert.equal((byName as { sortRefused?: boolean }).sortRefused, undefined);
    });

    test('rows 12 and 18: a slash in a tax number is refused before sending; a search with no match is empty', async () => {
      sb.resetRequestLog();
      const e = await fails(api.customers.getByTaxNumber('123/456'), ['badRequest']);
      assert.match(e.message, /slash/);
      assert.deepEqual(sb.requestLog(), [], 'nothing was sent');
      assert.deepEqual(await api.customers.search('zzqqxx-hic-yok'), []);
      assert.deepEqual(await api.registry.search('zzqqxx-hic-yok'), []);
    });
  });
}

describe('single answers neither profile shows', () => {
  let sb: SandboxHandle;
  let api: NilveraClient;
  before(async () => {
    sb = await startTestSandbox({ customers: 60, registry: 600, seed: 23 });
    api = clientFor(sb);
  });
  after(async () => sb?.close());

  for (const answer of ['404', 'emptyBody', 'null', 'emptyObject'] as const) {
    test(`registryLookupMissing=${answer}: not registered`, async () => {
      sb.setBehaviour({ profile: 'default', quirks: { registryLookupMissing: answer } });
      const { unregistered } = await registryNumbers(api);
      await fails(api.registry.info(unregistered[0]), ['notFound']);
    });
  }

  test('registryLookupMissing=oddText: an unreadable answer, not a silent "not registered"', async () => {
    sb.setBehaviour({ profile: 'default', quirks: { registryLookupMissing: 'oddText' } });
    const { unregistered } = await registryNumbers(api);
    await fails(api.registry.info(unregistered[0]), ['malformed']);
  });

  for (const answer of ['404', 'emptyBody', 'null'] as const) {
    test(`recordLookupMissing=${answer}: not found`, async () => {
      sb.setBehaviour({ profile: 'default', quirks: { recordLookupMissing: answer } });
      await fails(api.customers.getByTaxNumber(freshVkns(1, 40)[0]), ['notFound']);
      await fails(api.certificates.get('YOK'), ['notFound']);
    });
  }

  for (const answer of ['omit', 'emptyAliases', 'nullEntry'] as const) {
    for (const nullable of ['filled', 'nulls'] as const) {
      test(`bulkLookupMissing=${answer}, nullableFields=${nullable}: exact found / not registered`, async () => {
        sb.setBehaviour({ profile: 'default', quirks: { bulkLookupMissing: answer, nullableFields: nullable } });
        const { registered, unregistered } = await registryNumbers(api);
        sb.setBehaviour({ profile: 'default', quirks: { bulkLookupMissing: 'omit' } });
        const expected = await lookupRegistryInBatches(api.registry, [...registered, ...unregistered], { userType: 'Invoice' });
        sb.setBehaviour({ profile: 'default', quirks: { bulkLookupMissing: answer, nullableFields: nullable } });
        const report = await lookupRegistryInBatches(api.registry, [...registered, ...unregistered], { userType: 'Invoice' });
        assert.deepEqual([...report.found.keys()].sort(), [...expected.found.keys()].sort());
        assert.deepEqual([...report.notRegistered].sort(), [...expected.notRegistered].sort());
        for (const t of unregistered) assert.ok(report.notRegistered.includes(t));
      });
    }
  }

  for (const answer of ['cap100', 'cap50', 'ignore'] as const) {
    for (const beyond of ['emptyContent', 'lastPage', 'notFound'] as const) {
      test(`pageSizeLimit=${answer}, pageBeyondEnd=${beyond}, nulls: reconciliation sees every customer once`, async () => {
        sb.setBehaviour({ profile: 'default', quirks: { pageSizeLimit: answer, pageBeyondEnd: beyond, nullableFields: 'nulls' } });
        const total = await customerCount(sb);
        const result = await runReconciliation({ customers: api.customers, source: { kind: 'offline', lookup: () => undefined }, pageSize: 100 });
        assert.equal(new Set(result.rows.map((r) => r.customerId)).size, total);
        assert.equal(result.rows.length, total);
      });
    }
  }

  for (const answer of ['jsonBase64', 'textBase64', 'rawZip'] as const) {
    test(`registryZipEncoding=${answer}: the same ZIP, to a buffer`, async () => {
      sb.setBehaviour({ profile: 'default', quirks: { registryZipEncoding: answer } });
      const result = await api.registry.downloadList('GB', 'Invoice', { kind: 'buffer', verifyZip: true });
      assert.ok(result.buffer);
      assert.equal(result.buffer.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004');
      assert.ok((await readRegistryZip(result.buffer, () => undefined)).taxpayers > 0);
    });
  }

  for (const answer of ['decoded', 'keptEncoded', 'notFound'] as const) {
    test(`encodedSlash=${answer}: a certificate whose serial number has a slash is still found`, async () => {
      sb.setBehaviour({ profile: 'default', quirks: { encodedSlash: answer } });
      const serial = `SN/${answer}/1`;
      assert.equal(await api.certificates.create({ SerialNo: serial, Type: 'EIMZA', StartDate: '2026-01-01T00:00:00', EndDate: '2027-01-01T00:00:00' }), true);
      assert.equal((await api.certificates.get(serial)).SerialNo, serial);
    });
  }

  for (const answer of ['422', '409'] as const) {
    for (const batch of ['rejectAll', 'createGood'] as const) {
      test(`duplicateStatus=${answer}, customerBatchBadRow=${batch}: existing tax numbers are rejected with the server's words, the new ones created once`, async () => {
        sb.setBehaviour({ profile: 'default', quirks: { duplicateStatus: answer, customerBatchBadRow: batch } });
        const existing = ((await api.customers.list({ Page: 1, PageSize: 3 })).Content ?? []).map((c) => c.TaxNumber as string);
        const fresh = freshVkns(3, 70 + ['422', '409'].indexOf(answer) * 2 + ['rejectAll', 'createGood'].indexOf(batch));
        const rows = [...existing, ...fresh].map((t, i) => ({ TaxNumber: t, Name: `Yinelenen ${answer} ${batch} ${i}` }));
        const before = await customerCount(sb);
        const report = await createCustomersInBatches(api.customers, rows, { batchSize: 6 });
        assert.deepEqual(report.rejected.map((r) => r.index), [0, 1, 2]);
        assert.ok(report.rejected.every((r) => r.messages.some((m) => /exists/.test(m.description))));
        assert.deepEqual(report.created.map((r) => r.index), [3, 4, 5]);
        assert.equal(await customerCount(sb), before + 3);
      });
    }
  }

  for (const answer of ['countText', 'true', 'emptyBody'] as const) {
    test(`customerCreateAnswer=${answer}: the rows count as created`, async () => {
      sb.setBehaviour({ profile: 'default', quirks: { customerCreateAnswer: answer } });
      const rows = freshVkns(3, 50 + ['countText', 'true', 'emptyBody'].indexOf(answer)).map((t, i) => ({ TaxNumber: t, Name: `Cevap ${answer} ${i}` }));
      const report = await createCustomersInBatches(api.customers, rows);
      assert.equal(report.created.length, 3);
    });
  }
});

describe('bulk import over a failing network (2,000 rows, a quarter of the POSTs fail, before or after the write)', () => {
  for (const profile of PROFILES) {
    test(`profile ${profile}: at most 1 % unknown, nothing lost, nothing doubled`, async () => {
      const sb = await startTestSandbox({ customers: 50, registry: 100, seed: 31, behaviour: { profile } });
      try {
        const api = clientFor(sb);
        const before = await customerCount(sb);
        const rows = freshVkns(2000, 60).map((t, i) => ({ TaxNumber: t, Name: `Dayanıklılık ${i}`, City: 'Ankara' }));
        sb.setFaults({
          rates: { '500': 0.05, '503': 0.05, reset: 0.05, truncate: 0.05, malformed: 0.05 },
          match: { method: 'POST', path: '^/general/Customers$' },
          phase: 'either',
          retryAfterSeconds: 0,
        });
        const started = performance.now();
        const report = await createCustomersInBatches(api.customers, rows, { batchSize: 20, concurrency: 4 });
        const ms = performance.now() - started;
        sb.clearFaults();
        const posts = sb.requestLog().filter((r) => r.method === 'POST').length;
        const lookups = sb.requestLog().filter((r) => r.method === 'GET' && /GetCustomerInfo/.test(r.path)).length;
        const stored = new Set(await allCustomerTaxNumbers(sb));
        const all = await allCustomerTaxNumbers(sb);
        const placed = [...report.created, ...report.rejected, ...report.unknown, ...report.notSent].map((r) => r.index).sort((a, b) => a - b);
        console.log(
          `  ${profile}: ${rows.length} rows -> created ${report.created.length}, rejected ${report.rejected.length}, unknown ${report.unknown.length}, not sent ${report.notSent.length}; ` +
            `${posts} POSTs for 100 batches (a quarter faulted, before or after the write), ${lookups} look-ups; stored ${all.length - before} new; ${ms.toFixed(0)} ms (machine shared)`,
        );
        assert.deepEqual(placed, [...Array(rows.length).keys()], 'every row reported exactly once');
        assert.equal(all.length, stored.size, 'no customer doubled');
        assert.ok(report.unknown.length <= rows.length / 100, `${report.unknown.length} unknown`);
        assert.deepEqual(report.rejected, []);
        for (const r of report.created) assert.ok(stored.has(r.row.TaxNumber as string), `created row ${r.index} is not stored`);
        const storedOfOurs = rows.filter((r) => stored.has(r.TaxNumber)).length;
        assert.equal(all.length - before, storedOfOurs, 'only our rows were added');
        assert.ok(storedOfOurs >= report.created.length && storedOfOurs <= report.created.length + report.unknown.length, 'unknown rows are the only ones that may differ');
        // Every state check agrees with the control endpoint too.
        assert.equal((await sandboxState(sb)).inFlight <= 1, true);
      } finally {
        await sb.close();
      }
    });
  }
});
