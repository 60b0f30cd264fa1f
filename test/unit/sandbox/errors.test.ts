// Error statuses of every area (400, 401, 403, 404, 409, 422) with the {"Errors":[...]} body,
// case-insensitive routes and decoded path parameters.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { completeVkn } from '../../../src/domain/taxId';
import { api, startTestSandbox, type SandboxHandle } from '../../support/sandbox';

let sb: SandboxHandle;
before(async () => {
  sb = await startTestSandbox({ customers: 50, registry: 300, seed: 3 });
});
after(() => sb.close());

/** Asserts the status and the documented error body; returns the error items. */
async function expectError(status: number, method: string, path: string, body?: unknown, key?: string | null) {
  const r = await api(sb, method, path, body, key === undefined ? sb.keys.full : key);
  assert.equal(r.status, status, `${method} ${path}: ${r.text.slice(0, 300)}`);
  const errors = (r.json as { Errors: Array<{ Code: unknown; Description: unknown; Detail: unknown }> }).Errors;
  assert.ok(Array.isArray(errors) && errors.length > 0, 'Errors array');
  for (const e of errors) {
    assert.equal(typeof e.Code, 'number');
    assert.equal(typeof e.Description, 'string');
    assert.equal(typeof e.Detail, 'string');
  }
  return errors;
}

describe('authentication and permissions', () => {
  test('no key or an unknown key is 401 and the key is not echoed', async () => {
    await expectError(401, 'GET', '/general/Company', undefined, null);
    const errors = await expectError(401, 'GET', '/general/Company', undefined, 'NOT-A-REAL-KEY-123');
    assert.ok(!JSON.stringify(errors).includes('NOT-A-REAL-KEY-123'));
  });

  test('the restricted key reads but gets 403 on every write', async () => {
    const k = sb.keys.restricted;
    assert.equal((await api(sb, 'GET', '/general/Customers', undefined, k)).status, 200);
    assert.equal((await api(sb, 'POST', '/general/GlobalCompany/GetGlobalCustomerInfo', [], k)).status, 200);
    const writes: Array<[string, string, unknown?]> = [
      ['PUT', '/general/Company', { City: 'X' }],
      ['POST', '/general/Company/Certificate', { SerialNo: 'A', Type: 'EIMZA' }],
      ['PUT', '/general/Company/Certificate', { ID: 1, SerialNo: 'A', Type: 'EIMZA' }],
      ['DELETE', '/general/Company/Certificate/1'],
      ['POST', '/general/CompanyDocuments', { Name: 'a', FileType: 'pdf', Base64String: 'QQ==' }],
      ['DELETE', '/general/CompanyDocuments/1'],
      ['POST', '/general/CompanyIdentification?Name=SUBENO&Value=1'],
      ['DELETE', '/general/CompanyIdentification/1'],
      ['POST', '/general/Customers', [{ Name: 'a', TaxNumber: completeVkn('111222333') }]],
      ['PUT', '/general/Customers', { ID: 1, Name: 'a', TaxNumber: completeVkn('111222333') }],
      ['DELETE', '/general/Customers/1'],
      ['DELETE', '/general/Customers/Bulk', [1]],
      ['PUT', '/general/InteractiveTaxOffice?UserName=a&Password=b'],
      ['POST', '/general/Mailing/Whatsapp/Setting/true'],
      ['POST', '/general/Mailing/Email/Setting', { IsActive: true }],
      ['PUT', '/ebill/Templates', { ID: 1, IsActive: true }],
      ['PUT', '/evoucher/Series', { ID: 1, IsActive: true }],
    ];
    for (const [method, path, body] of writes) await expectError(403, method, path, body, k);
    // Nothing changed: customer 1 and certificate 1 are still there.
    assert.equal((await api(sb, 'GET', '/general/Customers/1')).status, 200);
    const certs = (await api(sb, 'GET', '/general/Company/Certificate')).json as Array<{ ID: number }>;
    assert.ok(certs.some((c) => c.ID === 1));
  });
});

describe('400: malformed JSON and wrong types', () => {
  test('per area', async () => {
    await expectError(400, 'PUT', '/general/Company', '{"City": ');
    await expectError(400, 'PUT', '/general/Company', { City: 42 });
    await expectError(400, 'POST', '/general/Company/Certificate', { SerialNo: 7, Type: 'EIMZA' });
    await expectError(400, 'DELETE', '/general/Company/Certificate/abc');
    await expectError(400, 'POST', '/general/CompanyDocuments', '[1,2');
    await expectError(400, 'DELETE', '/general/CompanyIdentification/x1');
    await expectError(400, 'POST', '/general/Customers', { not: 'an array' });
    await expectError(400, 'PUT', '/general/Customers', { ID: 'one', Name: 'x' });
    await expectError(400, 'DELETE', '/general/Customers/Bulk', ['a']);
    await expectError(400, 'GET', '/general/Customers?Page=zero');
    await expectError(400, 'GET', '/general/Customers?SortColumn=Nope');
    await expectError(400, 'POST', '/general/GlobalCompany/GetGlobalCustomerInfo', [1, 2]);
    await expectError(400, 'GET', '/general/GlobalCompany/Check/TaxNumber/12ab');
    await expectError(400, 'POST', '/general/Mailing/Whatsapp/Setting/maybe');
    await expectError(400, 'POST', '/general/Mailing/Email/Setting', { IsActive: 'yes' });
    await expectError(400, 'PUT', '/ebill/Templates', { Name: 'no id' });
    await expectError(400, 'PUT', '/evoucher/Series', { ID: 1, IsDefault: 'true' });
  });
});

describe('404: unknown IDs and records', () => {
  test('per area', async () => {
    await expectError(404, 'GET', '/general/Company/Certificate/NO-SUCH-SERIAL');
    await expectError(404, 'PUT', '/general/Company/Certificate', { ID: 9999, SerialNo: 'Z', Type: 'HSM' });
    await expectError(404, 'DELETE', '/general/Company/Certificate/9999');
    await expectError(404, 'DELETE', '/general/CompanyDocuments/9999');
    await expectError(404, 'DELETE', '/general/CompanyIdentification/9999');
    await expectError(404, 'GET', '/general/Customers/999999');
    await expectError(404, 'DELETE', '/general/Customers/999999');
    await expectError(404, 'DELETE', '/general/Customers/Bulk', [1, 999999]);
    assert.equal((await api(sb, 'GET', '/general/Customers/1')).status, 200, 'bulk delete is all or nothing');
    await expectError(404, 'PUT', '/general/Customers', { ID: 999999, Name: 'x', TaxNumber: completeVkn('111222333') });
    await expectError(404, 'GET', `/general/Customers/GetCustomerInfo/${completeVkn('000000001')}`);
    await expectError(404, 'GET', '/general/GlobalCompany/GetGlobalCustomerInfo/0000000000');
    await expectError(404, 'PUT', '/ebill/Templates', { ID: 999, IsActive: true, IsDefault: false });
    await expectError(404, 'PUT', '/evoucher/Series', { ID: 999, IsActive: true, IsDefault: false });
    await expectError(404, 'GET', '/general/NoSuchThing');
  });

  test('an unregistered tax number checks as [] rather than 404', async () => {
    const r = await api(sb, 'GET', '/general/GlobalCompany/Check/TaxNumber/0000000000');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, []);
  });
});

describe('409: already exists', () => {
  test('company document with the same name, identification with the same name and value, certificate serial', async () => {
    const doc = { Name: 'Ticaret Sicil Gazetesi', FileType: 'pdf', Base64String: Buffer.from('x').toString('base64') };
    assert.equal((await api(sb, 'POST', '/general/CompanyDocuments', doc)).status, 200);
    await expectError(409, 'POST', '/general/CompanyDocuments', doc);
    assert.equal((await api(sb, 'POST', '/general/CompanyIdentification?Name=BAYINO&Value=77')).status, 200);
    await expectError(409, 'POST', '/general/CompanyIdentification?Name=BAYINO&Value=77');
    const certs = (await api(sb, 'GET', '/general/Company/Certificate')).json as Array<{ SerialNo: string }>;
    await expectError(409, 'POST', '/general/Company/Certificate', { SerialNo: certs[0].SerialNo, Type: 'EIMZA' });
  });
});

describe('422: business rules', () => {
  // A refused customer batch answers 422 under customerBatchStatus=422 (400 by default: test/unit/api/serviceEvidence.test.ts).
  before(() => sb.setBehaviour({ quirks: { customerBatchStatus: '422' } }));
  after(() => sb.setBehaviour({ profile: 'default' }));

  test('customer create with a bad checksum rejects the whole array and names each bad element', async () => {
    const before = ((await api(sb, 'GET', '/general/Customers')).json as { TotalCount: number }).TotalCount;
    const good = completeVkn('555666777');
    const errors = await expectError(422, 'POST', '/general/Customers', [
      { Name: 'İyi Müşteri', TaxNumber: good },
      { Name: 'Kötü Müşteri', TaxNumber: '1234567891' },
      { TaxNumber: completeVkn('888777666') },
    ]);
    assert.equal(errors.length, 2);
    assert.match(String(errors[0].Detail), /index 1.*1234567891/);
    assert.match(String(errors[1].Detail), /index 2/);
    const after = ((await api(sb, 'GET', '/general/Customers')).json as { TotalCount: number }).TotalCount;
    assert.equal(after, before);
    assert.equal((await api(sb, 'GET', `/general/Customers/GetCustomerInfo/${good}`)).status, 404);
  });

  test('an existing tax number is rejected', async () => {
    const existing = (await api(sb, 'GET', '/general/Customers/1')).json as { TaxNumber: string };
    await expectError(422, 'POST', '/general/Customers', [{ Name: 'Kopya', TaxNumber: existing.TaxNumber }]);
  });

  test('unknown enum values, empty password, bad documents, flag rules', async () => {
    await expectError(422, 'PUT', '/general/Company', { PaymentMeansCode: 'BITCOIN' });
    await expectError(422, 'POST', '/general/Company/Certificate', { SerialNo: 'Q1', Type: 'USBTOKEN' });
    await expectError(422, 'POST', '/general/CompanyIdentification?Name=NOSUCH&Value=1');
    await expectError(422, 'GET', '/general/Customers?SortType=UP');
    await expectError(422, 'GET', '/general/GlobalCompany/Check/TaxNumber/1234567890?globalUserType=EArchive');
    await expectError(422, 'GET', '/general/GlobalCompany/XX/Invoice');
    await expectError(422, 'PUT', '/general/InteractiveTaxOffice?UserName=abc&Password=');
    await expectError(422, 'POST', '/general/CompanyDocuments', { Name: 'Boş', FileType: 'pdf', Base64String: '' });
    await expectError(422, 'POST', '/general/CompanyDocuments', { Name: 'Bozuk', FileType: 'pdf', Base64String: 'not base64!' });
    await expectError(422, 'PUT', '/general/Customers', { ID: 1, Name: 'x', TaxNumber: '1111111111' });
    await expectError(422, 'PUT', '/ebill/Templates', { ID: 3, IsActive: false, IsDefault: true });
    await expectError(422, 'DELETE', '/general/CompanyDocuments/0');
    await expectError(422, 'DELETE', '/general/CompanyIdentification/-1');
  });

  test('a document over 10 MB is 422', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 3).toString('base64');
    await expectError(422, 'POST', '/general/CompanyDocuments', { Name: 'Büyük', FileType: 'pdf', Base64String: big });
  });
});

describe('routing', () => {
  test('routes and query names are case-insensitive', async () => {
    for (const path of ['/GENERAL/customers?pagesize=3', '/General/Customers?PageSize=3', '/general/CUSTOMERS?PAGESIZE=3']) {
      const r = await api(sb, 'GET', path);
      assert.equal(r.status, 200, path);
      assert.equal((r.json as { PageSize: number }).PageSize, 3);
    }
    assert.equal((await api(sb, 'GET', '/general/mailing/setting')).status, 200);
    assert.equal((await api(sb, 'PUT', '/EBILL/templates', { ID: 1, IsActive: true, IsDefault: true })).status, 200);
  });

  test('a percent-encoded name with Turkish letters, a slash, a space and # reaches the search intact', async () => {
    const name = 'Şirket A/Ş #1';
    assert.equal((await api(sb, 'POST', '/general/Customers', [{ Name: name, TaxNumber: completeVkn('404404404') }])).status, 200);
    const hits = (await api(sb, 'GET', `/general/Customers/Search/${encodeURIComponent(name)}`)).json as Array<{ Name: string }>;
    assert.deepEqual(hits.map((h) => h.Name), [name]);
    const listed = (await api(sb, 'GET', `/general/Customers?Search=${encodeURIComponent('şİRKET a/ş #1')}`)).json as { Content: Array<{ Name: string }> };
    assert.deepEqual(listed.Content.map((h) => h.Name), [name]);
  });

  test('a wrong method on a known path is 405', async () => {
    assert.equal((await api(sb, 'PATCH', '/general/Company', {})).status, 405);
  });
});
