// The behaviour table (src/sandbox/behaviour.ts): every spec-silent point answered each way, over
// real HTTP; the profiles, quirks, run-time switching and what GET /__sandbox/state reports.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BEHAVIOUR_POINTS, Behaviour, parseQuirk, POINT_IDS } from '../../../src/sandbox/behaviour';
import { completeVkn } from '../../../src/domain/taxId';
import { ZipArchive } from '../../../src/domain/zip';
import { api, sandboxState, setSandboxBehaviour, startTestSandbox, type BehaviourSettings, type SandboxHandle } from '../../support/sandbox';

let sb: SandboxHandle;
before(async () => {
  sb = await startTestSandbox({ customers: 130, registry: 60, seed: 3 });
});
after(() => sb.close());
beforeEach(() => sb.setBehaviour({ profile: 'default' }));

/** A checksum-valid VKN the registry does not hold (proved through Check/TaxNumber). */
async function unregisteredVkn(): Promise<string> {
  for (let n = 987654000; ; n++) {
    const vkn = completeVkn(String(n));
    const check = await api(sb, 'GET', `/general/GlobalCompany/Check/TaxNumber/${vkn}`);
    if (check.status === 200 && Array.isArray(check.json) && check.json.length === 0) return vkn;
  }
}

async function registeredVkns(count: number): Promise<string[]> {
  const page = (await api(sb, 'GET', `/general/GlobalCompany?PageSize=${count}`)).json as { Content: Array<{ TaxNumber: string }> };
  return page.Content.map((e) => e.TaxNumber);
}

describe('the table', () => {
  test('every point has its default first and its alternate among its answers', () => {
    for (const id of POINT_IDS) {
      const spec = BEHAVIOUR_POINTS[id];
      assert.ok((spec.answers as readonly string[]).includes(spec.alternate), id);
      assert.notEqual(spec.answers[0], spec.alternate, `${id}: the alternate differs from the default`);
    }
  });

  test('profiles pick the first or the alternate answer; a quirk overrides one point; a new profile drops quirks', () => {
    const b = new Behaviour();
    assert.equal(b.answerFor('badKeyStatus'), '401');
    b.change({ profile: 'alternate' });
    assert.equal(b.answerFor('badKeyStatus'), '403');
    assert.equal(b.answerFor('registryZipEncoding'), 'rawZip');
    b.change({ quirks: { registryZipEncoding: 'textBase64' } });
    assert.equal(b.answerFor('registryZipEncoding'), 'textBase64');
    assert.equal(b.answerFor('badKeyStatus'), '403', 'other points keep the profile');
    b.change({ quirks: { registryZipEncoding: null } });
    assert.equal(b.answerFor('registryZipEncoding'), 'rawZip', 'null removes the override');
    b.change({ quirks: { pageSizeLimit: 'ignore' } });
    b.change({ profile: 'default' });
    assert.equal(b.answerFor('pageSizeLimit'), 'cap100');
  });

  test('unknown points, unknown answers and unknown profiles are refused without changing anything', () => {
    const b = new Behaviour({ quirks: { badKeyStatus: '403' } });
    assert.throws(() => b.change({ quirks: { nosuch: 'x' } as never }), /unknown behaviour point nosuch/);
    assert.throws(() => b.change({ profile: 'other' as never }), /profile must be one of/);
    assert.throws(() => b.change({ profile: 'alternate', quirks: { badKeyStatus: '500' as never } }), /badKeyStatus answers one of: 401, 403/);
    assert.deepEqual(b.snapshot().overrides, { badKeyStatus: '403' });
    assert.equal(b.snapshot().profile, 'default');
  });

  test('parseQuirk: point=answer, or the point alone for its alternate', () => {
    assert.deepEqual(parseQuirk('registryLookupMissing=oddText'), ['registryLookupMissing', 'oddText']);
    assert.deepEqual(parseQuirk('registryLookupMissing'), ['registryLookupMissing', 'null']);
    assert.throws(() => parseQuirk('registryLookupMissing=204'), /answers one of/);
  });
});

describe('control endpoints', () => {
  test('GET /__sandbox/state reports the profile, every effective answer and the overrides', async () => {
    const s = await sandboxState(sb);
    assert.equal(s.behaviour.profile, 'default');
    assert.deepEqual(Object.keys(s.behaviour.quirks).sort(), [...POINT_IDS].sort());
    for (const id of POINT_IDS) assert.equal(s.behaviour.quirks[id], BEHAVIOUR_POINTS[id].answers[0], id);
    assert.deepEqual(s.behaviour.overrides, {});
    assert.equal(s.inFlight, 0);
  });

  test('POST /__sandbox/behaviour switches at run time; a bad body is a 400 that changes nothing', async () => {
    await setSandboxBehaviour(sb, { profile: 'alternate', quirks: { badKeyStatus: '401' } });
    let s = await sandboxState(sb);
    assert.equal(s.behaviour.profile, 'alternate');
    assert.equal(s.behaviour.quirks.badKeyStatus, '401');
    assert.equal(s.behaviour.quirks.registryZipEncoding, 'rawZip');
    assert.deepEqual(s.behaviour.overrides, { badKeyStatus: '401' });
    const bad = await fetch(`${sb.url}/__sandbox/behaviour`, { method: 'POST', body: JSON.stringify({ quirks: { badKeyStatus: 'teapot' } }) });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: string }).error, /badKeyStatus answers one of/);
    s = await sandboxState(sb);
    assert.equal(s.behaviour.quirks.badKeyStatus, '401');
    const reset = await fetch(`${sb.url}/__sandbox/behaviour`, { method: 'DELETE' });
    assert.equal(((await reset.json()) as { profile: string }).profile, 'default');
  });

  test('startSandbox({ behaviour }) starts with that profile and quirks', async () => {
    const other = await startTestSandbox({ customers: 5, registry: 5, behaviour: { profile: 'alternate', quirks: { badKeyStatus: '401' } } });
    try {
      const s = await sandboxState(other);
      assert.equal(s.behaviour.profile, 'alternate');
      assert.equal(s.behaviour.quirks.badKeyStatus, '401');
      assert.equal(s.behaviour.quirks.pageSizeLimit, 'cap50');
    } finally {
      await other.close();
    }
  });
});

describe('registryLookupMissing: GetGlobalCustomerInfo for a valid, unregistered number', () => {
  test('404 (default) with the platform error shape', async () => {
    const r = await api(sb, 'GET', `/general/GlobalCompany/GetGlobalCustomerInfo/${await unregisteredVkn()}`);
    assert.equal(r.status, 404);
    assert.equal((r.json as { Errors: Array<{ Code: number }> }).Errors[0].Code, 3010);
  });

  const cases: Array<[string, string, string | undefined]> = [
    ['emptyBody', '', undefined],
    ['null', 'null', 'application/json'],
    ['emptyObject', '{}', 'application/json'],
    ['oddText', 'Kayıt bulunamadı', 'text/plain'],
  ];
  for (const [answer, body, type] of cases) {
    test(`${answer}: 200 ${JSON.stringify(body)}`, async () => {
      sb.setBehaviour({ quirks: { registryLookupMissing: answer as never } });
      const r = await api(sb, 'GET', `/general/GlobalCompany/GetGlobalCustomerInfo/${await unregisteredVkn()}`);
      assert.equal(r.status, 200);
      assert.equal(r.text, body);
      if (type) assert.match(r.headers.get('content-type') ?? '', new RegExp(`^${type}`));
      else assert.equal(r.headers.get('content-type'), null);
    });
  }

  test('a registered number still answers its record under every answer', async () => {
    const [tn] = await registeredVkns(1);
    sb.setBehaviour({ quirks: { registryLookupMissing: 'null' } });
    const r = await api(sb, 'GET', `/general/GlobalCompany/GetGlobalCustomerInfo/${tn}`);
    assert.equal(r.status, 200);
    assert.equal((r.json as { TaxNumber: string }).TaxNumber, tn);
  });
});

describe('recordLookupMissing: GetCustomerInfo and Certificate/{SerialNumber} for an unknown value', () => {
  const paths = ['/general/Customers/GetCustomerInfo/1111111111', '/general/Company/Certificate/NO-SUCH-SERIAL'];
  for (const path of paths) {
    test(`${path}: 404 / empty 200 / 200 null`, async () => {
      const notFound = await api(sb, 'GET', path);
      assert.equal(notFound.status, 404);
      assert.ok(Array.isArray((notFound.json as { Errors: unknown[] }).Errors));
      sb.setBehaviour({ quirks: { recordLookupMissing: 'emptyBody' } });
      const empty = await api(sb, 'GET', path);
      assert.deepEqual([empty.status, empty.text], [200, '']);
      sb.setBehaviour({ quirks: { recordLookupMissing: 'null' } });
      const nul = await api(sb, 'GET', path);
      assert.deepEqual([nul.status, nul.text], [200, 'null']);
    });
  }
});

describe('bulkLookupMissing: bulk GetGlobalCustomerInfo with unregistered numbers', () => {
  async function bulk(): Promise<{ known: string[]; missing: string; body: Array<{ TaxNumber: string; Aliases: unknown[] } | null> }> {
    const known = await registeredVkns(2);
    const missing = await unregisteredVkn();
    const r = await api(sb, 'POST', '/general/GlobalCompany/GetGlobalCustomerInfo', [known[0], missing, known[1]]);
    assert.equal(r.status, 200);
    return { known, missing, body: r.json as never };
  }

  test('omit (default): only the registered numbers come back', async () => {
    const { known, body } = await bulk();
    assert.deepEqual(body.map((e) => e?.TaxNumber), known);
  });

  test('emptyAliases: the unregistered number is present with no aliases', async () => {
    sb.setBehaviour({ quirks: { bulkLookupMissing: 'emptyAliases' } });
    const { known, missing, body } = await bulk();
    assert.deepEqual(body.map((e) => e?.TaxNumber), [known[0], missing, known[1]]);
    assert.deepEqual(body[1]?.Aliases, []);
    assert.ok((body[0]?.Aliases.length ?? 0) > 0, 'a registered number keeps its aliases');
  });

  test('nullEntry: null stands in its place', async () => {
    sb.setBehaviour({ quirks: { bulkLookupMissing: 'nullEntry' } });
    const { known, body } = await bulk();
    assert.deepEqual(body.map((e) => (e === null ? null : e.TaxNumber)), [known[0], null, known[1]]);
  });
});

describe('badKeyStatus: a wrong key', () => {
  test('401 (default) or 403, both with the error shape and without the key; a missing key stays 401', async () => {
    const wrong = 'AB'.repeat(32);
    const a = await api(sb, 'GET', '/general/Company', undefined, wrong);
    assert.equal(a.status, 401);
    sb.setBehaviour({ quirks: { badKeyStatus: '403' } });
    const b = await api(sb, 'GET', '/general/Company', undefined, wrong);
    assert.equal(b.status, 403);
    assert.ok(Array.isArray((b.json as { Errors: unknown[] }).Errors));
    assert.ok(!b.text.includes(wrong));
    assert.equal((await api(sb, 'GET', '/general/Company', undefined, null)).status, 401);
    assert.equal((await api(sb, 'GET', '/general/Company')).status, 200, 'the right key still works');
  });
});

describe('pageSizeLimit: PageSize above the limit', () => {
  const lists = ['/general/Customers', '/general/GlobalCompany'];
  const expected: Array<['cap100' | 'cap50' | 'ignore', number, number]> = [
    // answer, page size used for PageSize=500, for PageSize=10
    ['cap100', 100, 10],
    ['cap50', 50, 10],
    ['ignore', 25, 25],
  ];
  for (const [answer, big, small] of expected) {
    test(`${answer}: PageSize=500 -> ${big}, PageSize=10 -> ${small}; the answer says so and pages follow it`, async () => {
      sb.setBehaviour({ quirks: { pageSizeLimit: answer } });
      for (const list of lists) {
        const r = (await api(sb, 'GET', `${list}?PageSize=500`)).json as { PageSize: number; TotalCount: number; TotalPages: number; Content: unknown[] };
        assert.equal(r.PageSize, big, list);
        assert.equal(r.Content.length, Math.min(big, r.TotalCount), list);
        assert.equal(r.TotalPages, Math.ceil(r.TotalCount / big), list);
        const s = (await api(sb, 'GET', `${list}?PageSize=10&Page=2`)).json as { PageSize: number; Page: number; Content: unknown[] };
        assert.deepEqual([s.PageSize, s.Page, s.Content.length], [small, 2, small], list);
      }
    });
  }
});

/** The entry names of a ZIP's central directory. */
async function entryNames(zip: Buffer): Promise<string[]> {
  const archive = await ZipArchive.open(zip);
  await archive.close();
  return archive.entries.map((e) => e.name);
}

describe('registryZipEncoding: the registry ZIP download', () => {
  const path = '/general/GlobalCompany/PK/Invoice';
  async function raw(): Promise<{ type: string; body: Buffer }> {
    const r = await fetch(sb.url + path, { headers: { Authorization: `Bearer ${sb.keys.full}` } });
    assert.equal(r.status, 200);
    return { type: r.headers.get('content-type') ?? '', body: Buffer.from(await r.arrayBuffer()) };
  }

  test('jsonBase64 (default), textBase64 and rawZip carry the same ZIP', async () => {
    const json = await raw();
    assert.match(json.type, /^application\/json/);
    const zip = Buffer.from(JSON.parse(json.body.toString('utf8')) as string, 'base64');
    assert.equal(zip.readUInt32LE(0), 0x04034b50, 'a ZIP local header');
    sb.setBehaviour({ quirks: { registryZipEncoding: 'textBase64' } });
    const text = await raw();
    assert.match(text.type, /^text\/plain/);
    assert.ok(!text.body.toString('latin1').startsWith('"'));
    assert.deepEqual(await entryNames(Buffer.from(text.body.toString('ascii'), 'base64')), await entryNames(zip));
    sb.setBehaviour({ quirks: { registryZipEncoding: 'rawZip' } });
    const bytes = await raw();
    assert.equal(bytes.type, 'application/zip');
    assert.equal(bytes.body.readUInt32LE(0), 0x04034b50);
    assert.deepEqual(await entryNames(bytes.body), await entryNames(zip));
  });
});

/** A fresh small sandbox for tests that change data, closed afterwards. */
async function withFresh(quirks: BehaviourSettings['quirks'], fn: (s: SandboxHandle) => Promise<void>): Promise<void> {
  const s = await startTestSandbox({ customers: 30, registry: 30, seed: 5, behaviour: { quirks } });
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

type State = Awaited<ReturnType<typeof sandboxState>> & {
  company: Record<string, unknown>;
  templates: Array<{ ID: number; Name: string; IsActive: boolean; IsDefault: boolean }>;
  series: Array<{ ID: number; IsActive: boolean; IsDefault: boolean }>;
  certificates: Array<{ ID: number; SerialNo: string }>;
  counts: { customers: number };
};

/** The same number with its check digit changed. */
function badChecksum(valid: string): string {
  return valid.slice(0, -1) + String((Number(valid.slice(-1)) + 1) % 10);
}

describe('customerBatchBadRow: POST /Customers with a bad row', () => {
  const batch = [
    { Name: 'İyi Bir A.Ş.', TaxNumber: completeVkn('555000111') },
    { Name: 'Kötü Sağlama', TaxNumber: badChecksum(completeVkn('123456789')) },
    { Name: 'İyi İki Ltd.', TaxNumber: completeVkn('555000222') },
  ];
  for (const [answer, stored] of [['rejectAll', 0], ['createGood', 2]] as const) {
    test(`${answer}: 422 naming index 1; ${stored} good rows stored`, async () => {
      await withFresh({ customerBatchBadRow: answer, customerBatchStatus: '422' }, async (s) => {
        const before = (await sandboxState(s) as State).counts.customers;
        const r = await api(s, 'POST', '/general/Customers', batch);
        assert.equal(r.status, 422);
        const errors = (r.json as { Errors: Array<{ Detail: string }> }).Errors;
        assert.deepEqual(errors.map((e) => e.Detail.split(',')[0]), ['index 1']);
        assert.equal((await sandboxState(s) as State).counts.customers, before + stored);
        const found = await api(s, 'GET', `/general/Customers/GetCustomerInfo/${batch[2].TaxNumber}`);
        assert.equal(found.status, stored ? 200 : 404);
      });
    });
  }
});

describe('booleanAnswer: operations answering a boolean', () => {
  test('false: answers false and changes nothing; bad input still gets its error; true (default) changes', async () => {
    await withFresh({ booleanAnswer: 'false' }, async (s) => {
      const before = (await sandboxState(s)) as State;
      const cert = before.certificates[0];
      const del = await api(s, 'DELETE', `/general/Company/Certificate/${cert.ID}`);
      assert.deepEqual([del.status, del.json], [200, false]);
      const cust = await api(s, 'DELETE', '/general/Customers/1');
      assert.deepEqual([cust.status, cust.json], [200, false]);
      const tpl = await api(s, 'PUT', '/ebill/Templates', { ID: 2, IsActive: true, IsDefault: true });
      assert.deepEqual([tpl.status, tpl.json], [200, false]);
      assert.equal((await api(s, 'DELETE', '/general/Company/Certificate/99999')).status, 404, 'a missing record is still a 404');
      const after = (await sandboxState(s)) as State;
      assert.deepEqual(after.certificates, before.certificates);
      assert.deepEqual(after.templates, before.templates);
      assert.equal(after.counts.customers, before.counts.customers);
      assert.equal((await api(s, 'GET', '/general/Customers/1')).status, 200);
      s.setBehaviour({ quirks: { booleanAnswer: 'true' } });
      assert.equal((await api(s, 'DELETE', '/general/Customers/1')).json, true);
      assert.equal((await api(s, 'GET', '/general/Customers/1')).status, 404);
    });
  });
});

describe('companyPutOmitted: PUT /Company with only some fields', () => {
  test('keep (default) leaves the others; reset empties them and sets the first PaymentMeansCode', async () => {
    await withFresh({}, async (s) => {
      await api(s, 'PUT', '/general/Company', { City: 'İzmir', Email: 'a@b.com.tr', PaymentMeansCode: 'HAVALE_EFT' });
      const kept = (await api(s, 'PUT', '/general/Company', { City: 'Ankara' })).json as Record<string, unknown>;
      assert.deepEqual([kept.City, kept.Email, kept.PaymentMeansCode], ['Ankara', 'a@b.com.tr', 'HAVALE_EFT']);
      s.setBehaviour({ quirks: { companyPutOmitted: 'reset' } });
      const reset = (await api(s, 'PUT', '/general/Company', { City: 'Bursa' })).json as Record<string, unknown>;
      assert.deepEqual([reset.City, reset.Email, reset.PaymentMeansCode, reset.Address], ['Bursa', '', 'ODEMETIPIMUHTELIF', '']);
      assert.equal(reset.Name, kept.Name, 'Name is not updatable either way');
      assert.deepEqual(((await sandboxState(s)) as State).company, reset);
    });
  });
});

describe('templatePutOmitted: PUT /ebill/Templates and /evoucher/Series with only the changed fields', () => {
  test('keep: the omitted flag stays', async () => {
    await withFresh({ templatePutOmitted: 'keep' }, async (s) => {
      assert.equal((await api(s, 'PUT', '/ebill/Templates', { ID: 2, IsDefault: true })).json, true);
      const t = ((await sandboxState(s)) as State).templates.find((x) => x.ID === 2);
      assert.deepEqual([t?.IsActive, t?.IsDefault], [true, true]);
    });
  });

  test('reset: an omitted IsActive reads false, so making a template default alone is refused; naming both works', async () => {
    await withFresh({ templatePutOmitted: 'reset' }, async (s) => {
      const r = await api(s, 'PUT', '/ebill/Templates', { ID: 2, IsDefault: true });
      assert.equal(r.status, 422);
      assert.match((r.json as { Errors: Array<{ Description: string }> }).Errors[0].Description, /inactive template cannot be the default/);
      assert.equal((await api(s, 'PUT', '/ebill/Templates', { ID: 2, IsActive: true, IsDefault: true })).json, true);
      const name = (await api(s, 'PUT', '/ebill/Templates', { ID: 3, Name: 'Yeni Ad' })).status;
      assert.equal(name, 200);
      const series = await api(s, 'PUT', '/evoucher/Series', { ID: 2, IsActive: true });
      assert.equal(series.json, true);
      const state = (await sandboxState(s)) as State;
      assert.deepEqual(state.series.find((x) => x.ID === 2), { ID: 2, Name: 'SMM', IsActive: true, IsDefault: false });
      assert.equal(state.templates.find((x) => x.ID === 3)?.IsActive, false);
      assert.equal(state.templates.find((x) => x.ID === 3)?.Name, 'Yeni Ad');
    });
  });
});

describe('sortColumns: GET /Customers?SortColumn=', () => {
  test('anyField (default) sorts by City; fixedList answers 400 with the error shape naming the allowed ones', async () => {
    const r = await api(sb, 'GET', '/general/Customers?SortColumn=City&PageSize=100');
    assert.equal(r.status, 200);
    const cities = (r.json as { Content: Array<{ City: string }> }).Content.map((c) => c.City);
    assert.deepEqual(cities, [...cities].sort(new Intl.Collator('tr', { sensitivity: 'base' }).compare));
    sb.setBehaviour({ quirks: { sortColumns: 'fixedList' } });
    const bad = await api(sb, 'GET', '/general/Customers?SortColumn=City');
    assert.equal(bad.status, 400);
    assert.match((bad.json as { Errors: Array<{ Detail: string }> }).Errors[0].Detail, /SortColumn must be one of: Name, ID\./);
    assert.equal((await api(sb, 'GET', '/general/Customers?SortColumn=Name&SortType=DESC')).status, 200);
  });
});

describe('encodedSlash: %2F in a path value', () => {
  test('decoded (default) / keptEncoded / notFound (404)', async () => {
    await withFresh({}, async (s) => {
      const serial = 'AB/12';
      assert.equal((await api(s, 'POST', '/general/Company/Certificate', { SerialNo: serial, Type: 'EIMZA' })).json, true);
      const path = `/general/Company/Certificate/${encodeURIComponent(serial)}`;
      assert.match(path, /%2F/);
      const decoded = await api(s, 'GET', path);
      assert.deepEqual([decoded.status, (decoded.json as { SerialNo: string }).SerialNo], [200, serial]);
      s.setBehaviour({ quirks: { encodedSlash: 'keptEncoded' } });
      const kept = await api(s, 'GET', path);
      assert.equal(kept.status, 404);
      assert.match((kept.json as { Errors: Array<{ Detail: string }> }).Errors[0].Detail, /SerialNumber AB%2F12/);
      s.setBehaviour({ quirks: { encodedSlash: 'notFound' } });
      const none = await api(s, 'GET', path);
      assert.equal(none.status, 404);
      assert.equal((none.json as { Errors: Array<{ Code: number }> }).Errors[0].Code, 3030, 'no route, not a missing record');
      assert.equal((await api(s, 'GET', '/general/Company/Certificate')).status, 200, 'paths without %2F are unaffected');
    });
  });
});

describe('operations: what the older export lacks', () => {
  test('the marked routes match the export: every route not in it, and only those, outside /ebill and /evoucher', async () => {
    const { ROUTES: routes } = await import('../../../src/sandbox/routes');
    const fs = await import('node:fs');
    const path = await import('node:path');
    const exportDoc = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../../test/fixtures/general.swagger.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const inExport = new Set(Object.entries(exportDoc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.toLowerCase()}`)));
    const lacking = routes.filter((r) => r.path.startsWith('/general/') && !inExport.has(`${r.method} ${r.path.toLowerCase()}`));
    assert.deepEqual(routes.filter((r) => r.notInOlderExport).map((r) => r.name).sort(), lacking.map((r) => r.name).sort());
  });

  test('olderExport: those answer 404 with an empty body before the key is checked; the others still answer', async () => {
    sb.setBehaviour({ quirks: { operations: 'olderExport' } });
    for (const [method, path] of [['GET', '/general/Customers/1'], ['GET', '/general/CompanyDocuments'], ['GET', '/general/InteractiveTaxOffice'], ['POST', '/general/Mailing/Email/Setting']]) {
      const r = await api(sb, method, path, method === 'POST' ? { IsActive: true } : undefined, null);
      assert.deepEqual([r.status, r.text], [404, ''], `${method} ${path}`);
    }
    assert.equal((await api(sb, 'GET', '/general/Customers?PageSize=1')).status, 200);
    sb.setBehaviour({ quirks: { operations: 'all' } });
    assert.equal((await api(sb, 'GET', '/general/Customers/1')).status, 200);
  });
});

describe('nullableFields: nulls in nullable fields and odd paging numbers', () => {
  test('filled (default) has no nulls; nulls: every third record, null or missing totals, null empty Content', async () => {
    const filled = (await api(sb, 'GET', '/general/Customers?PageSize=6')).json as { TotalCount: number; TotalPages: number; Content: Array<Record<string, unknown>> };
    assert.ok(filled.Content.every((c) => c.Name !== null && c.TaxNumber !== null));
    sb.setBehaviour({ quirks: { nullableFields: 'nulls' } });
    const p1 = (await api(sb, 'GET', '/general/Customers?PageSize=6')).json as Record<string, unknown> & { Content: Array<Record<string, unknown>> };
    assert.equal(p1.TotalCount, null);
    assert.ok(!('TotalPages' in p1));
    assert.deepEqual(p1.Content.map((c) => c.Name === null), [false, true, false, false, true, false]);
    assert.deepEqual(p1.Content.map((c) => c.ID), filled.Content.map((c) => c.ID), 'same records');
    assert.equal(p1.Content[1].TaxNumber, null);
    const p2 = (await api(sb, 'GET', '/general/Customers?PageSize=6&Page=2')).json as Record<string, unknown>;
    assert.deepEqual([p2.TotalCount, p2.TotalPages], [-1, -1]);
    const beyond = (await api(sb, 'GET', '/general/Customers?PageSize=100&Page=50')).json as Record<string, unknown>;
    assert.equal(beyond.Content, null);
    const ids = (await api(sb, 'GET', '/general/CompanyIdentification')).json as Array<{ Value: string | null }>;
    if (ids.length > 1) assert.equal(ids[1].Value, null);
    sb.setBehaviour({ quirks: { nullableFields: 'filled' } });
    const again = (await api(sb, 'GET', '/general/Customers?PageSize=6')).json as typeof filled;
    assert.deepEqual(again, filled, 'the stored records were not changed');
  });
});

describe('points found in review', () => {
  test('pageBeyondEnd: empty Content (default) / the last page / 404', async () => {
    const total = ((await api(sb, 'GET', '/general/Customers?PageSize=50')).json as { TotalCount: number; TotalPages: number }).TotalPages;
    const past = `/general/Customers?PageSize=50&Page=${total + 3}`;
    const empty = (await api(sb, 'GET', past)).json as { Page: number; Content: unknown[] };
    assert.deepEqual([empty.Page, empty.Content.length], [total + 3, 0]);
    sb.setBehaviour({ quirks: { pageBeyondEnd: 'lastPage' } });
    const last = (await api(sb, 'GET', past)).json as { Page: number; Content: unknown[] };
    const expectedLast = (await api(sb, 'GET', `/general/Customers?PageSize=50&Page=${total}`)).json as { Content: unknown[] };
    assert.equal(last.Page, total);
    assert.deepEqual(last.Content, expectedLast.Content);
    const reg = (await api(sb, 'GET', '/general/GlobalCompany?PageSize=50&Page=9')).json as { Page: number; Content: unknown[] };
    assert.equal(reg.Page, 2);
    assert.equal(reg.Content.length, 10);
    sb.setBehaviour({ quirks: { pageBeyondEnd: 'notFound' } });
    assert.equal((await api(sb, 'GET', past)).status, 404);
    assert.equal((await api(sb, 'GET', '/general/Customers?PageSize=50&Page=1')).status, 200);
  });

  for (const [answer, status, text] of [['countText', 200, '"2 customer(s) created."'], ['true', 200, 'true'], ['emptyBody', 200, '']] as const) {
    test(`customerCreateAnswer ${answer}: POST /Customers answers ${text || 'nothing'} and stores the rows`, async () => {
      await withFresh({ customerCreateAnswer: answer }, async (s) => {
        const r = await api(s, 'POST', '/general/Customers', [
          { Name: 'Bir', TaxNumber: completeVkn('444000111') },
          { Name: 'İki', TaxNumber: completeVkn('444000222') },
        ]);
        assert.deepEqual([r.status, r.text], [status, text]);
        assert.equal((await api(s, 'GET', `/general/Customers/GetCustomerInfo/${completeVkn('444000222')}`)).status, 200);
      });
    });
  }

  test('dateFormat: without offset (default) / with fractions and +03:00', async () => {
    const local = (await api(sb, 'GET', '/general/Alerts')).json as Array<{ CreationDate: string }>;
    assert.match(local[0].CreationDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    sb.setBehaviour({ quirks: { dateFormat: 'offset' } });
    const offset = (await api(sb, 'GET', '/general/Alerts')).json as Array<{ CreationDate: string }>;
    assert.equal(offset[0].CreationDate, `${local[0].CreationDate}.000+03:00`);
    assert.equal(Date.parse(offset[0].CreationDate), Date.parse(`${local[0].CreationDate}+03:00`));
  });

  test('searchNoMatch: [] (default) / 404, for customers and the registry; a match is unaffected', async () => {
    for (const path of ['/general/Customers/Search/zzqqxxyy', '/general/GlobalCompany/Search/zzqqxxyy']) {
      assert.deepEqual((await api(sb, 'GET', path)).json, [], path);
    }
    sb.setBehaviour({ quirks: { searchNoMatch: 'notFound' } });
    for (const path of ['/general/Customers/Search/zzqqxxyy', '/general/GlobalCompany/Search/zzqqxxyy']) {
      assert.equal((await api(sb, 'GET', path)).status, 404, path);
    }
    const name = ((await api(sb, 'GET', '/general/Customers?PageSize=1')).json as { Content: Array<{ Name: string }> }).Content[0].Name;
    assert.equal((await api(sb, 'GET', `/general/Customers/Search/${encodeURIComponent(name.split(' ')[0])}`)).status, 200);
  });
});

describe('duplicateStatus: a customer tax number that exists already', () => {
  test('422 (default) / 409 with code 1015; a mix with other problems stays 422', async () => {
    await withFresh({ customerBatchStatus: '422' }, async (s) => {
      const existing = ((await api(s, 'GET', '/general/Customers?PageSize=2')).json as { Content: Array<{ ID: number; TaxNumber: string }> }).Content;
      const dup = [{ Name: 'Kopya', TaxNumber: existing[0].TaxNumber }];
      const a = await api(s, 'POST', '/general/Customers', dup);
      assert.deepEqual([a.status, (a.json as { Errors: Array<{ Code: number }> }).Errors[0].Code], [422, 2004]);
      s.setBehaviour({ quirks: { duplicateStatus: '409' } });
      const b = await api(s, 'POST', '/general/Customers', dup);
      assert.deepEqual([b.status, (b.json as { Errors: Array<{ Code: number }> }).Errors[0].Code], [409, 1015]);
      const put = await api(s, 'PUT', '/general/Customers', { ID: existing[1].ID, Name: 'Kopya', TaxNumber: existing[0].TaxNumber });
      assert.equal(put.status, 409);
      const mixed = await api(s, 'POST', '/general/Customers', [...dup, { Name: '', TaxNumber: completeVkn('700900100') }]);
      assert.equal(mixed.status, 422, 'a missing name is not a duplicate');
    });
  });

  test('accept (in neither profile): a second customer with the tax number is stored; the look-up finds the first; a delete leaves the other', async () => {
    await withFresh({}, async (s) => {
      s.setBehaviour({ quirks: { duplicateStatus: 'accept' } });
      const first = ((await api(s, 'GET', '/general/Customers?PageSize=2')).json as { Content: Array<{ ID: number; TaxNumber: string }> }).Content;
      const tn = first[0].TaxNumber;
      const count = async () => ((await api(s, 'GET', '/__sandbox/customers/count')).json as { count: number }).count;
      const before = await count();
      assert.equal((await api(s, 'POST', '/general/Customers', [{ Name: 'Kopya 1', TaxNumber: tn }, { Name: 'Kopya 2', TaxNumber: tn }])).status, 200);
      assert.equal(await count(), before + 2, 'both copies stored');
      const same = ((await api(s, 'GET', `/general/Customers?PageSize=100&Search=${tn}`)).json as { Content: Array<{ ID: number; TaxNumber: string }> }).Content.filter((c) => c.TaxNumber === tn);
      assert.equal(same.length, 3);
      assert.equal(((await api(s, 'GET', `/general/Customers/GetCustomerInfo/${tn}`)).json as { ID: number }).ID, first[0].ID);
      assert.equal((await api(s, 'PUT', '/general/Customers', { ID: first[1].ID, Name: 'Kopya 3', TaxNumber: tn })).status, 200, 'PUT accepts it too');
      assert.equal((await api(s, 'DELETE', `/general/Customers/${first[0].ID}`)).status, 200);
      assert.equal(((await api(s, 'GET', `/general/Customers/GetCustomerInfo/${tn}`)).json as { ID: number }).ID, first[1].ID, 'the look-up finds another copy');
    });
  });
});
