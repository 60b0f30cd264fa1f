// Our generic modules against the well-kept libraries that do the same job, measured in the same run
// on the same input (CONTRIBUTING.md, "Our code or a library": the decision per module and its figure).
// Each row prints the library's figure with ours as the same-run baseline, so `ratio` > 1 means the
// library is slower (time) or bigger (bundle). Figures are "report": the decision is in CONTRIBUTING.
// Run: npm run bench -- libraries [-- --mb N]   (N: size of the ZIP and text inputs, default 60)
import { parse as csvParseSync } from 'csv-parse/sync';
import * as fflate from 'fflate';
import iconv from 'iconv-lite';
import JSZip from 'jszip';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { parseCsv } from '../../src/domain/csv';
import { decodeText } from '../../src/domain/textDecoding';
import { ZipArchive, zipOfOneEntry } from '../../src/domain/zip';
import { bundleBytes, median, report } from './libraryFigures';

const args = process.argv.slice(2);
const mbArg = args.indexOf('--mb');
const MB = mbArg >= 0 ? Number(args[mbArg + 1]) : 60;
const RUNS = 3;
const gc = (globalThis as { gc?: () => void }).gc;

const inMemory = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** Median wall time of `RUNS` runs, and the most heap + buffer memory held above the start (sampled every 5 ms). */
async function measure(run: () => Promise<unknown> | unknown): Promise<{ ms: number; peakMb: number }> {
  const times: number[] = [];
  let peak = 0;
  for (let i = 0; i < RUNS; i++) {
    gc?.();
    const base = inMemory();
    const timer = setInterval(() => (peak = Math.max(peak, inMemory() - base)), 5);
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
    clearInterval(timer);
    peak = Math.max(peak, inMemory() - base);
  }
  return { ms: median(times), peakMb: peak / 1e6 };
}

/** A registry-like XML list of about `mb` MB, in 1 MB chunks. */
function registryXml(mb: number): Buffer {
  const parts: string[] = ['<?xml version="1.0" encoding="UTF-8"?><Users>'];
  let size = parts[0].length;
  for (let i = 0; size < mb * 1e6; i++) {
    const user = `<User><Identifier>${String(1_000_000_000 + i)}</Identifier><Title>ÖRNEK TİCARET ŞİRKETİ ${i}</Title><Alias>urn:mail:defaultpk@ornek${i}.com.tr</Alias></User>`;
    parts.push(user);
    size += user.length;
  }
  parts.push('</Users>');
  return Buffer.from(parts.join(''), 'utf8');
}

async function drainStream(stream: Readable): Promise<number> {
  let n = 0;
  for await (const chunk of stream) n += (chunk as Buffer).length;
  return n;
}

async function zipReading(zipFile: string, size: number): Promise<void> {
  const ours = await measure(async () => {
    const zip = await ZipArchive.open(zipFile);
    try {
      if ((await drainStream(await zip.open(zip.files()[0]))) !== size) throw new Error('ours: wrong size');
    } finally {
      await zip.close();
    }
  });
  const yauzlRun = await measure(
    () =>
      new Promise<void>((resolve, reject) => {
        yauzl.open(zipFile, { lazyEntries: true }, (err, zip) => {
          if (err || !zip) return reject(err);
          zip.readEntry();
          zip.on('entry', (entry: yauzl.Entry) =>
            zip.openReadStream(entry, (e, stream) => {
              if (e || !stream) return reject(e);
              drainStream(stream).then((n) => (n === size ? (zip.close(), resolve()) : reject(new Error('yauzl: wrong size'))), reject);
            }),
          );
        });
      }),
  );
  const jszipRun = await measure(async () => {
    const zip = await JSZip.loadAsync(await fs.promises.readFile(zipFile));
    const content = await zip.file(/.*/)[0].async('nodebuffer');
    if (content.length !== size) throw new Error('jszip: wrong size');
  });
  const fflateRun = await measure(async () => {
    const files = fflate.unzipSync(await fs.promises.readFile(zipFile));
    if (Object.values(files)[0].length !== size) throw new Error('fflate: wrong size');
  });
  const mb = `${(size / 1e6).toFixed(0)} MB entry`;
  report(`ZIP read, ${mb}: yauzl (time)`, yauzlRun.ms, 'ms', ours.ms);
  report(`ZIP read, ${mb}: jszip (time)`, jszipRun.ms, 'ms', ours.ms);
  report(`ZIP read, ${mb}: fflate unzipSync (time)`, fflateRun.ms, 'ms', ours.ms);
  report(`ZIP read, ${mb}: jszip (peak memory)`, jszipRun.peakMb, 'MB', Math.max(ours.peakMb, 1), 'holds the archive and the entry whole');
  report(`ZIP read, ${mb}: fflate unzipSync (peak memory)`, fflateRun.peakMb, 'MB', Math.max(ours.peakMb, 1), 'holds the archive and the entry whole');
  report(`ZIP read, ${mb}: yauzl (peak memory)`, yauzlRun.peakMb, 'MB', Math.max(ours.peakMb, 1), 'needs a file or a whole buffer: cannot read the list while it downloads, as ours does (streamFirstEntry)');
}

async function zipWriting(xml: Buffer): Promise<void> {
  // jszip's stream is its own (readable-stream 2), so every output is counted through 'data' events.
  const sink = (stream: NodeJS.ReadableStream): Promise<number> =>
    new Promise((resolve, reject) => {
      let n = 0;
      stream.on('data', (chunk: Buffer) => (n += chunk.length));
      stream.on('end', () => resolve(n));
      stream.on('error', reject);
    });
  const ours = await measure(() => sink(zipOfOneEntry('list.xml', Readable.from([xml]))));
  const jszipRun = await measure(() => {
    const zip = new JSZip();
    zip.file('list.xml', xml);
    return sink(zip.generateNodeStream({ compression: 'DEFLATE', compressionOptions: { level: 6 }, streamFiles: true }));
  });
  const yazlRun = await measure(() => {
    const zip = new yazl.ZipFile();
    const body = new PassThrough();
    zip.addReadStream(body, 'list.xml');
    body.end(xml);
    zip.end();
    return sink(zip.outputStream);
  });
  const mb = `${(xml.length / 1e6).toFixed(0)} MB entry`;
  report(`ZIP write (the sandbox's list), ${mb}: jszip (time)`, jszipRun.ms, 'ms', ours.ms);
  report(`ZIP write (the sandbox's list), ${mb}: yazl (time)`, yazlRun.ms, 'ms', ours.ms);
}

async function singleByteDecoding(): Promise<void> {
  // Turkish text in windows-1254 and x-mac-turkish, 20 MB each.
  const line = 'Yıldız Taşımacılık Ağır Şoför Çiğdem Öztürk Üsküdar İstanbul;1234567890;+90 212 555 00 00\r\n';
  const text = line.repeat(Math.ceil(20e6 / line.length));
  for (const [ours, lib] of [
    ['windows-1254', 'windows1254'],
    ['x-mac-turkish', 'macturkish'],
  ] as const) {
    const bytes = iconv.encode(text, lib);
    if (decodeText(bytes, ours) !== text || iconv.decode(bytes, lib) !== text) throw new Error(`${ours}: the two decoders disagree`);
    const oursRun = await measure(() => decodeText(bytes, ours));
    const libRun = await measure(() => iconv.decode(bytes, lib));
    report(`decode 20 MB ${ours}: iconv-lite (time)`, libRun.ms, 'ms', oursRun.ms);
  }
  const oursBytes = await bundleBytes(`import { decodeText } from './src/domain/textDecoding'; console.log(decodeText);`);
  const libBytes = await bundleBytes(`import iconv from 'iconv-lite'; console.log(iconv.decode);`);
  report('single-byte Turkish decoding: iconv-lite (bundle, minified)', libBytes / 1024, 'KB', oursBytes / 1024, 'the whole module with every table it carries');
}

async function csvParsing(): Promise<void> {
  const rows = ['Unvan;VKN/TCKN;Vergi Dairesi;E-posta;Telefon;Adres'];
  for (let i = 0; i < 100_000; i++) rows.push(`"Örnek Ticaret; Şube ${i}";${1_000_000_000 + i};Kadıköy;info${i}@ornek.com.tr;+90 216 555 ${String(i % 10000).padStart(4, '0')};"Moda Cd. No:${i}\nKadıköy"`);
  const text = rows.join('\r\n');
  const ours = parseCsv(text).records.length;
  const lib = (csvParseSync(text, { delimiter: ';', relax_column_count: true }) as string[][]).length;
  if (ours !== lib) throw new Error(`CSV: ours read ${ours} records, csv-parse ${lib}`);
  const oursRun = await measure(() => parseCsv(text));
  const libRun = await measure(() => csvParseSync(text, { delimiter: ';', relax_column_count: true }));
  report('CSV parse 100,000 rows (quoted fields, line breaks in cells): csv-parse/sync (time)', libRun.ms, 'ms', oursRun.ms);
  const oursBytes = await bundleBytes(`import { parseCsv } from './src/domain/csv'; console.log(parseCsv);`);
  const libBytes = await bundleBytes(`import { parse } from 'csv-parse/sync'; console.log(parse);`);
  report('CSV parse: csv-parse/sync (bundle, minified)', libBytes / 1024, 'KB', oursBytes / 1024, 'ours also detects the separator and the encoding, and keeps line numbers');
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-libs-'));
  try {
    const xml = registryXml(MB);
    const zipFile = path.join(dir, 'list.zip');
    await new Promise<void>((resolve, reject) => {
      const out = fs.createWriteStream(zipFile);
      zipOfOneEntry('list.xml', Readable.from([xml])).pipe(out).on('finish', resolve).on('error', reject);
    });
    await zipReading(zipFile, xml.length);
    await zipWriting(xml);
    await singleByteDecoding();
    await csvParsing();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
