// Every operation of the sandbox answers its success path over real HTTP, and the state changes
// it makes are visible in later reads.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { completeVkn, isValidTckn, isValidVkn } from '../../../src/domain/taxId';
import { api, startTestSandbox, type SandboxHandle } from '../../support/sandbox';

let sb: SandboxHandle;
const ok = async (method: string, path: string, body?: unknown) => {
  const r = await api(sb, method, path, body);
  assert.equal(r.status, 200, `${method} ${path}: ${r.text.slice(0, 300)}`);
  return r.json as never;
};

before(async () => {
  sb = await startTestSandbox({ customers: 120, registry: 400, seed: 7 });
});
after(() => sb.close());

describe('account data', () => {
  test('alerts, campaigns, credits and exchange rates have the documented shapes', async () => {
    const alerts: Array<Record<string, unknown>> = await ok('GET', '/general/Alerts');
    assert.ok(alerts.length > 0);
    for (const a of alerts) assert.ok(['Information', 'Warning', 'Error'].includes(a.Type as string));
    const campaigns: Array<Record<string, unknown>> = await ok('GET', '/general/Campaigns');
    assert.equal(typeof campaigns[0].IsActive, 'boolean');
    const credits: Array<Record<string, number>> = await ok('GET', '/general/Credits');
    for (const c of credits) assert.equal(c.RemainingCredit, c.TotalCredit - c.UsedCredit);
    const rate: Record<string, string> = await ok('GET', '/general/ExchangeRate');
    for (const k of ['USDBuy', 'USDSale', 'EUROBuy', 'EUROSale', 'GBPBuy', 'GBPSale']) assert.match(rate[k], /^\d+,\d{4}$/, k);
  });
});

describe('company', () => {
  test('get, update (visible afterwards, Name unchanged), modules, list', async () => {
    const before: Record<string, unknown> = await ok('GET', '/general/Company');
    assert.ok(isValidVkn(before.TaxNumber as string));
    const updated: Record<string, unknown> = await ok('PUT', '/general/Company', { City: 'Eskişehir', District: 'Tepebaşı', PaymentMeansCode: 'NAKIT', Name: 'ignored' });
    assert.equal(updated.City, 'Eskişehir');
    assert.equal(updated.Name, before.Name);
    const after: Record<string, unknown> = await ok('GET', '/general/Company');
    assert.equal(after.District, 'Tepebaşı');
    assert.equal(after.PaymentMeansCode, 'NAKIT');
    const modules: Array<Record<string, unknown>> = await ok('GET', '/general/Company/Modules');
    assert.ok(modules.some((m) => m.Name === 'EInvoice'));
    const list: Array<Record<string, unknown>> = await ok('GET', '/general/Company/List');
    assert.equal(list[0].TaxNumber, before.TaxNumber);
  });
});

describe('certificates', () => {
  test('list has expired and soon-expiring ones; create, get by serial, update, delete', async () => {
    const list: Array<Record<string, unknown>> = await ok('GET', '/general/Company/Certificate');
    const now = Date.now();
    const ends = list.map((c) => Date.parse(`${c.EndDate as string}Z`));
    assert.ok(ends.some((e) => e < now), 'an expired certificate');
    assert.ok(ends.some((e) => e > now && e < now + 30 * 86_400_000), 'one expiring within 30 days');
    assert.equal(await ok('POST', '/general/Company/Certificate', { SerialNo: 'NEW 1/2', Type: 'EIMZA', StartDate: '2026-01-01T00:00:00', EndDate: '2028-01-01T00:00:00' }), true);
    const created: Record<string, unknown> = await ok('GET', `/general/Company/Certificate/${encodeURIComponent('NEW 1/2')}`);
    assert.equal(created.Type, 'EIMZA');
    assert.equal(await ok('PUT', '/general/Company/Certificate', { ID: created.ID, SerialNo: 'NEW 1/2', Type: 'HSM', Description: 'değişti' }), true);
    const changed: Record<string, unknown> = await ok('GET', `/general/Company/Certificate/${encodeURIComponent('NEW 1/2')}`);
    assert.equal(changed.Type, 'HSM');
    assert.equal(await ok('DELETE', `/general/Company/Certificate/${created.ID}`), true);
    assert.equal((await api(sb, 'GET', `/general/Company/Certificate/${encodeURIComponent('NEW 1/2')}`)).status, 404);
  });
});

describe('documents and identifications', () => {
  test('document create, list, delete', async () => {
    const doc: Record<string, unknown> = await ok('POST', '/general/CompanyDocuments', { Name: 'Faaliyet Belgesi', FileType: 'pdf', Base64String: Buffer.from('%PDF-1.7 test').toString('base64') });
    assert.equal(doc.Size, 13);
    const list: Array<Record<string, unknown>> = await ok('GET', '/general/CompanyDocuments');
    assert.ok(list.some((d) => d.ID === doc.ID && d.Name === 'Faaliyet Belgesi'));
    assert.equal(await ok('DELETE', `/general/CompanyDocuments/${doc.ID}`), true);
    const afterDelete: Array<Record<string, unknown>> = await ok('GET', '/general/CompanyDocuments');
    assert.ok(!afterDelete.some((d) => d.ID === doc.ID));
  });

  test('identification create (query parameters), list, delete', async () => {
    const created: Record<string, unknown> = await ok('POST', '/general/CompanyIdentification?Name=SUBENO&Value=0042');
    assert.deepEqual([created.Name, created.Value], ['SUBENO', '0042']);
    const list: Array<Record<string, unknown>> = await ok('GET', '/general/CompanyIdentification');
    assert.ok(list.some((i) => i.ID === created.ID));
    assert.equal(await ok('DELETE', `/general/CompanyIdentification/${created.ID}`), true);
    const afterDelete: Array<Record<string, unknown>> = await ok('GET', '/general/CompanyIdentification');
    assert.ok(!afterDelete.some((i) => i.ID === created.ID));
  });
});

describe('customers', () => {
  test('create, get, get by tax number, search, update, delete, bulk delete', async () => {
    const taxes = ['123456789', '234567891', '345678912'].map(completeVkn);
    const message = await ok('POST', '/general/Customers', taxes.map((TaxNumber, i) => ({ TaxNumber, Name: `Deneme Müşteri ${i}`, City: 'İzmir', IsExport: false })));
    assert.equal(typeof message, 'string');
    const found: Record<string, unknown> = await ok('GET', `/general/Customers/GetCustomerInfo/${taxes[0]}`);
    assert.equal(found.Name, 'Deneme Müşteri 0');
    assert.ok(found.CreatedDate && found.ModifiedDate);
    const byId: Record<string, unknown> = await ok('GET', `/general/Customers/${found.ID}`);
    assert.equal(byId.TaxNumber, taxes[0]);
    const hits: Array<Record<string, unknown>> = await ok('GET', `/general/Customers/Search/${encodeURIComponent('deneme müşteri')}`);
    assert.equal(hits.length, 3);
    assert.equal(await ok('PUT', '/general/Customers', { ...byId, Name: 'Yeni Ünvan' }), true);
    const renamed: Record<string, unknown> = await ok('GET', `/general/Customers/${found.ID}`);
    assert.equal(renamed.Name, 'Yeni Ünvan');
    assert.equal(await ok('DELETE', `/general/Customers/${found.ID}`), true);
    assert.equal((await api(sb, 'GET', `/general/Customers/${found.ID}`)).status, 404);
    const ids = hits.map((h) => h.ID).filter((id) => id !== found.ID);
    assert.equal(await ok('DELETE', '/general/Customers/Bulk', ids), true);
    for (const id of ids) assert.equal((await api(sb, 'GET', `/general/Customers/${id}`)).status, 404);
  });

  test('paged list', async () => {
    const page: Record<string, unknown> = await ok('GET', '/general/Customers?Page=2&PageSize=10');
    assert.equal(page.Page, 2);
    assert.equal(page.PageSize, 10);
    assert.equal((page.Content as unknown[]).length, 10);
  });
});

describe('registry', () => {
  test('list, info, bulk info, check by tax number and name, search', async () => {
    const page: { TotalCount: number; Content: Array<{ TaxNumber: string; Title: string }> } = await ok('GET', '/general/GlobalCompany?Page=1&PageSize=5');
    assert.equal(page.TotalCount, 400);
    const first = page.Content[0];
    assert.ok(isValidVkn(first.TaxNumber) || isValidTckn(first.TaxNumber));
    const info: Record<string, unknown> = await ok('GET', `/general/GlobalCompany/GetGlobalCustomerInfo/${first.TaxNumber}?globalUserType=Invoice`);
    assert.equal(info.Title, first.Title);
    const bulk: Array<Record<string, unknown>> = await ok('POST', '/general/GlobalCompany/GetGlobalCustomerInfo?globalUserType=Invoice', page.Content.map((c) => c.TaxNumber));
    assert.equal(bulk.length, 5);
    const check: Array<Record<string, unknown>> = await ok('GET', `/general/GlobalCompany/Check/TaxNumber/${first.TaxNumber}`);
    assert.ok(check.length >= 1 && check.every((r) => r.TaxNumber === first.TaxNumber && String(r.Name).startsWith('urn:mail:')));
    const word = first.Title.split(' ')[0];
    const byName: Array<Record<string, unknown>> = await ok('GET', `/general/GlobalCompany/Check/Name/${encodeURIComponent(word)}`);
    assert.ok(byName.some((r) => r.TaxNumber === first.TaxNumber));
    const search: Array<Record<string, unknown>> = await ok('GET', `/general/GlobalCompany/Search/${encodeURIComponent(word)}?globalUserType=Invoice`);
    assert.ok(search.some((r) => r.TaxNumber === first.TaxNumber));
  });

  test('registry ZIP download answers a JSON string', async () => {
    const body = await ok('GET', '/general/GlobalCompany/PK/Invoice');
    assert.equal(typeof body, 'string');
    assert.equal(Buffer.from(body as string, 'base64').readUInt32LE(0), 0x04034b50);
  });
});

describe('settings, templates and series', () => {
  test('tax office get/update', async () => {
    assert.equal(await ok('PUT', '/general/InteractiveTaxOffice?UserName=kullanici&Password=Gizli%20123'), true);
    assert.deepEqual(await ok('GET', '/general/InteractiveTaxOffice'), { UserName: 'kullanici', Password: 'Gizli 123' });
  });

  test('mailing switches change the settings rows', async () => {
    assert.equal(await ok('POST', '/general/Mailing/Whatsapp/Setting/true'), true);
    assert.equal(await ok('POST', '/general/Mailing/Email/Setting', { IsActive: false }), true);
    const rows: Array<{ ModuleID: string; IsActive: boolean }> = await ok('GET', '/general/Mailing/Setting');
    assert.equal(rows.find((r) => r.ModuleID === 'WhatsApp')?.IsActive, true);
    assert.equal(rows.find((r) => r.ModuleID === 'Portal')?.IsActive, false);
  });

  test('template and series updates', async () => {
    assert.equal(await ok('PUT', '/ebill/Templates', { ID: 2, Name: 'Logolu v2', IsActive: true, IsDefault: false, Base64String: Buffer.from('<xsl/>').toString('base64') }), true);
    assert.equal(await ok('PUT', '/evoucher/Series', { ID: 2, IsActive: true, IsDefault: false }), true);
  });
});
