// The one way a date is shown (src/domain/localeDate.ts; the extension gives it VS Code's
// display language): the medium form of the language, the calendar day a server wrote whatever its
// offset and this machine's time zone, and no guess at text that is not a date.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localeDate } from '../../../src/domain/localeDate';

// West of UTC, where reading `…T00:00:00.000+03:00` as a moment would give the day before.
process.env.TZ = 'America/Los_Angeles';

test('localeDate: the display language\'s medium form, the day the server wrote', () => {
  const forms = ['2026-01-02', '2026-01-02T00:00:00', '2026-01-02T00:00:00.000+03:00', '2026-01-02T23:59:59Z'];
  assert.deepEqual(forms.map((f) => localeDate(f, 'en')), forms.map(() => 'Jan 2, 2026'));
  assert.deepEqual(forms.map((f) => localeDate(f, 'tr')), forms.map(() => '2 Oca 2026'));
  assert.equal(localeDate('2024-02-29T10:15:00', 'tr'), '29 Şub 2024');
});

test('localeDate: a moment is its local day; none is empty; text that is no real date is left as it is', () => {
  const moment = new Date(2026, 10, 26, 15, 13);
  assert.equal(localeDate(moment, 'en'), 'Nov 26, 2026');
  assert.equal(localeDate(moment.getTime(), 'tr'), '26 Kas 2026');
  assert.deepEqual([null, undefined, new Date(NaN)].map((v) => localeDate(v, 'en')), ['', '', '']);
  assert.deepEqual(['2026-02-30', 'yarın', '2026-01-02 ve ötesi'].map((v) => localeDate(v, 'en')), ['2026-02-30', 'yarın', '2026-01-02 ve ötesi']);
});
