// CSV reading and writing (RFC 4180 plus what spreadsheet exports really do: a UTF-8 BOM, `;` from
// Turkish Excel, tab-separated copies, CRLF or LF). The reader is incremental: feed it chunks and it
// hands back complete records, so a large file never has to be one string.

import { SniffingTextDecoder, StreamDecoder, type SourceEncoding } from './textDecoding';
import { guardFormula } from './formulaGuard';

export type CsvDelimiter = ',' | ';' | '\t';

export const CSV_DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t'];

export interface CsvRecord {
  cells: string[];
  /** 1-based physical line on which the record starts (a quoted line break makes records span lines). */
  line: number;
}

export class CsvError extends Error {
  constructor(
    /** Line on which the offending quoted field opened. */
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'CsvError';
  }
}

/** Picks the candidate that occurs most often outside quotes in the first line (ties: `,` then `;`). */
export function detectDelimiter(headerLine: string): CsvDelimiter {
  const counts = new Map<CsvDelimiter, number>(CSV_DELIMITERS.map((d) => [d, 0]));
  let inQuotes = false;
  for (const ch of headerLine) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && counts.has(ch as CsvDelimiter)) counts.set(ch as CsvDelimiter, counts.get(ch as CsvDelimiter)! + 1);
  }
  return CSV_DELIMITERS.reduce((best, d) => (counts.get(d)! > counts.get(best)! ? d : best));
}

export const QUOTE = 34;
export const CR = 13;
export const LF = 10;

/**
 * Incremental CSV reader. `push` returns the records completed by the chunk; `end` returns the
 * last one and throws a CsvError when a quoted field never closes.
 */
export class CsvReader {
  /** The delimiter in use (detected or given); undefined until the header line has been seen. */
  delimiter: CsvDelimiter | undefined;
  hasBom = false;
  /** The encoding readCsvChunks detected in the bytes (undefined for text input or pure ASCII). */
  sourceEncoding: SourceEncoding | undefined;
  private delimiterCode = -1;
  private started = false;
  /** Chunks held back until the header line is complete (only before the delimiter is known). */
  private preamble: string[] = [];
  /** Whether the held-back text ends inside quotes: each chunk is searched for the header's end once. */
  private preambleInQuotes = false;

  // Parse state that survives chunk boundaries.
  private field = '';
  private cells: string[] = [];
  private inQuotes = false;
  /** Inside quotes we saw `"`: it either closes the field or starts a `""` escape. */
  private quotePending = false;
  /** The previous chunk ended in a record-ending CR: a leading LF in the next chunk belongs to it. */
  private crPending = false;
  /** Same inside a quoted field, where the LF stays in the value but is not a new line. */
  private quotedCrPending = false;
  private line = 1;
  private recordLine = 1;
  private quoteOpenedOnLine = 1;
  /** The current record has content (so an empty line can be told apart from an empty field). */
  private recordHasContent = false;

  /** A fixed delimiter, or none to detect it from the header line. */
  constructor(options: { delimiter?: CsvDelimiter } = {}) {
    if (options.delimiter) this.setDelimiter(options.delimiter);
  }

  push(chunk: string): CsvRecord[] {
    if (!this.started) {
      if (chunk.length === 0) return [];
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) {
        this.hasBom = true;
        chunk = chunk.slice(1);
      }
    }
    const out: CsvRecord[] = [];
    if (this.delimiterCode < 0) {
      // Only the new chunk is searched (with the quote state the held-back ones ended in): searching
      // the whole held-back text again for each chunk made a 30 MB header line cost 16 s.
      const found = lineBreakOutsideQuotes(chunk, 0, this.preambleInQuotes);
      this.preamble.push(chunk);
      if (found.at < 0) {
        this.preambleInQuotes = found.inQuotes;
        return out;
      }
      const held = this.preamble.join('');
      this.setDelimiter(detectDelimiter(held.slice(0, held.length - chunk.length + found.at)));
      chunk = held;
      this.preamble = [];
    }
    this.scan(chunk, out);
    return out;
  }

  end(): CsvRecord[] {
    const out: CsvRecord[] = [];
    if (this.delimiterCode < 0) {
      const rest = this.preamble.join('');
      this.setDelimiter(detectDelimiter(rest));
      this.preamble = [];
      this.scan(rest, out);
    }
    if (this.inQuotes && !this.quotePending) {
      throw new CsvError(this.quoteOpenedOnLine, `Unterminated quoted field: the quote opened on line ${this.quoteOpenedOnLine} is never closed.`);
    }
    this.inQuotes = false;
    this.quotePending = false;
    if (this.recordHasContent || this.cells.length > 0 || this.field.length > 0) this.finishRecord(out);
    return out;
  }

  private setDelimiter(d: CsvDelimiter): void {
    this.delimiter = d;
    this.delimiterCode = d.charCodeAt(0);
  }

  private finishRecord(out: CsvRecord[]): void {
    this.cells.push(this.field);
    // A record from an entirely empty line is dropped.
    if (this.recordHasContent || this.cells.length > 1 || this.field !== '') {
      out.push({ cells: this.cells, line: this.recordLine });
    }
    this.cells = [];
    this.field = '';
    this.recordHasContent = false;
  }

  private scan(text: string, out: CsvRecord[]): void {
    const delim = this.delimiterCode;
    const n = text.length;
    let i = 0;
    if (this.crPending) {
      this.crPending = false;
      if (n > 0 && text.charCodeAt(0) === LF) i = 1;
    }
    while (i < n) {
      if (this.quotePending) {
        this.quotePending = false;
        if (text.charCodeAt(i) === QUOTE) {
          this.field += '"';
          i++;
          continue;
        }
        this.inQuotes = false; // the quote closed the field; fall through to unquoted handling
      }
      if (this.inQuotes) {
        // Copy the run up to the closing quote in one slice, escaped quotes (`""`) in it included and
        // unescaped by one replace (a field of a million `""` was two million pieces joined); count
        // the line breaks it holds. A quote that ends the chunk waits for the next (quotePending).
        let q = text.indexOf('"', i);
        let escaped = false;
        while (q >= 0 && q + 1 < n && text.charCodeAt(q + 1) === QUOTE) {
          escaped = true;
          q = text.indexOf('"', q + 2);
        }
        const stop = q < 0 ? n : q;
        const run = text.slice(i, stop);
        this.field += escaped ? run.replaceAll('""', '"') : run;
        this.countLineBreaks(run);
        if (q < 0) return;
        this.quotedCrPending = false;
        this.quotePending = true;
        i = q + 1;
        continue;
      }
      // Unquoted: scan to the next delimiter, quote or line break.
      const start = i;
      let c = 0;
      while (i < n) {
        c = text.charCodeAt(i);
        if (c === delim || c === QUOTE || c === CR || c === LF) break;
        i++;
      }
      if (i > start) {
        this.field += text.slice(start, i);
        this.recordHasContent = true;
      }
      if (i >= n) return;
      if (c === delim) {
        this.cells.push(this.field);
        this.field = '';
        this.recordHasContent = true;
        i++;
      } else if (c === QUOTE) {
        this.recordHasContent = true;
        if (this.field.length === 0) {
          this.inQuotes = true;
          this.quoteOpenedOnLine = this.line;
        } else {
          this.field += '"'; // a stray quote inside an unquoted field is kept as text (Excel does the same)
        }
        i++;
      } else {
        this.finishRecord(out);
        this.line++;
        if (c === CR) {
          if (i + 1 < n) {
            if (text.charCodeAt(i + 1) === LF) i++;
          } else {
            this.crPending = true;
          }
        }
        i++;
        this.recordLine = this.line;
      }
    }
  }

  /** Counts line breaks inside a quoted run (CRLF counts once, also when a chunk ends between CR and LF). */
  private countLineBreaks(run: string): void {
    for (let k = 0; k < run.length; k++) {
      const c = run.charCodeAt(k);
      if (c === LF) {
        if (k === 0 && this.quotedCrPending) continue;
        this.line++;
      } else if (c === CR) {
        this.line++;
        if (k + 1 < run.length && run.charCodeAt(k + 1) === LF) k++;
      }
    }
    if (run.length > 0) this.quotedCrPending = run.charCodeAt(run.length - 1) === CR;
  }
}

/** Index of the first line break outside quotes from `from` on, or -1 if the text holds none yet. */
export function endOfFirstLine(text: string, from = 0): number {
  return lineBreakOutsideQuotes(text, from, false).at;
}

/** The first line break outside quotes from `from` on (-1: none), and whether the text ends inside quotes. */
function lineBreakOutsideQuotes(text: string, from: number, inQuotes: boolean): { at: number; inQuotes: boolean } {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) inQuotes = !inQuotes;
    else if (!inQuotes && (c === LF || c === CR)) return { at: i, inQuotes };
  }
  return { at: -1, inQuotes };
}

export interface ParsedCsv {
  records: CsvRecord[];
  delimiter: CsvDelimiter;
  hasBom: boolean;
}

export function parseCsv(text: string, options: { delimiter?: CsvDelimiter } = {}): ParsedCsv {
  const reader = new CsvReader(options);
  const records = reader.push(text);
  records.push(...reader.end());
  return { records, delimiter: reader.delimiter ?? ',', hasBom: reader.hasBom };
}

/**
 * Reads CSV records from byte or text chunks (a file stream, an HTTP body...), bytes decoded in `encoding`
 * or the one they show (SniffingTextDecoder). `reader` exposes the detected delimiter, BOM and encoding.
 */
export async function* readCsvChunks(
  source: AsyncIterable<Buffer | Uint8Array | string>,
  reader: CsvReader = new CsvReader(),
  encoding?: SourceEncoding,
): AsyncGenerator<CsvRecord> {
  const decoder = encoding ? new StreamDecoder(encoding) : new SniffingTextDecoder();
  for await (const chunk of source) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    reader.sourceEncoding = decoder.encoding;
    yield* reader.push(text);
  }
  yield* reader.push(decoder.end());
  reader.sourceEncoding = decoder.encoding;
  yield* reader.end();
}

export interface CsvWriterOptions {
  delimiter?: CsvDelimiter;
  /** Start the output with a UTF-8 BOM (Excel needs it to read UTF-8). */
  bom?: boolean;
  /** Defaults to CRLF as RFC 4180 says. */
  lineEnding?: '\r\n' | '\n';
  /**
   * Prefix values that start with `=`, `+`, `-` or `@` with an apostrophe so a spreadsheet shows them
   * as text instead of running them as formulas. Off by default because it changes the data
   * (a phone number "+90..." gains a leading apostrophe).
   */
  guardFormulas?: boolean;
}

/** One field, quoted only when it holds the delimiter, a quote or a line break. */
export function formatCsvField(value: string, delimiter: CsvDelimiter = ',', guardFormulas = false): string {
  let v = value;
  if (guardFormulas) v = guardFormula(v);
  if (v.includes(delimiter) || v.includes('"') || v.includes('\n') || v.includes('\r')) {
    return '"' + v.replace(/"/g, '""') + '"';
  }
  return v;
}

/**
 * Produces CSV text piece by piece: the first piece carries the BOM when asked for, each `row` call
 * returns exactly one record (with its line ending), so callers can write to a stream as they go.
 */
export class CsvWriter {
  private first = true;
  constructor(private readonly options: CsvWriterOptions = {}) {}

  row(cells: readonly string[]): string {
    const { delimiter = ',', guardFormulas = false, lineEnding = '\r\n' } = this.options;
    const text = cells.map((cell) => formatCsvField(cell ?? '', delimiter, guardFormulas)).join(delimiter) + lineEnding;
    const bom = this.first && this.options.bom;
    this.first = false;
    return bom ? '\uFEFF' + text : text;
  }
}

export function writeCsv(rows: Iterable<readonly string[]>, options: CsvWriterOptions = {}): string {
  const w = new CsvWriter(options);
  let s = '';
  for (const r of rows) s += w.row(r);
  return s;
}
