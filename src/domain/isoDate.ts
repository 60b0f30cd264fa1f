// Whether a server's string is a real ISO 8601 date (and time): the shape as a whole and a calendar
// that exists. Strict on purpose: a string that only starts like a date may go on with a record's
// words, and is then shown as "not a date", never echoed. Pure, no imports (the status bar loads it).

/** Date-time: seconds, fraction and offset (or Z) optional, nothing before or after. */
const ISO_DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?(?:Z|[+-](\d\d):(\d\d))?$/;
const ISO_DAY = /^(\d{4})-(\d\d)-(\d\d)$/;

function dayExists(year: string, month: string, day: string): boolean {
  const m = Number(month);
  const d = Number(day);
  return m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(Number(year), m, 0)).getUTCDate();
}

/** `2024-02-29T10:15:00`, `…:00.123+03:00`, `…Z`: a real date-time in ISO form. */
export function isIsoDateTime(text: string): boolean {
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second = '0', offHour = '0', offMinute = '0'] = m.slice(1);
  return dayExists(year, month, day) && Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 59 && Number(offHour) <= 14 && Number(offMinute) <= 59;
}

/** A real ISO date (`2024-02-29`) or date-time. */
export function isIsoDay(text: string): boolean {
  const m = ISO_DAY.exec(text);
  return m ? dayExists(m[1], m[2], m[3]) : isIsoDateTime(text);
}
