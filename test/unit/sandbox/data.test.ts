// Paging, sorting and search against a brute-force check; one default template/series at a time;
// determinism of the seed; persistence across restarts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { completeVkn, isValidTckn, isValidVkn } from '../../../src/domain/taxId';
import { api, startTestSandbox, withSandbox, type SandboxHandle, type SandboxPage } from '../../support/sandbox';

interface Customer {
  ID: number;
  Name: string | null;
  TaxNumber: string | null;
  City: string | null;
  Email: string | null;
  IsExport: boolean;
  [k: string]: unknown;
}

const get = async <T>(sb: SandboxHandle, p: string): Promise<T> => {
  const r = await api(sb, 'GET', p);
  assert.equal(r.status, 200, `${p}: ${r.text.slice(0, 200)}`);
  return r.json as T;
};

/** Every customer, read page by page in the default (ID) order. */
async function allCustomers(sb: SandboxHandle): Promise<Customer[]> {
  const out: Customer[] = [];
  for (let page = 1; ; page++) {
    const p = await get<SandboxPage<Customer>>(sb, `/general/Customers?Page=${page}&PageSize=100`);
    out.push(...p.Content);
    if (page >= p.TotalPages) return out;
  }
}

describe('customer paging, sorting and search', () => {
  let sb: SandboxHandle;
  let all: Customer[];
  before(async () => {
    sb = await startTestSandbox({ customers: 437, registry: 2000, seed: 11 });
    all = await allCustomers(sb);
  });
  after(() => sb.close());

  test('default order is by ID, pages cover everything once, PageSize defaults to 20 and caps at 100', async () => {
    assert.equal(all.length, 437);
    assert.deepEqual(all.map((c) => c.ID), [...all.map((c) => c.ID)].sort((a, b) => a - b));
    assert.equal(new Set(all.map((c) => c.ID)).size, 437);
    const first = await get<SandboxPage<Customer>>(sb, '/general/Customers');
    assert.deepEqual([first.Page, first.PageSize, first.TotalCount, first.TotalPages, first.Content.length], [1, 20, 437, 22, 20]);
    const capped = await get<SandboxPage<Customer>>(sb, '/general/Customers?PageSize=1000');
    assert.equal(capped.PageSize, 100);
    assert.equal(capped.Content.length, 100);
    const beyond = await get<SandboxPage<Customer>>(sb, '/general/Customers?Page=99&PageSize=50');
    assert.deepEqual(beyond.Content, []);
    const last = await get<SandboxPage<Customer>>(sb, '/general/Customers?Page=9&PageSize=50');
    assert.deepEqual(last.Content.map((c) => c.ID), all.slice(400).map((c) => c.ID));
  });

  test('seeded customers have valid tax numbers and most are registered taxpayers', async () => {
    for (const c of all) assert.ok(isValidVkn(c.TaxNumber!) || isValidTckn(c.TaxNumber!), c.TaxNumber!);
    const sample = all.slice(0, 60);
    const registered = (await api(sb, 'POST', '/general/GlobalCompany/GetGlobalCustomerInfo', sample.map((c) => c.TaxNumber))).json as unknown[];
    assert.ok(registered.length > 30 && registered.length < 60, `${registered.length} of 60 registered`);
  });

  const collator = new Intl.Collator('tr', { sensitivity: 'base' });
  /** The expected IDs of a query, computed from the full list. */
  const bruteForce = (rows: Customer[], column: string, dir: 'ASC' | 'DESC', search: string) => {
    const needle = search.toLocaleLowerCase('tr');
    return rows
      .filter((c) => [c.Name, c.TaxNumber, c.City, c.Email].some((v) => v != null && v.toLocaleLowerCase('tr').includes(needle)))
      .sort((a, b) => {
        const x = a[column];
        const y = b[column];
        const c = typeof x === 'number' ? x - (y as number) : typeof x === 'boolean' ? Number(x) - Number(y) : collator.compare(String(x), String(y));
        return c !== 0 ? (dir === 'DESC' ? -c : c) : a.ID - b.ID;
      })
      .map((c) => c.ID);
  };
  /** The IDs the server lists for a query, page by page. */
  const listed = async (column: string, dir: 'ASC' | 'DESC', search: string) => {
    const got: number[] = [];
    let totalCount = -1;
    for (let page = 1; page <= 40; page++) {
      const p = await get<SandboxPage<Customer>>(sb, `/general/Customers?Page=${page}&PageSize=37&SortColumn=${column}&SortType=${dir}&Search=${encodeURIComponent(search)}`);
      totalCount = p.TotalCount;
      got.push(...p.Content.map((c) => c.ID));
      if (page >= p.TotalPages) break;
    }
    assert.equal(totalCount, got.length);
    return got;
  };
  const cases: Array<[string, 'ASC' | 'DESC', string]> = [
    ['Name', 'ASC', ''],
    ['Name', 'DESC', ''],
    ['City', 'ASC', 'a'],
    ['TaxNumber', 'DESC', '1'],
    ['IsExport', 'DESC', ''],
    ['ID', 'DESC', 'İSTANBUL'],
  ];
  for (const [column, dir, search] of cases) {
    test(`sort ${column} ${dir}, search "${search}" matches a brute-force computation`, async () => {
      assert.deepEqual(await listed(column, dir, search), bruteForce(all, column, dir, search));
    });
  }

  test('sorted orders stay right after creates, updates and deletes', async () => {
    await listed('Name', 'ASC', '');
    await listed('City', 'DESC', '');
    const created = [completeVkn('700100200'), completeVkn('700100201'), completeVkn('700100202')];
    assert.equal((await api(sb, 'POST', '/general/Customers', created.map((TaxNumber, i) => ({ TaxNumber, Name: ['Zeytin Ltd', 'Çınar A.Ş.', 'Ilgaz Ltd'][i], City: ['Van', 'Ağrı', 'Iğdır'][i] })))).status, 200);
    const renamed = all[10];
    assert.equal((await api(sb, 'PUT', '/general/Customers', { ...renamed, Name: 'Öztürk Yeni Ünvan', City: 'Şanlıurfa' })).status, 200);
    assert.equal((await api(sb, 'DELETE', '/general/Customers/Bulk', [all[3].ID, all[200].ID])).status, 200);
    const now = await allCustomers(sb);
    assert.equal(now.length, all.length + 1);
    for (const [column, dir, search] of [['Name', 'ASC', ''], ['City', 'DESC', ''], ['Name', 'ASC', 'ltd']] as const) {
      assert.deepEqual(await listed(column, dir, search), bruteForce(now, column, dir, search), `${column} ${dir} "${search}"`);
    }
    all = now;
  });

  test('a change invalidates cached views', async () => {
    const sorted = await get<SandboxPage<Customer>>(sb, '/general/Customers?SortColumn=Name&PageSize=1');
    const name = 'AAAA İlk Sıradaki Müşteri';
    assert.equal((await api(sb, 'POST', '/general/Customers', [{ Name: name, TaxNumber: completeVkn('909090901') }])).status, 200);
    const again = await get<SandboxPage<Customer>>(sb, '/general/Customers?SortColumn=Name&PageSize=1');
    assert.equal(again.TotalCount, sorted.TotalCount + 1);
    assert.equal(again.Content[0].Name, name);
    const created = again.Content[0];
    assert.equal((await api(sb, 'DELETE', `/general/Customers/${created.ID}`)).status, 200);
    const afterDelete = await get<SandboxPage<Customer>>(sb, '/general/Customers?SortColumn=Name&PageSize=1');
    assert.deepEqual(afterDelete.Content[0].ID, sorted.Content[0].ID);
  });
});

describe('templates and series: one default at a time', () => {
  test('making one the default clears the others; unsetting the only default is refused', async () => {
    await withSandbox({ customers: 5, registry: 10 }, async (sb) => {
      const defaults = async (kind: 'templates' | 'series') => {
        const state = (await fetch(`${sb.url}/__sandbox/state`).then((r) => r.json())) as Record<string, Array<{ ID: number; IsDefault: boolean }>>;
        return state[kind].filter((t) => t.IsDefault).map((t) => t.ID);
      };
      assert.deepEqual(await defaults('templates'), [1]);
      assert.equal((await api(sb, 'PUT', '/ebill/Templates', { ID: 2, IsActive: true, IsDefault: true })).status, 200);
      assert.deepEqual(await defaults('templates'), [2]);
      assert.equal((await api(sb, 'PUT', '/ebill/Templates', { ID: 2, IsActive: true, IsDefault: false })).status, 422);
      assert.equal((await api(sb, 'PUT', '/ebill/Templates', { ID: 2, IsActive: false, IsDefault: true })).status, 422, 'the default stays active');
      assert.deepEqual(await defaults('templates'), [2]);
      assert.deepEqual(await defaults('series'), [1]);
      assert.equal((await api(sb, 'PUT', '/evoucher/Series', { ID: 3, IsActive: true, IsDefault: true })).status, 200);
      assert.deepEqual(await defaults('series'), [3]);
      assert.equal((await api(sb, 'PUT', '/evoucher/Series', { ID: 3, IsActive: true, IsDefault: false })).status, 400);
      assert.deepEqual(await defaults('series'), [3]);
    });
  });
});

describe('determinism', () => {
  test('the same seed gives the same data; another seed gives other data', async () => {
    const snapshot = (seed: number) =>
      withSandbox({ customers: 50, registry: 300, seed }, async (sb) => ({
        customers: await get<SandboxPage<Customer>>(sb, '/general/Customers?PageSize=100'),
        registry: await get<SandboxPage<unknown>>(sb, '/general/GlobalCompany?PageSize=100&Page=2'),
        company: await get<unknown>(sb, '/general/Company'),
        credits: await get<unknown>(sb, '/general/Credits'),
      }));
    const [a, b, c] = [await snapshot(5), await snapshot(5), await snapshot(6)];
    assert.deepEqual(a, b);
    assert.notDeepEqual(a.customers.Content, c.customers.Content);
    assert.notDeepEqual(a.registry.Content, c.registry.Content);
  });
});

describe('persistence', () => {
  test('changes survive a restart with the same data file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-data-'));
    const dataFile = path.join(dir, 'demo.json');
    try {
      const tax = completeVkn('246813579');
      await withSandbox({ customers: 20, registry: 100, dataFile }, async (sb) => {
        assert.equal((await api(sb, 'POST', '/general/Customers', [{ Name: 'Kalıcı Müşteri', TaxNumber: tax }])).status, 200);
        assert.equal((await api(sb, 'DELETE', '/general/Customers/3')).status, 200);
        assert.equal((await api(sb, 'PUT', '/general/Company', { City: 'Trabzon' })).status, 200);
        assert.equal((await api(sb, 'POST', '/general/Mailing/Whatsapp/Setting/true')).status, 200);
        const registered = await fetch(`${sb.url}/__sandbox/registry`, { method: 'POST', body: JSON.stringify({ action: 'register', TaxNumber: completeVkn('135792468'), Title: 'Yeni Mükellef A.Ş.' }) });
        assert.equal(registered.status, 200);
      });
      assert.ok(fs.existsSync(dataFile));
      assert.deepEqual(fs.readdirSync(dir), ['demo.json'], 'no temp file left behind');
      await withSandbox({ customers: 20, registry: 100, dataFile }, async (sb) => {
        assert.equal(((await api(sb, 'GET', `/general/Customers/GetCustomerInfo/${tax}`)).json as Customer).Name, 'Kalıcı Müşteri');
        assert.equal((await api(sb, 'GET', '/general/Customers/3')).status, 404);
        assert.equal(((await api(sb, 'GET', '/general/Company')).json as { City: string }).City, 'Trabzon');
        const rows = (await api(sb, 'GET', '/general/Mailing/Setting')).json as Array<{ ModuleID: string; IsActive: boolean }>;
        assert.equal(rows.find((r) => r.ModuleID === 'WhatsApp')?.IsActive, true);
        const info = (await api(sb, 'GET', `/general/GlobalCompany/GetGlobalCustomerInfo/${completeVkn('135792468')}`)).json as { Title: string };
        assert.equal(info.Title, 'Yeni Mükellef A.Ş.');
        // New IDs continue after the persisted ones.
        assert.equal((await api(sb, 'POST', '/general/Customers', [{ Name: 'İkinci', TaxNumber: completeVkn('975318642') }])).status, 200);
        const second = (await api(sb, 'GET', `/general/Customers/GetCustomerInfo/${completeVkn('975318642')}`)).json as Customer;
        assert.equal(second.ID, 22);
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a delete alone is saved too (certificate, identification, document)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-data-'));
    const dataFile = path.join(dir, 'demo.json');
    const lists = ['/general/Company/Certificate', '/general/CompanyIdentification', '/general/CompanyDocuments'];
    try {
      await withSandbox({ customers: 2, registry: 10, dataFile }, async (sb) => {
        for (const list of lists) assert.equal((await api(sb, 'DELETE', `${list}/1`)).status, 200, list);
      });
      await withSandbox({ customers: 2, registry: 10, dataFile }, async (sb) => {
        for (const list of lists) {
          const ids = ((await api(sb, 'GET', list)).json as Array<{ ID: number }>).map((r) => r.ID);
          assert.ok(ids.length > 0 && !ids.includes(1), `${list}: ${ids.join(', ')}`);
        }
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /__sandbox/state', () => {
  test('lists every record of the state and the documents without their content', async () => {
    await withSandbox({ customers: 5, registry: 10 }, async (sb) => {
      const state = (await fetch(`${sb.url}/__sandbox/state`).then((r) => r.json())) as Record<string, unknown> & { documents: Array<Record<string, unknown>>; counts: Record<string, number> };
      for (const key of ['company', 'certificates', 'identifications', 'mailing', 'taxOffice', 'templates', 'series']) assert.ok(state[key], key);
      assert.equal(state.documents.length, state.counts.documents);
      assert.ok(state.documents.every((d) => typeof d.Name === 'string' && !('Base64String' in d)));
      assert.equal(state.nextIds, undefined);
    });
  });
});
