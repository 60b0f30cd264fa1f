// Tax numbers out of pasted or loaded text: one per line, or a column of a CSV (the column whose
// header names a tax number, else the first column that holds 10-11 digit values).
import { detectDelimiter, parseCsv } from '../../domain/csv';
import { checkTaxId } from '../../domain/taxId';

const HEADER = /^(vkn|tckn|vkn\/tckn|vkn_tckn|taxnumber|tax number|tax_number|vergi ?no|vergi numarası|vergi kimlik no)$/i;

export interface TaxNumberList {
  valid: string[];
  /** Values that are not a VKN/TCKN (wrong length, letters, wrong check digit), with their line. */
  invalid: Array<{ value: string; line: number }>;
}

function column(text: string): Array<{ value: string; line: number }> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const firstLine = lines.find((l) => l.trim()) ?? '';
  const delimited = /[,;\t]/.test(firstLine);
  if (!delimited) return lines.map((l, i) => ({ value: l.trim(), line: i + 1 })).filter((x) => x.value);
  const { records } = parseCsv(text, { delimiter: detectDelimiter(firstLine) });
  const rows = records.map((r) => ({ cells: r.cells.map((f) => f.trim()), line: r.line }));
  if (rows.length === 0) return [];
  let col = rows[0].cells.findIndex((c) => HEADER.test(c));
  let body = rows;
  if (col >= 0) body = rows.slice(1);
  else {
    const width = Math.max(...rows.map((r) => r.cells.length));
    const digitShare = (i: number) => rows.filter((r) => /^\d{10,11}$/.test(r.cells[i] ?? '')).length;
    col = 0;
    for (let i = 1; i < width; i++) if (digitShare(i) > digitShare(col)) col = i;
    // A header row without a recognised name: skip it when its cell is not a number.
    if (!/^\d+$/.test(rows[0].cells[col] ?? '')) body = rows.slice(1);
  }
  return body.map((r) => ({ value: (r.cells[col] ?? '').trim(), line: r.line })).filter((x) => x.value);
}

export function extractTaxNumbers(text: string): TaxNumberList {
  const valid: string[] = [];
  const invalid: TaxNumberList['invalid'] = [];
  const seen = new Set<string>();
  for (const item of column(text)) {
    if (checkTaxId(item.value).valid) {
      if (!seen.has(item.value)) valid.push(item.value);
      seen.add(item.value);
    } else invalid.push(item);
  }
  return { valid, invalid };
}
