// The generated registry (tax number <-> index, run-time changes) and the registry ZIP download:
// base64 in a JSON string, a real ZIP (opened with jszip), GİB-shaped XML with exactly the
// expected users and aliases.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTaxId, completeVkn } from '../../../src/domain/taxId';
import type { AliasType, GlobalUserType } from '../../../src/api/types';
import { Registry } from '../../../src/sandbox/registry';
import type JSZipType from 'jszip';
import { api, startTestSandbox, type SandboxHandle } from '../../support/sandbox';

const SEED = 21;
const SIZE = 3000;

describe('generated registry', () => {
  test('every entry has a valid tax number that maps back to its index; others map to -1', () => {
    const r = new Registry(SEED, SIZE);
    const seen = new Set<string>();
    for (let i = 0; i < SIZE; i++) {
      const tn = r.taxNumberAt(i);
      assert.ok(checkTaxId(tn).valid, tn);
      assert.equal(r.indexOf(tn), i);
      seen.add(tn);
    }
    assert.equal(seen.size, SIZE);
    let outside = 0;
    for (let k = 0; k < 2000; k++) {
      const tn = completeVkn(String(100_000_000 + k * 4_999_1).slice(0, 9));
      if (!seen.has(tn)) {
        assert.equal(r.indexOf(tn), -1, tn);
        outside++;
      }
    }
    assert.ok(outside > 1900);
    assert.equal(r.indexOf(new Registry(SEED, SIZE * 2).taxNumberAt(SIZE + 5)), -1, 'indexes past the size are not registered');
  });

  test('has persons and companies, active and deleted aliases, despatch aliases and titles needing XML escapes', () => {
    const r = new Registry(SEED, SIZE);
    const entries = [...r.entries()];
    assert.ok(entries.some((e) => e.TaxNumber.length === 11) && entries.some((e) => e.TaxNumber.length === 10));
    const aliases = entries.flatMap((e) => e.aliases);
    assert.ok(aliases.some((a) => a.DeletionTime) && aliases.some((a) => !a.DeletionTime));
    assert.ok(aliases.some((a) => a.document === 'DespatchAdvice'));
    assert.ok(entries.some((e) => /[&<"']/.test(e.Title)));
  });
});

type JsZipClass = typeof JSZipType;

/** The vendored jszip; the lazy bundle may wrap its default export once more. */
async function loadJsZip(): Promise<JsZipClass> {
  let mod = (await import('jszip')) as unknown as { default?: unknown; loadAsync?: unknown };
  while (typeof mod.loadAsync !== 'function' && mod.default) mod = mod.default as typeof mod;
  return mod as unknown as JsZipClass;
}

/** Users of the XML as plain data (entities decoded). */
function parseUsers(xml: string) {
  const decode = (s: string) => s.replace(/&(lt|gt|quot|apos|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);
  const field = (block: string, tag: string) => {
    const m = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(block);
    return m ? decode(m[1]) : undefined;
  };
  return [...xml.matchAll(/<User>([\s\S]*?)<\/User>/g)].map(([, u]) => ({
    Identifier: field(u, 'Identifier')!,
    Title: field(u, 'Title')!,
    documentTypes: [...u.matchAll(/<Document type="([^"]+)">/g)].map((m) => m[1]),
    aliases: [...u.matchAll(/<Alias>([\s\S]*?)<\/Alias>/g)].map(([, a]) => ({ Name: field(a, 'Name')!, CreationTime: field(a, 'CreationTime')!, DeletionTime: field(a, 'DeletionTime') ?? null })),
  }));
}

describe('registry ZIP download', () => {
  let sb: SandboxHandle;
  before(async () => {
    sb = await startTestSandbox({ customers: 10, registry: SIZE, seed: SEED });
  });
  after(() => sb.close());

  async function download(alias: AliasType, doc: GlobalUserType) {
    const r = await api(sb, 'GET', `/general/GlobalCompany/${alias}/${doc}`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /json/);
    assert.equal(typeof r.json, 'string');
    const zipBytes = Buffer.from(r.json as string, 'base64');
    const JSZip = await loadJsZip();
    const zip = await JSZip.loadAsync(zipBytes);
    const names = Object.keys(zip.files);
    assert.equal(names.length, 1);
    assert.match(names[0], /\d{8}\.xml$/, 'a dated entry name');
    const xml = await zip.files[names[0]].async('string');
    assert.ok(xml.startsWith('<?xml') && xml.includes('<UserList>') && xml.trimEnd().endsWith('</UserList>'));
    return parseUsers(xml);
  }

  for (const [alias, doc] of [['PK', 'Invoice'], ['GB', 'Invoice'], ['PK', 'DespatchAdvice'], ['GB', 'DespatchAdvice']] as const) {
    test(`${alias}/${doc} holds exactly the registry's ${alias} aliases of ${doc} documents`, async () => {
      const users = await download(alias, doc);
      const expected = [...new Registry(SEED, SIZE).entries()]
        .map((e) => ({ Identifier: e.TaxNumber, Title: e.Title, documentTypes: [doc], aliases: e.aliases.filter((a) => a.kind === alias && a.document === doc).map(({ Name, CreationTime, DeletionTime }) => ({ Name, CreationTime, DeletionTime })) }))
        .filter((u) => u.aliases.length > 0);
      assert.ok(expected.length > 100);
      assert.deepEqual(users, expected);
    });
  }

  test('PK and GB lists together hold the same aliases as the JSON lookup', async () => {
    const [pk, gb] = [await download('PK', 'Invoice'), await download('GB', 'Invoice')];
    const fromZip = new Map<string, string[]>();
    for (const u of [...pk, ...gb]) fromZip.set(u.Identifier, [...(fromZip.get(u.Identifier) ?? []), ...u.aliases.map((a) => a.Name)]);
    const page = (await api(sb, 'GET', '/general/GlobalCompany?PageSize=100&Page=3')).json as { Content: Array<{ TaxNumber: string }> };
    const infos = (await api(sb, 'POST', '/general/GlobalCompany/GetGlobalCustomerInfo?globalUserType=Invoice', page.Content.map((c) => c.TaxNumber))).json as Array<{ TaxNumber: string; Aliases: Array<{ Name: string }> }>;
    assert.equal(infos.length, 100);
    for (const info of infos) assert.deepEqual([...(fromZip.get(info.TaxNumber) ?? [])].sort(), info.Aliases.map((a) => a.Name).sort(), info.TaxNumber);
  });

  test('a title with XML special characters round-trips', async () => {
    const users = await download('PK', 'Invoice');
    const tricky = users.filter((u) => /[&<"']/.test(u.Title));
    assert.ok(tricky.length > 0);
    for (const u of tricky) {
      const info = (await api(sb, 'GET', `/general/GlobalCompany/GetGlobalCustomerInfo/${u.Identifier}`)).json as { Title: string };
      assert.equal(u.Title, info.Title);
    }
  });
});

describe('registry ZIP download, lists kept once built (--keep-lists, what the benchmarks use)', () => {
  let kept: SandboxHandle;
  let fresh: SandboxHandle;
  before(async () => {
    kept = await startTestSandbox({ customers: 10, registry: SIZE, seed: SEED, keepLists: true });
    fresh = await startTestSandbox({ customers: 10, registry: SIZE, seed: SEED });
  });
  after(async () => {
    await kept.close();
    await fresh.close();
  });

  const zipOf = async (sb: SandboxHandle, path = '/general/GlobalCompany/PK/Invoice') => Buffer.from((await api(sb, 'GET', path)).json as string, 'base64');
  async function users(zipBytes: Buffer) {
    const zip = await (await loadJsZip()).loadAsync(zipBytes);
    return parseUsers(await zip.files[Object.keys(zip.files)[0]].async('string'));
  }

  test('a kept list holds what a list generated on the fly holds, and is served again byte for byte', async () => {
    const first = await zipOf(kept);
    assert.deepEqual(await users(first), await users(await zipOf(fresh)));
    assert.ok((await zipOf(kept)).equals(first), 'the second download is the kept ZIP');
    assert.notDeepEqual(await users(await zipOf(kept, '/general/GlobalCompany/GB/Invoice')), await users(first), 'each list is kept apart');
  });

  test('a registry change makes the next download build the list again, with the change', async () => {
    const before = await zipOf(kept);
    const taxNumber = completeVkn('135792468');
    const registered = await fetch(`${kept.url}/__sandbox/registry`, { method: 'POST', body: JSON.stringify({ action: 'register', TaxNumber: taxNumber, Title: 'Yeni Kayıt A.Ş.' }) });
    assert.equal(registered.status, 200);
    const after = await users(await zipOf(kept));
    assert.equal((await users(before)).some((u) => u.Identifier === taxNumber), false);
    assert.equal(after.find((u) => u.Identifier === taxNumber)?.Title, 'Yeni Kayıt A.Ş.');
  });
});

describe('registry ZIP download, interrupted', () => {
  test('a client that hangs up mid-download stops the stream and the server keeps serving', async () => {
    const sb = await startTestSandbox({ customers: 10, registry: 400_000, seed: 2 });
    try {
      const controller = new AbortController();
      const res = await fetch(`${sb.url}/general/GlobalCompany/PK/Invoice`, { headers: { Authorization: `Bearer ${sb.keys.full}` }, signal: controller.signal });
      const reader = res.body!.getReader();
      let head = '';
      while (head.length < 6) head += Buffer.from((await reader.read()).value!).toString('latin1');
      assert.equal(head.slice(0, 6), '"UEsDB');
      controller.abort();
      await assert.rejects(reader.read());
      const after = await api(sb, 'GET', '/general/Alerts');
      assert.equal(after.status, 200);
      // The server notices the hang-up asynchronously.
      let log;
      for (let i = 0; i < 100 && !log; i++) {
        log = sb.requestLog().find((e) => e.path === '/general/GlobalCompany/PK/Invoice');
        if (!log) await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(log?.status, 0, 'the download is logged as cut off');
    } finally {
      await sb.close();
    }
  });
});

describe('registry changes at run time (control endpoint)', () => {
  test('deregister, register and change an alias are visible in lookups and lists', async () => {
    const sb = await startTestSandbox({ customers: 10, registry: 50, seed: 4 });
    try {
      const control = (body: unknown) => fetch(`${sb.url}/__sandbox/registry`, { method: 'POST', body: JSON.stringify(body) });
      const page = (await api(sb, 'GET', '/general/GlobalCompany?PageSize=100')).json as { TotalCount: number; Content: Array<{ TaxNumber: string }> };
      const victim = page.Content[10].TaxNumber;
      assert.equal((await control({ action: 'deregister', TaxNumber: victim })).status, 200);
      assert.deepEqual((await api(sb, 'GET', `/general/GlobalCompany/Check/TaxNumber/${victim}`)).json, []);
      const after = (await api(sb, 'GET', '/general/GlobalCompany?PageSize=100')).json as { TotalCount: number; Content: Array<{ TaxNumber: string }> };
      assert.equal(after.TotalCount, 49);
      assert.deepEqual(after.Content.map((c) => c.TaxNumber), page.Content.map((c) => c.TaxNumber).filter((t) => t !== victim));

      const newcomer = completeVkn('321654987');
      assert.equal((await control({ action: 'register', TaxNumber: newcomer, Title: 'Yeni & Taze A.Ş.' })).status, 200);
      const info = (await api(sb, 'GET', `/general/GlobalCompany/GetGlobalCustomerInfo/${newcomer}`)).json as { Title: string };
      assert.equal(info.Title, 'Yeni & Taze A.Ş.');

      const changed = page.Content[0].TaxNumber;
      assert.equal((await control({ action: 'changeAlias', TaxNumber: changed, AliasType: 'PK', Alias: 'urn:mail:yenipk@ornek.com.tr' })).status, 200);
      const rows = (await api(sb, 'GET', `/general/GlobalCompany/Check/TaxNumber/${changed}`)).json as Array<{ Name: string }>;
      assert.ok(rows.some((r) => r.Name === 'urn:mail:yenipk@ornek.com.tr'));
      const full = (await api(sb, 'GET', `/general/GlobalCompany/GetGlobalCustomerInfo/${changed}`)).json as { Aliases: Array<{ Name: string; DeletionTime: string | null }> };
      const activePk = full.Aliases.filter((a) => !a.DeletionTime && a.Name.includes('pk@'));
      assert.deepEqual(activePk.map((a) => a.Name), ['urn:mail:yenipk@ornek.com.tr'], 'the old PK alias got a deletion time');
    } finally {
      await sb.close();
    }
  });
});
