// Finds the tax-number columns of a CSV text by their header (src/domain/headerMatch.ts) and the
// document range of every cell in them, for the editor: one pass that builds only the values it needs.
import { CR, detectDelimiter, endOfFirstLine, LF, QUOTE, type CsvDelimiter } from './csv';
import { isTaxNumberHeader } from './headerMatch';

export interface CsvTaxColumn {
  index: number;
  header: string;
}

export interface CsvTaxCell {
  /** 0-based record index; the header is record 0, so data cells start at 1. */
  record: number;
  column: number;
  /** The cell's value, unquoted and trimmed. */
  value: string;
  /** Document range of the trimmed value (inside the quotes of a quoted cell). */
  start: number;
  end: number;
}

export interface CsvScan {
  delimiter: CsvDelimiter;
  columns: CsvTaxColumn[];
  cells: CsvTaxCell[];
}

interface RawCell {
  value: string;
  start: number;
  end: number;
}

/**
 * Reads one cell starting at `i`; returns it and the index just after it (at a separator, a line
 * break or the end). `wanted` false skips building the value.
 */
function readCell(text: string, i: number, delimiter: number, wanted: boolean): { cell: RawCell | undefined; next: number } {
  // Spreadsheets write `a, "b"`: blanks before an opening quote do not make the quote literal.
  let k = i;
  while (text.charCodeAt(k) === 32 || (text.charCodeAt(k) === 9 && delimiter !== 9)) k++;
  if (text.charCodeAt(k) === QUOTE) {
    const start = k + 1;
    let j = start;
    let value = '';
    let chunkStart = start;
    for (;;) {
      const q = text.indexOf('"', j);
      if (q < 0) {
        // Unterminated quote: the cell runs to the end.
        if (wanted) value += text.slice(chunkStart);
        return { cell: wanted ? trimmed(value, start, text.length, text) : undefined, next: text.length };
      }
      if (text.charCodeAt(q + 1) === QUOTE) {
        if (wanted) value += text.slice(chunkStart, q + 1);
        j = q + 2;
        chunkStart = j;
        continue;
      }
      if (wanted) value += text.slice(chunkStart, q);
      let next = q + 1;
      // Junk after the closing quote belongs to the same cell.
      while (next < text.length && !isCellEnd(text.charCodeAt(next), delimiter)) next++;
      return { cell: wanted ? trimmed(value, start, q, text) : undefined, next };
    }
  }
  let j = i;
  while (j < text.length && !isCellEnd(text.charCodeAt(j), delimiter)) j++;
  return { cell: wanted ? trimmed(text.slice(i, j), i, j, text) : undefined, next: j };
}

function isCellEnd(c: number, delimiter: number): boolean {
  return c === delimiter || c === LF || c === CR;
}

/** Trims the value and narrows [start, end) to it when the raw text equals the value (no escaped quotes). */
function trimmed(value: string, start: number, end: number, text: string): RawCell {
  const v = value.trim();
  if (v.length === 0) return { value: v, start, end: start };
  if (text.slice(start, end) === value) {
    const lead = value.length - value.trimStart().length;
    return { value: v, start: start + lead, end: start + lead + v.length };
  }
  return { value: v, start, end };
}

export function scanCsv(text: string): CsvScan {
  const from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const headerEnd = endOfFirstLine(text, from);
  const delimiter = detectDelimiter(text.slice(from, headerEnd < 0 ? undefined : headerEnd));
  const delimiterCode = delimiter.charCodeAt(0);
  const scan: CsvScan = { delimiter, columns: [], cells: [] };
  let wanted = new Set<number>();
  let record = 0;
  let column = 0;
  let i = from;
  let headerCells: string[] = [];
  while (i <= text.length) {
    const isHeader = record === 0;
    const { cell, next } = readCell(text, i, delimiterCode, isHeader || wanted.has(column));
    if (isHeader && cell) headerCells.push(cell.value);
    else if (cell && cell.value.length > 0) scan.cells.push({ record, column, ...cell });
    i = next;
    const c = text.charCodeAt(i);
    if (c === delimiterCode) {
      column++;
      i++;
      continue;
    }
    // End of record (line break or end of text).
    if (isHeader) {
      headerCells.forEach((h, index) => {
        // An empty header names nothing (and a line of 200,000 separators is 200,000 of them).
        if (h && isTaxNumberHeader(h)) scan.columns.push({ index, header: h });
      });
      wanted = new Set(scan.columns.map((col) => col.index));
      headerCells = [];
      if (wanted.size === 0) return scan;
    }
    if (i >= text.length) break;
    if (c === CR && text.charCodeAt(i + 1) === LF) i += 2;
    else i++;
    record++;
    column = 0;
  }
  return scan;
}
