import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CustomerImportError,
  exportCustomersCsv,
  fieldForHeader,
  importCustomersCsvFile,
  importCustomersCsvChunks,
  importCustomersJson,
  mapCustomerColumns,
  parseYesNo,
  rejectedFileName,
  writeRejectedCsv,
} from '../../../src/domain/customerImport';
import type { CustomerImportResult, CustomerRecord } from '../../../src/domain/customerImport';
import { parseCsv } from '../../../src/domain/csv';
import { completeTckn, completeVkn } from '../../../src/domain/taxId';

/** CSV text as the one chunk of a stream (strings pass the decoder by). */
const importText = (text: string) => importCustomersCsvChunks((async function* () {
  yield text;
})());

const FIXTURES = join(__dirname, '../../../../test/fixtures');
const DATA = join(FIXTURES, 'customers-tr-excel.csv');
const EXPECTED = join(FIXTURES, 'customers-tr-excel.expected.txt');

/** Reads "rejected row N: tax number X: reason" lines from the expected-outcome file. */
function expectedOutcome(): { valid: number; total: number; rejected: Array<{ row: number; taxNumber: string; reason: string }> } {
  const text = readFileSync(EXPECTED, 'utf8');
  const m = /valid rows: (\d+) of (\d+)/.exec(text)!;
  const rejected = [...text.matchAll(/rejected row (\d+): tax number (\d+): (.+)/g)].map((x) => ({ row: Number(x[1]), taxNumber: x[2], reason: x[3].trim() }));
  return { valid: Number(m[1]), total: Number(m[2]), rejected };
}

function rejectionSummary(r: CustomerImportResult): Array<[number, string, string | number | string[]]> {
  return r.rejected.map((x) => [x.row, x.reasons[0].code, x.reasons[0].params.taxNumber]);
}

test('the Turkish Excel file: 16 of 20 accepted, rows 4, 10, 13 and 18 rejected for the stated reasons', async () => {
  const expected = expectedOutcome();
  assert.equal(expected.rejected.length, 4);
  const r = await importText(readFileSync(DATA, 'utf8'));
  assert.equal(r.accepted.length, expected.valid);
  assert.equal(r.accepted.length + r.rejected.length, expected.total);
  assert.deepEqual(r.rejected.map((x) => x.row), expected.rejected.map((x) => x.row));
  for (const [i, want] of expected.rejected.entries()) {
    const got = r.rejected[i];
    assert.equal(got.reasons.length, 1);
    const reason = got.reasons[0];
    assert.equal(reason.params.taxNumber, want.taxNumber);
    assert.ok(got.cells!.includes(want.taxNumber));
    if (/bad VKN checksum/.test(want.reason)) {
      assert.equal(reason.code, 'taxNumber.checksum');
      assert.equal(reason.params.kind, 'VKN');
    } else if (/bad TCKN checksum/.test(want.reason)) {
      assert.equal(reason.code, 'taxNumber.checksum');
      assert.equal(reason.params.kind, 'TCKN');
    } else {
      const digits = Number(/(\d+) digits/.exec(want.reason)![1]);
      assert.equal(reason.code, 'taxNumber.length');
      assert.equal(reason.params.digits, digits);
      assert.match(reason.message, new RegExp(`this has ${digits}\\.`));
    }
    assert.match(reason.message, new RegExp(want.taxNumber));
  }
  assert.equal(r.delimiter, ';');
  assert.equal(r.hasBom, true);
});

test('the Excel file: fields map to the API names, quoted ; " and line breaks survive', async () => {
  const r = await importText(readFileSync(DATA, 'utf8'));
  const byRow = new Map(r.accepted.map((a) => [a.row, a]));
  const first = byRow.get(1)!;
  assert.deepEqual(first.customer, {
    TaxNumber: '6656437912', Name: 'Anadolu Gıda Sanayi ve Ticaret A.Ş.', TaxDepartment: 'Çankaya', Address: 'Cumhuriyet Cad. No:1\nKat:1',
    Country: '', City: 'Ankara', District: 'Çankaya', PostalCode: '', Phone: '05450819859', Fax: '', Email: 'info0@ornek.com.tr', WebSite: '', IsExport: true,
  });
  assert.equal(first.line, 2);
  assert.equal(byRow.get(2)!.customer.IsExport, false);
  assert.equal(byRow.get(8)!.customer.Name, 'Öztürk Ayakkabı; Deri ve Saraciye');
  assert.equal(byRow.get(11)!.customer.Name, 'Yıldız Kırtasiye "Toptan" Ltd.');
  // Row numbers count records, not physical lines: row 11 starts on line 14 because rows 1 and 6 span two lines.
  assert.equal(byRow.get(11)!.line, 14);
  const tckn = r.accepted.find((a) => a.customer.TaxNumber === '38234214962')!;
  assert.equal(tckn.customer.Name, 'Ayşe Yılmaz');
  assert.equal(tckn.customer.TaxDepartment, '');
});

test('the streamed file import gives the same result as the text import', async () => {
  const fromFile = await importCustomersCsvFile(DATA);
  const fromText = await importText(readFileSync(DATA, 'utf8'));
  assert.deepEqual(fromFile, fromText);
});

test('header names in English or Turkish, any case, accents and spacing', () => {
  const cases: Array<[string, keyof CustomerRecord]> = [
    ['Ünvan', 'Name'], ['UNVAN', 'Name'], ['unvan', 'Name'], ['Name', 'Name'], ['Title', 'Name'], ['Firma Adı', 'Name'], ['firma adi', 'Name'],
    ['VKN/TCKN', 'TaxNumber'], ['vkn / tckn', 'TaxNumber'], ['VKN', 'TaxNumber'], ['TCKN', 'TaxNumber'], ['Vergi No', 'TaxNumber'], ['VERGİ NUMARASI', 'TaxNumber'],
    ['Vergi Numarasi', 'TaxNumber'], ['TaxNumber', 'TaxNumber'], ['Tax Number', 'TaxNumber'], ['tax_number', 'TaxNumber'],
    ['Vergi Dairesi', 'TaxDepartment'], ['TaxDepartment', 'TaxDepartment'], ['Tax Office', 'TaxDepartment'],
    ['İl', 'City'], ['IL', 'City'], ['Şehir', 'City'], ['sehir', 'City'], ['City', 'City'], ['İlçe', 'District'], ['ilce', 'District'], ['District', 'District'],
    ['Adres', 'Address'], ['Address', 'Address'], ['Ülke', 'Country'], ['Country', 'Country'], ['Posta Kodu', 'PostalCode'], ['PostalCode', 'PostalCode'],
    ['Telefon', 'Phone'], ['Phone', 'Phone'], ['Faks', 'Fax'], ['Fax', 'Fax'], ['E-posta', 'Email'], ['Eposta', 'Email'], ['E-Posta', 'Email'], ['Email', 'Email'],
    ['Mail', 'Email'], ['Web', 'WebSite'], ['WebSite', 'WebSite'], ['İhracat', 'IsExport'], ['ihracat', 'IsExport'], ['IsExport', 'IsExport'], ['Export', 'IsExport'],
    [' Ünvan ', 'Name'],
  ];
  for (const [header, field] of cases) assert.equal(fieldForHeader(header), field, header);
  for (const unknown of ['Notlar', 'Reason', 'Id', '']) assert.equal(fieldForHeader(unknown), undefined, unknown);
});

test('missing required columns: one error naming the headers found and the names accepted', async () => {
  const text = 'Firma;Vergi Dairesi;Şehir\r\nA;B;C\r\n';
  await assert.rejects(() => importText(text), (e: unknown) => {
    assert.ok(e instanceof CustomerImportError);
    assert.equal(e.issue.code, 'columns.missing');
    assert.deepEqual(e.issue.params.missing, ['TaxNumber']);
    assert.deepEqual(e.issue.params.found, ['Firma', 'Vergi Dairesi', 'Şehir']);
    assert.match(e.message, /TaxNumber/);
    assert.match(e.message, /"Vergi Dairesi"/);
    assert.match(e.message, /VKN\/TCKN/);
    return true;
  });
  assert.throws(() => mapCustomerColumns(['Adres']), (e: unknown) => e instanceof CustomerImportError && (e.issue.params.missing as string[]).join() === 'Name,TaxNumber');
  await assert.rejects(() => importText(''), CustomerImportError);
});

test('yes/no values for the export flag; anything else is a reason', async () => {
  for (const v of ['Evet', 'EVET', 'true', 'True', '1', 'yes', 'Yes']) assert.equal(parseYesNo(v), true, v);
  for (const v of ['Hayır', 'HAYIR', 'hayir', 'false', '0', 'no', '']) assert.equal(parseYesNo(v), false, v);
  for (const v of ['belki', '2', 'maybe']) assert.equal(parseYesNo(v), undefined, v);
  const r = await importText(`Ünvan;VKN;İhracat\nA;${completeVkn('123456789')};belki\n`);
  assert.equal(r.accepted.length, 0);
  assert.equal(r.rejected[0].reasons[0].code, 'isExport.invalid');
  assert.equal(r.rejected[0].reasons[0].params.value, 'belki');
});

test('every problem of a row is listed, as codes with parameters and an English message', async () => {
  const r = await importText('Ünvan,VKN,E-posta\n,12A45,not-an-email\n  ,,\n');
  assert.deepEqual(r.rejected[0].reasons.map((x) => x.code), ['taxNumber.notDigits', 'name.empty', 'email.invalid']);
  assert.deepEqual(r.rejected[0].reasons[0].params, { taxNumber: '12A45' });
  assert.deepEqual(r.rejected[1].reasons.map((x) => x.code), ['taxNumber.empty', 'name.empty']);
  const lead = await importText(`Name,TaxNumber\nX,0${completeTckn('123456789').slice(1)}\n`);
  assert.equal(lead.rejected[0].reasons[0].code, 'taxNumber.tcknLeadingZero');
  for (const reason of [...r.rejected, ...lead.rejected].flatMap((x) => x.reasons)) assert.ok(reason.message.length > 10);
});

test('a VKN that lost its leading zero gets a suggestion; other lengths do not', async () => {
  const vkn = completeVkn('012345670');
  assert.equal(vkn[0], '0');
  const r = await importText(`Name,TaxNumber\nA,${vkn.slice(1)}\nB,12345678\n`);
  assert.deepEqual(r.rejected[0].reasons[0].params, { taxNumber: vkn.slice(1), digits: 9, suggestion: vkn });
  assert.match(r.rejected[0].reasons[0].message, new RegExp(`${vkn} would be valid`));
  assert.deepEqual(r.rejected[1].reasons[0].params, { taxNumber: '12345678', digits: 8 });
});

test('a tax number repeated in the file: the first is accepted, the repeat rejected', async () => {
  const v = completeVkn('987654321');
  const r = await importText(`Name,TaxNumber\nA,${v}\nB,${v}\n`);
  assert.equal(r.accepted.length, 1);
  assert.deepEqual(rejectionSummary(r), [[2, 'taxNumber.duplicate', v]]);
  assert.equal(r.rejected[0].reasons[0].params.firstRow, 1);
});

test('rejected file: original header plus Reason, same delimiter and BOM', async () => {
  const r = await importText(readFileSync(DATA, 'utf8'));
  const text = writeRejectedCsv(r);
  assert.equal(text.charCodeAt(0), 0xfeff);
  const parsed = parseCsv(text);
  assert.equal(parsed.delimiter, ';');
  const header = parsed.records[0].cells;
  assert.deepEqual(header, [...r.header!, 'Reason']);
  assert.equal(parsed.records.length, 1 + 4);
  for (const [i, rec] of parsed.records.slice(1).entries()) {
    assert.deepEqual(rec.cells.slice(0, -1), r.rejected[i].cells);
    assert.equal(rec.cells.at(-1), r.rejected[i].reasons[0].message);
  }
  // Localized reasons go through the formatter.
  assert.match(writeRejectedCsv(r, (x) => `[${x.code}]`), /\[taxNumber\.length\]/);
  assert.equal(rejectedFileName('/home/u/müşteriler.csv'), '/home/u/müşteriler.rejected.csv');
  assert.equal(rejectedFileName('list.CSV'), 'list.rejected.csv');
  assert.equal(rejectedFileName('list'), 'list.rejected.csv');
  assert.equal(rejectedFileName('/a/list.rejected.csv'), '/a/list.rejected.csv');
});

test('round trip: the rejected file re-imports with the same rejections, and a fixed row is accepted', async () => {
  const first = await importText(readFileSync(DATA, 'utf8'));
  const rejectedText = writeRejectedCsv(first);
  const again = await importText(rejectedText);
  assert.equal(again.accepted.length, 0);
  assert.deepEqual(again.rejected.map((x) => x.reasons.map((y) => [y.code, y.params])), first.rejected.map((x) => x.reasons.map((y) => [y.code, y.params])));
  assert.deepEqual(again.rejected.map((x) => x.row), [1, 2, 3, 4]);
  // Writing the rejections of the re-import keeps one Reason column.
  const second = writeRejectedCsv(again);
  assert.equal(parseCsv(second).records[0].cells.filter((h) => h === 'Reason').length, 1);
  assert.equal(second, rejectedText);

  // Fix the first rejected row's VKN (2940095702 -> its valid check digit) in the file and import again.
  const bad = '2940095702';
  const fixed = completeVkn(bad.slice(0, 9));
  assert.notEqual(fixed, bad);
  const fixedText = rejectedText.replace(bad, fixed);
  const third = await importText(fixedText);
  assert.equal(third.accepted.length, 1);
  assert.equal(third.accepted[0].customer.TaxNumber, fixed);
  assert.equal(third.accepted[0].customer.Name, 'Ege Zeytinyağı Üretim Koop.');
  assert.equal(third.rejected.length, 3);
});

test('JSON import: API names or aliases as keys, booleans or words for the export flag', () => {
  const vkn = completeVkn('555444333');
  const tckn = completeTckn('523456781');
  const json = JSON.stringify([
    { TaxNumber: vkn, Name: 'Alpha A.Ş.', City: 'Ankara', IsExport: true, Phone: 5321112233 },
    { 'VKN/TCKN': tckn, Ünvan: 'Ayşe Kaya', İl: 'İzmir', İhracat: 'Hayır' },
    { VKN: '4540536921', Unvan: 'Bad' },
    'not an object',
    { TaxNumber: vkn, Name: 'Duplicate' },
  ]);
  const r = importCustomersJson(json);
  assert.deepEqual(r.accepted.map((a) => [a.row, a.customer.TaxNumber, a.customer.Name, a.customer.City, a.customer.IsExport]), [
    [1, vkn, 'Alpha A.Ş.', 'Ankara', true],
    [2, tckn, 'Ayşe Kaya', 'İzmir', false],
  ]);
  assert.equal(r.accepted[0].customer.Phone, '5321112233');
  assert.deepEqual(r.rejected.map((x) => [x.row, x.reasons[0].code]), [[3, 'taxNumber.checksum'], [4, 'row.notObject'], [5, 'taxNumber.duplicate']]);
  assert.deepEqual(r.rejected[0].source, { VKN: '4540536921', Unvan: 'Bad' });
  assert.throws(() => importCustomersJson('{"a":1}'), (e: unknown) => e instanceof CustomerImportError && e.issue.code === 'json.notArray');
  assert.throws(() => importCustomersJson('[{'), (e: unknown) => e instanceof CustomerImportError && e.issue.code === 'json.invalid');
  assert.equal(importCustomersJson('\uFEFF[]').accepted.length, 0);
});

test('customer export: header then one line per customer, re-importable in both header styles', async () => {
  const customers: CustomerRecord[] = [
    { TaxNumber: completeVkn('111222333'), Name: 'Öz; "Yıldız" A.Ş.', TaxDepartment: 'Kadıköy', Address: 'Cad. 1\nKat 2', Country: 'Türkiye', City: 'İstanbul', District: 'Kadıköy', PostalCode: '34710', Phone: '+90 216 000 00 00', Fax: '', Email: 'a@b.com.tr', WebSite: 'https://b.com.tr', IsExport: true },
    { TaxNumber: completeTckn('198765432'), Name: 'Ali Veli', TaxDepartment: '', Address: '', Country: '', City: '', District: '', PostalCode: '', Phone: '', Fax: '', Email: '', WebSite: '', IsExport: false },
  ];
  for (const headers of ['api', 'tr'] as const) {
    const pieces = [...exportCustomersCsv(customers, { headers, delimiter: ';', bom: true })];
    assert.equal(pieces.length, 1 + customers.length);
    assert.equal(pieces[0].charCodeAt(0), 0xfeff);
    const back = await importText(pieces.join(''));
    assert.deepEqual(back.rejected, []);
    assert.deepEqual(back.accepted.map((a) => a.customer), customers, headers);
  }
  const tr = [...exportCustomersCsv(customers, { headers: 'tr' })];
  assert.match(tr[0], /^Ünvan|^VKN\/TCKN/);
  assert.match(tr[1], /Evet\r\n$/);
  assert.match(tr[2], /Hayır\r\n$/);
  // A phone number stays a phone number under the guard (src/domain/formulaGuard.ts).
  const guarded = [...exportCustomersCsv(customers, { guardFormulas: true })].join('');
  assert.match(guarded, /,\+90 216 000 00 00,/);
  assert.doesNotMatch([...exportCustomersCsv(customers)].join(''), /'\+90/);
});

test('a file with only a header imports nothing; the file reader handles a semicolon file without BOM', async () => {
  assert.deepEqual((await importText('Ünvan;VKN\r\n')).accepted, []);
  const dir = mkdtempSync(join(tmpdir(), 'cust-test-'));
  try {
    const file = join(dir, 'c.csv');
    writeFileSync(file, `Name\tTax Number\nX\t${completeVkn('000000001')}\n`);
    const r = await importCustomersCsvFile(file);
    assert.equal(r.delimiter, '\t');
    assert.equal(r.hasBom, false);
    assert.equal(r.accepted[0].customer.TaxNumber, completeVkn('000000001'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
