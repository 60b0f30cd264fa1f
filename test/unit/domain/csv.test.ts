import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CsvError, CsvReader, CsvWriter, detectDelimiter, formatCsvField, parseCsv, readCsvChunks, writeCsv } from '../../../src/domain/csv';
import type { CsvDelimiter, CsvRecord } from '../../../src/domain/csv';

const cellsOf = (records: CsvRecord[]): string[][] => records.map((r) => r.cells);

/** Feeds the text split at the given offsets and collects every record. */
function parseInPieces(text: string, cuts: number[]): CsvRecord[] {
  const reader = new CsvReader();
  const out: CsvRecord[] = [];
  let prev = 0;
  for (const c of [...cuts, text.length]) {
    out.push(...reader.push(text.slice(prev, c)));
    prev = c;
  }
  out.push(...reader.end());
  return out;
}

test('detects the delimiter from the header line, ignoring quoted ones', () => {
  assert.equal(detectDelimiter('a,b,c'), ',');
  assert.equal(detectDelimiter('Ünvan;VKN/TCKN;Adres'), ';');
  assert.equal(detectDelimiter('a\tb\tc'), '\t');
  assert.equal(detectDelimiter('"x;y;z",b,c'), ',');
  assert.equal(detectDelimiter('single'), ',');
  assert.equal(parseCsv('a;b\r\n1;2\r\n').delimiter, ';');
  assert.equal(parseCsv('a\tb\n1\t2').delimiter, '\t');
  assert.deepEqual(cellsOf(parseCsv('a\tb\n1,5\t2').records), [['a', 'b'], ['1,5', '2']]);
});

test('a given delimiter wins over detection', () => {
  const r = parseCsv('a;b,c\n1;2,3\n', { delimiter: ',' });
  assert.deepEqual(cellsOf(r.records), [['a;b', 'c'], ['1;2', '3']]);
});

test('strips and reports a UTF-8 BOM', () => {
  const withBom = parseCsv('\uFEFFÜnvan;VKN\r\nA;1\r\n');
  assert.equal(withBom.hasBom, true);
  assert.deepEqual(withBom.records[0].cells, ['Ünvan', 'VKN']);
  const without = parseCsv('Ünvan;VKN\r\nA;1\r\n');
  assert.equal(without.hasBom, false);
  assert.deepEqual(without.records[0].cells, ['Ünvan', 'VKN']);
});

test('RFC 4180 quoting: delimiters, doubled quotes and line breaks inside quotes', () => {
  const text = 'name;note;n\r\n"a;b";"say ""hi""";1\r\n"multi\r\nline\nfield";"";2\r\nplain;x"y;3\r\n';
  const { records } = parseCsv(text);
  assert.deepEqual(cellsOf(records), [
    ['name', 'note', 'n'],
    ['a;b', 'say "hi"', '1'],
    ['multi\r\nline\nfield', '', '2'],
    ['plain', 'x"y', '3'],
  ]);
  // Records start on physical lines 1, 2, 3 and 6 (the quoted field spans three lines).
  assert.deepEqual(records.map((r) => r.line), [1, 2, 3, 6]);
});

test('CRLF, LF and lone CR line endings; empty fields kept; empty lines and the final newline add no record', () => {
  for (const eol of ['\r\n', '\n', '\r']) {
    const { records } = parseCsv(`a,b,c${eol}1,,3${eol}${eol},,${eol}x,y,z${eol}`);
    assert.deepEqual(cellsOf(records), [['a', 'b', 'c'], ['1', '', '3'], ['', '', ''], ['x', 'y', 'z']], JSON.stringify(eol));
    assert.deepEqual(records.map((r) => r.line), [1, 2, 4, 5], JSON.stringify(eol));
  }
  assert.deepEqual(cellsOf(parseCsv('a,b\n1,2').records), [['a', 'b'], ['1', '2']]);
});

test('split at every position, the chunked reader gives the same records and line numbers', () => {
  const text = '\uFEFFÜnvan;VKN;Adres\r\n"A;B ""Ltd""";123;"x\r\ny"\r\nÇ;456;z\r"q\r\n";7;\n"";"";""\r\n';
  const whole = parseCsv(text).records;
  assert.equal(whole.length, 5);
  for (let i = 0; i <= text.length; i++) {
    assert.deepEqual(parseInPieces(text, [i]), whole, `cut at ${i}`);
  }
  for (let i = 0; i < text.length; i++) {
    for (let j = i + 1; j < text.length; j += 3) assert.deepEqual(parseInPieces(text, [i, j]), whole, `cuts at ${i},${j}`);
  }
  // One character per chunk.
  assert.deepEqual(parseInPieces(text, [...Array(text.length).keys()].slice(1)), whole);
});

test('an unterminated quote is a clear error naming the line where it opened', () => {
  const reader = new CsvReader();
  reader.push('a;b\n1;2\n3;"never closed\nmore\n');
  assert.throws(() => reader.end(), (e: unknown) => e instanceof CsvError && e.line === 3 && /line 3/.test(e.message));
  assert.throws(() => parseCsv('"abc'), CsvError);
  // A quote closed right at the end is fine.
  assert.deepEqual(cellsOf(parseCsv('a\n"x"').records), [['a'], ['x']]);
});

test('streams bytes split inside multi-byte characters, and reads files as a stream', async () => {
  const text = 'Ünvan;İl\r\nŞahin Ğ;İzmir\r\n"Çok;satırlı\r\nünvan";Muğla\r\n';
  const bytes = Buffer.from('\uFEFF' + text, 'utf8');
  async function* oneBytePieces(): AsyncGenerator<Buffer> {
    for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
  }
  const reader = new CsvReader();
  const got: CsvRecord[] = [];
  for await (const r of readCsvChunks(oneBytePieces(), reader)) got.push(r);
  assert.deepEqual(got, parseCsv(text).records);
  assert.equal(reader.hasBom, true);
  assert.equal(reader.delimiter, ';');

  const dir = mkdtempSync(join(tmpdir(), 'csv-test-'));
  try {
    const file = join(dir, 'x.csv');
    writeFileSync(file, bytes);
    const fromFile: CsvRecord[] = [];
    for await (const r of readCsvChunks(createReadStream(file))) fromFile.push(r);
    assert.deepEqual(cellsOf(fromFile), [['Ünvan', 'İl'], ['Şahin Ğ', 'İzmir'], ['Çok;satırlı\r\nünvan', 'Muğla']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('writer quotes only where needed and keeps the delimiter', () => {
  assert.equal(formatCsvField('plain', ';'), 'plain');
  assert.equal(formatCsvField('a,b', ';'), 'a,b');
  assert.equal(formatCsvField('a;b', ';'), '"a;b"');
  assert.equal(formatCsvField('a,b', ','), '"a,b"');
  assert.equal(formatCsvField('tab\there', '\t'), '"tab\there"');
  assert.equal(formatCsvField('say "hi"'), '"say ""hi"""');
  assert.equal(formatCsvField('two\nlines'), '"two\nlines"');
  assert.equal(formatCsvField('cr\ronly'), '"cr\ronly"');
  assert.equal(formatCsvField(''), '');
  assert.equal(writeCsv([['a', 'b;c'], ['1', '2']], { delimiter: ';' }), 'a;"b;c"\r\n1;2\r\n');
  assert.equal(writeCsv([['a']], { lineEnding: '\n' }), 'a\n');
});

test('writer adds the BOM once, at the start', () => {
  const w = new CsvWriter({ bom: true, delimiter: ';' });
  const out = w.row(['Ünvan', 'VKN']) + w.row(['A', '1']);
  assert.equal(out, '\uFEFFÜnvan;VKN\r\nA;1\r\n');
  assert.equal(writeCsv([['x']]).charCodeAt(0), 'x'.charCodeAt(0));
});

test('formula guard applies only when asked, to =, +, - and @, and leaves numbers and phone numbers as they are', () => {
  const risky = ['=SUM(A1)', '+905321234567', '-2+3', '@cmd', '=1;2'];
  for (const v of risky) assert.equal(formatCsvField(v, ';'), v.includes(';') ? `"${v}"` : v, v);
  assert.equal(formatCsvField('=SUM(A1)', ';', true), "'=SUM(A1)");
  assert.equal(formatCsvField('+905321234567', ';', true), '+905321234567');
  assert.equal(formatCsvField('-2+A3', ';', true), "'-2+A3");
  assert.equal(formatCsvField('@cmd', ';', true), "'@cmd");
  assert.equal(formatCsvField('=1;2', ';', true), `"'=1;2"`);
  assert.equal(formatCsvField('safe=1', ';', true), 'safe=1');
  assert.equal(writeCsv([['=x', 'y']], { guardFormulas: true }), "'=x,y\r\n");
});

test('what the writer writes, the reader reads back unchanged (every delimiter)', () => {
  const rows: string[][] = [['h1', 'h2', 'h3', 'h4']];
  const alphabet = ['a', ',', ';', '\t', '"', '\n', '\r\n', 'ş', ' ', 'İ', '=', ''];
  for (let i = 0; i < 300; i++) {
    const row: string[] = [];
    for (let c = 0; c < 4; c++) {
      let v = '';
      for (let k = 0; k < (i * 7 + c * 3) % 6; k++) v += alphabet[(i * 31 + c * 17 + k * 13) % alphabet.length];
      row.push(v);
    }
    // A row of only empty cells reads back as empty cells (not skipped) because it has delimiters.
    rows.push(row);
  }
  for (const delimiter of [',', ';', '\t'] as CsvDelimiter[]) {
    for (const bom of [false, true]) {
      const text = writeCsv(rows, { delimiter, bom });
      const parsed = parseCsv(text);
      assert.equal(parsed.delimiter, delimiter);
      assert.equal(parsed.hasBom, bom);
      assert.deepEqual(cellsOf(parsed.records), rows, `delimiter ${JSON.stringify(delimiter)} bom ${bom}`);
    }
  }
});
