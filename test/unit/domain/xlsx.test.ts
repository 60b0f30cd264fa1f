// The .xlsx reader and writer (src/domain/xlsx*.ts) and the customer import/export through them: a round
// trip of 2,000 customers checked by an independent reader (exceljs), workbooks as Excel for Windows,
// Excel for Mac and LibreOffice save them (built here from literal XML), the Turkish Excel fixture as a
// workbook giving the CSV import's outcome, and the messages for damaged and encrypted workbooks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { parseCsv } from '../../../src/domain/csv';
import { importCustomersCsvChunks, type CustomerRecord } from '../../../src/domain/customerImport';
import { completeTckn, completeVkn } from '../../../src/domain/taxId';
import { exportCustomersXlsx, importCustomersXlsx, writeRejectedXlsx } from '../../../src/domain/xlsxCustomers';
import { isDateFormatCode, numberText, readWorkbook, serialToIso } from '../../../src/domain/xlsxRead';
import { writeWorkbook } from '../../../src/domain/xlsxWrite';
import { XlsxError } from '../../../src/domain/xlsxZip';
import { spreadsheetFormatOf, spreadsheetSaveChoice } from '../../../src/files/userFiles';
import { reconciliationWorkbook, type ExportLabels } from '../../../src/reconciliation/export';
import type { ReconciliationReport } from '../../../src/reconciliation/report';
import { buildWorkbook, excelJs, inl, num, sst } from './xlsxFixtures';

const FIXTURES = join(__dirname, '../../../../test/fixtures');

const TURKISH = ['Çağlar', 'Şükrü', 'Gülşen', 'İpek', 'Öztürk', 'Ilgın', 'Ağaoğlu', 'Düzgün', 'ÇĞİÖŞÜ', 'ığüşöç'];

/** 2,000 customers: a third with leading-zero VKNs, a third TCKNs, the rest VKNs; Turkish names, IBANs, +90 phones. */
function customers(n = 2000): CustomerRecord[] {
  return Array.from({ length: n }, (_, i) => {
    const taxNumber = i === 0 ? '0730871159' : i % 3 === 0 ? completeVkn('0' + String(10_000_000 + i * 37).slice(-8)) : i % 3 === 1 ? completeTckn(String(100_000_000 + i * 7919).slice(0, 9)) : completeVkn(String(100_000_000 + i * 4243).slice(0, 9));
    const iban = `TR${String(10 + (i % 89))}0006${String(1_000_000_000_000_000 + i * 7_777_777).padStart(18, '0')}`;
    return {
      TaxNumber: taxNumber,
      Name: `${TURKISH[i % TURKISH.length]} ${TURKISH[(i * 7) % TURKISH.length]} Gıda Sanayi ve Ticaret A.Ş. ${i}`,
      TaxDepartment: i % 2 ? 'Çankaya' : 'Kadıköy',
      Address: `IBAN ${iban}\nAtatürk Bulvarı No:${i}`,
      Country: 'Türkiye',
      City: i % 2 ? 'Ankara' : 'İstanbul',
      District: i % 2 ? 'Çankaya' : 'Kadıköy',
      PostalCode: i % 2 ? '06100' : '34710',
      Phone: `+90 5${String(320_000_000 + i).slice(0, 9)}`,
      Fax: i % 5 ? '' : `0212 555 ${String(i % 100).padStart(2, '0')} ${String(i % 97).padStart(2, '0')}`,
      Email: `info${i}@ornek.com.tr`,
      WebSite: i % 4 ? '' : `https://ornek${i}.com.tr`,
      IsExport: i % 10 === 0,
    };
  });
}

test('round trip: 2,000 customers exported as .xlsx, read by exceljs and by our import, every value equal', async () => {
  const source = customers();
  assert.ok(source.filter((c) => c.TaxNumber.startsWith('0')).length > 600, 'leading-zero VKNs');
  const bytes = await exportCustomersXlsx(source, { headers: 'tr' });

  // The independent reader sees text cells (a string value, Text format), a frozen header, widths that fit.
  const ExcelJS = excelJs();
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(bytes) as never);
  const sheet = book.worksheets[0];
  assert.equal(sheet.name, 'Müşteriler');
  assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), ['VKN/TCKN', 'Ünvan', 'Vergi Dairesi', 'Adres', 'Ülke', 'İl', 'İlçe', 'Posta Kodu', 'Telefon', 'Faks', 'E-posta', 'Web', 'İhracat']);
  assert.equal(sheet.views[0]?.state, 'frozen');
  assert.equal((sheet.views[0] as { ySplit?: number }).ySplit, 1);
  const fields = ['TaxNumber', 'Name', 'TaxDepartment', 'Address', 'Country', 'City', 'District', 'PostalCode', 'Phone', 'Fax', 'Email', 'WebSite'] as const;
  for (const [i, c] of source.entries()) {
    const row = sheet.getRow(i + 2);
    fields.forEach((f, col) => {
      const cell = row.getCell(col + 1);
      const want = c[f];
      if (want === '') assert.equal(cell.value, null, `row ${i + 2} ${f}`);
      else {
        assert.equal(cell.value, want, `row ${i + 2} ${f}`);
        assert.equal(cell.numFmt, '@', `row ${i + 2} ${f} is a Text cell`);
      }
    });
    assert.equal(row.getCell(13).value, c.IsExport ? 'Evet' : 'Hayır');
  }
  const widthOf = (col: number) => sheet.getColumn(col).width ?? 0;
  assert.ok(widthOf(1) >= 11 && widthOf(1) <= 14, `tax number column ${widthOf(1)}`);
  assert.ok(widthOf(2) > 40, `name column ${widthOf(2)}`);

  // Ours, again: every customer comes back equal, in order, none rejected, none "restored".
  const again = await importCustomersXlsx(bytes);
  assert.deepEqual(again.rejected, []);
  assert.deepEqual(again.restoredTaxNumbers, []);
  assert.deepEqual(again.accepted.map((a) => a.customer), source);
  assert.equal(again.accepted[0].line, 2);
});

test('a workbook written by exceljs with the CSV fixture gives the CSV import outcome', async () => {
  const csv = readFileSync(join(FIXTURES, 'customers-tr-excel.csv'), 'utf8');
  const fromCsv = await importCustomersCsvChunks((async function* () {
    yield csv;
  })());
  const ExcelJS = excelJs();
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Sayfa1');
  for (const record of parseCsv(csv.replace(/^\uFEFF/, '')).records) sheet.addRow(record.cells);
  const bytes = new Uint8Array(await book.xlsx.writeBuffer());
  const fromXlsx = await importCustomersXlsx(bytes);
  assert.equal(fromXlsx.accepted.length, 16);
  assert.deepEqual(fromXlsx.accepted.map((a) => a.customer), fromCsv.accepted.map((a) => a.customer));
  assert.deepEqual(fromXlsx.rejected.map((r) => [r.row, r.reasons.map((x) => x.code), r.reasons[0].params.taxNumber]), fromCsv.rejected.map((r) => [r.row, r.reasons.map((x) => x.code), r.reasons[0].params.taxNumber]));
  assert.deepEqual(fromXlsx.rejected.map((r) => r.row), [4, 10, 13, 18]);
  assert.deepEqual(fromXlsx.header, fromCsv.header);

  // The same with the tax numbers typed in as numbers: 905978176 with a 0 in front is no VKN either, so
  // nothing is "restored" and the outcome stays the CSV's.
  const numeric = new ExcelJS.Workbook();
  const numericSheet = numeric.addWorksheet('Sayfa1');
  for (const [i, record] of parseCsv(csv.replace(/^\uFEFF/, '')).records.entries()) numericSheet.addRow(record.cells.map((c, col) => (i > 0 && col === 1 ? Number(c) : c)));
  const fromNumbers = await importCustomersXlsx(new Uint8Array(await numeric.xlsx.writeBuffer()));
  assert.equal(numericSheet.getCell('B2').type, ExcelJS.ValueType.Number);
  assert.deepEqual(fromNumbers.restoredTaxNumbers, []);
  assert.deepEqual(fromNumbers.accepted.map((a) => a.customer), fromCsv.accepted.map((a) => a.customer));
  assert.deepEqual(fromNumbers.rejected.map((r) => [r.row, r.reasons[0].code, r.reasons[0].params.taxNumber]), fromCsv.rejected.map((r) => [r.row, r.reasons[0].code, r.reasons[0].params.taxNumber]));
});

test('Excel for Windows: shared strings, a VKN stored as a number gets its zero back and is reported, a date cell, several sheets', async () => {
  const strings = ['Ünvan', 'VKN', 'Kuruluş', 'Telefon', 'Posta Kodu', 'Anadolu Gıda A.Ş.', 'Boğaziçi Ltd. Şti.', 'Çukurova & Ortakları <Tekstil>', 'Notlar', 'Türkçe not'];
  const bytes = await buildWorkbook({
    sharedStrings: strings,
    sheets: [
      { name: 'Notlar', sheetData: `<row r="1">${sst('A1', 8)}</row><row r="2">${sst('A2', 9)}</row>` },
      {
        name: 'Müşteriler',
        sheetData:
          `<row r="1" spans="1:5">${sst('A1', 0)}${sst('B1', 1)}${sst('C1', 2)}${sst('D1', 3)}${sst('E1', 4)}</row>` +
          `<row r="2">${sst('A2', 5)}${num('B2', 730871159)}${num('C2', 46082, 1)}${num('D2', 5321234567)}${num('E2', 6100)}</row>` +
          `<row r="3">${sst('A3', 6)}${num('B3', 730871158)}${num('C3', 45658.5, 2)}</row>` +
          `<row r="5">${sst('A5', 7)}${num('B5', 12345678950, 3)}</row>`,
      },
      { name: 'Gizli', state: 'hidden', sheetData: `<row r="1">${sst('A1', 8)}</row>` },
    ],
  });
  const book = await readWorkbook(bytes);
  assert.deepEqual(book.sheets, [{ name: 'Notlar', hidden: false }, { name: 'Müşteriler', hidden: false }, { name: 'Gizli', hidden: true }]);
  assert.equal(book.date1904, false);
  const sheet = await book.readSheet('Müşteriler');
  assert.deepEqual(sheet.rows.map((r) => r.number), [1, 2, 3, 5]);
  assert.deepEqual(sheet.rows[1].cells.map((c) => [c.kind, c.text]), [['text', 'Anadolu Gıda A.Ş.'], ['number', '730871159'], ['date', '2026-03-01'], ['number', '5321234567'], ['number', '6100']]);
  assert.deepEqual(sheet.rows[2].cells[2], { kind: 'date', text: '2025-01-01T12:00:00' });

  const result = await importCustomersXlsx(bytes, 'Müşteriler');
  assert.equal(result.sheet, 'Müşteriler');
  assert.deepEqual(result.restoredTaxNumbers, [{ row: 1, line: 2, stored: '730871159', taxNumber: '0730871159' }]);
  assert.deepEqual(result.accepted.map((a) => [a.row, a.line, a.customer.TaxNumber, a.customer.Name, a.customer.PostalCode]), [
    [1, 2, '0730871159', 'Anadolu Gıda A.Ş.', '06100'],
    [3, 5, '12345678950', 'Çukurova & Ortakları <Tekstil>', ''],
  ]);
  // 730871158 with a zero is no VKN: not restored, rejected with the CSV import's suggestion-less reason.
  assert.deepEqual(result.rejected.map((r) => [r.row, r.line, r.reasons[0].code, r.reasons[0].params.suggestion]), [[2, 3, 'taxNumber.length', undefined]]);
  // The first sheet is read unless another is named: here it has no customer columns.
  await assert.rejects(importCustomersXlsx(bytes), /Missing required column/);
});

test('Excel for Mac: the 1904 date system, rich-text shared strings with phonetic runs, x: prefixes', async () => {
  const sharedStrings =
    '<si><t>Unvan</t></si><si><t>Vergi No</t></si><si><t>Tarih</t></si>' +
    '<si><r><rPr><b/></rPr><t>Şişli </t></r><r><t xml:space="preserve">Ltd. Şti.</t></r><rPh sb="0" eb="1"><t>シ</t></rPh></si>';
  const bytes = await buildWorkbook({
    date1904: true,
    prefix: 'x',
    sharedStrings,
    sheets: [{ name: 'Sheet1', sheetData: `<x:row r="1">${sst('A1', 0)}${sst('B1', 1)}${sst('C1', 2)}</x:row><x:row r="2">${sst('A2', 3)}<x:c r="B2" t="s"><x:v>4</x:v></x:c>${num('C2', 44620, 1)}</x:row>`.replace(/<c /g, '<x:c ').replace(/<\/c>/g, '</x:c>').replace(/<v>/g, '<x:v>').replace(/<\/v>/g, '</x:v>') }],
  });
  const book = await readWorkbook(bytes);
  assert.equal(book.date1904, true);
  const { rows } = await book.readSheet();
  assert.equal(rows[1].cells[0].text, 'Şişli Ltd. Şti.');
  // 44620 days after 1904-01-01 is 2026-03-01 (the same serial is 2022-02-28 in the 1900 system).
  assert.deepEqual(rows[1].cells[2], { kind: 'date', text: '2026-03-01' });
  assert.equal(serialToIso(44620, false), '2022-02-28');
});

test('LibreOffice and other writers: inline strings, cells without references, booleans, cached formula values, errors, gaps', async () => {
  const bytes = await buildWorkbook({
    noRootRels: true,
    sheets: [
      {
        name: 'Sayfa1',
        sheetData:
          `<row r="1"><c t="inlineStr"><is><t>Firma Adı</t></is></c><c t="inlineStr"><is><t>TCKN</t></is></c><c t="inlineStr"><is><t>İhracat</t></is></c><c/><c t="inlineStr"><is><t>E-posta</t></is></c></row>` +
          `<row r="2">${inl('A2', 'Şirket _x000D_ satırı')}${inl('B2', '10000000146')}<c r="C2" t="b"><v>1</v></c><c r="D2" t="e"><v>#N/A</v></c><c r="E2" t="str"><f>LOWER("A@B.COM")</f><v>a@b.com</v></c></row>` +
          '<row r="3"></row>' +
          `<row r="4">${inl('A4', 'Boş hücreler')}${num('B4', '1.0000000146E10')}<c r="E4" t="inlineStr"><is><t></t></is></c></row>`,
      },
    ],
  });
  const { rows } = await (await readWorkbook(bytes)).readSheet();
  assert.deepEqual(rows.map((r) => r.number), [1, 2, 4]);
  assert.deepEqual(rows[0].cells.map((c) => c.text), ['Firma Adı', 'TCKN', 'İhracat', '', 'E-posta']);
  assert.deepEqual(rows[1].cells.map((c) => c.kind), ['text', 'text', 'boolean', 'error', 'text']);
  assert.equal(rows[1].cells[0].text, 'Şirket \r satırı');
  assert.equal(rows[2].cells[1].text, '10000000146', 'an exponent is written out in full');
  assert.equal(rows[2].cells.length, 2, 'an empty inline string is an empty cell');
  const result = await importCustomersXlsx(bytes);
  assert.deepEqual(result.accepted.map((a) => [a.customer.TaxNumber, a.customer.IsExport, a.customer.Email]), [['10000000146', true, 'a@b.com']]);
  assert.equal(result.rejected.length, 1);
});

test('merged header cells: a group heading over two columns and a name merged over two rows', async () => {
  const bytes = await buildWorkbook({
    sharedStrings: ['Ünvan', 'Vergi Bilgileri', 'VKN/TCKN', 'Vergi Dairesi', 'Anadolu Gıda A.Ş.', 'Çankaya'],
    sheets: [
      {
        name: 'Liste',
        sheetData: `<row r="1">${sst('A1', 0)}${sst('B1', 1)}<c r="C1"/></row><row r="2"><c r="A2"/>${sst('B2', 2)}${sst('C2', 3)}</row><row r="3">${sst('A3', 4)}${inl('B3', '0730871159')}${sst('C3', 5)}</row>`,
        after: '<mergeCells count="2"><mergeCell ref="A1:A2"/><mergeCell ref="B1:C1"/></mergeCells>',
      },
    ],
  });
  const { rows } = await (await readWorkbook(bytes)).readSheet();
  assert.deepEqual(rows[0].cells.map((c) => c.text), ['Ünvan', 'Vergi Bilgileri', 'Vergi Bilgileri']);
  assert.deepEqual(rows[1].cells.map((c) => c.text), ['Ünvan', 'VKN/TCKN', 'Vergi Dairesi']);
  const result = await importCustomersXlsx(bytes);
  assert.deepEqual(result.header, ['Ünvan', 'VKN/TCKN', 'Vergi Dairesi']);
  assert.deepEqual(result.accepted.map((a) => [a.line, a.customer.Name, a.customer.TaxNumber, a.customer.TaxDepartment]), [[3, 'Anadolu Gıda A.Ş.', '0730871159', 'Çankaya']]);
});

test('damaged, encrypted and non-workbook files get a clear error', async () => {
  const problem = async (bytes: Uint8Array) => {
    try {
      await readWorkbook(bytes);
    } catch (error) {
      assert.ok(error instanceof XlsxError, String(error));
      return error.problem;
    }
    return 'read';
  };
  // What Excel writes for a workbook with a password to open: an OLE compound file.
  const ole = new Uint8Array(4096);
  ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  assert.equal(await problem(ole), 'encrypted');
  assert.match(new XlsxError('encrypted').message, /password-protected/);
  assert.equal(await problem(new TextEncoder().encode('Ünvan;VKN\r\nA;1\r\n')), 'notZip');
  const good = await writeWorkbook([{ name: 'A', header: ['Ünvan', 'VKN'], rows: [['x', '0730871159']] }]);
  assert.equal(await problem(good.subarray(0, good.length - 40)), 'notZip');
  const flipped = good.slice();
  flipped[good.length >> 1] ^= 0xff;
  assert.notEqual(await problem(flipped), 'read', 'a damaged entry fails its check');
  const plainZip = new JSZip();
  plainZip.file('readme.txt', 'not a workbook');
  assert.equal(await problem(await plainZip.generateAsync({ type: 'uint8array' })), 'notWorkbook');
});

test('the writer: dates as dates, numbers as numbers, text as text, control characters and long names survive exceljs', async () => {
  const bytes = await writeWorkbook([
    { name: 'Bir [çok] uzun: sayfa adı / otuz bir karakterden uzun', header: ['Metin', 'Tarih', 'Sayı', 'Evet'], rows: [['0730871159\u0001_x0041_', new Date(Date.UTC(2026, 2, 1)), 12.5, true], ['+90 532 123 45 67', new Date(Date.UTC(1904, 0, 1, 10, 30)), -3, false]] },
  ]);
  const ExcelJS = excelJs();
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(bytes) as never);
  const sheet = book.worksheets[0];
  assert.ok(sheet.name.length <= 31 && !/[[\]:*?/\\]/.test(sheet.name), sheet.name);
  // exceljs leaves ECMA-376's _xHHHH_ escapes as they are (Excel decodes them); ours reads them below.
  assert.equal(sheet.getCell('A2').value, '0730871159_x0001__x005F_x0041_');
  assert.deepEqual(sheet.getCell('B2').value, new Date(Date.UTC(2026, 2, 1)));
  assert.equal(sheet.getCell('C2').value, 12.5);
  assert.equal(sheet.getCell('D2').value, true);
  assert.deepEqual(sheet.getCell('B3').value, new Date(Date.UTC(1904, 0, 1, 10, 30)));
  const ours = await (await readWorkbook(bytes)).readSheet();
  assert.deepEqual(ours.rows[1].cells.map((c) => [c.kind, c.text]), [['text', '0730871159\u0001_x0041_'], ['date', '2026-03-01'], ['number', '12.5'], ['boolean', 'true']]);
  assert.equal(ours.rows[2].cells[1].text, '1904-01-01T10:30:00');
});

test('the rejected rows of a workbook go to a workbook: the header, a Reason column, cells as text', async () => {
  const bytes = await writeWorkbook([{ name: 'Liste', header: ['Ünvan', 'VKN/TCKN', 'Telefon'], rows: [['İyi A.Ş.', '0730871159', '+90 532 000 00 00'], ['Kötü Ltd.', '0730871158', '=HYPERLINK("x")']] }]);
  const result = await importCustomersXlsx(bytes);
  assert.equal(result.rejected.length, 1);
  const rejected = await writeRejectedXlsx(result);
  const ExcelJS = excelJs();
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(rejected) as never);
  const sheet = book.worksheets[0];
  assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), ['Ünvan', 'VKN/TCKN', 'Telefon', 'Reason']);
  assert.deepEqual((sheet.getRow(2).values as unknown[]).slice(1), ['Kötü Ltd.', '0730871158', '=HYPERLINK("x")', result.rejected[0].reasons[0].message]);
  assert.equal(sheet.getCell('C2').type, ExcelJS.ValueType.String, 'text, never a formula');
  // Fixed in place and imported again, the Reason column is recognised, not doubled.
  const again = await importCustomersXlsx(rejected);
  assert.deepEqual(again.header, ['Ünvan', 'VKN/TCKN', 'Telefon', 'Reason']);
});

test('number and date helpers', () => {
  assert.equal(numberText('7.30871159E8'), '730871159');
  assert.equal(numberText('12345678950'), '12345678950');
  assert.equal(numberText('0.1'), '0.1');
  assert.ok(isDateFormatCode('dd\\.mm\\.yyyy;@'));
  assert.ok(isDateFormatCode('[$-41F]d mmmm yyyy'));
  assert.ok(!isDateFormatCode('0000000000'));
  assert.ok(!isDateFormatCode('"Tel: "0'));
  assert.ok(!isDateFormatCode('#,##0.00 [$₺-41F]'));
  assert.equal(serialToIso(1, false), '1900-01-01');
  assert.equal(serialToIso(59, false), '1900-02-28');
  assert.equal(serialToIso(61, false), '1900-03-01');
  assert.equal(serialToIso(0, true), '1904-01-01');
});

test('the save dialog offers a workbook and a CSV: the workbook first and suggested where VS Code is in Turkish', () => {
  const labels = { xlsx: 'Excel çalışma kitabı', csv: 'CSV' };
  const tr = spreadsheetSaveChoice('tr', 'customers', labels);
  assert.deepEqual([tr.format, tr.defaultName, Object.values(tr.filters)], ['xlsx', 'customers.xlsx', [['xlsx'], ['csv']]]);
  const en = spreadsheetSaveChoice('en', 'customers', labels);
  assert.deepEqual([en.format, en.defaultName, Object.values(en.filters)], ['csv', 'customers.csv', [['csv'], ['xlsx']]]);
  assert.equal(spreadsheetSaveChoice('tr-TR', 'x', labels).format, 'xlsx');
  assert.equal(spreadsheetFormatOf('C:\\Liste\\Müşteriler.XLSX'), 'xlsx');
  assert.equal(spreadsheetFormatOf('/tmp/list.csv'), 'csv');
});

test('the reconciliation as a workbook: text tax numbers, the customer number as a number, the run time as a date', async () => {
  const labels: ExportLabels = {
    header: ['Durum', 'Müşteri No', 'Ünvan', 'VKN/TCKN', 'PK Etiketi', 'Listedeki Ünvan', 'Neden', 'Değişiklik', 'Önceki Etiket'],
    status: { user: 'Kullanıcı', notUser: 'Kullanıcı değil', invalid: 'Geçersiz', unchecked: 'Denetlenmedi' },
    change: { newlyRegistered: 'Yeni', aliasChanged: 'Etiket', deregistered: 'Çıktı' },
    reason: () => 'hatalı',
  };
  const report = {
    baseUrl: 'http://sandbox', takenAt: '2026-03-01T09:15:00.000Z', source: 'online', listRequests: 1, lookupRequests: 1, classifyMs: 0, totalCustomers: 2,
    users: [{ customerId: 7, name: 'Işık Yapı A.Ş.', taxNumber: '0730871159', status: 'user', pkAlias: 'urn:mail:defaultpk@isik.com.tr' }],
    notUsers: [], invalid: [{ customerId: 9, name: 'Hatalı', taxNumber: '1234567891', status: 'invalid' }], unchecked: [],
  } as unknown as ReconciliationReport;
  const ExcelJS = excelJs();
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.from(await reconciliationWorkbook(report, labels, { results: 'Mutabakat', run: 'Çalıştırma', takenAt: 'Denetlenme zamanı' })) as never);
  const [results, run] = book.worksheets;
  assert.deepEqual((results.getRow(2).values as unknown[]).slice(1), ['Kullanıcı', 7, 'Işık Yapı A.Ş.', '0730871159', 'urn:mail:defaultpk@isik.com.tr']);
  assert.deepEqual([1, 2, 3, 4, 5, 7].map((c) => results.getRow(3).getCell(c).value), ['Geçersiz', 9, 'Hatalı', '1234567891', null, 'hatalı']);
  assert.equal(results.views[0]?.state, 'frozen');
  assert.deepEqual(run.getCell('A2').value, new Date('2026-03-01T09:15:00.000Z'));
});
