// CSV import of 100,000 rows of bad-input shape (10% wrong check digits, 4% duplicates, quoted
// fields with `;`, quotes and line breaks) in the encodings Turkish Excel writes, and the cost of
// detecting the encoding against plain UTF-8 decoding. Correctness is asserted by
// test/unit/domain/customerImportBadInput.test.ts; this only measures.
// Run: npm run bench -- badInputCsv
// Target: ≥ 100k rows/s for every encoding; encoding detection within 10% of a plain UTF-8 decode
// (printed, not enforced: their BENCH lines are "report").

import os from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import { CsvWriter } from '../../src/domain/csv';
import { importCustomersCsvChunks } from '../../src/domain/customerImport';
import { completeTckn, completeVkn } from '../../src/domain/taxId';
import { SniffingTextDecoder } from '../../src/domain/textDecoding';
import { printBench } from './benchLine';

const ROWS = 100_000;
const CHUNK = 64 * 1024;
const RUNS = 3;

function csvText(): string {
  const w = new CsvWriter({ delimiter: ';' });
  const parts = [w.row(['Ünvan', 'VKN/TCKN', 'Vergi Dairesi', 'Adres', 'İhracat'])];
  let first = '';
  for (let i = 0; i < ROWS; i++) {
    let tax = i % 3 === 0 ? completeTckn(String(100_000_000 + i * 7)) : completeVkn(String(200_000_000 + i * 11));
    if (i % 10 === 3) tax = tax.slice(0, -1) + ((Number(tax.slice(-1)) + 1) % 10);
    else if (i % 25 === 4 && first) tax = first;
    first ||= tax;
    parts.push(w.row([`Şirket ${i}${i % 7 === 0 ? '; "Ltd"\r\nŞube' : ''}`, tax, 'Çankaya', `Cad. No:${i}`, i % 2 ? 'Evet' : 'Hayır']));
  }
  return parts.join('');
}

function windows1254(text: string): Buffer {
  const decoder = new TextDecoder('windows-1254');
  const map = new Map<string, number>();
  for (let b = 0; b < 256; b++) map.set(decoder.decode(Uint8Array.of(b)), b);
  return Buffer.from(Array.from(text, (ch) => map.get(ch) ?? 0x3f));
}

function* chunks(buf: Buffer): Generator<Buffer> {
  for (let o = 0; o < buf.length; o += CHUNK) yield buf.subarray(o, o + CHUNK);
}

async function* asyncChunks(buf: Buffer): AsyncGenerator<Buffer> {
  yield* chunks(buf);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The machine-readable line `npm run bench` collects (scripts/bench-report.js); a baseline is in the value's unit. */
function benchLine(figure: string, value: number, unit: string, baseline?: number): void {
  printBench({ figure, goal: 'report', value, unit, ...(baseline !== undefined ? { baseline } : {}) });
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
  const text = csvText();
  const inputs: Array<[string, Buffer]> = [
    ['UTF-8 + BOM', Buffer.from('\uFEFF' + text, 'utf8')],
    ['windows-1254', windows1254(text)],
    ['UTF-16LE + BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
  ];
  let allMet = true;
  for (const [name, bytes] of inputs) {
    const times: number[] = [];
    let accepted = 0;
    let rejected = 0;
    for (let run = 0; run < RUNS; run++) {
      const t0 = performance.now();
      const r = await importCustomersCsvChunks(asyncChunks(bytes));
      times.push(performance.now() - t0);
      accepted = r.accepted.length;
      rejected = r.rejected.length;
    }
    const rate = ROWS / (median(times) / 1000);
    allMet &&= rate >= 100_000;
    console.log(`${name.padEnd(15)} ${(bytes.length / 1e6).toFixed(1)} MB: ${median(times).toFixed(0)} ms median of ${RUNS}, ${(rate / 1000).toFixed(0)}k rows/s (${accepted} accepted, ${rejected} rejected)   (target ≥ 100k rows/s)`);
    benchLine(`bad-input CSV import, ${ROWS.toLocaleString('en')} rows, ${name}`, rate / 1000, 'k rows/s');
  }

  const utf8 = inputs[0][1];
  const decodeTimes = { plain: [] as number[], sniffing: [] as number[] };
  for (let run = 0; run < 5; run++) {
    let t0 = performance.now();
    const plain = new StringDecoder('utf8');
    for (const c of chunks(utf8)) plain.write(c);
    plain.end();
    decodeTimes.plain.push(performance.now() - t0);
    t0 = performance.now();
    const sniffing = new SniffingTextDecoder();
    for (const c of chunks(utf8)) sniffing.write(c);
    sniffing.end();
    decodeTimes.sniffing.push(performance.now() - t0);
  }
  const ratio = median(decodeTimes.sniffing) / median(decodeTimes.plain);
  console.log(`decode ${(utf8.length / 1e6).toFixed(1)} MB UTF-8: StringDecoder ${median(decodeTimes.plain).toFixed(1)} ms, SniffingTextDecoder ${median(decodeTimes.sniffing).toFixed(1)} ms (×${ratio.toFixed(2)}; target ≤ ×1.10)`);
  benchLine(`CSV encoding detection, ${(utf8.length / 1e6).toFixed(1)} MB UTF-8 (baseline: plain StringDecoder)`, median(decodeTimes.sniffing), 'ms', median(decodeTimes.plain));
  console.log(`targets: ≥ 100k rows/s ${allMet ? 'MET' : 'NOT MET'}; detection overhead ≤ 10% ${ratio <= 1.1 ? 'MET' : 'NOT MET'}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
