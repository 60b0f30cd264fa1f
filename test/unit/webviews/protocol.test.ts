// The host's check of form page messages: each kind of bad message is dropped with a reason that
// names the problem, and the log summary of a message never carries its values.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { approximateSize, checkPageMessage, LIMITS, summarizeMessage } from '../../../src/webviews/protocol';

const allowed = new Set(['City', 'Email', 'IsExport']);
const secret = 'Gizli-Parola-9f8e7d';

const table: Array<[string, unknown, RegExp]> = [
  ['null', null, /^null, not an object$/],
  ['array', [{ type: 'ready' }], /an array/],
  ['text', 'save', /a string, not an object/],
  ['number', 42, /a number, not an object/],
  ['undefined', undefined, /an? undefined, not an object/],
  ['inherited fields', Object.create({ type: 'ready' }) as unknown, /inherits/],
  ['no type', { requestId: 1 }, /no "type"/],
  ['type not text', { type: 7 }, /"type" is not text/],
  ['unknown type', { type: 'response', requestId: 1, ok: true }, /unknown type response/],
  ['extra field', { type: 'save', requestId: 1, values: {}, extra: secret }, /unexpected field\(s\) extra/],
  ['missing field', { type: 'save', values: {} }, /missing field\(s\) requestId/],
  ['requestId as text', { type: 'reload', requestId: '1' }, /"requestId" is not a whole number/],
  ['requestId too large', { type: 'reload', requestId: 2 ** 40 }, /"requestId"/],
  ['dirty as text', { type: 'draft', dirty: 'yes', values: {} }, /"dirty"/],
  ['values as array', { type: 'save', requestId: 1, values: [secret] }, /"values" is not a plain object/],
  ['value of a wrong type', { type: 'save', requestId: 1, values: { City: { nested: secret } } }, /value of City is neither/],
  ['unknown field name', { type: 'save', requestId: 1, values: { Password: secret } }, /unknown field name\(s\) in "values": Password/],
  ['value over the limit', { type: 'save', requestId: 1, values: { City: 'x'.repeat(LIMITS.valueLength + 1) } }, /longer than 4000/],
  ['several MB', { type: 'save', requestId: 1, values: { City: 'x' }, pad: 'x'.repeat(5_000_000) }, /larger than/],
  ['own __proto__ key', JSON.parse('{"__proto__":{"type":"ready"},"type":"ready"}') as unknown, /a prototype key \(__proto__\)/],
  ['__proto__ in values', JSON.parse('{"type":"save","requestId":1,"values":{"__proto__":{"polluted":"yes"}}}') as unknown, /prototype key in "values"/],
  ['constructor key', { type: 'ready', constructor: { prototype: { polluted: 'yes' } } }, /prototype key \(constructor\)/],
  ['kind not a form', { type: 'ready', kind: 'invoice' }, /"kind" is not a form kind/],
];

for (const [name, message, reason] of table) {
  test(`dropped: ${name}`, () => {
    const checked = checkPageMessage(message, allowed);
    assert.equal(checked.ok, false, 'accepted');
    assert.match(checked.ok ? '' : checked.reason, reason);
    assert.ok(!(checked.ok ? '' : checked.reason).includes(secret), 'the reason quotes a value');
    assert.ok(!summarizeMessage(message).includes(secret), 'the summary quotes a value');
    assert.ok(summarizeMessage(message).length < 200, 'the summary is long');
  });
}

test('well-formed messages pass and are copied, not passed on by reference', () => {
  const values = { City: 'Ankara', IsExport: true };
  const checked = checkPageMessage({ type: 'save', requestId: 7, values, kind: 'company', recordKey: 'company' }, allowed);
  assert.ok(checked.ok);
  assert.deepEqual(checked.message, { type: 'save', requestId: 7, values, kind: 'company', recordKey: 'company' });
  assert.notEqual((checked.message as { values: unknown }).values, values);
  assert.ok(checkPageMessage({ type: 'ready' }).ok);
  // The largest valid save (every field at the longest value) stays under the message limit.
  const full = Object.fromEntries(Array.from({ length: LIMITS.fields }, (_, i) => [`F${i}`, 'x'.repeat(LIMITS.valueLength)]));
  assert.ok(checkPageMessage({ type: 'save', requestId: 1, values: full }).ok);
});

test('approximateSize gives up on cycles and huge arrays instead of looping', () => {
  const cyclic: Record<string, unknown> = { a: 'x' };
  cyclic.self = cyclic;
  assert.equal(approximateSize(cyclic, 10_000), Number.POSITIVE_INFINITY);
  assert.equal(approximateSize(new Array(1_000_000).fill(0), LIMITS.messageChars), Number.POSITIVE_INFINITY);
  assert.ok(approximateSize({ type: 'ready' }, 100) < 40);
});
