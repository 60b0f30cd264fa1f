// Reconciliation, plain Node: classification, the diff of two runs, the snapshot store, the CSV
// export, and whole runs against the sandbox (expectations from the single-taxpayer endpoint, not
// from the bulk lookup the run uses).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createClient } from '../../../src/api';
import type { GlobalCustomerAliasesResponse } from '../../../src/api/types';
import { completeTckn, completeVkn, isValidTckn, isValidVkn } from '../../../src/domain/taxId';
import type { OfflineTaxpayer } from '../../../src/registry/offlineLookup';
import { classifyOffline, classifyOnline, pickPkAlias, type ReconRow } from '../../../src/reconciliation/classify';
import { reconciliationCsvLines, writeReconciliationCsv, type ExportLabels } from '../../../src/reconciliation/export';
import { buildReport } from '../../../src/reconciliation/report';
import { runReconciliation, type RunResult } from '../../../src/reconciliation/run';
import { diffRuns, parseSnapshot, serializeSnapshot, snapshotOf, SnapshotStore, type Snapshot } from '../../../src/reconciliation/snapshot';
import { api, withSandbox } from '../../support/sandbox';

const VKN = completeVkn('123456789');
const TCKN = completeTckn('234567891');
const customer = (ID: number, TaxNumber: string, Name = `Müşteri ${ID}`) => ({ ID, TaxNumber, Name });

function offlineTaxpayer(taxNumber: string, aliases: Array<[name: string, kind: 'PK' | 'GB', deleted?: string]>): OfflineTaxpayer {
  return {
    taxNumber,
    title: 'Deneme A.Ş.',
    aliases: aliases.map(([name, kind, deleted]) => ({ name, kind, document: 'Invoice', ...(deleted ? { deleted } : {}) })),
    downloadedAt: '2026-01-01T00:00:00.000Z',
  };
}

test('classify: checksum first, then user / deregistered / not registered, with the active PK alias', () => {
  const wrongLast = VKN.slice(0, 9) + String((Number(VKN[9]) + 1) % 10);
  const invalid = classifyOffline(customer(1, wrongLast), undefined);
  assert.equal(invalid.status, 'invalid');
  assert.deepEqual(invalid.reason, { problem: 'checksum', kind: 'VKN', expectedCheckDigits: VKN[9] });
  assert.equal(classifyOffline(customer(2, '12345'), undefined).reason?.problem, 'length');
  assert.equal(classifyOffline({ ID: 3, TaxNumber: null, Name: null }, undefined).reason?.problem, 'empty');

  assert.equal(classifyOffline(customer(4, VKN), undefined).status, 'notUser');
  const gone = classifyOffline(customer(5, VKN), offlineTaxpayer(VKN, [['urn:mail:defaultpk@a.com', 'PK', '2025-01-01']]));
  assert.deepEqual([gone.status, gone.deregistered], ['notUser', true]);
  const user = classifyOffline(
    customer(6, TCKN),
    offlineTaxpayer(TCKN, [
      ['urn:mail:defaultgb@a.com', 'GB'],
      ['urn:mail:eskipk@a.com', 'PK', '2024-01-01'],
      ['urn:mail:yenipk@a.com', 'PK'],
    ]),
  );
  assert.deepEqual([user.status, user.pkAlias, user.title], ['user', 'urn:mail:yenipk@a.com', 'Deneme A.Ş.']);
  // Only a GB alias active: still a user (registered), but no PK alias to show.
  const gbOnly = classifyOffline(customer(7, VKN), offlineTaxpayer(VKN, [['urn:mail:defaultgb@a.com', 'GB']]));
  assert.deepEqual([gbOnly.status, gbOnly.pkAlias], ['user', undefined]);

  const answer = (aliases: Array<[string, string | null]>): GlobalCustomerAliasesResponse => ({
    TaxNumber: VKN, Title: 'Çevrimiçi Ltd.', Type: 'Özel', ModuleType: 'eInvoice', FirstCreationTime: '2020-01-01',
    Aliases: aliases.map(([Name, DeletionTime]) => ({ Name, CreationTime: '2020-01-01', DeletionTime })),
  });
  const online = classifyOnline(customer(8, VKN), answer([['urn:mail:defaultgb@b.com', null], ['urn:mail:defaultpk@b.com', null]]));
  assert.deepEqual([online.status, online.pkAlias, online.title], ['user', 'urn:mail:defaultpk@b.com', 'Çevrimiçi Ltd.']);
  assert.equal(classifyOnline(customer(9, VKN), answer([['urn:mail:defaultpk@b.com', '2025-02-02']])).deregistered, true);
  assert.equal(classifyOnline(customer(10, VKN), undefined).status, 'notUser');
  assert.equal(pickPkAlias(['urn:mail:defaultgb@x.com', 'urn:mail:fatura@x.com']), 'urn:mail:fatura@x.com');
  assert.equal(pickPkAlias(['urn:mail:defaultgb@x.com']), undefined);
});

function row(customerId: number, taxNumber: string, status: ReconRow['status'], pkAlias?: string): ReconRow {
  return { customerId, taxNumber, name: `N${customerId}`, status, ...(pkAlias ? { pkAlias } : {}) };
}

test('diff of two runs: newly registered, alias changed, deregistered; unchanged, unchecked and newly added customers are not changes', () => {
  const before = snapshotOf('http://x', '2026-01-01T00:00:00.000Z', [
    row(1, '1111111111', 'notUser'),
    row(2, '2222222222', 'user', 'urn:mail:a@x'),
    row(3, '3333333333', 'user', 'urn:mail:b@x'),
    row(4, '4444444444', 'user', 'urn:mail:c@x'),
    row(5, '5555555555', 'user', 'urn:mail:d@x'),
  ]);
  const now = [
    row(1, '1111111111', 'user', 'urn:mail:new@x'),
    row(2, '2222222222', 'user', 'urn:mail:a2@x'),
    row(3, '3333333333', 'notUser'),
    row(4, '4444444444', 'user', 'urn:mail:c@x'),
    row(5, '5555555555', 'unchecked'),
    row(6, '6666666666', 'user', 'urn:mail:e@x'),
  ];
  const changes = diffRuns(before, now);
  // Customer 6 was added to the customer list since the first run: not a registry change.
  assert.deepEqual(changes.newlyRegistered.map((r) => r.customerId), [1]);
  assert.deepEqual(changes.aliasChanged.map((c) => [c.row.customerId, c.previousAlias, c.row.pkAlias]), [[2, 'urn:mail:a@x', 'urn:mail:a2@x']]);
  assert.deepEqual(changes.deregistered.map((r) => r.customerId), [3]);
  // The failed lookup keeps customer 5's previous entry for the run after.
  assert.deepEqual(snapshotOf('http://x', 't', now, before).entries.get('5555555555'), { status: 'user', pkAlias: 'urn:mail:d@x' });
});

test('snapshot store: one hashed file per base URL, written whole, damaged files ignored', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-recon-'));
  const store = new SnapshotStore(folder);
  const a = 'http://127.0.0.1:4000';
  assert.equal(await store.load(a), undefined);
  const snapshot: Snapshot = snapshotOf(a, '2026-02-03T04:05:06.000Z', [row(1, VKN, 'user', 'urn:mail:defaultpk@a.com'), row(2, TCKN, 'notUser'), row(3, '12', 'invalid')]);
  const file = await store.save(snapshot);
  assert.ok(!path.basename(file).includes('127.0.0.1'), 'the URL is hashed, not written into the name');
  assert.deepEqual(fs.readdirSync(folder), [path.basename(file)], 'no temporary file is left');
  const loaded = await store.load(a);
  assert.ok(loaded);
  assert.equal(loaded.takenAt, snapshot.takenAt);
  assert.deepEqual([...loaded.entries], [...snapshot.entries]);
  assert.equal(await store.load('https://api.nilvera.com'), undefined, 'another environment has its own file');
  assert.notEqual(store.fileFor('https://api.nilvera.com'), file);

  fs.writeFileSync(file, serializeSnapshot(snapshot).split('\n').slice(0, 2).join('\n'));
  assert.equal(await store.load(a), undefined, 'a truncated file (count mismatch) counts as no snapshot');
  assert.equal(parseSnapshot('not json\n'), undefined);
});

test('snapshot store: two profiles at one address (two companies at api.nilvera.com) keep their own snapshot', async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-recon-'));
  const store = new SnapshotStore(folder);
  const production = 'https://api.nilvera.com';
  await store.save(snapshotOf(production, '2026-03-01T00:00:00.000Z', [row(1, VKN, 'user', 'urn:mail:a@a.com')], undefined, 'profile-a'));
  await store.save(snapshotOf(production, '2026-03-02T00:00:00.000Z', [row(1, TCKN, 'notUser')], undefined, 'profile-b'));
  assert.equal(fs.readdirSync(folder).length, 2, 'one file each');
  const a = await store.load(production, 'profile-a');
  const b = await store.load(production, 'profile-b');
  assert.deepEqual([a?.takenAt, [...(a?.entries.keys() ?? [])]], ['2026-03-01T00:00:00.000Z', [VKN]]);
  assert.deepEqual([b?.takenAt, [...(b?.entries.keys() ?? [])]], ['2026-03-02T00:00:00.000Z', [TCKN]]);
  assert.equal(await store.load(production, 'profile-c'), undefined, 'a third profile starts with a first run');
  assert.equal(await store.load(production), undefined, "an earlier version's snapshot of the address is no profile's");
  // A file renamed to another profile's name is still refused: the profile is checked inside too.
  fs.copyFileSync(store.fileFor(production, 'profile-a'), store.fileFor(production, 'profile-c'));
  assert.equal(await store.load(production, 'profile-c'), undefined);
});

const labels: ExportLabels = {
  header: ['Status', 'Customer ID', 'Name', 'Tax Number', 'PK Alias', 'Registry Title', 'Reason', 'Change', 'Previous Alias'],
  status: { user: 'User', notUser: 'Not user', invalid: 'Invalid', unchecked: 'Unchecked' },
  change: { newlyRegistered: 'New', aliasChanged: 'Alias', deregistered: 'Gone' },
  reason: (r) => `bad ${r.reason?.problem}`,
};

test('export: BOM, header, one line per customer, change columns, quoting', async () => {
  const run: RunResult = {
    rows: [
      { ...row(1, VKN, 'user', 'urn:mail:new@x'), name: 'Yılmaz, Demir A.Ş.' },
      row(2, TCKN, 'notUser'),
      { ...row(3, '123', 'invalid'), reason: { problem: 'length' } },
    ],
    source: 'online', listRequests: 1, lookupRequests: 1, unchecked: 0, classifyMs: 0,
  };
  const previous = snapshotOf('u', '2026-01-01T00:00:00.000Z', [row(1, VKN, 'user', 'urn:mail:old@x'), row(2, TCKN, 'user', 'urn:mail:p@x')]);
  const { report } = buildReport('u', '2026-01-02T00:00:00.000Z', run, previous);
  const lines = [...reconciliationCsvLines(report, labels)];
  assert.equal(lines[0], '\uFEFFStatus,Customer ID,Name,Tax Number,PK Alias,Registry Title,Reason,Change,Previous Alias\r\n');
  assert.equal(lines[1], `User,1,"Yılmaz, Demir A.Ş.",${VKN},urn:mail:new@x,,,Alias,urn:mail:old@x\r\n`);
  assert.equal(lines[2], `Not user,2,N2,${TCKN},,,,Gone,\r\n`);
  assert.equal(lines[3], 'Invalid,3,N3,123,,,bad length,,\r\n');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-recon-')), 'out.csv');
  const written = await writeReconciliationCsv(file, report, labels);
  assert.deepEqual(written, { lines: 3, saved: { path: file } });
  assert.equal(fs.readFileSync(file, 'utf8'), lines.join(''));
  // With Turkish Excel's separator: the same cells, `;` between them, a comma inside a name unquoted.
  const semicolon = [...reconciliationCsvLines(report, labels, ';')];
  assert.equal(semicolon[0], '\uFEFFStatus;Customer ID;Name;Tax Number;PK Alias;Registry Title;Reason;Change;Previous Alias\r\n');
  assert.equal(semicolon[1], `User;1;Yılmaz, Demir A.Ş.;${VKN};urn:mail:new@x;;;Alias;urn:mail:old@x\r\n`);
});

interface Listed { ID: number; TaxNumber: string; Name: string }
interface InfoAnswer { Aliases: Array<{ Name: string; DeletionTime: string | null }> }

test('a run against the sandbox: every page, each group as the single lookup says, online and offline', async () => {
  await withSandbox({ customers: 230, invalidCustomers: 9, registry: 3000, seed: 11 }, async (sandbox) => {
    // The expectation, independently: every customer, checksum by hand, one GET per taxpayer.
    const listed: Listed[] = [];
    for (let page = 1; ; page++) {
      const res = await api(sandbox, 'GET', `/general/Customers?Page=${page}&PageSize=100`);
      const content = (res.json as { Content: Listed[] }).Content;
      listed.push(...content);
      if (content.length < 100) break;
    }
    assert.equal(listed.length, 239);
    const expected = new Map<number, { status: string; aliases: string[] }>();
    for (const c of listed) {
      if (!(c.TaxNumber.length === 10 ? isValidVkn(c.TaxNumber) : isValidTckn(c.TaxNumber))) {
        expected.set(c.ID, { status: 'invalid', aliases: [] });
        continue;
      }
      const info = await api(sandbox, 'GET', `/general/GlobalCompany/GetGlobalCustomerInfo/${c.TaxNumber}?globalUserType=Invoice`);
      const active = info.status === 404 ? [] : (info.json as InfoAnswer).Aliases.filter((a) => !a.DeletionTime).map((a) => a.Name);
      expected.set(c.ID, { status: active.length ? 'user' : 'notUser', aliases: active });
    }
    const count = (s: string) => [...expected.values()].filter((e) => e.status === s).length;
    assert.equal(count('invalid'), 9);
    assert.ok(count('user') > 50 && count('notUser') > 10, `${count('user')} users, ${count('notUser')} non-users`);

    const client = createClient({ baseUrl: sandbox.url, getApiKey: async () => sandbox.keys.full });
    sandbox.resetRequestLog();
    const progress: number[] = [];
    const online = await runReconciliation({ customers: client.customers, source: { kind: 'online', registry: client.registry }, onProgress: (done) => progress.push(done) });
    const bulkCalls = sandbox.requestLog().filter((r) => r.method === 'POST' && /GetGlobalCustomerInfo/.test(r.path)).length;
    assert.equal(online.lookupRequests, bulkCalls);
    assert.equal(online.listRequests, 3);
    // Per page of 100 customers, its valid numbers in batches of 50.
    const perPage = [0, 1, 2].map((p) => listed.slice(p * 100, p * 100 + 100).filter((c) => expected.get(c.ID)?.status !== 'invalid').length);
    assert.equal(bulkCalls, perPage.reduce((n, v) => n + Math.ceil(v / 50), 0));
    assert.equal(progress.at(-1), 239);
    for (const r of online.rows) {
      const e = expected.get(r.customerId)!;
      assert.equal(r.status, e.status, `customer ${r.customerId}`);
      if (r.status === 'user') assert.ok(r.pkAlias && e.aliases.includes(r.pkAlias) && /pk@/.test(r.pkAlias), `${r.pkAlias} among ${e.aliases}`);
    }
    assert.deepEqual(online.rows.map((r) => r.customerId), listed.map((c) => c.ID));

    // Offline: a lookup that answers like the index would (the real index is exercised in the suite).
    const byNumber = new Map(listed.map((c) => [c.TaxNumber, expected.get(c.ID)!]));
    const offline = await runReconciliation({
      customers: client.customers,
      source: { kind: 'offline', lookup: (tn) => { const e = byNumber.get(tn); return e?.status === 'user' ? offlineTaxpayer(tn, e.aliases.map((n) => [n, /gb@/.test(n) ? 'GB' : 'PK'])) : undefined; } },
    });
    assert.equal(offline.lookupRequests, 0);
    assert.deepEqual(offline.rows.map((r) => r.status), online.rows.map((r) => r.status));

    // Cancelled after the first page: no result.
    const controller = new AbortController();
    await assert.rejects(
      runReconciliation({ customers: client.customers, source: { kind: 'online', registry: client.registry }, signal: controller.signal, concurrency: 1, onProgress: () => controller.abort() }),
      { name: 'AbortError' },
    );
  });
});
