// Workbooks: 50,000 customers written as .xlsx (exportCustomersXlsx: XML + jszip's deflate) and read
// back (importCustomersXlsx: inflate, scan, header matching and checks), beside the same customers as
// CSV in the same run (exportCustomersCsv; importCustomersCsvChunks), each the median of 3 runs, with
// the workbook/CSV ratio and the file sizes. Correctness is held by test/unit/domain/xlsx.test.ts; this
// only measures.
// Run: npm run bench -- xlsx
// Reported, not judged (no budget was set for workbooks): the times and their ratio to CSV. Measured
// here at load averages of 16-23 on 2 cores: write 7-11 s (CSV 0.6-1.2 s), read 6-8 s (CSV 1.4-2.0 s);
// a CPU profile of the write shows jszip's deflate (pako) and the garbage collector as most of it, the
// sheet's XML about a tenth. A 50,000-row workbook is 3.1 MB against 9.8 MB of CSV.
import os from 'node:os';
import { exportCustomersCsv, importCustomersCsvChunks, type CustomerRecord } from '../../src/domain/customerImport';
import { completeTckn, completeVkn } from '../../src/domain/taxId';
import { exportCustomersXlsx, importCustomersXlsx } from '../../src/domain/xlsxCustomers';
import { printBench } from './benchLine';

const ROWS = Number(process.env.NILVERA_BENCH_XLSX_ROWS ?? 50_000);
const RUNS = 3;

function customers(): CustomerRecord[] {
  return Array.from({ length: ROWS }, (_, i) => ({
    TaxNumber: i % 3 === 0 ? completeTckn(String(100_000_000 + i * 7)) : completeVkn(String(i % 3 === 1 ? 10_000_000 + i * 11 : 200_000_000 + i * 11).padStart(9, '0')),
    Name: `Şirket ${i} Gıda Sanayi ve Ticaret A.Ş.`,
    TaxDepartment: 'Çankaya',
    Address: `IBAN TR${String(10 + (i % 89))}0006${String(i).padStart(18, '0')} Atatürk Bulvarı No:${i}`,
    Country: 'Türkiye',
    City: 'Ankara',
    District: 'Çankaya',
    PostalCode: '06100',
    Phone: `+90 532 ${String(i % 1000).padStart(3, '0')} ${String(i % 100).padStart(2, '0')} ${String(i % 97).padStart(2, '0')}`,
    Fax: '',
    Email: `info${i}@ornek.com.tr`,
    WebSite: '',
    IsExport: i % 10 === 0,
  }));
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores, ${ROWS} rows`);
  const list = customers();
  const times = { xlsxWrite: [] as number[], xlsxRead: [] as number[], csvWrite: [] as number[], csvRead: [] as number[] };
  let xlsx: Uint8Array = new Uint8Array(0);
  let csv = '';
  // Interleaved, so a busy moment of the machine falls on both.
  for (let run = 0; run < RUNS; run++) {
    const w = await timed(() => exportCustomersXlsx(list, { headers: 'tr' }));
    times.xlsxWrite.push(w.ms);
    xlsx = w.value;
    const c = await timed(async () => [...exportCustomersCsv(list, { headers: 'tr', bom: true, delimiter: ';' })].join(''));
    times.csvWrite.push(c.ms);
    csv = c.value;
    const r = await timed(() => importCustomersXlsx(xlsx));
    times.xlsxRead.push(r.ms);
    if (r.value.accepted.length !== ROWS) throw new Error(`workbook read: ${r.value.accepted.length} of ${ROWS} accepted`);
    const cr = await timed(() => importCustomersCsvChunks((async function* () {
      yield csv;
    })()));
    times.csvRead.push(cr.ms);
    if (cr.value.accepted.length !== ROWS) throw new Error(`CSV read: ${cr.value.accepted.length} of ${ROWS} accepted`);
    console.log(`run ${run + 1}: xlsx write ${w.ms.toFixed(0)} ms, read ${r.ms.toFixed(0)} ms; CSV write ${c.ms.toFixed(0)} ms, read ${cr.ms.toFixed(0)} ms`);
  }
  const rows = `${ROWS.toLocaleString('en')} rows`;
  const writeMs = median(times.xlsxWrite);
  const readMs = median(times.xlsxRead);
  printBench({ figure: `xlsx write, ${rows} (baseline: CSV write)`, goal: 'report', value: writeMs, unit: 'ms', baseline: median(times.csvWrite) });
  printBench({ figure: `xlsx read + import checks, ${rows} (baseline: CSV read)`, goal: 'report', value: readMs, unit: 'ms', baseline: median(times.csvRead) });
  printBench({ figure: `xlsx file size, ${rows} (baseline: CSV)`, goal: 'report', value: xlsx.length / 1024 / 1024, unit: 'MB', baseline: Buffer.byteLength(csv) / 1024 / 1024 });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
