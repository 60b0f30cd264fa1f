// A form page's registry look-up carries a tax number the host puts into a request path
// (GET /general/GlobalCompany/Check/TaxNumber/{taxNumber}). The host's message check must refuse a tax
// number longer than any identifier, even when the whole message stays under the 300,000-character
// message limit (a ~300 k tax number): it never becomes a URL. The host-side proof (no API request,
// a "dropped" log line) is in test/suite/reliability.webviewMessages.test.ts.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { checkPageMessage, LIMITS } from '../../../src/webviews/protocol';

test('a look-up whose tax number is ~300 k characters is dropped by the message check, for its length', () => {
  const taxNumber = '4'.repeat(LIMITS.messageChars - 200);
  const message = { type: 'lookup', requestId: 7, taxNumber };
  assert.ok(JSON.stringify(message).length < LIMITS.messageChars, 'the whole message is under the message limit');
  const checked = checkPageMessage(message);
  assert.deepEqual(checked, { ok: false, reason: '"taxNumber" is not text of up to 32 characters in "lookup"' });
});

test('look-up tax numbers: up to 32 characters pass as sent, one more is dropped', () => {
  for (const taxNumber of ['4540536920', '10000000146', ' 4540536920 ', '4'.repeat(32)]) {
    assert.deepEqual(checkPageMessage({ type: 'lookup', requestId: 1, taxNumber }), { ok: true, message: { type: 'lookup', requestId: 1, taxNumber } }, JSON.stringify(taxNumber));
  }
  for (const taxNumber of ['4'.repeat(33), '4'.repeat(4000), 'x'.repeat(100_000)]) {
    const checked = checkPageMessage({ type: 'lookup', requestId: 1, taxNumber });
    assert.equal(checked.ok, false, `${taxNumber.length} characters`);
    assert.match((checked as { reason: string }).reason, /"taxNumber" is not text of up to 32 characters/);
  }
});
