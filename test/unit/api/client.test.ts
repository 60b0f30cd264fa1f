// Every operation of the client over real HTTP against the sandbox (in-process, free port): the
// success path and the documented errors; retries and faults through the sandbox's fault injection.

import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox } from '../../../src/sandbox/server';
import type { SandboxHandle } from '../../../src/sandbox/types';
import {
  createClient,
  createCustomersInBatches,
  lookupRegistryInBatches,
  NilveraApiError,
  ALERT_TYPES,
  CERTIFICATE_TYPES,
  DURATION_TYPES,
  MODULES,
} from '../../../src/api';
import type { ClientOptions, CustomerDto, NilveraClient, RequestLogEntry } from '../../../src/api';
import { completeVkn } from '../../../src/domain/taxId';
import { iterateRegistryZipBatches } from '../../../src/domain/registryZip';

let sb: SandboxHandle;
let api: NilveraClient;
let readOnly: NilveraClient;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

function client(key: string, extra: Partial<ClientOptions> = {}): NilveraClient {
  return createClient({ baseUrl: sb.url, getApiKey: async () => key, retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...extra });
}

before(async () => {
  process.on('unhandledRejection', onUnhandled);
  sb = await startSandbox({ quiet: true, customers: 300, registry: 2000, seed: 7 });
  api = client(sb.keys.full);
  readOnly = client(sb.keys.restricted);
});

after(async () => {
  await sb.close();
  process.off('unhandledRejection', onUnhandled);
  assert.deepEqual(unhandled, [], 'no unhandled rejection');
});

async function fails(p: Promise<unknown>, kind: string, status?: number): Promise<NilveraApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof NilveraApiError, String(e));
    assert.equal(e.kind, kind, e.message);
    if (status !== undefined) assert.equal(e.status, status);
    return e;
  }
  assert.fail(`expected ${kind}`);
}

async function sandboxState(): Promise<{ templates: Array<{ ID: number; IsActive: boolean; IsDefault: boolean }>; series: Array<{ ID: number; IsActive: boolean; IsDefault: boolean }> }> {
  const r = await fetch(`${sb.url}/__sandbox/state`);
  return (await r.json()) as never;
}

/** Valid VKNs that no seeded customer has. */
async function freshTaxNumbers(n: number, salt: number): Promise<string[]> {
  const taken = new Set<string>();
  for (let page = 1; ; page++) {
    const p = await api.customers.list({ Page: page, PageSize: 100 });
    for (const c of p.Content ?? []) if (c.TaxNumber) taken.add(c.TaxNumber);
    if (page >= (p.TotalPages ?? 0)) break;
  }
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const vkn = completeVkn(String(900_000_000 - salt * 10_000 - i).padStart(9, '0'));
    if (!taken.has(vkn)) out.push(vkn);
  }
  return out;
}

describe('account and company', () => {
  test('alerts, campaigns, credits, exchange rate', async () => {
    const alerts = await api.account.alerts();
    assert.ok(alerts.length > 0 && alerts.every((a) => ALERT_TYPES.includes(a.Type) && typeof a.ID === 'number'));
    const campaigns = await api.account.campaigns();
    assert.ok(Array.isArray(campaigns) && campaigns.every((c) => typeof c.IsActive === 'boolean'));
    const credits = await api.account.credits();
    assert.ok(credits.length > 0 && credits.every((c) => DURATION_TYPES.includes(c.DurationType) && c.RemainingCredit === c.TotalCredit - c.UsedCredit));
    const rate = await api.account.exchangeRate();
    assert.match(rate.USDBuy ?? '', /^\d+,\d+$/);
  });

  test('company get/update/modules/list; the restricted key reads but may not write', async () => {
    const before = await api.company.get();
    assert.ok(before.TaxNumber);
    const updated = await api.company.update({ City: 'İzmir', District: 'Karşıyaka', PaymentMeansCode: 'HAVALE_EFT' });
    assert.equal(updated.City, 'İzmir');
    assert.equal(updated.TaxNumber, before.TaxNumber);
    assert.equal((await readOnly.company.get()).District, 'Karşıyaka');
    await fails(readOnly.company.update({ City: 'Bursa' }), 'forbidden', 403);
    await fails(api.company.update({ PaymentMeansCode: 'BITCOIN' as never }), 'validation', 422);
    assert.ok((await api.company.modules()).every((m) => typeof m.IsActive === 'boolean'));
    const list = await api.company.list();
    assert.ok(list.some((c) => c.TaxNumber === before.TaxNumber));
    await fails(client('WRONG-KEY').company.get(), 'auth', 401);
  });
});

describe('certificates, documents, identifications', () => {
  test('certificates: create, get by a serial with special characters, update, delete, errors', async () => {
    const serial = 'SN/ğ 1#?%';
    assert.equal(await api.certificates.create({ SerialNo: serial, Type: 'EIMZA', StartDate: '2026-01-01T00:00:00', EndDate: '2027-01-01T00:00:00', Description: 'Yedek' }), true);
    await fails(api.certificates.create({ SerialNo: serial, Type: 'HSM' }), 'conflict', 409);
    await fails(api.certificates.create({ SerialNo: '', Type: 'HSM' }), 'validation', 422);
    const got = await api.certificates.get(serial);
    assert.equal(got.SerialNo, serial);
    assert.ok(CERTIFICATE_TYPES.includes(got.Type));
    assert.ok((await api.certificates.list()).some((c) => c.ID === got.ID));
    assert.equal(await api.certificates.update({ ID: got.ID, SerialNo: serial, Type: 'MALIMUHUR' }), true);
    assert.equal((await api.certificates.get(serial)).Type, 'MALIMUHUR');
    await fails(api.certificates.update({ ID: 999_999, SerialNo: 'x', Type: 'HSM' }), 'notFound', 404);
    await fails(api.certificates.get('no such serial'), 'notFound', 404);
    assert.equal(await api.certificates.delete(got.ID), true);
    await fails(api.certificates.delete(got.ID), 'notFound', 404);
    await fails(readOnly.certificates.delete(1), 'forbidden', 403);
  });

  test('documents: create, list, same name 409, bad content 422, delete', async () => {
    const content = Buffer.from('%PDF-1.4 örnek').toString('base64');
    const doc = await api.documents.create({ Name: 'Vergi Levhası 2026', FileType: 'pdf', Base64String: content });
    assert.equal(doc.Name, 'Vergi Levhası 2026');
    assert.equal(doc.Size, Buffer.from(content, 'base64').length);
    assert.ok(doc.CreatedDate, 'fields beyond ID are kept');
    assert.ok((await api.documents.list()).some((d) => d.ID === doc.ID));
    await fails(api.documents.create({ Name: 'Vergi Levhası 2026', FileType: 'pdf', Base64String: content }), 'conflict', 409);
    const bad = await fails(api.documents.create({ Name: 'Bozuk', FileType: 'pdf', Base64String: 'not base64!' }), 'validation', 422);
    assert.ok(bad.messages.length > 0 && bad.messages[0].description.length > 0);
    assert.equal(await api.documents.delete(doc.ID), true);
    await fails(api.documents.delete(doc.ID), 'notFound', 404);
    await fails(api.documents.delete(0), 'validation', 422);
  });

  test('identifications: create with query parameters, 409, 422, delete', async () => {
    const created = await api.identifications.create('TICARETSICILNO', '12345 / Ankara');
    assert.equal(created.Name, 'TICARETSICILNO');
    assert.equal(created.Value, '12345 / Ankara');
    assert.ok((await api.identifications.list()).some((i) => i.ID === created.ID));
    await fails(api.identifications.create('TICARETSICILNO', '12345 / Ankara'), 'conflict', 409);
    await fails(api.identifications.create('MERSISNO', '   '), 'validation', 422);
    assert.equal(await api.identifications.delete(created.ID), true);
    await fails(api.identifications.delete(created.ID), 'notFound', 404);
    await fails(api.identifications.delete(0), 'validation', 422);
  });
});

describe('customers', () => {
  test('paged list, sort, page size cap, search with Turkish text, get, get by tax number', async () => {
    const first = await api.customers.list({ Page: 1, PageSize: 10, SortColumn: 'Name', SortType: 'ASC' });
    assert.equal(first.Page, 1);
    assert.equal(first.PageSize, 10);
    assert.equal(first.Content?.length, 10);
    assert.ok((first.TotalCount ?? 0) >= 300);
    const names = (first.Content ?? []).map((c) => c.Name ?? '');
    assert.deepEqual(names, [...names].sort((a, b) => a.localeCompare(b, 'tr')));
    const second = await api.customers.list({ Page: 2, PageSize: 10, SortColumn: 'Name', SortType: 'ASC' });
    assert.notEqual(second.Content?.[0].ID, first.Content?.[0].ID);
    assert.equal((await api.customers.list({ PageSize: 500 })).PageSize, 100);
    assert.equal((await api.customers.list()).PageSize, 20);

    const sample = first.Content![3];
    const word = (sample.Name ?? '').split(' ')[0];
    const found = await api.customers.search(word);
    assert.ok(found.some((c) => c.ID === sample.ID), `search for ${word}`);
    const detail = await api.customers.get(sample.ID);
    assert.equal(detail.TaxNumber, sample.TaxNumber);
    assert.ok('CreatedDate' in detail, 'detail-only fields are kept');
    assert.equal((await api.customers.getByTaxNumber(sample.TaxNumber!)).ID, sample.ID);
    await fails(api.customers.get(9_999_999), 'notFound', 404);
    await fails(api.customers.getByTaxNumber('1234567890'), 'notFound', 404);
  });

  test('create (JSON array), update, delete, bulk delete; the all-or-nothing refusal names the bad element', async () => {
    const [a, b, c] = await freshTaxNumbers(3, 1);
    const msg = await api.customers.create([
      { TaxNumber: a, Name: 'Şirket A/Ş #1', City: 'İstanbul', IsExport: false },
      { TaxNumber: b, Name: 'Öz Çağ Ltd.' },
    ]);
    assert.equal(typeof msg, 'string');
    const ca = await api.customers.getByTaxNumber(a);
    assert.equal(ca.Name, 'Şirket A/Ş #1');
    assert.ok((await api.customers.search('Şirket A/Ş #1')).some((x) => x.ID === ca.ID), 'search text with / and # reaches the server');

    const bad = await fails(api.customers.create([{ TaxNumber: c, Name: 'İyi' }, { TaxNumber: '1234567891', Name: 'Kötü' }]), 'badRequest', 400);
    assert.ok(bad.messages.some((m) => /^\[1\]\.TaxNumber: /.test(m.description)), JSON.stringify(bad.messages));
    await fails(api.customers.getByTaxNumber(c), 'notFound', 404);

    assert.equal(await api.customers.update({ ID: ca.ID, TaxNumber: a, Name: 'Şirket A.Ş.', Email: 'info@sirket.com.tr' }), true);
    assert.equal((await api.customers.get(ca.ID)).Email, 'info@sirket.com.tr');
    await fails(api.customers.update({ ID: 9_999_999, TaxNumber: a, Name: 'x' }), 'notFound', 404);
    await fails(api.customers.update({ ID: ca.ID, TaxNumber: a, Name: '' }), 'validation', 422);

    const cb = await api.customers.getByTaxNumber(b);
    assert.equal(await api.customers.delete(ca.ID), true);
    await fails(api.customers.delete(ca.ID), 'notFound', 404);
    await fails(api.customers.deleteBulk([cb.ID, 9_999_999]), 'notFound', 404);
    assert.equal(await api.customers.deleteBulk([cb.ID]), true);
    await fails(api.customers.get(cb.ID), 'notFound', 404);
    await fails(readOnly.customers.create([{ TaxNumber: c, Name: 'x' }]), 'forbidden', 403);
  });
});

describe('registry', () => {
  test('list, search, info, bulk info, checks, and the unregistered cases', async () => {
    const page = await api.registry.list({ Page: 2, PageSize: 25 });
    assert.equal(page.Page, 2);
    assert.equal(page.Content?.length, 25);
    assert.equal(page.TotalCount, 2000);
    const entry = page.Content![0];
    const info = await api.registry.info(entry.TaxNumber!, 'Invoice');
    assert.equal(info.Title, entry.Title);
    assert.ok(Array.isArray(info.Aliases));
    const word = (entry.Title ?? '').split(' ')[0];
    assert.ok((await api.registry.search(word)).some((s) => s.TaxNumber === entry.TaxNumber));
    const rows = await api.registry.checkTaxNumber(entry.TaxNumber!, 'Invoice');
    assert.ok(rows.every((r) => r.TaxNumber === entry.TaxNumber && r.DocumentType === 'Invoice'));
    assert.ok((await api.registry.checkName(word, 'Invoice')).length > 0);

    const [unregistered] = await freshTaxNumbers(1, 2);
    const registered = new Set((await api.registry.list({ PageSize: 100 })).Content!.map((e) => e.TaxNumber));
    assert.ok(!registered.has(unregistered));
    const notThere = await api.registry.checkTaxNumber(unregistered);
    if (notThere.length === 0) await fails(api.registry.info(unregistered), 'notFound', 404);
    await fails(api.registry.info('12ab'), 'badRequest', 400);

    const bulk = await api.registry.infoBulk([entry.TaxNumber!, page.Content![1].TaxNumber!], 'DespatchAdvice');
    assert.deepEqual(new Set(bulk.map((b) => b.TaxNumber)), new Set([entry.TaxNumber, page.Content![1].TaxNumber]));
    assert.ok((await readOnly.registry.infoBulk([entry.TaxNumber!])).length === 1, 'the lookup is a read');
  });

  test('downloadList: the ZIP decodes from the stream and opens with the domain reader', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-reg-'));
    try {
      const file = path.join(dir, 'pk.zip');
      let progress = 0;
      const r = await api.registry.downloadList('PK', 'Invoice', { kind: 'file', path: file, onProgress: (n) => (progress = n) });
      assert.equal(r.bytes, fs.statSync(file).size);
      assert.equal(progress, r.bytes);
      assert.equal(fs.readFileSync(file).subarray(0, 4).toString('latin1'), 'PK\x03\x04');
      let users = 0;
      for await (const batch of iterateRegistryZipBatches(file)) {
        for (const t of batch) assert.match(t.Identifier, /^\d{10,11}$/);
        users += batch.length;
      }
      assert.ok(users > 0 && users <= 2000, `${users} taxpayers`);
      const mem = await api.registry.downloadList('GB', 'DespatchAdvice', { kind: 'buffer' });
      assert.equal(mem.buffer?.subarray(0, 2).toString('latin1'), 'PK');
      assert.equal(fs.readdirSync(dir).length, 1, 'no temp files left');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('tax office, mailing, templates, series', () => {
  test('tax office get/update, 422 on empty password', async () => {
    assert.equal(await api.taxOffice.update('12345678901', 'Gizli&Şifre=1'), true);
    assert.deepEqual(await api.taxOffice.get(), { UserName: '12345678901', Password: 'Gizli&Şifre=1' });
    await fails(api.taxOffice.update('12345678901', ''), 'validation', 422);
  });

  test('mailing: chat and e-mail switches show in the settings', async () => {
    const rows = await api.mailing.settings();
    assert.deepEqual(new Set(rows.map((r) => r.ModuleID)), new Set(MODULES));
    assert.equal(await api.mailing.setChat(false), true);
    assert.equal(await api.mailing.setEmail({ IsActive: false }), true);
    let now = await api.mailing.settings();
    assert.equal(now.find((r) => r.ModuleID === 'WhatsApp')?.IsActive, false);
    assert.equal(now.find((r) => r.ModuleID === 'Portal')?.IsActive, false);
    await api.mailing.setChat(true);
    await api.mailing.setEmail({ IsActive: true });
    now = await api.mailing.settings();
    assert.ok(now.find((r) => r.ModuleID === 'WhatsApp')?.IsActive && now.find((r) => r.ModuleID === 'Portal')?.IsActive);
    await fails(readOnly.mailing.setChat(false), 'forbidden', 403);
  });

  test('template and series updates, and their errors', async () => {
    const state = await sandboxState();
    const other = state.templates.find((t) => !t.IsDefault)!;
    assert.equal(await api.ebill.updateTemplate({ ID: other.ID, IsActive: true, IsDefault: true, Name: 'Yeni Şablon' }), true);
    const after = await sandboxState();
    assert.ok(after.templates.find((t) => t.ID === other.ID)!.IsDefault);
    assert.equal(after.templates.filter((t) => t.IsDefault).length, 1);
    await fails(api.ebill.updateTemplate({ ID: other.ID, IsActive: false, IsDefault: true }), 'validation', 422);
    await fails(api.ebill.updateTemplate({ ID: 987_654, IsActive: true, IsDefault: false }), 'notFound', 404);

    const series = state.series.find((s) => !s.IsDefault)!;
    assert.equal(await api.evoucher.updateSeries({ ID: series.ID, IsActive: !series.IsActive, IsDefault: false }), true);
    assert.equal((await sandboxState()).series.find((s) => s.ID === series.ID)!.IsActive, !series.IsActive);
    await fails(api.evoucher.updateSeries({ ID: 987_654, IsActive: true, IsDefault: false }), 'notFound', 404);
  });
});

describe('faults from the sandbox', () => {
  test('GET retried through 503 and 429 with Retry-After; POST never retried', async () => {
    const logs: RequestLogEntry[] = [];
    const c = client(sb.keys.full, { logger: { request: (i) => logs.push(i) } });
    sb.setFaults({ queue: ['503', '429'], retryAfterSeconds: 1, match: { path: '^/general/Credits$' } });
    sb.resetRequestLog();
    const started = Date.now();
    assert.ok((await c.account.credits()).length > 0);
    assert.ok(Date.now() - started >= 1900, 'two Retry-After: 1 waits');
    assert.deepEqual(logs.map((l) => l.status), [503, 429, 200]);
    assert.equal(sb.requestLog().filter((r) => /credits/i.test(r.path)).length, 3);

    sb.setFaults({ queue: ['503'], retryAfterSeconds: 0, match: { method: 'POST' } });
    sb.resetRequestLog();
    await fails(c.identifications.create('ABONENO', '77'), 'server', 503);
    assert.equal(sb.requestLog().length, 1);
    sb.clearFaults();
  });

  test('reset, truncate, malformed and latency give network, network, malformed and timeout', async () => {
    const c = client(sb.keys.full, { retry: { retries: 0 } });
    sb.setFaults({ queue: ['reset', 'truncate', 'malformed', { latencyMs: 1500 }], match: { path: '^/general/Customers$' } });
    await fails(c.customers.list(), 'network');
    await fails(c.customers.list(), 'network');
    await fails(c.customers.list(), 'malformed', 200);
    const t0 = Date.now();
    await fails(c.customers.list({}, { timeoutMs: 300 }), 'timeout');
    assert.ok(Date.now() - t0 < 1400);
    // With retries the same faults are absorbed.
    sb.setFaults({ queue: ['reset', 'truncate', '503'], retryAfterSeconds: 0, match: { path: '^/general/Customers$' } });
    assert.equal((await api.customers.list({ PageSize: 5 })).Content?.length, 5);
    sb.clearFaults();
  });
});

describe('bulk helpers', () => {
  test('customer import: good rows created, bad rows isolated by splitting, per-row report', async () => {
    const numbers = await freshTaxNumbers(120, 3);
    const existing = (await api.customers.list({ PageSize: 1 })).Content![0].TaxNumber!;
    const rows: CustomerDto[] = numbers.map((t, i) => ({ TaxNumber: t, Name: `Toplu Müşteri ${i}` }));
    rows[7] = { TaxNumber: '1234567891', Name: 'Hatalı VKN' };
    rows[50] = { TaxNumber: numbers[50], Name: '' };
    rows[99] = { TaxNumber: existing, Name: 'Var olan' };
    sb.resetRequestLog();
    const progress: number[] = [];
    const report = await createCustomersInBatches(api.customers, rows, { batchSize: 25, concurrency: 3, onProgress: (n) => progress.push(n) });
    assert.deepEqual(report.rejected.map((r) => r.index), [7, 50, 99]);
    assert.ok(report.rejected.every((r) => r.messages.length > 0 && r.status === 400));
    assert.equal(report.created.length, 117);
    assert.deepEqual(report.unknown, []);
    assert.equal(progress.at(-1), 120);
    // Requests: the POSTs, and the look-ups that settle a refused batch before its rows are sent again.
    assert.equal(report.requests, sb.requestLog().filter((r) => r.method === 'POST' || /GetCustomerInfo/.test(r.path)).length);
    for (const i of [0, 6, 8, 49, 51, 119]) assert.equal((await api.customers.getByTaxNumber(numbers[i])).Name, `Toplu Müşteri ${i}`);
    await fails(api.customers.getByTaxNumber(numbers[50]), 'notFound', 404);
  });

  test('customer import: a batch lost to a network failure is looked up, and only its absent rows are sent again', async () => {
    const numbers = await freshTaxNumbers(30, 4);
    sb.setFaults({ queue: ['reset'], match: { method: 'POST', path: '^/general/Customers$' } });
    sb.resetRequestLog();
    const report = await createCustomersInBatches(
      api.customers,
      numbers.map((t) => ({ TaxNumber: t, Name: `Ağ ${t}` })),
      { batchSize: 10, concurrency: 1 },
    );
    sb.clearFaults();
    assert.deepEqual(report.unknown, []);
    assert.equal(report.created.length, 30);
    // The reset came before the write: its 10 rows were absent, looked up once each and sent once more.
    assert.equal(sb.requestLog().filter((r) => r.method === 'POST').length, 4);
    assert.equal(sb.requestLog().filter((r) => /GetCustomerInfo/.test(r.path)).length, 10);
    for (const t of numbers) assert.equal((await api.customers.getByTaxNumber(t)).Name, `Ağ ${t}`);

    const ac = new AbortController();
    ac.abort();
    const cancelled = await createCustomersInBatches(api.customers, [{ TaxNumber: numbers[0], Name: 'x' }], { signal: ac.signal });
    assert.equal(cancelled.notSent.length, 1);
    assert.equal(cancelled.requests, 0);
  });

  test('registry lookup in batches: found, not registered, failed batch reported', async () => {
    const registered = (await api.registry.list({ PageSize: 60 })).Content!.map((e) => e.TaxNumber!);
    const candidates = await freshTaxNumbers(40, 5);
    const notIn: string[] = [];
    for (const t of candidates) if ((await api.registry.checkTaxNumber(t)).length === 0) notIn.push(t);
    const all = [...registered, ...notIn, registered[0]];
    const report = await lookupRegistryInBatches(api.registry, all, { batchSize: 20, concurrency: 2, userType: 'Invoice' });
    assert.deepEqual(new Set(report.found.keys()), new Set(registered));
    assert.deepEqual(new Set(report.notRegistered), new Set(notIn));
    assert.deepEqual(report.failed, []);
    assert.equal(report.requests, Math.ceil((registered.length + notIn.length) / 20));

    // 500 is not retried (a 503 would be: the look-up only reads), so the first batch fails.
    sb.setFaults({ queue: ['500'], match: { method: 'POST', path: 'GetGlobalCustomerInfo' } });
    const partial = await lookupRegistryInBatches(api.registry, registered, { batchSize: 20, concurrency: 1 });
    sb.clearFaults();
    assert.equal(partial.failed.length, 1);
    assert.deepEqual(partial.failed[0].taxNumbers, registered.slice(0, 20));
    assert.equal(partial.found.size, 40);
  });
});
