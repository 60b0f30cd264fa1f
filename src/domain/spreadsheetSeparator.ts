// Which separator Excel expects in a CSV it opens: the "list separator" of the regional settings, which
// Windows sets to `;` wherever the decimal mark is a comma (Turkish, German, French…; "1,5") and to `,`
// elsewhere. With the wrong one Excel shows every line in one column. The display language stands in for
// the regional settings, which an extension cannot read. Pure.
import type { CsvDelimiter } from './csv';

/** `;` for a language that writes 1.5 as "1,5", `,` otherwise (and for a language Intl does not know). */
export function listSeparatorFor(language: string): CsvDelimiter {
  try {
    const decimal = new Intl.NumberFormat(language).formatToParts(1.5).find((p) => p.type === 'decimal')?.value;
    return decimal === ',' ? ';' : ',';
  } catch {
    return ',';
  }
}
