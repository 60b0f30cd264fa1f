// Check Connection's probe decisions against the table of operations (src/api/operations.ts): every
// operation that changes nothing has one, and the calls the check makes are the ones the decisions name,
// with the method and path the table gives.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATION_IDS, OPERATIONS, type ReadOperationId } from '../../../../src/api/operations';
import { PROBE_DECISIONS, probeDecision, runChecks, type CheckRun, type ProbeId } from '../../../../src/commands/connection/probes';
import { startTestSandbox, type SandboxHandle } from '../../../support/sandbox';

/** Calls that test the server itself, not one of its operations. */
const NOT_AN_OPERATION: ReadonlySet<ProbeId> = new Set(['unknownRoute', 'unknownRouteWrongKey']);

const pathPattern = (template: string) => new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`, 'i');

let sandbox: SandboxHandle;
let run: CheckRun;
before(async () => {
  sandbox = await startTestSandbox({ customers: 5, registry: 20, seed: 3 });
  run = await runChecks({ baseUrl: sandbox.url, apiKey: sandbox.keys.full, timeoutMs: 10_000 }, { signal: new AbortController().signal });
});
after(async () => sandbox?.close());

const READS = OPERATION_IDS.filter((id): id is ReadOperationId => OPERATIONS[id].access === 'read');

test('every read operation of the table has a probe decision (a plain read by default its own GET), and no write operation has one', () => {
  assert.deepEqual(READS.filter((id) => !probeDecision(id)), []);
  assert.deepEqual(Object.keys(PROBE_DECISIONS).filter((id) => !(READS as string[]).includes(id)), []);
});

test('each probe a decision names calls that operation: its method, its path', () => {
  const byProbe = new Map(run.results.map((r) => [r.id, r]));
  for (const id of READS) {
    const decision = probeDecision(id);
    if (!decision || !('probes' in decision)) continue;
    // The first probe of each decision always runs (the wrong-key calls only when a list answered 404).
    assert.ok(byProbe.has(decision.probes[0]), `${id}: ${decision.probes[0]} was not called`);
    for (const probe of decision.probes) {
      const result = byProbe.get(probe);
      if (!result || result.skipped) continue;
      assert.equal(result.method, OPERATIONS[id].method, `${id}: ${probe}`);
      assert.match(result.template, pathPattern(OPERATIONS[id].path), `${id}: ${probe}`);
    }
  }
});

test('every call the check makes belongs to a decision (or tests the server itself)', () => {
  const claimed = new Set(READS.flatMap((id) => probeDecision(id) ?? []).flatMap((d) => ('probes' in d ? d.probes : [])));
  const unclaimed = run.results.map((r) => r.id).filter((id) => !claimed.has(id) && !NOT_AN_OPERATION.has(id));
  assert.deepEqual(unclaimed, []);
});
