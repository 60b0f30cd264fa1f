// Fault phase `late`: a platform that stores a change only after the client has already asked about
// it. The answer is lost at once (nothing stored yet); the change is stored once the next request has
// been answered, so that request still sees the old state and every later one the new. Control
// endpoints neither see nor trigger it. Used by the customer import's test (test/unit/api/bulkLostAnswers.test.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { completeVkn } from '../../../src/domain/taxId';
import { api, sandboxState, startTestSandbox, type SandboxHandle } from '../../support/sandbox';

let sb: SandboxHandle;
before(async () => {
  sb = await startTestSandbox({ customers: 3, seed: 5 });
});
after(() => sb.close());

test('a late 500 on POST Customers: lost at once, stored after the next request was answered', async () => {
  const taxNumber = completeVkn('812345670');
  const lookup = () => api(sb, 'GET', `/general/Customers/GetCustomerInfo/${taxNumber}`);
  const count = async () => ((await sandboxState(sb)).counts as { customers: number }).customers;
  const before = await count();
  sb.setFaults({ queue: ['500'], phase: 'late', match: { method: 'POST', path: '^/general/Customers$' } });
  const post = await api(sb, 'POST', '/general/Customers', [{ TaxNumber: taxNumber, Name: 'Geç Yazılan Ltd.' }]);
  assert.equal(post.status, 500);
  assert.equal(await count(), before, 'not stored yet (a control request does not store it)');
  const first = await lookup();
  assert.notEqual(first.status === 200 && first.text.includes(taxNumber), true, `the next request still sees nothing: ${first.status} ${first.text.slice(0, 80)}`);
  const second = await lookup();
  assert.equal(second.status, 200);
  assert.equal((second.json as { Name?: string }).Name, 'Geç Yazılan Ltd.');
  assert.equal(await count(), before + 1, 'stored once');
  assert.deepEqual(sb.requestLog().filter((r) => r.fault).map((r) => [r.method, r.fault]), [['POST', { kind: '500', phase: 'late' }]]);
});
