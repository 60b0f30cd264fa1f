// Bad input, CSV customer import: the Turkish Excel fixture in every layout and encoding a spreadsheet
// produces (`;` `,` tab, BOM or not, CRLF/LF/CR, UTF-8, windows-1254, UTF-16LE, any chunking), hand-
// written quoting cases, wrong or missing columns, duplicates, empty and header-only files, and a
// 100,000-row file whose expected counts come from the generator. Speed: test/bench/badInputCsv.bench.ts.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CsvError, CsvWriter, parseCsv } from '../../../src/domain/csv';
import type { CsvDelimiter } from '../../../src/domain/csv';
import { CustomerImportError, importCustomersCsvChunks, writeRejectedCsv } from '../../../src/domain/customerImport';
import type { CustomerImportResult } from '../../../src/domain/customerImport';
import { completeTckn, completeVkn } from '../../../src/domain/taxId';
import { SniffingTextDecoder, decodeText } from '../../../src/domain/textDecoding';

const FIXTURES = join(__dirname, '../../../../test/fixtures');
const FIXTURE_TEXT = readFileSync(join(FIXTURES, 'customers-tr-excel.csv'), 'utf8');
const EXPECTED_TEXT = readFileSync(join(FIXTURES, 'customers-tr-excel.expected.txt'), 'utf8');

const counts: Record<string, number> = {};
const count = (category: string, n = 1): void => {
  counts[category] = (counts[category] ?? 0) + n;
};
after(() => {
  console.log(`bad input tried (CSV import): ${Object.entries(counts).map(([k, v]) => `${k}=${v}`).join(', ')}`);
});

/** Bytes in windows-1254, built from the platform's own decoder (independent of textDecoding.ts). */
const CP1254_ENCODE: ReadonlyMap<string, number> = (() => {
  const decoder = new TextDecoder('windows-1254');
  const m = new Map<string, number>();
  for (let b = 0; b < 256; b++) m.set(decoder.decode(Uint8Array.of(b)), b);
  return m;
})();

function encodeWindows1254(text: string): Buffer {
  const out = Buffer.alloc(text.length);
  for (let i = 0; i < text.length; i++) {
    const b = CP1254_ENCODE.get(text[i]);
    if (b === undefined) throw new Error(`${text[i]} has no windows-1254 byte`);
    out[i] = b;
  }
  return out;
}

/** Bytes in x-mac-turkish, from the table Python's own codec made (test/fixtures/encodings/). */
const MAC_ENCODE: ReadonlyMap<string, number> = new Map(
  [...readFileSync(join(FIXTURES, 'encodings', 'x-mac-turkish-80-ff.txt'), 'utf8')].map((c, i) => [c, 0x80 + i] as const),
);

function encodeMacTurkish(text: string): Buffer {
  return Buffer.from([...text].map((c) => (c.charCodeAt(0) < 0x80 ? c.charCodeAt(0) : (MAC_ENCODE.get(c) ?? assert.fail(`${c} has no Mac Turkish byte`)))));
}

type Encoding = 'utf-8' | 'windows-1254' | 'x-mac-turkish' | 'utf-16le' | 'utf-16be';

function encode(text: string, encoding: Encoding): Buffer {
  if (encoding === 'windows-1254') return encodeWindows1254(text);
  if (encoding === 'x-mac-turkish') return encodeMacTurkish(text);
  if (encoding === 'utf-16le') return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  if (encoding === 'utf-16be') return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
  return Buffer.from(text, 'utf8');
}

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

function importBytes(bytes: Buffer, chunkSize = 64 * 1024): Promise<CustomerImportResult> {
  return importCustomersCsvChunks(chunksOf(bytes, chunkSize));
}

/** "valid rows: N of M" and "rejected row R: tax number X: reason" from the fixture's expected outcome. */
function fixtureExpectation(): { valid: number; total: number; rejected: Array<{ row: number; taxNumber: string; code: string; kind?: string }> } {
  const m = /valid rows: (\d+) of (\d+)/.exec(EXPECTED_TEXT);
  assert.ok(m);
  const rejected = [...EXPECTED_TEXT.matchAll(/rejected row (\d+): tax number (\d+): (.+)/g)].map((x) => {
    const kind = /bad (VKN|TCKN) checksum/.exec(x[3])?.[1];
    return { row: Number(x[1]), taxNumber: x[2], code: kind ? 'taxNumber.checksum' : 'taxNumber.length', kind };
  });
  return { valid: Number(m[1]), total: Number(m[2]), rejected };
}

function assertFixtureOutcome(r: CustomerImportResult, label: string): void {
  const want = fixtureExpectation();
  assert.equal(r.accepted.length, want.valid, label);
  assert.equal(r.accepted.length + r.rejected.length, want.total, label);
  assert.deepEqual(
    r.rejected.map((x) => ({ row: x.row, taxNumber: x.reasons[0].params.taxNumber, code: x.reasons[0].code, kind: x.reasons[0].params.kind as string | undefined })),
    want.rejected,
    label,
  );
}

describe('the Turkish Excel fixture in every layout and encoding', () => {
  const records = parseCsv(FIXTURE_TEXT).records.map((r) => r.cells);
  const reference = importBytes(Buffer.from(FIXTURE_TEXT, 'utf8'));

  const layouts: Array<{ delimiter: CsvDelimiter; bom: boolean; lineEnding: '\r\n' | '\n'; encoding: Encoding }> = [];
  for (const delimiter of [';', ',', '\t'] as const) {
    for (const lineEnding of ['\r\n', '\n'] as const) {
      layouts.push({ delimiter, bom: true, lineEnding, encoding: 'utf-8' });
      layouts.push({ delimiter, bom: false, lineEnding, encoding: 'utf-8' });
      layouts.push({ delimiter, bom: false, lineEnding, encoding: 'windows-1254' });
      layouts.push({ delimiter, bom: false, lineEnding, encoding: 'x-mac-turkish' });
      layouts.push({ delimiter, bom: false, lineEnding, encoding: 'utf-16le' });
      layouts.push({ delimiter, bom: false, lineEnding, encoding: 'utf-16be' });
    }
  }

  test(`${layouts.length} layouts × 4 chunk sizes give the fixture's expected outcome and the same customers`, async () => {
    const base = await reference;
    assertFixtureOutcome(base, 'reference');
    for (const layout of layouts) {
      const writer = new CsvWriter({ delimiter: layout.delimiter, bom: layout.bom && layout.encoding === 'utf-8', lineEnding: layout.lineEnding });
      const text = records.map((cells) => writer.row(cells)).join('');
      const bytes = encode(text, layout.encoding);
      for (const chunkSize of [1, 3, 7, 64 * 1024]) {
        const label = `${JSON.stringify(layout)} chunk ${chunkSize}`;
        const r = await importBytes(bytes, chunkSize);
        assertFixtureOutcome(r, label);
        assert.deepEqual(r.accepted.map((a) => a.customer), base.accepted.map((a) => a.customer), label);
        assert.equal(r.delimiter, layout.delimiter, label);
        assert.equal(r.encoding, layout.encoding === 'utf-8' ? undefined : layout.encoding, label);
        count('fixture layouts × chunkings');
      }
    }
  });

  test('a windows-1254 file: Turkish headers recognised, letters intact, the rejected file gets a BOM for Excel', async () => {
    const bytes = encodeWindows1254(FIXTURE_TEXT.replace(/^\uFEFF/, ''));
    // Read as UTF-8 (what the importer did before detection), every Ü of "Ünvan" is lost.
    assert.ok(bytes.toString('utf8').includes('\uFFFDnvan'));
    const r = await importBytes(bytes);
    assert.equal(r.encoding, 'windows-1254');
    assert.equal(r.hasBom, false);
    assertFixtureOutcome(r, 'windows-1254');
    assert.ok(r.accepted.some((a) => /[ĞÜŞİÖÇğüşıöç]/.test(a.customer.Name)));
    assert.ok(r.accepted.every((a) => !a.customer.Name.includes('\uFFFD')));
    assert.ok(writeRejectedCsv(r).startsWith('\uFEFF'));
    count('encodings', 1);
  });

  test('the windows-1254 decoding agrees with the platform decoder on all 256 bytes', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    assert.equal(decodeText(all, 'windows-1254'), new TextDecoder('windows-1254').decode(all));
  });

  test('the encoding is decided from the first non-ASCII byte on, also when it comes after 100 kB of ASCII or is split', () => {
    const ascii = 'Name;VKN\r\n' + 'Firma;1234567890\r\n'.repeat(6000);
    const tails = [
      ['utf-8', Buffer.from('Şişli Ünlü;4540536920\r\n', 'utf8')],
      ['windows-1254', encodeWindows1254('Şişli Ünlü;4540536920\r\n')],
      ['x-mac-turkish', encodeMacTurkish('Şişli Ünlü;4540536920\r\n')],
    ] as const;
    for (const [encoding, tail] of tails) {
      const bytes = Buffer.concat([Buffer.from(ascii, 'latin1'), tail]);
      for (const size of [1, 2, 4096, bytes.length]) {
        const decoder = new SniffingTextDecoder();
        let text = '';
        for (let i = 0; i < bytes.length; i += size) text += decoder.write(bytes.subarray(i, i + size));
        text += decoder.end();
        assert.equal(decoder.encoding, encoding, `${encoding} chunk ${size}`);
        assert.ok(text.endsWith('Şişli Ünlü;4540536920\r\n'), `${encoding} chunk ${size}`);
        assert.equal(text.length, ascii.length + 'Şişli Ünlü;4540536920\r\n'.length);
      }
      count('encodings', 1);
    }
  });
});

describe('hand-written quoting and separator cases', () => {
  const VKN = '4540536920';
  const TCKN = '10000000146';
  /** Raw file text → the Name and TaxNumber the import must read (written out, not produced by our writer). */
  const CASES: ReadonlyArray<{ what: string; csv: string; names: string[]; taxNumbers?: string[] }> = [
    { what: 'semicolon inside quotes', csv: `Ünvan;VKN\r\n"Kaya; Demir A.Ş.";${VKN}\r\n`, names: ['Kaya; Demir A.Ş.'] },
    { what: 'comma inside quotes, comma file', csv: `Name,TaxNumber\n"Kaya, Demir",${VKN}\n`, names: ['Kaya, Demir'] },
    { what: 'tab file with a quoted tab', csv: `Ünvan\tVKN\r\n"A\tB"\t${VKN}\r\n`, names: ['A\tB'] },
    { what: 'doubled quotes', csv: `Ünvan;VKN\r\n"""Yıldız"" Gıda";${VKN}\r\n`, names: ['"Yıldız" Gıda'] },
    { what: 'CRLF inside quotes', csv: `Ünvan;VKN\r\n"Satır 1\r\nSatır 2";${VKN}\r\n`, names: ['Satır 1\r\nSatır 2'] },
    { what: 'LF inside quotes, CRLF file', csv: `Ünvan;VKN\r\n"Satır 1\nSatır 2";${VKN}\r\n`, names: ['Satır 1\nSatır 2'] },
    { what: 'quoted empty field then value', csv: `Ünvan;Vergi Dairesi;VKN\r\nFirma;"";${VKN}\r\n`, names: ['Firma'] },
    { what: 'stray quote inside an unquoted field is text', csv: `Ünvan;VKN\r\n12" Boru Ltd;${VKN}\r\n`, names: ['12" Boru Ltd'] },
    { what: 'CR-only line endings (old Mac Excel)', csv: `Ünvan;VKN\rA;${VKN}\rB;${TCKN}\r`, names: ['A', 'B'] },
    { what: 'no final newline', csv: `Ünvan;VKN\r\nA;${VKN}`, names: ['A'] },
    { what: 'blank lines between rows', csv: `Ünvan;VKN\r\n\r\nA;${VKN}\r\n\r\n\r\nB;${TCKN}\r\n`, names: ['A', 'B'] },
    { what: 'quoted header cells and BOM', csv: `\uFEFF"Ünvan";"VKN/TCKN"\r\n"A";"${VKN}"\r\n`, names: ['A'] },
    { what: 'header with extra spaces and case', csv: `  ünvan  ; vkn / tckn \r\nA; ${VKN} \r\n`, names: ['A'], taxNumbers: [VKN] },
    { what: 'columns in another order with unknown extras', csv: `Not;VKN;Bilgi;Ünvan\r\nx;${VKN};y;A\r\n`, names: ['A'] },
    { what: 'short row (missing trailing cells)', csv: `Ünvan;VKN;Adres;İl\r\nA;${VKN}\r\n`, names: ['A'] },
  ];

  test(`${CASES.length} raw CSV texts read as a spreadsheet would`, async () => {
    for (const c of CASES) {
      for (const size of [1, 1024]) {
        const r = await importBytes(Buffer.from(c.csv, 'utf8'), size);
        assert.deepEqual(r.rejected.map((x) => x.reasons.map((y) => y.message)), [], c.what);
        assert.deepEqual(r.accepted.map((a) => a.customer.Name), c.names, c.what);
        if (c.taxNumbers) assert.deepEqual(r.accepted.map((a) => a.customer.TaxNumber), c.taxNumbers, c.what);
      }
      count('quoting/separator cases');
    }
  });

  test('an unterminated quote is a CsvError naming the line where it opened', async () => {
    const csv = `Ünvan;VKN\r\nA;${VKN}\r\n"Kapanmayan;${VKN}\r\nB;${TCKN}\r\n`;
    await assert.rejects(importBytes(Buffer.from(csv, 'utf8')), (e: unknown) => e instanceof CsvError && e.line === 3 && /line 3/.test(e.message));
    count('quoting/separator cases');
  });
});

describe('wrong columns, duplicates, empty input', () => {
  const VKN = completeVkn('123123123');
  const CASES: ReadonlyArray<{ header: string; missing: string[] }> = [
    { header: 'Firma Unvanı Yok;VKN', missing: ['Name'] },
    { header: 'Ünvan;Vergi No Yok', missing: ['TaxNumber'] },
    { header: 'Müşteri;Numara', missing: ['Name', 'TaxNumber'] },
    { header: 'Name,TaxNumbr,City', missing: ['TaxNumber'] },
    { header: `Ünvan;${VKN}`, missing: ['TaxNumber'] }, // a data row taken for a header
    { header: 'a\tb\tc', missing: ['Name', 'TaxNumber'] },
  ];

  test('missing columns: one error naming the missing fields and every header found', async () => {
    for (const c of CASES) {
      const csv = `${c.header}\r\nx;${VKN}\r\n`;
      await assert.rejects(importBytes(Buffer.from(csv, 'utf8')), (e: unknown) => {
        assert.ok(e instanceof CustomerImportError, c.header);
        assert.equal(e.issue.code, 'columns.missing');
        assert.deepEqual(e.issue.params.missing, c.missing, c.header);
        for (const m of c.missing) assert.match(e.message, new RegExp(`\\b${m}\\b`), c.header);
        for (const h of parseCsv(c.header).records[0].cells) assert.ok(e.message.includes(`"${h.trim()}"`), `${c.header}: names "${h}"`);
        return true;
      });
      count('wrong/missing columns');
    }
  });

  test('empty, BOM-only, blank-lines-only input: the same clear error, with "(none)" found', async () => {
    for (const bytes of [Buffer.alloc(0), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\r\n\r\n\n'), Buffer.from([0xff, 0xfe])]) {
      await assert.rejects(importBytes(bytes), (e: unknown) => e instanceof CustomerImportError && e.issue.code === 'columns.missing' && /\(none\)/.test(e.message));
      count('empty inputs');
    }
  });

  test('header only: nothing accepted or rejected, no error', async () => {
    for (const csv of ['Ünvan;VKN', 'Ünvan;VKN\r\n', '\uFEFFÜnvan;VKN\r\n\r\n']) {
      const r = await importBytes(Buffer.from(csv, 'utf8'));
      assert.deepEqual([r.accepted.length, r.rejected.length], [0, 0], JSON.stringify(csv));
      count('header only');
    }
  });

  test('duplicate rows: the first copy is accepted, every repeat rejected naming the first row', async () => {
    const other = completeTckn('234567891');
    const rows = [`A;${VKN}`, `A;${VKN}`, `B;${other}`, `A again;${VKN}`, `B;${other}`, `C; ${VKN} `];
    const r = await importBytes(Buffer.from(['Ünvan;VKN', ...rows].join('\r\n'), 'utf8'));
    assert.deepEqual(r.accepted.map((a) => a.row), [1, 3]);
    assert.deepEqual(r.rejected.map((x) => [x.row, x.reasons[0].code, x.reasons[0].params.firstRow]), [
      [2, 'taxNumber.duplicate', 1],
      [4, 'taxNumber.duplicate', 1],
      [5, 'taxNumber.duplicate', 3],
      [6, 'taxNumber.duplicate', 1],
    ]);
    count('duplicate rows', 4);
  });
});

describe('100,000 rows', () => {
  test('streamed with quoted fields, `;` and a BOM: every row counted in the right place', async () => {
    const ROWS = 100_000;
    const writer = new CsvWriter({ delimiter: ';', bom: true });
    const want = { accepted: 0, checksum: 0, duplicate: 0, nameEmpty: 0 };
    let firstTax: string | undefined;
    let text = writer.row(['Ünvan', 'VKN/TCKN', 'Adres', 'İhracat']);
    for (let i = 0; i < ROWS; i++) {
      let tax = i % 3 === 0 ? completeTckn(String(100_000_000 + i * 7)) : completeVkn(String(200_000_000 + i * 11));
      let name = `Şirket ${i}${i % 7 === 0 ? '; "Ltd"\r\nŞube' : ''}`;
      const kind = i % 10 === 3 ? 'checksum' : i % 25 === 4 && i > 0 ? 'duplicate' : i % 40 === 9 ? 'nameEmpty' : 'ok';
      if (kind === 'checksum') tax = tax.slice(0, -1) + ((Number(tax.slice(-1)) + 1) % 10);
      if (kind === 'duplicate') tax = firstTax!;
      if (kind === 'nameEmpty') name = '';
      if (kind === 'ok') {
        want.accepted++;
        firstTax ??= tax;
      } else want[kind]++;
      text += writer.row([name, tax, `Adres ${i}`, i % 2 ? 'Evet' : 'Hayır']);
    }
    const r = await importBytes(Buffer.from(text, 'utf8'));
    const codes = new Map<string, number>();
    for (const x of r.rejected) codes.set(x.reasons[0].code, (codes.get(x.reasons[0].code) ?? 0) + 1);
    assert.equal(r.accepted.length, want.accepted);
    assert.equal(codes.get('taxNumber.checksum'), want.checksum);
    assert.equal(codes.get('taxNumber.duplicate'), want.duplicate);
    assert.equal(codes.get('name.empty'), want.nameEmpty);
    assert.equal(r.accepted.length + r.rejected.length, ROWS);
    // Multi-line records count once: the last row number is the row count.
    assert.equal(Math.max(r.accepted.at(-1)!.row, r.rejected.at(-1)!.row), ROWS);
    assert.equal(r.accepted.find((a) => a.row === 8)!.customer.Name, 'Şirket 7; "Ltd"\r\nŞube');
    count('100k-row file rows', ROWS);
  });
});
