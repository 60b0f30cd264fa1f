// Files as Excel on a Turkish desktop writes them and reads them: the encoding of a customer list told
// from its bytes (UTF-8 with or without BOM, UTF-16 LE/BE, Windows-1254, Mac Turkish) or left to the
// user with a preview of names when the bytes cannot tell; one header matcher for the import, the
// editor and the bulk check (Turkish folding, headers whose Turkish letters became U+FFFD, never a
// phone column); and the separator Excel expects for a display language. The non-UTF-8 fixtures were
// made by Python's own codecs (test/fixtures/README.md), independent of src/domain/textDecoding.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractTaxNumbers } from '../../../src/commands/registry/taxNumberList';
import { importCustomersCsvChunks, namePreview } from '../../../src/domain/customerImport';
import { foldHeader, isPhoneHeader, isTaxNumberHeader } from '../../../src/domain/headerMatch';
import { listSeparatorFor } from '../../../src/domain/spreadsheetSeparator';
import { decodeText, detectEncoding, SniffingTextDecoder } from '../../../src/domain/textDecoding';
import { scanCsv } from '../../../src/domain/csvScan';
import { encodingFindings } from '../../../src/editor/diagnostics/rules';
import { nilveraContentOf } from '../../../src/shell/nilveraContent';

const FIXTURES = join(__dirname, '../../../../test/fixtures');
const UTF8_TEXT = readFileSync(join(FIXTURES, 'customers-tr-excel.csv'), 'utf8').replace(/^\uFEFF/, '');
const WINDOWS = readFileSync(join(FIXTURES, 'encodings', 'customers-tr-excel.windows-1254.csv'));
const MAC = readFileSync(join(FIXTURES, 'encodings', 'customers-tr-excel.x-mac-turkish.csv'));

async function* once(bytes: Buffer): AsyncGenerator<Buffer> {
  yield bytes;
}

describe('the encoding of a customer list', () => {
  test('Mac Turkish: all 128 high bytes decode as Python\'s mac_turkish codec does', () => {
    const table = readFileSync(join(FIXTURES, 'encodings', 'x-mac-turkish-80-ff.txt'), 'utf8');
    assert.equal(decodeText(Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i), 'x-mac-turkish'), table);
  });

  test('each encoding Excel writes is told from the bytes, and decodes to the same text', () => {
    const cases: Array<[string, Buffer, string]> = [
      ['utf-8', Buffer.from(UTF8_TEXT, 'utf8'), 'utf-8'],
      ['utf-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(UTF8_TEXT, 'utf8')]), 'utf-8'],
      ['utf-16le with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(UTF8_TEXT, 'utf16le')]), 'utf-16le'],
      ['utf-16be with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(UTF8_TEXT, 'utf16le').swap16()]), 'utf-16be'],
      ['windows-1254 (Excel for Windows)', WINDOWS, 'windows-1254'],
      ['x-mac-turkish (Excel for Mac)', MAC, 'x-mac-turkish'],
    ];
    for (const [what, bytes, encoding] of cases) {
      const guess = detectEncoding(bytes);
      assert.deepEqual({ encoding: guess.encoding, certain: guess.certain }, { encoding, certain: true }, what);
      assert.equal(decodeText(bytes, guess.encoding), UTF8_TEXT, what);
      // The streaming decoder (import, bulk check) agrees, in any chunking.
      for (const size of [1, 5, 4096]) {
        const d = new SniffingTextDecoder();
        let text = '';
        for (let i = 0; i < bytes.length; i += size) text += d.write(bytes.subarray(i, i + size));
        text += d.end();
        assert.equal(d.encoding, encoding, `${what} chunk ${size}`);
        assert.equal(text.replace(/^\uFEFF/, ''), UTF8_TEXT, `${what} chunk ${size}`);
      }
    }
  });

  test('a Mac Turkish list imports with its names intact (read as Windows-1254 before: "Gıda" became "G\u0131da"-less garble)', async () => {
    const r = await importCustomersCsvChunks(once(MAC));
    assert.equal(r.encoding, 'x-mac-turkish');
    const names = r.accepted.map((a) => a.customer.Name);
    assert.ok(names.includes('Anadolu Gıda Sanayi ve Ticaret A.Ş.'), names.join(' | '));
    assert.ok(names.includes('Boğaziçi Lojistik Ltd. Şti.'), names.join(' | '));
    // What the Windows-1254 reading would have sent.
    assert.equal(decodeText(MAC, 'windows-1254').includes('Anadolu Gıda'), false);
  });

  test('when both single-byte readings look like Turkish, the guess is not certain and the preview shows names each way', () => {
    // Byte DC is Ü in Windows-1254 and İ in Mac Turkish, DE is Ş in both: "ÜNAL A.Ş." and "İNAL A.Ş." are both names.
    const bytes = Buffer.from('Unvan;VKN\r\n\xdcNAL A.\xde.;4540536920\r\nYILDIZ;1234567890\r\n\xdcZ\xdcM LTD;0123456789\r\n', 'latin1');
    const guess = detectEncoding(bytes);
    assert.equal(guess.certain, false, JSON.stringify(guess));
    assert.deepEqual([...guess.candidates].sort(), ['windows-1254', 'x-mac-turkish']);
    assert.deepEqual(namePreview(bytes, 'windows-1254', true), ['ÜNAL A.Ş.', 'ÜZÜM LTD', 'YILDIZ']);
    assert.deepEqual(namePreview(bytes, 'x-mac-turkish', true), ['İNAL A.Ş.', 'İZİM LTD', 'YILDIZ']);
    // A sample cut inside its last record leaves that record out.
    assert.deepEqual(namePreview(bytes.subarray(0, bytes.length - 4), 'windows-1254', false), ['ÜNAL A.Ş.', 'YILDIZ']);
  });

  test('lowercase letters of one reading inside a capitalised word decide it ("VERGı" is a misreading)', () => {
    const guess = detectEncoding(Buffer.from('VERG\xdd NO;UNVAN\r\n4540536920;KARTAL\r\n', 'latin1'));
    assert.deepEqual({ encoding: guess.encoding, certain: guess.certain }, { encoding: 'windows-1254', certain: true });
  });
});

describe('one header matcher for the import, the editor and the bulk check', () => {
  test('tax-number headers in Turkish and English, any case, with Turkish letters or without', () => {
    for (const h of ['VKN', 'TCKN', 'VKN/TCKN', 'VERGİ NO', 'Vergi No', 'VERGI NO', 'vergi_no', 'TC KİMLİK NO', 'TC Kimlik No', 'Vergi Kimlik No', 'VERGİ KİMLİK NUMARASI', 'TaxNumber', 'Tax Number']) {
      assert.equal(isTaxNumberHeader(h), true, h);
    }
    for (const h of ['Telefon', 'Tel', 'GSM', 'Phone', 'Ünvan', 'Vergi Dairesi', 'No', 'VKN Notu']) assert.equal(isTaxNumberHeader(h), false, h);
  });

  test('a header whose Turkish letters became U+FFFD (a Windows-1254 file read as UTF-8) is still recognised', () => {
    for (const h of ['VERG\uFFFD NO', 'TC K\uFFFDML\uFFFDK NO', 'Vergi Numaras\uFFFD']) assert.equal(isTaxNumberHeader(h), true, h);
    assert.equal(foldHeader('VERG\uFFFD NO'), 'verg*no');
    // The wildcard stands for one Turkish letter, not for anything.
    for (const h of ['VER\uFFFD NO', 'VERGX NO', '\uFFFD']) assert.equal(isTaxNumberHeader(h), false, h);
  });

  test('phone and fax headers are told apart', () => {
    for (const h of ['Telefon', 'Tel', 'Cep Telefonu', 'GSM No', 'Phone Number', 'Faks', 'Fax', 'İş Telefonu']) assert.equal(isPhoneHeader(h), true, h);
    for (const h of ['VKN', 'Vergi No', 'Ünvan', 'Adres']) assert.equal(isPhoneHeader(h), false, h);
  });

  test('the bulk check reads the "VERGİ NO" column, not the phone column before it (also read as UTF-8 from Windows-1254)', () => {
    const list = 'TELEFON;VERGİ NO;ÜNVAN\r\n5321234567;4540536920;A\r\n5331234567;1234567890;B\r\n';
    assert.deepEqual(extractTaxNumbers(list), { valid: ['4540536920', '1234567890'], invalid: [] });
    const garbled = Buffer.from(list.replace('İ', '\xdd').replace('Ü', '\xdc'), 'latin1').toString('utf8');
    assert.ok(garbled.includes('VERG\uFFFD NO'));
    assert.deepEqual(extractTaxNumbers(garbled).valid, ['4540536920', '1234567890']);
    // The header decides even when the column's numbers are all wrong and another holds a valid one by chance.
    const typos = 'Hesap No;VERGİ NO\r\n4540536920;1234567891\r\n5321234567;4540536921\r\n';
    assert.deepEqual(extractTaxNumbers(typos), { valid: [], invalid: [{ value: '1234567891', line: 2 }, { value: '4540536921', line: 3 }] });
  });

  test('without a tax-number header the bulk check takes the column of valid tax numbers, never a phone column', () => {
    // The phone numbers are 10 digits, and one of them even passes the VKN check.
    const list = 'Telefon;Numara;Firma\r\n4540536920;1234567890;A\r\n5321234567;0123456789;B\r\n5331234568;4540536920;C\r\n';
    assert.deepEqual(extractTaxNumbers(list).valid, ['1234567890', '0123456789', '4540536920']);
    // A list being checked is often mostly wrong: as many valid numbers in the phone column as in the
    // tax-number column, and the phone column comes first. Still the phone column is not taken.
    const typos = 'Telefon;Numara\r\n4540536920;1234567890\r\n5321234567;1234567891\r\n5331234568;4540536921\r\n';
    assert.deepEqual(extractTaxNumbers(typos), { valid: ['1234567890'], invalid: [{ value: '1234567891', line: 3 }, { value: '4540536921', line: 4 }] });
  });

  test('the editor recognises a Windows-1254 customer list opened as UTF-8: its columns, cells, and the encoding note', () => {
    const asVsCodeShowsIt = WINDOWS.toString('utf8');
    assert.ok(asVsCodeShowsIt.startsWith('\uFFFDnvan;VKN/TCKN'), asVsCodeShowsIt.slice(0, 30));
    const shown = asVsCodeShowsIt.replace('VKN/TCKN', 'VERG\uFFFD NO');
    assert.equal(nilveraContentOf(shown), 'customerList');
    const scan = scanCsv(shown);
    assert.deepEqual(scan.columns.map((c) => c.index), [1]);
    assert.ok(scan.cells.some((c) => c.value === '6656437912'));
    const notes = encodingFindings(shown, scan);
    assert.deepEqual(notes.map((f) => ({ code: f.code, severity: f.severity, start: f.start })), [{ code: 'not-utf8', severity: 'information', start: 0 }]);
    // A UTF-8 list, or a file that is not a customer list, gets no such note.
    assert.deepEqual(encodingFindings(UTF8_TEXT, scanCsv(UTF8_TEXT)), []);
    assert.deepEqual(encodingFindings('a;b\r\n\uFFFD;1\r\n', scanCsv('a;b\r\n\uFFFD;1\r\n')), []);
  });
});

test('the separator Excel expects: ";" where the display language writes 1,5, "," elsewhere', () => {
  for (const language of ['tr', 'de', 'fr', 'pt-br', 'ru']) assert.equal(listSeparatorFor(language), ';', language);
  for (const language of ['en', 'en-gb', 'ja', 'zh-cn', 'ko']) assert.equal(listSeparatorFor(language), ',', language);
  assert.equal(listSeparatorFor('not a language!'), ',');
});
