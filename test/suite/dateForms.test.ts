// Behaviour point dateFormat (README's "Where the API documentation is silent"): date-times come as
// `2026-01-01T00:00:00` or `2026-01-01T00:00:00.000+03:00` (the sandbox's `dateFormat` point). What the
// views show and how certificate expiry is judged must not depend on the form.
import * as assert from 'node:assert/strict';
import { formatDate } from '../../src/shell/displayFormat';
import { certificateValidity } from '../../src/views/records/recordNodes';

suite('Date-time forms (dateFormat)', () => {
  const forms = (date: string) => [`${date}T00:00:00`, `${date}T00:00:00.000+03:00`];

  test('both forms show the same date, the calendar day written (the offset never moves it)', () => {
    for (const date of ['2026-01-01', '2027-12-31']) {
      assert.deepEqual(forms(date).map(formatDate), [formatDate(date), formatDate(date)]);
    }
    assert.notEqual(formatDate('2026-01-01'), formatDate('2025-12-31'));
  });

  test('certificate expiry reads both forms alike: expired, expiring within 30 days, valid', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    const cases: Array<[string, string]> = [
      ['2026-11-01', 'expired'],
      ['2026-12-10', 'expiring'],
      ['2027-06-01', 'valid'],
    ];
    for (const [date, expected] of cases) {
      assert.deepEqual(forms(date).map((f) => certificateValidity(f, now)), [expected, expected], date);
    }
  });
});
