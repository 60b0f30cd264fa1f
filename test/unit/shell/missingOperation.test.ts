// Reading a 404 by the table of operations (src/api/operations.ts): a GET of a fixed path is "not
// offered here", a path naming a record is "the record is gone", the lists that may answer 404 when
// empty are "not offered" only when the service says the route is unknown (code 3030).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NilveraApiError } from '../../../src/api/errors';
import { OPERATION_IDS, OPERATIONS, type OperationId } from '../../../src/api/operations';
import { ROUTE_NOT_FOUND_CODE } from '../../../src/api/operations';
import { EMPTY_LIST_READS, isBareRecordNotFound, isEmptyOrNotOffered, isOperationNotOffered } from '../../../src/shell/missingOperation';

const notFound = (operation: OperationId, code?: number) =>
  new NilveraApiError({ kind: 'notFound', operation, status: 404, messages: code === undefined ? [] : [{ code, description: 'API not found' }] });

test('the lists that may answer 404 when empty are the table\'s', () => {
  assert.deepEqual([...EMPTY_LIST_READS].sort(), ['certificates.list', 'customers.list', 'documents.list', 'identifications.list']);
});

test('every operation of the table reads its 404 by its method and path', () => {
  for (const id of OPERATION_IDS) {
    const { method, path } = OPERATIONS[id];
    const fixedGet = method === 'GET' && !path.includes('{');
    const emptyList = (EMPTY_LIST_READS as readonly string[]).includes(id);
    assert.equal(isOperationNotOffered(notFound(id, ROUTE_NOT_FOUND_CODE)), fixedGet, `${id} with "API not found"`);
    assert.equal(isOperationNotOffered(notFound(id)), fixedGet && !emptyList, `${id}, a bare 404`);
    assert.equal(isEmptyOrNotOffered(notFound(id)), emptyList, `${id}: empty or not offered`);
    assert.equal(isBareRecordNotFound(notFound(id)), !fixedGet, `${id}: a record that may be gone`);
  }
});
