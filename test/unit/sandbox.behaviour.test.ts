// The behaviour table (src/sandbox/behaviour.ts): every spec-silent point answered each way, over
// real HTTP; the profiles, quirks, run-time switching and what GET /__sandbox/state reports.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BEHAVIOUR_POINTS, Behaviour, parseQuirk, POINT_IDS } from '../../src/sandbox/behaviour';
import { completeVkn } from '../../src/domain/taxId';
import { storedEntryNames } from '../../src/domain/registryZip';
import { api, sandboxState, setSandboxBehaviour, startTestSandbox, type SandboxHandle } from '../support/sandbox';

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
    assert.deepEqual(storedEntryNames(Buffer.from(text.body.toString('ascii'), 'base64')), storedEntryNames(zip));
    sb.setBehaviour({ quirks: { registryZipEncoding: 'rawZip' } });
    const bytes = await raw();
    assert.equal(bytes.type, 'application/zip');
    assert.equal(bytes.body.readUInt32LE(0), 0x04034b50);
    assert.deepEqual(storedEntryNames(bytes.body), storedEntryNames(zip));
  });
});
