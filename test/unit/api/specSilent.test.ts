// The client where the specification is silent (README's spec-silent table): every row of the
// behaviour table, under both sandbox profiles (`default` and `alternate`) and under the single answers
// neither profile shows, over real HTTP. Each test asserts the same correct outcome whatever the server's answer.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createClient, createCustomersInBatches, lookupRegistryInBatches, NilveraApiError } from '../../../src/api';
import type { CustomerDto, NilveraClient } from '../../../src/api';
import { completeVkn } from '../../../src/domain/taxId';
import { iterateRegistryZipBatches } from '../../../src/domain/registryZip';
import { runReconciliation } from '../../../src/reconciliation/run';
import { PROFILES } from '../../../src/sandbox/behaviour';
import { api as rawApi, sandboxState, startTestSandbox, type SandboxHandle } from '../../support/sandbox';
import type { RequestLogEntry } from '../../../src/sandbox/types';

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

    test('registryLookupMissing and recordLookupMissing: an unregistered or unknown number is "not found", in whatever shape it comes', async () => {
      const { unregistered } = await registryNumbers(api);
      assert.ok(unregistered.length > 0);
      await fails(api.registry.info(unregistered[0]), ['notFound']);
      await fails(api.customers.getByTaxNumber(unregistered[0]), ['notFound']);
      await fails(api.certificates.get('YOK-BOYLE-BIR-SERI'), ['notFound']);
      const someone = (await api.customers.list({ Page: 1, PageSize: 5 })).Content?.find((c) => c.TaxNumber);
      assert.ok(someone?.TaxNumber);
      assert.equal((await api.customers.getByTaxNumber(someone.TaxNumber)).TaxNumber, someone.TaxNumber);
    });

    test('bulkLookupMissing: the bulk look-up tells registered from not registered (left out, empty aliases, null, null TaxNumber)', async () => {
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

    test('customerBatchBadRow and customerCreateAnswer: a batch with bad rows creates exactly the good ones, reports the bad ones, whatever the 200 answer is', async () => {
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

    test('booleanAnswer: a boolean answer of false is a "declined" error, never success; true is success', async () => {
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

    test('operations: a customer opens by ID even where GET /Customers/{ID} is missing (older platform)', async () => {
      const rows = (await api.customers.list({ Page: 2, PageSize: 20, SortColumn: 'ID', SortType: 'ASC' })).Content ?? [];
      const target = rows.find((c) => c.TaxNumber) ?? rows[0];
      assert.ok(target);
      sb.resetRequestLog();
      assert.equal((await api.customers.get(target.ID, undefined, { taxNumber: target.TaxNumber })).ID, target.ID);
      assert.equal((await api.customers.get(target.ID)).ID, target.ID, 'found in the list without a hint');
      const missing = await fails(api.customers.get(9_999_999), ['notFound']);
      assert.equal(missing.status, 404);
    });

    test('badKeyStatus: a wrong key is an auth or forbidden error carrying the server description, never the key', async () => {
      const e = await fails(clientFor(sb, 'YANLIS-ANAHTAR-123').company.get(), ['auth', 'forbidden']);
      assert.equal(e.status, profile === 'alternate' ? 403 : 401);
      assert.ok(e.messages.some((m) => /not valid/.test(m.description)), e.message);
      assert.ok(!e.message.includes('YANLIS-ANAHTAR-123'));
    });

    test('pageSizeLimit, nullableFields, pageBeyondEnd: reconciliation follows the Page/PageSize/TotalPages answered (capped, missing, negative, last page again)', async () => {
      const total = await customerCount(sb);
      const result = await runReconciliation({ customers: api.customers, source: { kind: 'offline', lookup: () => undefined }, pageSize: 100 });
      const ids = result.rows.map((r) => r.customerId);
      assert.equal(new Set(ids).size, ids.length);
      assert.equal(ids.length, total, `${ids.length} of ${total} customers classified`);
    });

    test('registryZipEncoding: the registry list downloads and opens, whatever encoding the body has', async () => {
      const result = await api.registry.downloadList('PK', 'Invoice', { kind: 'buffer', verifyZip: true });
      assert.ok(result.buffer && result.bytes > 100);
      const first = await iterateRegistryZipBatches(result.buffer).next();
      assert.ok(!first.done && first.value.length > 0);
    });

    test('sortColumns: an undocumented sort column falls back to the server order; documented ones sort', async () => {
      const byCity = await api.customers.list({ Page: 1, PageSize: 20, SortColumn: 'City', SortType: 'ASC' });
      assert.equal(byCity.Content?.length, 20);
      assert.equal((byCity as { sortRefused?: boolean }).sortRefused === true, profile === 'alternate');
      const byName = await api.customers.list({ Page: 1, PageSize: 20, SortColumn: 'Name', SortType: 'ASC' });
      assert.equal((byName as { sortRefused?: boolean }).sortRefused, undefined);
    });

    test('encodedSlash and searchNoMatch: a slash in a tax number is refused before sending; a search with no match is empty', async () => {
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

  test('registryZipEncoding: the saved ZIP is the same, byte for byte, whichever encoding carries it (to a file and to a buffer)', async () => {
    // The platform serves a prepared file: keepLists makes the sandbox send one ZIP's bytes under
    // each encoding (otherwise each request builds a new ZIP with its own time stamp).
    const prepared = await startTestSandbox({ customers: 5, registry: 600, seed: 23, keepLists: true });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-zip-encodings-'));
    try {
      const client = clientFor(prepared);
      const saved: Record<string, Buffer> = {};
      for (const answer of ['jsonBase64', 'textBase64', 'rawZip'] as const) {
        prepared.setBehaviour({ quirks: { registryZipEncoding: answer } });
        const file = path.join(dir, `${answer}.zip`);
        await client.registry.downloadList('GB', 'Invoice', { kind: 'file', path: file });
        saved[`${answer} file`] = fs.readFileSync(file);
        const result = await client.registry.downloadList('GB', 'Invoice', { kind: 'buffer', verifyZip: true });
        assert.ok(result.buffer);
        saved[`${answer} buffer`] = result.buffer;
      }
      // What the sandbox sent, decoded from its own answer in the platform's documented form.
      prepared.setBehaviour({ quirks: { registryZipEncoding: 'jsonBase64' } });
      const sent = Buffer.from((await rawApi(prepared, 'GET', '/general/GlobalCompany/GB/Invoice')).json as string, 'base64');
      assert.equal(sent.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004');
      const first = await iterateRegistryZipBatches(sent).next();
      assert.ok(!first.done && first.value.length > 0);
      for (const [how, bytes] of Object.entries(saved)) assert.ok(bytes.equals(sent), `${how}: ${bytes.length} bytes differ from the ${sent.length} sent`);
    } finally {
      await prepared.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

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

  for (const batch of ['rejectAll', 'createGood'] as const) {
    test(`customerBatchBadRow=${batch}, duplicateStatus=accept: after a refused batch only the rows not stored are sent again, none doubled`, async () => {
      // accept: the service would store a good row a second time, so only the look-up after the 422 keeps the count.
      sb.setBehaviour({ profile: 'default', quirks: { customerBatchBadRow: batch, duplicateStatus: 'accept' } });
      const fresh = freshVkns(8, 80 + ['rejectAll', 'createGood'].indexOf(batch));
      const rows: CustomerDto[] = fresh.map((t, i) => ({ TaxNumber: t, Name: `Kabul ${batch} ${i}` }));
      rows[3] = { TaxNumber: fresh[3].slice(0, 9) + String((Number(fresh[3][9]) + 1) % 10), Name: 'Bozuk Sağlama' };
      const before = await customerCount(sb);
      const report = await createCustomersInBatches(api.customers, rows, { batchSize: 8 });
      const stored = await allCustomerTaxNumbers(sb);
      assert.equal(stored.length, new Set(stored).size, `${stored.length - new Set(stored).size} customer(s) stored twice`);
      assert.equal(await customerCount(sb), before + 7, 'the good rows stored once each');
      assert.deepEqual(report.rejected.map((r) => r.index), [3]);
      assert.deepEqual(report.created.map((r) => r.index), [0, 1, 2, 4, 5, 6, 7]);
    });
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

describe('booleanAnswer: every operation documented as answering true/false refuses `false` (13 operations)', () => {
  let sb: SandboxHandle;
  let api: NilveraClient;
  before(async () => {
    sb = await startTestSandbox({ customers: 20, registry: 50, seed: 25 });
    api = clientFor(sb);
  });
  after(async () => sb?.close());

  type State = { [k in 'certificates' | 'identifications' | 'documents' | 'mailing' | 'templates' | 'series']: Array<Record<string, unknown>> } & {
    taxOffice: Record<string, unknown>;
    counts: { customers: number };
  };
  const state = async () => (await sandboxState(sb)) as unknown as State;
  const customer = async (id: number) => rawApi(sb, 'GET', `/general/Customers/${id}`).then((r) => (r.status === 200 ? r.json : r.status));
  const active = (st: State, module: string) => st.mailing.find((m) => m.ModuleID === module)?.IsActive === true;

  /** Each operation, and what of the sandbox's data it changes (read before and after). */
  const cases: Array<{ operation: string; run: () => Promise<unknown>; touched: () => Promise<unknown> }> = [
    {
      operation: 'certificates.create',
      run: () => api.certificates.create({ SerialNo: 'BOOL-YENI-1', Type: 'EIMZA', StartDate: '2026-01-01T00:00:00', EndDate: '2027-01-01T00:00:00' }),
      touched: async () => (await state()).certificates.map((c) => c.SerialNo),
    },
    {
      operation: 'certificates.update',
      run: async () => {
        const c = (await state()).certificates[0];
        return api.certificates.update({ ID: c.ID as number, SerialNo: c.SerialNo as string, Type: c.Type as 'EIMZA', StartDate: c.StartDate as string, EndDate: c.EndDate as string, Description: 'Güncellendi' });
      },
      touched: async () => (await state()).certificates[0],
    },
    { operation: 'certificates.delete', run: async () => api.certificates.delete((await state()).certificates[1].ID as number), touched: async () => (await state()).certificates.length },
    { operation: 'identifications.delete', run: async () => api.identifications.delete((await state()).identifications[0].ID as number), touched: async () => (await state()).identifications },
    {
      operation: 'customers.update',
      run: async () => {
        const c = (await customer(1)) as CustomerDto & { ID: number };
        return api.customers.update({ ID: 1, TaxNumber: c.TaxNumber, Name: `${c.Name} (yeni)` });
      },
      touched: () => customer(1),
    },
    { operation: 'customers.delete', run: () => api.customers.delete(2), touched: () => customer(2) },
    { operation: 'customers.deleteBulk', run: () => api.customers.deleteBulk([3, 4]), touched: async () => [await customer(3), await customer(4)] },
    { operation: 'documents.delete', run: async () => api.documents.delete((await state()).documents[0].ID as number), touched: async () => (await state()).documents },
    { operation: 'taxOffice.update', run: () => api.taxOffice.update('yeni-kullanici', 'Yeni-Parola-1'), touched: async () => (await state()).taxOffice },
    { operation: 'mailing.setChat', run: async () => api.mailing.setChat(!active(await state(), 'WhatsApp')), touched: async () => active(await state(), 'WhatsApp') },
    { operation: 'mailing.setEmail', run: async () => api.mailing.setEmail({ IsActive: !active(await state(), 'Portal') }), touched: async () => active(await state(), 'Portal') },
    { operation: 'ebill.updateTemplate', run: () => api.ebill.updateTemplate({ ID: 2, Name: 'Logolu (yeni)', IsActive: true, IsDefault: true }), touched: async () => (await state()).templates },
    { operation: 'evoucher.updateSeries', run: () => api.evoucher.updateSeries({ ID: 2, IsActive: true, IsDefault: true }), touched: async () => (await state()).series },
  ];

  for (const { operation, run, touched } of cases) {
    test(`${operation}: \`false\` is a "declined" error and nothing changed; \`true\` is success and the change is there`, async () => {
      sb.setBehaviour({ profile: 'default', quirks: { booleanAnswer: 'false' } });
      const before = await touched();
      const e = await fails(run(), ['declined']);
      assert.equal(e.operation, operation);
      assert.match(e.message, /declined/);
      assert.deepEqual(await touched(), before, 'a declined change must change nothing');
      sb.setBehaviour({ quirks: { booleanAnswer: 'true' } });
      assert.equal(await run(), true);
      assert.notDeepEqual(await touched(), before, 'the operation changes something when it succeeds');
    });
  }

  test('the table covers every operation the sandbox answers `false` for', async () => {
    const { ROUTES } = await import('../../../src/sandbox/routes');
    const marked = ROUTES.filter((r) => r.answersBoolean).map((r) => r.name);
    assert.deepEqual(cases.map((c) => c.operation).sort(), marked.sort());
  });
});

/** Faults the sandbox logged, by the request they struck (POST = the write, GET = the look-up) and when. */
function faultsStruck(log: ReadonlyArray<RequestLogEntry>): Record<'POST before' | 'POST after' | 'GET before' | 'GET after', number> {
  const counts = { 'POST before': 0, 'POST after': 0, 'GET before': 0, 'GET after': 0 };
  for (const r of log) if (r.fault && (r.method === 'POST' || r.method === 'GET')) counts[`${r.method} ${r.fault.phase}` as keyof typeof counts]++;
  return counts;
}

describe('bulk import over a failing network (2,000 rows; a quarter of the writes and of the look-ups fail, before or after the write)', () => {
  for (const profile of PROFILES) {
    test(`profile ${profile}, duplicate tax numbers accepted: no row unconfirmed, nothing lost, nothing doubled`, async () => {
      // duplicateStatus=accept: the service stores a tax number it has already, so a row sent again
      // after a lost answer would be stored twice unless the client looks it up first.
      const sb = await startTestSandbox({ customers: 50, registry: 100, seed: 31, behaviour: { profile, quirks: { duplicateStatus: 'accept' } } });
      try {
        const api = clientFor(sb);
        const before = await customerCount(sb);
        const rows = freshVkns(2000, 60).map((t, i) => ({ TaxNumber: t, Name: `Dayanıklılık ${i}`, City: 'Ankara' }));
        sb.setFaults({
          rates: { '500': 0.05, '503': 0.05, reset: 0.05, truncate: 0.05, malformed: 0.05 },
          // The batch writes (POST /Customers) and the look-ups that resolve them (GET GetCustomerInfo).
          match: { path: '^/general/Customers(/GetCustomerInfo/[^/]+)?$' },
          phase: 'either',
          retryAfterSeconds: 0,
        });
        const started = performance.now();
        const report = await createCustomersInBatches(api.customers, rows, { batchSize: 20, concurrency: 4 });
        const ms = performance.now() - started;
        sb.clearFaults();
        const log = sb.requestLog();
        const posts = log.filter((r) => r.method === 'POST').length;
        const lookups = log.filter((r) => r.method === 'GET' && /GetCustomerInfo/.test(r.path)).length;
        const struck = faultsStruck(log);
        const all = await allCustomerTaxNumbers(sb);
        const stored = new Set(all);
        const placed = [...report.created, ...report.rejected, ...report.unknown, ...report.notSent].map((r) => r.index).sort((a, b) => a - b);
        console.log(
          `  ${profile}: ${rows.length} rows -> created ${report.created.length}, rejected ${report.rejected.length}, unknown ${report.unknown.length}, not sent ${report.notSent.length}; ` +
            `${posts} POSTs for 100 batches, ${lookups} look-ups; faults struck: ${JSON.stringify(struck)}; stored ${all.length - before} new; ${ms.toFixed(0)} ms (machine shared)`,
        );
        // Nothing doubled: the service would have stored a resent row again.
        assert.equal(all.length, stored.size, `${all.length - stored.size} customer(s) stored twice`);
        // The network did fail, on both kinds of request, before and after the write.
        for (const [where, n] of Object.entries(struck)) assert.ok(n > 0, `no fault struck ${where} the handler: ${JSON.stringify(struck)}`);
        assert.ok(struck['POST before'] + struck['POST after'] >= posts / 8, `only ${struck['POST before'] + struck['POST after']} of ${posts} POSTs faulted`);
        assert.deepEqual(placed, [...Array(rows.length).keys()], 'every row reported exactly once');
        assert.deepEqual(report.unknown.map((r) => `${r.index}: ${r.error.message}`), [], 'no row stays unconfirmed');
        assert.deepEqual(report.rejected.map((r) => r.index), [], 'no row is refused');
        // Nothing lost: every row is stored, once, and nothing else was added.
        assert.equal(report.created.length, rows.length);
        for (const r of rows) assert.ok(stored.has(r.TaxNumber), `${r.TaxNumber} was not stored`);
        assert.equal(all.length - before, rows.length, 'only our rows were added');
        assert.equal((await sandboxState(sb)).inFlight, 0);
      } finally {
        await sb.close();
      }
    });
  }
});
