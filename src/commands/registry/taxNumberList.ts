// Tax numbers out of pasted or loaded text: one per line, or a column of a CSV. The column is the one
// whose header names a tax number by the same rules as the customer import (src/domain/headerMatch.ts:
// "VERGİ NO", "TC KİMLİK NO", "Vergi Kimlik No", also with its Turkish letters lost to U+FFFD); without
// such a header, the column whose values most often are valid VKN/TCKN, never a phone or fax column.
import { detectDelimiter, parseCsv, type CsvRecord } from '../../domain/csv';
import { isPhoneHeader, isTaxNumberHeader } from '../../domain/headerMatch';
import { checkTaxId } from '../../domain/taxId';

export interface TaxNumberList {
  valid: string[];
  /** Values that are not a VKN/TCKN (wrong length, letters, wrong check digit), with their line. */
  invalid: Array<{ value: string; line: number }>;
}

/**
 * Without a tax-number header: the column with the most valid tax numbers, then the most 10-11 digit
 * values, then the most runs of 9-12 digits (numbers typed with a digit too few or many); -1 if none.
 */
function columnByValues(rows: readonly CsvRecord[], width: number): number {
  const header = rows[0].cells;
  let best = -1;
  let bestScore = [0, 0, 0];
  for (let i = 0; i < width; i++) {
    if (isPhoneHeader(header[i] ?? '')) continue;
    const score = [0, 0, 0];
    for (const r of rows) {
      const v = r.cells[i] ?? '';
      if (!/^\d{9,12}$/.test(v)) continue;
      score[2]++;
      if (v.length < 10 || v.length > 11) continue;
      score[1]++;
      if (checkTaxId(v).valid) score[0]++;
    }
    const better = score[0] !== bestScore[0] ? score[0] > bestScore[0] : score[1] !== bestScore[1] ? score[1] > bestScore[1] : score[2] > bestScore[2];
    if (better) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

function column(text: string): Array<{ value: string; line: number }> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const firstLine = lines.find((l) => l.trim()) ?? '';
  const delimited = /[,;\t]/.test(firstLine);
  if (!delimited) return lines.map((l, i) => ({ value: l.trim(), line: i + 1 })).filter((x) => x.value);
  const { records } = parseCsv(text, { delimiter: detectDelimiter(firstLine) });
  const rows: CsvRecord[] = records.map((r) => ({ cells: r.cells.map((f) => f.trim()), line: r.line }));
  if (rows.length === 0) return [];
  const named = rows[0].cells.findIndex((c) => isTaxNumberHeader(c));
  const col = named >= 0 ? named : columnByValues(rows, Math.max(...rows.map((r) => r.cells.length)));
  if (col < 0) return [];
  // The header row is skipped; one without a recognised name only when its cell is not a number.
  const body = named < 0 && /^\d+$/.test(rows[0].cells[col] ?? '') ? rows : rows.slice(1);
  return body.map((r) => ({ value: (r.cells[col] ?? '').trim(), line: r.line })).filter((x) => x.value);
}

export function extractTaxNumbers(text: string): TaxNumberList {
  const valid = new Set<string>();
  const invalid: TaxNumberList['invalid'] = [];
  for (const item of column(text)) {
    if (checkTaxId(item.value).valid) valid.add(item.value);
    else invalid.push(item);
  }
  return { valid: [...valid], invalid };
}
