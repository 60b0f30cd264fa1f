// The NilveraApiError a client call fails with; a call that succeeds, or fails otherwise, fails the test.
import assert from 'node:assert/strict';
import { NilveraApiError } from '../../src/api';

export async function apiRejection(call: Promise<unknown>): Promise<NilveraApiError> {
  try {
    await call;
  } catch (e) {
    assert.ok(e instanceof NilveraApiError, `expected NilveraApiError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the call to fail');
}
