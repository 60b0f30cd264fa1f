// What public code that called the real service shows (README, "Where the API documentation is
// silent": recordLookupMissing, templatePutOmitted, emptyList, customerBatchStatus): an empty list answered 404, a customer batch refused with 400 for some
// of its rows, template and series updates with a flag left out refused with 400, and 204 No Content
// for a missing record. Each point answered each way by the sandbox, over real HTTP: first what the
// sandbox sends, then what the client makes of it.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, createCustomersInBatches, NilveraApiError } from '../../../src/api';
import type { CustomerDto, NilveraClient } from '../../../src/api';
import { isEmptyListNotFound } from '../../../src/api/specSilent';
import { completeVkn } from '../../../src/domain/taxId';
import { api as raw, emptyAccount, startTestSandbox, type SandboxHandle } from '../../support/sandbox';
import { apiRejection } from '../../support/apiRejection';

function clientFor(sb: SandboxHandle): NilveraClient {
  return createClient({ baseUrl: sb.url, getApiKey: async () => sb.keys.full, retry: { baseDelayMs: 5, maxDelayMs: 20 } });
}

/** Valid VKNs that neither the customers nor the registry of these sandboxes hold. */
function freshVkns(n: number, salt: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) out.push(completeVkn(String(860_000_000 - salt * 1_000 - i).padStart(9, '0')));
  return out;
}

const LISTS = ['/general/Company/Certificate', '/general/CompanyIdentification', '/general/CompanyDocuments', '/general/Customers?PageSize=5'] as const;

describe('emptyList: an empty list answered 404', () => {
  let sb: SandboxHandle;
  let client: NilveraClient;
  before(async () => {
    sb = await startTestSandbox({ customers: 12, registry: 20, seed: 41 });
    client = clientFor(sb);
  });
  after(() => sb.close());

  test('the sandbox: lists with records answer 200 whatever the answer; empty ones 404 with the error body / [] / 404 with an empty body', async () => {
    for (const answer of ['notFound', 'emptyArray', 'bareNotFound'] as const) {
      sb.setBehaviour({ profile: 'default', quirks: { emptyList: answer } });
      for (const path of LISTS) assert.equal((await raw(sb, 'GET', path)).status, 200, `${answer} ${path} with records`);
    }
    sb.setBehaviour({ profile: 'default' });
    await emptyAccount(sb);
    for (const path of LISTS) {
      // default: the service's own 404, with its error body.
      const notFound = await raw(sb, 'GET', path);
      assert.equal(notFound.status, 404, path);
      assert.equal((notFound.json as { Errors: Array<{ Code: number }> }).Errors[0].Code, 3010, path);
    }
    sb.setBehaviour({ quirks: { emptyList: 'emptyArray' } });
    assert.deepEqual((await raw(sb, 'GET', LISTS[0])).json, []);
    const page = (await raw(sb, 'GET', LISTS[3])).json as { TotalCount: number; Content: unknown[] };
    assert.deepEqual([page.TotalCount, page.Content], [0, []]);
    sb.setBehaviour({ quirks: { emptyList: 'bareNotFound' } });
    for (const path of LISTS) assert.deepEqual([(await raw(sb, 'GET', path)).status, (await raw(sb, 'GET', path)).text], [404, ''], path);
    sb.setBehaviour({ profile: 'default' });
    // A search that matches nothing in a list with records is an empty list too.
    await raw(sb, 'POST', '/general/Customers', [{ Name: 'Tek Müşteri', TaxNumber: freshVkns(1, 1)[0] }]);
    assert.equal((await raw(sb, 'GET', '/general/Customers?Search=zzqqxx')).status, 404);
    assert.equal((await raw(sb, 'GET', '/general/Customers')).status, 200);
  });

  test("the client: the service's own 404 reads as an empty list; a bare 404 stays a notFound error without messages", async () => {
    await emptyAccount(sb);
    for (const answer of ['notFound', 'emptyArray'] as const) {
      sb.setBehaviour({ profile: 'default', quirks: { emptyList: answer } });
      assert.deepEqual(await client.certificates.list(), [], answer);
      assert.deepEqual(await client.identifications.list(), [], answer);
      assert.deepEqual(await client.documents.list(), [], answer);
      const page = await client.customers.list({ Page: 1, PageSize: 20 });
      assert.deepEqual([page.TotalCount, page.Content], [0, []], answer);
      // Sorted (the sort is not refused: the empty answer comes back as such).
      assert.deepEqual((await client.customers.list({ Page: 1, PageSize: 20, SortColumn: 'Name', SortType: 'ASC' })).Content, []);
    }
    sb.setBehaviour({ profile: 'default', quirks: { emptyList: 'bareNotFound' } });
    for (const call of [() => client.certificates.list(), () => client.identifications.list(), () => client.documents.list(), () => client.customers.list({ Page: 1 })]) {
      const e = await apiRejection(call());
      assert.equal(e.kind, 'notFound');
      assert.deepEqual(e.messages, []);
      assert.equal(isEmptyListNotFound(e), false, 'a bare 404 cannot be told from a missing operation');
    }
    // An unknown route says so ("API not found", 3030): never an empty list.
    sb.setBehaviour({ profile: 'default' });
    const route = await raw(sb, 'GET', '/general/NilveraNoSuchList');
    assert.equal((route.json as { Errors: Array<{ Code: number }> }).Errors[0].Code, 3030);
    assert.equal(isEmptyListNotFound(new NilveraApiError({ kind: 'notFound', operation: 'certificates.list', status: 404, messages: [{ code: 3030, description: 'API not found.' }] })), false);
    assert.equal(isEmptyListNotFound(new NilveraApiError({ kind: 'notFound', operation: 'certificates.list', status: 404, messages: [{ code: 3010, description: 'No record found.' }] })), true);
  });
});

describe('recordLookupMissing (and registryLookupMissing): a missing record answered 204 No Content (noContent)', () => {
  let sb: SandboxHandle;
  let client: NilveraClient;
  before(async () => {
    sb = await startTestSandbox({ customers: 12, registry: 20, seed: 42 });
    client = clientFor(sb);
  });
  after(() => sb.close());

  test('the sandbox answers 204 with no body for each single-record look-up', async () => {
    sb.setBehaviour({ profile: 'default', quirks: { recordLookupMissing: 'noContent', registryLookupMissing: 'noContent' } });
    const missing = freshVkns(1, 2)[0];
    for (const path of [`/general/Customers/GetCustomerInfo/${missing}`, '/general/Company/Certificate/NO-SUCH-SERIAL', '/general/Customers/999999', `/general/GlobalCompany/GetGlobalCustomerInfo/${missing}`]) {
      const r = await raw(sb, 'GET', path);
      assert.deepEqual([r.status, r.text], [204, ''], path);
    }
    assert.equal((await raw(sb, 'GET', '/general/Customers/1')).status, 200, 'a record that is there still comes');
  });

  test('the client reads 204 as "not found" wherever it reads a 404 so', async () => {
    const missing = freshVkns(1, 3)[0];
    for (const answer of ['404', 'noContent'] as const) {
      sb.setBehaviour({ profile: 'default', quirks: { recordLookupMissing: answer, registryLookupMissing: answer } });
      for (const [what, call] of [
        ['customers.getByTaxNumber', () => client.customers.getByTaxNumber(missing)],
        ['certificates.get', () => client.certificates.get('NO-SUCH-SERIAL')],
        ['customers.get', () => client.customers.get(999_999)],
        ['registry.info', () => client.registry.info(missing, 'Invoice')],
      ] as const) {
        const e = await apiRejection(call());
        assert.equal(e.kind, 'notFound', `${answer} ${what}`);
        assert.equal(e.operation, what);
      }
    }
    // The import's look-up before a resend (customerBatchBadRow) takes 204 as "absent": the rows are created, once.
    const rows: CustomerDto[] = freshVkns(4, 4).map((t, i) => ({ TaxNumber: t, Name: `Yeni ${i}` }));
    rows.push({ TaxNumber: rows[0].TaxNumber, Name: 'Aynı numara' });
    sb.setBehaviour({ profile: 'default', quirks: { recordLookupMissing: 'noContent' } });
    const report = await createCustomersInBatches(client.customers, rows, { batchSize: 5 });
    assert.deepEqual(report.created.map((r) => r.index), [0, 1, 2, 3]);
    assert.deepEqual(report.rejected.map((r) => r.index), [4]);
    assert.deepEqual(report.unknown, []);
  });
});

describe('templatePutOmitted: a template or series update with a flag left out (templatePutOmitted=refuse, the default)', () => {
  let sb: SandboxHandle;
  let client: NilveraClient;
  before(async () => {
    sb = await startTestSandbox({ customers: 5, registry: 10, seed: 43 });
    client = clientFor(sb);
  });
  after(() => sb.close());

  test('the sandbox refuses it with 400 naming the missing flag, before looking for the record; both flags are accepted', async () => {
    const t = await raw(sb, 'PUT', '/ebill/Templates', { ID: 2, Name: 'Yeni Ad' });
    assert.equal(t.status, 400);
    assert.deepEqual(t.json, ['IsActive: The IsActive field is required.', 'IsDefault: The IsDefault field is required.']);
    const s = await raw(sb, 'PUT', '/evoucher/Series', { ID: 2, IsActive: true });
    assert.deepEqual([s.status, s.json], [400, ['IsDefault: The IsDefault field is required.']]);
    assert.equal((await raw(sb, 'PUT', '/ebill/Templates', { ID: 999 })).status, 400);
    assert.equal((await raw(sb, 'PUT', '/ebill/Templates', { ID: 2, Name: 'Yeni Ad', IsActive: true, IsDefault: false })).status, 200);
    sb.setBehaviour({ quirks: { templatePutOmitted: 'keep' } });
    assert.equal((await raw(sb, 'PUT', '/evoucher/Series', { ID: 2, IsActive: true })).status, 200);
    sb.setBehaviour({ profile: 'default' });
  });

  test("the client's 400 carries the server's words (what the extension shows); sent whole, the update succeeds", async () => {
    const e = await apiRejection(client.evoucher.updateSeries({ ID: 2, IsActive: true }));
    assert.deepEqual([e.kind, e.status, e.messages.map((m) => m.description)], ['badRequest', 400, ['IsDefault: The IsDefault field is required.']]);
    assert.equal(await client.evoucher.updateSeries({ ID: 2, IsActive: true, IsDefault: false }), true);
    assert.equal(await client.ebill.updateTemplate({ ID: 2, Name: 'Logolu', IsActive: true, IsDefault: false }), true);
  });
});

describe('customerBatchStatus: a customer batch refused for some of its rows', () => {
  let sb: SandboxHandle;
  let client: NilveraClient;
  before(async () => {
    sb = await startTestSandbox({ customers: 20, registry: 20, seed: 44 });
    client = clientFor(sb);
  });
  after(() => sb.close());

  test('the sandbox: 400 naming each row by its property path / 400 naming none / 422 naming the index; nothing stored', async () => {
    const [good] = freshVkns(1, 10);
    const bad = [{ Name: 'İyi', TaxNumber: good }, { Name: 'Kötü', TaxNumber: '1234567891' }, { Name: '', TaxNumber: freshVkns(1, 11)[0] }];
    const named = await raw(sb, 'POST', '/general/Customers', bad);
    assert.equal(named.status, 400);
    assert.deepEqual(named.json, ['[1].TaxNumber: TaxNumber is not a valid VKN/TCKN (checksum).', '[2].Name: Name is required.']);
    sb.setBehaviour({ quirks: { customerBatchStatus: '400unnamed' } });
    const unnamed = await raw(sb, 'POST', '/general/Customers', bad);
    assert.equal(unnamed.status, 400);
    const errors = (unnamed.json as { Errors: Array<{ Description: string; Detail: string }> }).Errors;
    assert.deepEqual(errors.map((x) => x.Description), ['TaxNumber is not a valid VKN/TCKN (checksum).', 'Name is required.']);
    assert.ok(errors.every((x) => x.Detail === '' && !x.Description.includes('1234567891')), 'the answer names no row');
    sb.setBehaviour({ quirks: { customerBatchStatus: '422' } });
    const legacy = await raw(sb, 'POST', '/general/Customers', bad);
    assert.equal(legacy.status, 422);
    sb.setBehaviour({ profile: 'default' });
    assert.equal((await raw(sb, 'GET', `/general/Customers/GetCustomerInfo/${good}`)).status, 404, 'rejectAll: the good row was not stored');
  });

  for (const status of ['400', '400unnamed', '422'] as const) {
    for (const batch of ['rejectAll', 'createGood'] as const) {
      test(`customerBatchStatus=${status}, customerBatchBadRow=${batch}: each bad row rejected with its own reason, every good one created by exactly one successful request`, async () => {
        const salt = 20 + ['400', '400unnamed', '422'].indexOf(status) * 2 + ['rejectAll', 'createGood'].indexOf(batch);
        sb.setBehaviour({ profile: 'default', quirks: { customerBatchStatus: status, customerBatchBadRow: batch } });
        const existing = ((await client.customers.list({ Page: 1, PageSize: 1 })).Content ?? [])[0].TaxNumber as string;
        const fresh = freshVkns(20, salt);
        const rows: CustomerDto[] = fresh.map((t, i) => ({ TaxNumber: t, Name: `Toplu ${status} ${batch} ${i}` }));
        rows[3] = { TaxNumber: fresh[3].slice(0, 9) + String((Number(fresh[3][9]) + 1) % 10), Name: 'Bozuk Sağlama' };
        rows[11] = { TaxNumber: existing, Name: 'Zaten Var' };
        rows[17] = { TaxNumber: fresh[17], Name: '' };
        // Every POST the import makes, with its rows and whether the server took it.
        const posts: Array<{ taxNumbers: string[]; ok: boolean }> = [];
        const customers = Object.create(client.customers) as typeof client.customers;
        customers.create = async (dtos, opts) => {
          const entry = { taxNumbers: dtos.map((d) => d.TaxNumber as string), ok: false };
          posts.push(entry);
          const answer = await client.customers.create(dtos, opts);
          entry.ok = true;
          return answer;
        };
        const report = await createCustomersInBatches(customers, rows, { batchSize: 10, concurrency: 2 });

        assert.deepEqual(report.rejected.map((r) => r.index), [3, 11, 17]);
        const reason = (i: number) => report.rejected.find((r) => r.index === i)!.messages.map((m) => m.description).join(' ');
        assert.match(reason(3), /not a valid VKN\/TCKN \(checksum\)/);
        assert.match(reason(11), /exists/);
        assert.match(reason(17), /Name is required/);
        for (const i of [3, 11, 17]) assert.doesNotMatch(reason(i), /^\[\d+\]/, 'no position inside a batch in the reason');
        assert.ok(report.rejected.every((r) => r.status === Number(status.slice(0, 3))));
        const good = rows.map((r, i) => ({ r, i })).filter(({ i }) => ![3, 11, 17].includes(i));
        assert.deepEqual(report.created.map((r) => r.index), good.map(({ i }) => i));
        assert.deepEqual(report.unknown, []);
        for (const { r } of good) {
          // Stored once: by a POST the server answered 2xx (rejectAll), or by the first POST that held it
          // (createGood stores the good rows of a refused batch); never sent again once it was there.
          const holding = posts.filter((p) => p.taxNumbers.includes(r.TaxNumber as string));
          if (batch === 'createGood') assert.equal(holding.length, 1, `${r.TaxNumber} sent ${holding.length} times`);
          else assert.equal(holding.filter((p) => p.ok).length, 1, `${r.TaxNumber} accepted ${holding.filter((p) => p.ok).length} times`);
          assert.equal((await client.customers.getByTaxNumber(r.TaxNumber as string)).Name, r.Name);
        }
        if (status === '400unnamed' && batch === 'rejectAll') {
          // Nothing named: the refused batches were split until each bad row was sent alone.
          for (const i of [3, 11, 17]) assert.ok(posts.some((p) => p.taxNumbers.length === 1 && p.taxNumbers[0] === rows[i].TaxNumber), `row ${i} was narrowed down to itself`);
        }
        sb.setBehaviour({ profile: 'default' });
      });
    }
  }

});
