// Customer lists whose encoding is told only from far into the file: a UTF-8 list over 256 KB (the
// sample the import and the editor's quick fix read) whose sample ends inside a 4-byte character, and a
// Mac Turkish list whose first letter that tells Mac Turkish from Windows-1254 sits late in the first
// 64 KB (before it, only Ş, which is 0xDE in both). Both are read through the detection on the sample
// (detectEncoding, as src/commands/customers/importEncoding.ts and the quick fix call it) and through the
// streaming import (importCustomersCsvChunks, in 64 KB chunks as importCustomersCsvFile reads a file).
// The Mac Turkish bytes are written out here (0xDD ı, 0xDE Ş, 0xDF ş: Apple's TURKISH.TXT), not made by
// the decoder under test.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { importCustomersCsvChunks } from '../../../src/domain/customerImport';
import { detectEncoding } from '../../../src/domain/textDecoding';
import { completeVkn } from '../../../src/domain/taxId';

/** The sample the import's encoding question and the editor's quick fix read. */
const SAMPLE_BYTES = 256 * 1024;

async function* chunks(bytes: Buffer, size = 64 * 1024): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const vkn = (i: number) => completeVkn(String(100000000 + i).slice(0, 9));

/** A UTF-8 list of 4-byte characters (a flower after each name) so big that byte SAMPLE_BYTES falls `into` bytes into one of them. */
function bigUtf8List(into: 1 | 2 | 3): Buffer {
  const parts: Buffer[] = [Buffer.from('Unvan;VKN\r\n', 'utf8')];
  let length = parts[0].length;
  let i = 0;
  const row = (name: string) => Buffer.from(`${name};${vkn(i++)}\r\n`, 'utf8');
  // ASCII rows up to just before the sample's end, then a row whose 🌷 (F0 9F 8C B7) straddles it.
  while (length < SAMPLE_BYTES - 64) {
    const r = row(`Cicekci ${i} Ltd`);
    parts.push(r);
    length += r.length;
  }
  const lead = `Çiçekçi ${i} `;
  const pad = SAMPLE_BYTES - into - length - Buffer.byteLength(lead, 'utf8');
  assert.ok(pad >= 0);
  const straddling = row(`${lead}${'x'.repeat(pad)}🌷 Şti.`);
  parts.push(straddling);
  length += straddling.length;
  while (length < SAMPLE_BYTES + 8 * 1024) {
    const r = row(`Gül ${i} Çiçekçilik 🌷`);
    parts.push(r);
    length += r.length;
  }
  const bytes = Buffer.concat(parts);
  assert.equal(bytes[SAMPLE_BYTES - into], 0xf0, 'the 4-byte character starts `into` bytes before the sample ends');
  return bytes;
}

test('a UTF-8 list over 256 KB whose sample ends 1, 2 or 3 bytes into a 4-byte character is recognised as UTF-8', async () => {
  for (const into of [1, 2, 3] as const) {
    const bytes = bigUtf8List(into);
    assert.ok(bytes.length > SAMPLE_BYTES);
    const guess = detectEncoding(bytes.subarray(0, SAMPLE_BYTES), false);
    assert.deepEqual([guess.encoding, guess.certain], ['utf-8', true], `sample ends ${into} byte(s) into 🌷`);
    const r = await importCustomersCsvChunks(chunks(bytes));
    assert.equal(r.encoding, undefined, 'imported as UTF-8 (the result names only other encodings)');
    const names = r.accepted.map((a) => a.customer.Name);
    assert.ok(names.some((n) => /^Çiçekçi \d+ x+🌷 Şti\.$/.test(n)), `the straddling row intact (${into})`);
    assert.ok(names.includes(`Gül ${names.length - 1} Çiçekçilik 🌷`) || names.some((n) => /^Gül \d+ Çiçekçilik 🌷$/.test(n)));
  }
});

/** A Mac Turkish list: rows whose only non-ASCII letter is Ş (the same byte in both encodings) up to `late`, then "Yıldız Taşı". */
function lateMacTurkishList(late: number): { bytes: Buffer; tellingAt: number } {
  const latin1 = (s: string) => Buffer.from(s, 'latin1');
  const parts: Buffer[] = [latin1('Unvan;VKN\r\n')];
  let length = parts[0].length;
  let i = 0;
  while (length < late) {
    const r = latin1(`\xdeAHAN ${i} A.\xde.;${vkn(i++)}\r\n`); // ŞAHAN … A.Ş.
    parts.push(r);
    length += r.length;
  }
  const tellingAt = length;
  parts.push(latin1(`Y\xddld\xddz Ta\xdf\xdd;${vkn(i++)}\r\n`)); // Yıldız Taşı
  parts.push(latin1(`Ka\xdf\xdd Ltd. \xdeti.;${vkn(i)}\r\n`)); // Kaşı Ltd. Şti.
  return { bytes: Buffer.concat(parts), tellingAt };
}

test('a Mac Turkish list whose first telling letter sits late in the first 64 KB is read as Mac Turkish ("Yıldız Taşı" intact)', async () => {
  for (const late of [1024, 32 * 1024, 60 * 1024]) {
    const { bytes, tellingAt } = lateMacTurkishList(late);
    assert.ok(tellingAt >= late && tellingAt < 64 * 1024 - 64, `the first ı at byte ${tellingAt}`);
    const guess = detectEncoding(bytes.subarray(0, SAMPLE_BYTES), bytes.length <= SAMPLE_BYTES);
    assert.equal(guess.encoding, 'x-mac-turkish', `detection, telling letter at ${tellingAt}`);
    for (const size of [64 * 1024, 4096]) {
      const r = await importCustomersCsvChunks(chunks(bytes, size));
      assert.equal(r.encoding, 'x-mac-turkish', `import in ${size}-byte chunks, telling letter at ${tellingAt}`);
      const names = r.accepted.map((a) => a.customer.Name);
      assert.ok(names.includes('Yıldız Taşı'), `"Yıldız Taşı" intact: ${names.slice(-2).join(' | ')}`);
      assert.ok(names.includes('Kaşı Ltd. Şti.'));
      assert.equal(names[0], 'ŞAHAN 0 A.Ş.');
    }
  }
});
