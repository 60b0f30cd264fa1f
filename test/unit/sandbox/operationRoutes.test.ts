// The sandbox's routes against the table of operations (src/api/operations.ts): one route per
// operation, taking its method, path and flags from the table; a missing or doubled route stops the
// sandbox when it loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATION_IDS, OPERATIONS } from '../../../src/api/operations';
import { ROUTES } from '../../../src/sandbox/routes';
import { routeForEveryOperation } from '../../../src/sandbox/router';

test('one route per operation, with the table\'s method and path', () => {
  assert.deepEqual(ROUTES.map((r) => r.name).sort(), [...OPERATION_IDS].sort());
  for (const r of ROUTES) assert.deepEqual([r.method, r.path], [OPERATIONS[r.name].method, OPERATIONS[r.name].path], r.name);
});

test('the flags come from the table: writes need the full key, boolean answers can be false, newer operations can be missing', () => {
  const registryBulk = ROUTES.find((r) => r.name === 'registry.infoBulk')!;
  assert.equal(registryBulk.write, false, 'a POST that only looks up');
  assert.deepEqual(ROUTES.filter((r) => r.write).map((r) => r.name).sort(), OPERATION_IDS.filter((id) => OPERATIONS[id].access === 'write').sort());
  assert.deepEqual(ROUTES.filter((r) => r.answersBoolean).map((r) => r.name).sort(), OPERATION_IDS.filter((id) => OPERATIONS[id].answer === 'boolean').sort());
});

test('an operation without a route, or with two, stops the sandbox at load, naming it', () => {
  const withoutOne = ROUTES.filter((r) => r.name !== 'customers.search');
  assert.throws(() => routeForEveryOperation(withoutOne), /no route for customers\.search/);
  assert.throws(() => routeForEveryOperation([...ROUTES, ROUTES[0]]), new RegExp(`more than one route for ${ROUTES[0].name.replace('.', '\\.')}`));
  assert.equal(routeForEveryOperation(ROUTES), ROUTES);
});
