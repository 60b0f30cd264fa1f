// The one way a date is shown: src/shell/displayFormat.ts's formatDate gives it VS Code's display
// language, the preview page its own. Pure, no imports (the trees, documents and preview load it).

/**
 * A date in `locale`'s medium form ("Jan 2, 2026" / "2 Oca 2026"): a server's ISO date or date-time as
 * the calendar date it names (`2026-01-02T00:00:00.000+03:00` is 2 January wherever this runs), a
 * moment (a Date or epoch milliseconds) as the local date; '' for none, other text as it is.
 */
export function localeDate(value: string | number | Date | null | undefined, locale: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    const [, year, month, day] = /^(\d{4})-(\d\d)-(\d\d)(?:$|T)/.exec(value) ?? [];
    const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
    // Not a date, or not one the calendar has (2026-02-30): the text as it is.
    if (date.getUTCDate() !== Number(day) || date.getUTCMonth() !== Number(month) - 1) return value;
    return date.toLocaleDateString(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString(locale, { dateStyle: 'medium' });
}
