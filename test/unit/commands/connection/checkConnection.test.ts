// Check Connection's plain-Node parts: the shape describer, the calls (over real HTTP against the
// sandbox: read-only, never the key in a report), the row verdicts under both sandbox profiles and
// an unknown quirk, and the report builder.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeShape } from '../../../../src/commands/connection/shape';
import { runChecks, type CheckRun } from '../../../../src/commands/connection/probes';
import type { FetchLike } from '../../../../src/api/http';
import { readVerdicts, type RowVerdict } from '../../../../src/commands/connection/verdicts';
import { buildReport, summarize } from '../../../../src/commands/connection/report';
import type { Translator } from '../../../../src/domain/taxIdWording';
import { setSandboxBehaviour, startTestSandbox, type SandboxHandle, type SandboxOptions } from '../../../support/sandbox';
import { BEHAVIOUR_POINTS, POINT_IDS } from '../../../../src/sandbox/behaviour';

/** English with {0} placeholders filled, as vscode.l10n.t does without a translation. */
const english: Translator = { t: (message, ...args) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])) };

const CANARY = 'CANARY0123456789ABCDEFCANARY0123456789ABCDEFCANARY0123456789ABCD';

/** The rows only a write would show (Check Connection never writes). */
const WRITE_ONLY = new Set(['customerBatchBadRow', 'booleanAnswer', 'companyPutOmitted', 'templatePutOmitted', 'customerCreateAnswer', 'duplicateStatus', 'customerBatchStatus']);

describe('describeShape', () => {
  test('names and types, never values', () => {
    const shape = describeShape({ Name: 'Gizli Şirket', TaxNumber: '1234567890', Count: 3, Rate: 1.5, Active: true, Fax: null, Note: '' });
    assert.equal(shape, '{ Name: string, TaxNumber: string, Count: integer, Rate: number, Active: boolean, Fax: null, Note: string (empty) }');
    for (const value of ['Gizli', '1234567890', '3', '1.5', 'true']) assert.ok(!shape.includes(value), `value ${value} leaked into ${shape}`);
  });

  test('arrays merge their elements; a field missing from some gets "?"; unions are listed', () => {
    assert.equal(describeShape([{ A: 1, B: 'x' }, { A: null }]), '[ { A: integer | null, B?: string } ]');
    assert.equal(describeShape([]), '[]');
    assert.equal(describeShape({}), '{}');
    assert.equal(describeShape(null), 'null');
    assert.equal(describeShape('UEsDBBQ='), 'string');
    assert.equal(describeShape([1, 2.5]), '[ number ]');
  });

  test('keys that hold data (a dictionary keyed by tax numbers) are not shown', () => {
    const shape = describeShape({ '1234567890': { Title: 'x' }, 'Yılmaz Gıda': 1 });
    assert.ok(!shape.includes('1234567890') && !shape.includes('Yılmaz'), shape);
    assert.match(shape, /‹key›/);
  });

  test('deep and wide answers stay short', () => {
    const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } };
    assert.equal(describeShape(deep), '{ a: { b: { c: { d: … } } } }');
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`F${i}`, i]));
    assert.match(describeShape(wide), /… 10 more \}$/);
  });
});

interface Exchange {
  method: string;
  url: string;
  authorization: string;
}

async function recordingFetch(into: Exchange[]): Promise<FetchLike> {
  const mod = (await import('node-fetch')) as unknown as { default: FetchLike | { default: FetchLike } };
  const nodeFetch = typeof mod.default === 'function' ? mod.default : mod.default.default;
  return (url, init) => {
    into.push({ method: init.method, url, authorization: init.headers.Authorization ?? '' });
    return nodeFetch(url, init);
  };
}

async function check(sandbox: SandboxHandle, key: string, exchanges: Exchange[] = []): Promise<{ run: CheckRun; verdicts: RowVerdict[]; report: string }> {
  const run = await runChecks({ baseUrl: sandbox.url, apiKey: key, timeoutMs: 10_000, fetch: await recordingFetch(exchanges) }, { signal: new AbortController().signal });
  const verdicts = readVerdicts(run);
  const report = buildReport(
    { environmentLabel: 'Sandbox', origin: sandbox.url, finishedAt: '2026-11-23T23:00:00Z', extensionVersion: '0.1.0', vscodeVersion: 'test' },
    run.results,
    verdicts,
    english,
  );
  // NILVERA_PRINT_REPORT=1 prints each report (to look at it).
  if (process.env.NILVERA_PRINT_REPORT) console.log(report);
  return { run, verdicts, report };
}

function answers(verdicts: RowVerdict[]): Record<string, string> {
  return Object.fromEntries(verdicts.map((v) => [v.point, v.verdict.kind === 'answer' ? v.verdict.answer : v.verdict.kind === 'differs' ? 'differs' : `none:${v.verdict.reason}`]));
}

/**
 * What the check must report for a sandbox profile: the profile's answer where it can observe one.
 * Every list of these sandboxes has records, so how an empty list answers (emptyList) is not seen here
 * (test/unit/commands/connection/serviceEvidence.test.ts empties them).
 */
function expectedFor(profile: 'default' | 'alternate'): Record<string, string> {
  return Object.fromEntries(
    Object.entries(BEHAVIOUR_POINTS).map(([point, spec]) => [
      point,
      WRITE_ONLY.has(point) ? 'none:wouldWrite' : point === 'emptyList' ? 'none:noEmptyList' : profile === 'default' ? spec.answers[0] : spec.alternate,
    ]),
  );
}

describe('against the sandbox (default profile)', () => {
  let sandbox: SandboxHandle;
  const options: SandboxOptions = { key: CANARY, customers: 120, registry: 300, seed: 11 };
  before(async () => {
    sandbox = await startTestSandbox(options);
  });
  after(() => sandbox.close());

  test('read-only calls only, the real key only in Authorization, a generated key for the wrong-key call', async () => {
    const exchanges: Exchange[] = [];
    const { run } = await check(sandbox, CANARY, exchanges);
    assert.ok(exchanges.length >= 20, `only ${exchanges.length} calls`);
    const writes = exchanges.filter((e) => e.method !== 'GET');
    assert.deepEqual(writes.map((e) => `${e.method} ${new URL(e.url).pathname}`), ['POST /general/GlobalCompany/GetGlobalCustomerInfo']);
    const wrong = exchanges.filter((e) => e.authorization !== `Bearer ${CANARY}`);
    assert.equal(wrong.length, 1, 'exactly one call with another key');
    const fake = wrong[0].authorization.replace(/^Bearer /, '');
    assert.match(fake, /^[0-9A-F]{64}$/);
    // No run of 8 characters of the real key in the fake one (not a variation of it).
    for (let i = 0; i + 8 <= CANARY.length; i++) assert.ok(!fake.includes(CANARY.slice(i, i + 8)), `the fake key repeats ${CANARY.slice(i, i + 8)}`);
    for (const e of exchanges) assert.ok(!e.url.includes(CANARY), 'the key is never in a URL');
    // Random: another run makes another fake key.
    const again: Exchange[] = [];
    await check(sandbox, CANARY, again);
    const otherFake = again.find((e) => e.authorization !== `Bearer ${CANARY}`)?.authorization.replace(/^Bearer /, '');
    assert.match(otherFake ?? '', /^[0-9A-F]{64}$/);
    assert.notEqual(otherFake, fake);
    // The sandbox saw no write either.
    assert.deepEqual(sandbox.requestLog().filter((r) => r.method !== 'GET' && r.path !== '/general/GlobalCompany/GetGlobalCustomerInfo'), []);
    assert.ok(run.facts.unregistered, 'an unregistered tax number was found');
  });

  test('cancelling stops the check at once: it throws an AbortError and makes no further call', async () => {
    const controller = new AbortController();
    const exchanges: Exchange[] = [];
    const started = runChecks(
      { baseUrl: sandbox.url, apiKey: CANARY, timeoutMs: 10_000, fetch: await recordingFetch(exchanges) },
      { signal: controller.signal, onProgress: (done) => (done === 3 ? controller.abort() : undefined) },
    );
    await assert.rejects(started, (e: Error) => e.name === 'AbortError');
    assert.ok(exchanges.length <= 4, `${exchanges.length} calls after cancelling at the third`);
  });

  test('each observable row is the default profile answer; rows needing a write say so', async () => {
    const { verdicts } = await check(sandbox, CANARY);
    assert.deepEqual(answers(verdicts), expectedFor('default'));
  });

  test('the report holds no key, no tax number and no record value', async () => {
    const { run, report } = await check(sandbox, CANARY);
    assert.ok(!report.includes(CANARY) && !report.includes(CANARY.slice(0, 16)), 'the key is in the report');
    assert.ok(run.facts.ownTaxNumber && !report.includes(run.facts.ownTaxNumber), "the company's tax number is in the report");
    assert.ok(run.facts.unregistered && !report.includes(run.facts.unregistered));
    const company = run.results.find((r) => r.id === 'company')?.answer;
    const name = company?.body.kind === 'json' ? (company.body.value as { Name?: string }).Name : undefined;
    assert.ok(name && !report.includes(name), "the company's name is in the report");
    assert.match(report, /\| `GET \/general\/Company` \| 200 `application\/json` \| \d+ ms \| `\{ Name: string, TaxNumber: string/);
    assert.match(report, /\| `customerBatchBadRow` \| not checked: would write \|/);
  });
});

for (const profile of ['alternate'] as const) {
  describe(`against the sandbox (${profile} profile)`, () => {
    let sandbox: SandboxHandle;
    before(async () => {
      sandbox = await startTestSandbox({ key: CANARY, customers: 120, registry: 300, seed: 12, behaviour: { profile } });
    });
    after(() => sandbox.close());

    test(`each observable row is the ${profile} profile answer`, async () => {
      const exchanges: Exchange[] = [];
      const { verdicts, report } = await check(sandbox, CANARY, exchanges);
      assert.deepEqual(answers(verdicts), expectedFor(profile));
      assert.deepEqual(exchanges.filter((e) => e.method !== 'GET').length, 1);
      assert.ok(!report.includes(CANARY.slice(0, 16)));
      assert.ok(!report.includes('⚠'), 'no row differs from both profiles');
    });
  });
}

describe('against the sandbox with a quirk the check does not know (registryLookupMissing=oddText)', () => {
  let sandbox: SandboxHandle;
  before(async () => {
    sandbox = await startTestSandbox({ key: CANARY, customers: 30, registry: 100, seed: 13, behaviour: { quirks: { registryLookupMissing: 'oddText' } } });
  });
  after(() => sandbox.close());

  test('registryLookupMissing says "differs" with what came (status, type, size; not the text), the others stay default', async () => {
    const { verdicts, report } = await check(sandbox, CANARY);
    const expected = { ...expectedFor('default'), registryLookupMissing: 'differs' };
    assert.deepEqual(answers(verdicts), expected);
    const row1 = verdicts.find((v) => v.point === 'registryLookupMissing')!;
    assert.equal(row1.match, 'neither');
    assert.match(report, /> ⚠ The service differs from both sandbox profiles in these rows:\n> - `registryLookupMissing`: \*\*differs\*\*: `200 text\/plain, \d+ bytes`/);
    assert.ok(!report.includes('Kayıt bulunamadı'), 'the answer text itself is not in the report');
  });
});

describe('one quirk at a time: every answer the check knows is recognised as that answer, in its row only', () => {
  let sandbox: SandboxHandle;
  before(async () => {
    sandbox = await startTestSandbox({ key: CANARY, customers: 30, registry: 100, seed: 14 });
  });
  after(() => sandbox.close());

  for (const [point, spec] of Object.entries(BEHAVIOUR_POINTS)) {
    // Behaviour point emptyList needs empty lists: test/unit/commands/connection/serviceEvidence.test.ts.
    if (WRITE_ONLY.has(point) || point === 'emptyList') continue;
    // oddText (an unreadable answer) exists to prove the check reports "differs": tested above.
    for (const quirk of spec.answers.filter((a: string) => a !== 'oddText')) {
      test(`${point}=${quirk}`, async () => {
        await setSandboxBehaviour(sandbox, { profile: 'default', quirks: { [point]: quirk } });
        const { verdicts } = await check(sandbox, CANARY);
        const expected = { ...expectedFor('default'), [point]: quirk };
        // A look-up that answers "not found" with an empty 200 repeats no value, so whether the
        // server decoded %2F or kept it cannot be seen (only that the call reached the route).
        if (point === 'recordLookupMissing' && quirk !== '404') expected.encodedSlash = 'none:cannotTell';
        assert.deepEqual(answers(verdicts), expected);
      });
    }
  }
});

test("the check's points are the sandbox's, each once, in the order of README's spec-silent table, which names each", async () => {
  assert.deepEqual([...POINT_IDS].sort(), Object.keys(BEHAVIOUR_POINTS).sort(), 'a new behaviour point: teach Check Connection about it');
  const fs = await import('node:fs');
  const path = await import('node:path');
  const readme = fs.readFileSync(path.resolve(__dirname, '../../../../../README.md'), 'utf8');
  const named = [...readme.matchAll(/^\| \d+ `(\w+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual(named, [...POINT_IDS], "README's table names the points of src/sandbox/behaviour.ts, in its order");
  assert.deepEqual(readVerdicts({ results: [], facts: {} }).map((v) => v.point), [...POINT_IDS]);
});

describe('report builder', () => {
  test('summary counts and the "differs" warning', () => {
    const verdicts: RowVerdict[] = [
      { point: 'registryLookupMissing', verdict: { kind: 'differs', seen: '200 text/plain, 16 bytes' }, match: 'neither' },
      { point: 'badKeyStatus', verdict: { kind: 'answer', answer: '401' }, match: 'default' },
      { point: 'pageSizeLimit', verdict: { kind: 'answer', answer: 'cap50' }, match: 'alternate' },
      { point: 'booleanAnswer', verdict: { kind: 'none', reason: 'wouldWrite' }, match: 'unknown' },
    ];
    const s = summarize([], verdicts);
    assert.deepEqual(s, { calls: 0, matchDefault: 1, matchAlternate: 1, differs: 1, notChecked: 1, differingRows: ['registryLookupMissing'] });
    const report = buildReport({ environmentLabel: 'Test', origin: 'https://apitest.nilvera.com', finishedAt: 'now', extensionVersion: '0.1.0', vscodeVersion: '1.100' }, [], verdicts, english);
    assert.match(report, /> ⚠ The service differs from both sandbox profiles in these rows:\n> - `registryLookupMissing`: \*\*differs\*\*: `200 text\/plain, 16 bytes`/);
    assert.match(report, /\| `pageSizeLimit` \| `cap50` \| `cap100` \| `cap50` \| as the alternate profile \|/);
    assert.match(report, /1 rows as the default profile, 1 as the alternate, 1 differ from both, 1 not checked/);
  });
});
