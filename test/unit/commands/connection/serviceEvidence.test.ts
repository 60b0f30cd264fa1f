// Check Connection on the points public code showed about the real service, over real HTTP against
// the sandbox: how an account with nothing to list answers (emptyList: 404 with the service's error, [],
// or a bare 404), whether each list operation is there at all (a bare 404 is told apart by the same
// GET with a made-up key), and that all of it stays read-only and keeps the real key to itself.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FetchLike } from '../../../../src/api/http';
import { runChecks, type CheckRun } from '../../../../src/commands/connection/probes';
import { buildReport } from '../../../../src/commands/connection/report';
import type { Translator } from '../../../../src/domain/taxIdWording';
import { readListFindings, readVerdicts, type RowVerdict } from '../../../../src/commands/connection/verdicts';
import { emptyAccount, startTestSandbox, type SandboxHandle } from '../../../support/sandbox';

const english: Translator = { t: (message, ...args) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])) };
const KEY = 'EVIDENCE0123456789ABCDEFEVIDENCE0123456789ABCDEFEVIDENCE01234567';

interface Exchange {
  method: string;
  path: string;
  authorization: string;
}

async function nodeFetch(): Promise<FetchLike> {
  const mod = (await import('node-fetch')) as unknown as { default: FetchLike | { default: FetchLike } };
  return typeof mod.default === 'function' ? mod.default : mod.default.default;
}

/** Records every exchange; `gateway` answers 401 to any other key before the sandbox sees it (a proxy that checks keys before routing). */
async function recording(into: Exchange[], gateway = false): Promise<FetchLike> {
  const fetch = await nodeFetch();
  return async (url, init) => {
    const authorization = init.headers.Authorization ?? '';
    into.push({ method: init.method, path: new URL(url).pathname, authorization });
    if (gateway && authorization !== `Bearer ${KEY}`) {
      return { status: 401, headers: { get: () => 'text/plain' }, text: async () => 'Unauthorized', body: (async function* () { yield Buffer.from('Unauthorized'); })() };
    }
    return fetch(url, init);
  };
}

async function check(sb: SandboxHandle, exchanges: Exchange[] = [], gateway = false): Promise<{ run: CheckRun; verdicts: RowVerdict[]; report: string }> {
  const run = await runChecks({ baseUrl: sb.url, apiKey: KEY, timeoutMs: 10_000, fetch: await recording(exchanges, gateway) }, { signal: new AbortController().signal });
  const verdicts = readVerdicts(run);
  const report = buildReport({ environmentLabel: 'Sandbox', origin: sb.url, finishedAt: 'now', extensionVersion: '0', vscodeVersion: 'test' }, run.results, verdicts, english, readListFindings(run));
  return { run, verdicts, report };
}

function row(verdicts: RowVerdict[], point: string): string {
  const v = verdicts.find((x) => x.point === point)!.verdict;
  return v.kind === 'answer' ? v.answer : v.kind === 'differs' ? 'differs' : `none:${v.reason}`;
}

describe('an account with records: nothing to see about empty lists, and no extra call', () => {
  let sb: SandboxHandle;
  before(async () => {
    sb = await startTestSandbox({ key: KEY, customers: 20, registry: 60, seed: 51 });
  });
  after(() => sb.close());

  test('emptyList is "not observed" (every list has records), each list is offered, one call with a made-up key', async () => {
    const exchanges: Exchange[] = [];
    const { run, verdicts, report } = await check(sb, exchanges);
    assert.equal(row(verdicts, 'emptyList'), 'none:noEmptyList');
    assert.deepEqual(readListFindings(run).map((f) => [f.operation, f.availability, f.emptyAnswer]), [
      ['certificates.list', 'offered', undefined],
      ['identifications.list', 'offered', undefined],
      ['documents.list', 'offered', undefined],
      ['customers.list', 'offered', undefined],
    ]);
    assert.equal(exchanges.filter((e) => e.authorization !== `Bearer ${KEY}`).length, 1, 'only the wrong-key call of badKeyStatus');
    assert.match(report, /\| `GET \/general\/Company\/Certificate` \| offered, with records \|/);
  });
});

describe('an account with nothing to list', () => {
  let sb: SandboxHandle;
  before(async () => {
    sb = await startTestSandbox({ key: KEY, customers: 20, registry: 60, seed: 52 });
    await emptyAccount(sb);
  });
  after(() => sb.close());

  for (const answer of ['notFound', 'emptyArray', 'bareNotFound'] as const) {
    test(`emptyList=${answer}: emptyList says ${answer}, every list is offered, no other row differs`, async () => {
      sb.setBehaviour({ profile: 'default', quirks: { emptyList: answer } });
      const exchanges: Exchange[] = [];
      const { run, verdicts, report } = await check(sb, exchanges);
      assert.equal(row(verdicts, 'emptyList'), answer);
      for (const f of readListFindings(run)) assert.deepEqual([f.operation, f.availability, f.emptyAnswer], [f.operation, 'offered', answer]);
      // bareNotFound is in neither profile, so emptyList itself says so; emptiness makes no other row differ.
      assert.deepEqual(verdicts.filter((v) => v.match === 'neither').map((v) => v.point), answer === 'bareNotFound' ? ['emptyList'] : [], 'an empty account makes no other row differ');
      // The customer list's paging rows cannot be seen without customers.
      if (answer !== 'emptyArray') for (const point of ['pageSizeLimit', 'sortColumns', 'pageBeyondEnd']) assert.equal(row(verdicts, point), 'none:noCustomer', point);
      // Read-only, and the real key never goes with a made-up-key call.
      assert.deepEqual(exchanges.filter((e) => e.method !== 'GET').map((e) => e.path), ['/general/GlobalCompany/GetGlobalCustomerInfo']);
      const fake = exchanges.filter((e) => e.authorization !== `Bearer ${KEY}`);
      assert.ok(new Set(fake.map((e) => e.authorization)).size === 1 && !fake[0].authorization.includes(KEY.slice(0, 12)));
      // A bare 404 is told apart with the made-up key: one call per list that answered 404, and one on a made-up route.
      assert.equal(fake.length, answer === 'emptyArray' ? 1 : 6);
      assert.match(report, /## Lists that may answer 404 when empty/);
      assert.ok(!report.includes(KEY.slice(0, 16)));
    });
  }

  test('operations=olderExport with bare 404s: company documents are not offered, the other lists are empty', async () => {
    sb.setBehaviour({ profile: 'default', quirks: { emptyList: 'bareNotFound', operations: 'olderExport' } });
    const { run, verdicts, report } = await check(sb);
    assert.deepEqual(readListFindings(run).map((f) => [f.operation, f.availability]), [
      ['certificates.list', 'offered'],
      ['identifications.list', 'offered'],
      ['documents.list', 'missing'],
      ['customers.list', 'offered'],
    ]);
    assert.equal(row(verdicts, 'emptyList'), 'bareNotFound');
    assert.equal(row(verdicts, 'operations'), 'olderExport');
    assert.match(report, /\| `GET \/general\/CompanyDocuments` \| this server does not offer it \(HTTP 404\) \|/);
  });

  test('an empty documents list answered with a bare 404 is not taken for a missing operation (operations stays "all")', async () => {
    sb.setBehaviour({ profile: 'default', quirks: { emptyList: 'bareNotFound' } });
    const { verdicts } = await check(sb);
    assert.equal(row(verdicts, 'operations'), 'all');
  });

  test('behind a gateway that refuses every made-up key before routing, a bare 404 cannot be told apart: "not observed", nothing remembered', async () => {
    sb.setBehaviour({ profile: 'default', quirks: { emptyList: 'bareNotFound' } });
    const { run, verdicts } = await check(sb, [], true);
    assert.equal(row(verdicts, 'emptyList'), 'none:cannotTell');
    assert.deepEqual(readListFindings(run).map((f) => f.availability), [undefined, undefined, undefined, undefined]);
  });
});
