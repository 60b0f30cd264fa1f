// Every reader of untrusted input on adversarial input, at size n and 2n (`npm run bench -- adversarial`;
// issue 37, "no input is slow"): the UBL-TR scanner of the editor and the hovers' context, the document
// type of a file's head (menus, pickers, the workspace's context keys), the strict
// reader and the structured view's model, CSV (the import's reader fed in chunks, whole-text parse, the
// editor's scan), the registry list's parser, the registry download's base64 body, Check Connection's
// JSON (parse, shape, verdicts) and the registry ZIP's limits. Each input is what made a reader
// quadratic or deep before (long attribute names, numbers below long names, deep nesting, constructs
// left open, huge header lines, many declarations, deeply nested JSON, ZIP bombs) or what it does not
// expect. The goal for each: CPU time at 2n ≤ 2.5 × CPU time at n (linear doubles it; quadratic
// quadruples it), or under a millisecond at 2n (a refusal that quick is no freeze, and its ratio is
// noise). Correctness and "throws only our errors" are the unit tests' (test/unit/domain/
// untrustedReaders.test.ts, test/unit/domain/ubl/xmlReaderAdversarial.test.ts, test/unit/preview/model/
// readDocumentAdversarial.test.ts, test/unit/domain/zipLimits.test.ts).
//
// Times per call are medians of batches that each run at least BATCH_MS (small inputs are called many
// times per batch) after a full collection, n and 2n alternating, so a busy machine's drifts fall on
// both alike. Run under `node --expose-gc` (npm run bench does).
import os from 'node:os';
import { Readable } from 'node:stream';
import { parseCsv, CsvReader } from '../../src/domain/csv';
import { scanCsv } from '../../src/domain/csvScan';
import { RegistryXmlError, RegistryXmlParser } from '../../src/domain/registryXml';
import { parseRegistryXml } from '../support/registryFixtures';
import { checkZip, ZipLimitError } from '../../src/domain/zip';
import { RegistryZipError, streamFirstEntry } from '../../src/domain/registryZip';
import { readXml, XmlSyntaxError } from '../../src/domain/ubl/xmlReader';
import { documentTypeOfHead } from '../../src/domain/ubl/documentTypes';
import { Base64JsonStringDecoder } from '../../src/api/base64JsonString';
import { scanUbl } from '../../src/editor/diagnostics/ublScan';
import { xmlSaysTaxNumber, XML_CONTEXT_CHARS } from '../../src/editor/hover/xmlTaxNumberContext';
import { readDocument } from '../../src/preview/model/readDocument';
import { describeShape } from '../../src/commands/connection/shape';
import { readVerdicts } from '../../src/commands/connection/verdicts';
import type { CheckRun, ProbeId } from '../../src/commands/connection/probes';
import { xmlBomb } from '../support/zipBomb';
import { printBench } from './benchLine';

const KB = 1024;
const MB = 1024 * KB;
const DOUBLING_GOAL = 2.5;
/** A call this quick at 2n is no freeze whatever its ratio (constant-time refusals are all noise). */
const FLOOR_MS = 1;
const BATCH_MS = 30;
const BATCHES = 5;

const INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const ROOT = `<Invoice xmlns="${INVOICE_NS}" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">`;

interface Case {
  reader: string;
  input: string;
  /** Size n (what the unit counts is in `unit`). */
  n: number;
  unit: string;
  /** Builds the input of size `size`; run() reads it. */
  build: (size: number) => unknown;
  run: (input: never) => unknown;
  /** Printed, not judged, and why. */
  reportOnly?: string;
}

const repeat = (unit: string, chars: number) => unit.repeat(Math.max(1, Math.round(chars / unit.length)));

/** Swallows the reader's own error (the input is meant to be refused); anything else is a failure. */
function refused<T>(read: () => T, ...own: Array<new (...args: never[]) => Error>): T | undefined {
  try {
    return read();
  } catch (e) {
    if (own.some((type) => e instanceof type)) return undefined;
    throw e;
  }
}

function readStrict(text: string): void {
  refused(() => readXml(text, { root: () => undefined, child: () => undefined }), XmlSyntaxError);
}

function csvInChunks(text: string, chunk: number): void {
  const reader = new CsvReader();
  for (let at = 0; at < text.length; at += chunk) reader.push(text.slice(at, at + chunk));
  reader.end();
}

function registryInChunks(bytes: Buffer, chunk: number): void {
  const parser = new RegistryXmlParser();
  refused(() => {
    for (let at = 0; at < bytes.length; at += chunk) {
      parser.write(bytes.subarray(at, at + chunk));
      parser.take();
    }
    parser.end();
  }, RegistryXmlError);
}

function base64Body(body: Buffer, chunk: number): void {
  const decoder = new Base64JsonStringDecoder();
  for (let at = 0; at < body.length; at += chunk) decoder.push(body.subarray(at, at + chunk));
  decoder.end();
}

const PROBES = ['company', 'credits', 'customersPage', 'pageSizeAbove', 'registryList', 'encodedSlash', 'certificateLookupMissing', 'searchNoMatch', 'pageBeyondEnd', 'alerts'] as ProbeId[];

function checkConnectionReads(body: string): void {
  const value: unknown = JSON.parse(body);
  describeShape(value);
  const run: CheckRun = {
    results: PROBES.map((id) => ({ id, method: 'GET' as const, template: '/x', answer: { status: 200, ms: 1, bytes: body.length, truncated: false, body: { kind: 'json' as const, value } } })),
    facts: {},
  };
  readVerdicts(run);
}

async function streamedBomb(zip: Buffer): Promise<void> {
  const parser = new RegistryXmlParser();
  const stream = Readable.from((function* () {
    for (let at = 0; at < zip.length; at += 64 * KB) yield zip.subarray(at, at + 64 * KB);
  })());
  try {
    for await (const _batch of streamFirstEntry(stream, parser)) void _batch;
    throw new Error('the bomb was read whole');
  } catch (e) {
    if (!(e instanceof RegistryZipError && e.code === 'compressionRatio')) throw e;
  }
}

const CASES: Case[] = [
  // The UBL-TR scanner (the editor's diagnostics, on open and on each edit).
  { reader: 'UBL scan', input: 'one long attribute name in the root (issue row 4)', n: 2 * MB, unit: 'chars', build: (n) => `<Invoice xmlns="${INVOICE_NS}" ${'a'.repeat(n)}>`, run: scanUbl },
  { reader: 'UBL scan', input: 'attribute quotes never closed in the root', n: 2 * MB, unit: 'chars', build: (n) => `<Invoice xmlns="${INVOICE_NS}" ${repeat("a='", n)}>`, run: scanUbl },
  { reader: 'UBL scan', input: 'long attribute names in number elements', n: 2 * MB, unit: 'chars', build: (n) => `${ROOT}<cac:PartyIdentification>${repeat(`<cbc:ID ${'s'.repeat(2000)}>1234567890</cbc:ID>`, n)}`, run: scanUbl },
  { reader: 'UBL scan', input: 'numbers below an ancestor with a long name', n: 1 * MB, unit: 'chars', build: (n) => `${ROOT}<${'x'.repeat(n / 2)}><cac:PartyIdentification>${repeat('<cbc:ID schemeID="VKN">1234567890</cbc:ID>', n / 2)}`, run: scanUbl },
  { reader: 'UBL scan', input: 'elements nested, never closed', n: 2 * MB, unit: 'chars', build: (n) => ROOT + repeat('<a>', n), run: scanUbl },
  { reader: 'UBL scan', input: 'comments, CDATA and instructions never closed', n: 2 * MB, unit: 'chars', build: (n) => ROOT + repeat('<!-- <![CDATA[ <?x <a b="', n), run: scanUbl },
  { reader: 'hover context', input: `an attribute being typed (the ${XML_CONTEXT_CHARS / KB} KB before a number)`, n: XML_CONTEXT_CHARS / 2, unit: 'chars', build: (n) => `<a ${'b'.repeat(n)}`, run: xmlSaysTaxNumber },
  { reader: "a file's document type", input: 'comments never closed in the 8 KB head', n: 4 * KB, unit: 'chars', build: (n) => INVOICE_NS + repeat('<!--', n), run: documentTypeOfHead },
  // The strict reader and the structured view (the preview).
  { reader: 'XML strict reader', input: 'one long attribute name in the root', n: 2 * MB, unit: 'chars', build: (n) => `<Invoice xmlns="${INVOICE_NS}" ${'a'.repeat(n)}/>`, run: readStrict },
  { reader: 'XML strict reader', input: 'prefixed elements at depth 250, declared at the root', n: 1 * MB, unit: 'chars', build: (n) => `<r xmlns:p="u">${'<p:a>'.repeat(250)}${repeat('<p:b/>', n)}`, run: readStrict },
  { reader: 'structured view', input: 'nested past the limit (issue row 10)', n: 1 * MB, unit: 'chars', build: (n) => `${ROOT}<cac:AccountingSupplierParty>${repeat('<cac:X>', n / 2)}${repeat('</cac:X>', n / 2)}</cac:AccountingSupplierParty></Invoice>`, run: readDocument },
  {
    reader: 'structured view',
    input: 'parties at depth 250, many identifications',
    n: 512 * KB,
    unit: 'chars',
    build: (n) => `${ROOT}<cac:AccountingSupplierParty>${'<cac:Party>'.repeat(250)}${repeat('<cac:PartyIdentification><cbc:ID schemeID="VKN">1234567890</cbc:ID></cac:PartyIdentification>', n)}${'</cac:Party>'.repeat(250)}</cac:AccountingSupplierParty></Invoice>`,
    run: readDocument,
  },
  // CSV.
  { reader: 'CSV import reader', input: 'one header line in 8 KB chunks (issue row 10)', n: 8 * MB, unit: 'chars', build: (n) => `VKN;${'a'.repeat(n)}\r\n1234567890;x\r\n`, run: (text: string) => csvInChunks(text, 8 * KB) },
  { reader: 'CSV import reader', input: 'a quote never closed, in 8 KB chunks', n: 8 * MB, unit: 'chars', build: (n) => `VKN;"${repeat('a;\r\n', n)}`, run: (text: string) => refused(() => csvInChunks(text, 8 * KB), Error) },
  // At 4 and 8 MB: from 2 to 4 MB V8 takes the field into another memory regime once (×2.6 there;
  // 1 MB to 8 MB is ×5 to ×8, linear).
  { reader: 'CSV parse', input: 'escaped quotes in one field', n: 4 * MB, unit: 'chars', build: (n) => `VKN;"${repeat('""', n)}"\r\n`, run: (text: string) => parseCsv(text) },
  { reader: 'CSV editor scan', input: 'a header of separators only', n: 1 * MB, unit: 'chars', build: (n) => `${repeat(';', n)}\r\n1;2`, run: scanCsv },
  { reader: 'CSV editor scan', input: 'a tax-number column of unclosed quoted cells', n: 4 * MB, unit: 'chars', build: (n) => `VKN\r\n${repeat('"1234567890\r\n', n)}`, run: scanCsv },
  // The registry list.
  { reader: 'registry XML', input: 'many <!x> declarations, whole', n: 2 * MB, unit: 'bytes', build: (n) => `<UserList>${repeat('<!x>', n)}</UserList>`, run: (text: string) => refused(() => parseRegistryXml(text), RegistryXmlError) },
  { reader: 'registry XML', input: 'unknown elements nested, in 64 KB chunks', n: 8 * MB, unit: 'bytes', build: (n) => Buffer.from(`<UserList><User>${repeat('<a>', n)}`), run: (bytes: Buffer) => registryInChunks(bytes, 64 * KB) },
  { reader: 'registry XML', input: 'titles of 900 KB, in 64 KB chunks', n: 4 * MB, unit: 'bytes', build: (n) => Buffer.from(`<UserList>${repeat(`<User><Identifier>4540536920</Identifier><Title>${'T'.repeat(900 * KB)}</Title></User>`, n)}</UserList>`), run: (bytes: Buffer) => registryInChunks(bytes, 64 * KB) },
  // The registry download's body.
  { reader: 'base64 body', input: 'escaped base64 in 64 KB chunks', n: 4 * MB, unit: 'bytes', build: (n) => Buffer.from(`"${repeat('AB\\/\\u002B', n)}"`), run: (body: Buffer) => base64Body(body, 64 * KB) },
  // Check Connection's JSON answers (a probe reads at most 256 KB of a body).
  { reader: 'Check Connection JSON', input: 'arrays nested 64 K deep', n: 64 * KB, unit: 'levels', build: (n) => `${'['.repeat(n)}1${']'.repeat(n)}`, run: checkConnectionReads },
  { reader: 'Check Connection JSON', input: 'a list of many small records', n: 128 * KB, unit: 'chars', build: (n) => `[${Array.from({ length: Math.round(n / 40) }, (_, i) => `{"Name":null,"Value":"2024-01-0${i % 9}T00:00"}`).join(',')}]`, run: checkConnectionReads },
  {
    reader: 'Check Connection JSON',
    input: 'one object with many fields',
    n: 128 * KB,
    unit: 'chars',
    build: (n) => `{${Array.from({ length: Math.round(n / 10) }, (_, i) => `"k${i}":null`).join(',')}}`,
    run: checkConnectionReads,
    reportOnly:
      "V8's Object.entries/values of an object of 13 K to 52 K fields grows faster than its size (3 ms to 110 ms here); a probe reads at most 256 KB of a body, which bounds it",
  },
];

/**
 * A text as a reader gets it: an editor's text is its lines joined, a file's its bytes decoded, both flat
 * strings. Built with repeat() and template literals, an input is a ConsString: V8 flattens it on first
 * read, but the reference keeps one indirection per charCodeAt unless the collector happened to short-cut
 * it (here the 2 MB inputs, not the 4 MB ones): a bare charCodeAt loop then costs 1.5 instead of 1.1 ms
 * per MB on the larger input only, which made the linear UBL scan look ×2.5. (The inputs are ASCII: the
 * UTF-8 round trip is exact.)
 */
const flat = (input: unknown): unknown => (typeof input === 'string' ? Buffer.from(input).toString() : input);

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/**
 * CPU ms of one call, measured over a batch of at least BATCH_MS, after a full collection (outside the
 * measure): without it the garbage of the calls before made the larger input's collections dearer.
 */
async function batch(run: () => unknown): Promise<number> {
  gc();
  let calls = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  do {
    await run();
    calls++;
  } while (performance.now() - started < BATCH_MS);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / calls;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (v: number) => (v < 1 ? v.toFixed(3) : v.toFixed(1));

function size(n: number, unit: string): string {
  if (unit === 'levels') return `${n / KB} K levels`;
  return n >= MB ? `${n / MB} MB` : `${n / KB} KB`;
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores; CPU per call at n and 2n (median of ${BATCHES} batches of ≥ ${BATCH_MS} ms)`);
  const failures: string[] = [];
  for (const c of CASES) {
    const small = flat(c.build(c.n));
    const large = flat(c.build(2 * c.n));
    const run = c.run as (input: unknown) => unknown;
    // Warm-up: lets the JIT settle.
    run(small);
    run(large);
    gc();
    const at: number[] = [];
    const at2: number[] = [];
    for (let b = 0; b < BATCHES; b++) {
      at.push(await batch(() => run(small)));
      at2.push(await batch(() => run(large)));
    }
    report(c, median(at), median(at2), failures, c.reportOnly);
  }
  // The ZIP limits: a bomb of n and 2n GB is refused from its directory (checkZip) or, read as it
  // downloads, stopped after the same 16 MiB: time that does not grow with the bomb.
  const bombs = { n: xmlBomb(512).zip, n2: xmlBomb(1024).zip };
  const zipCases: Array<[string, (zip: Buffer) => Promise<unknown>]> = [
    ['declared in its directory (download check)', (zip) => checkZip(zip).then(() => Promise.reject(new Error('the bomb passed the check')), (e: unknown) => (e instanceof ZipLimitError ? undefined : Promise.reject(e)))],
    ['read as it downloads (no directory yet)', streamedBomb],
  ];
  for (const [input, read] of zipCases) {
    await read(bombs.n);
    const at: number[] = [];
    const at2: number[] = [];
    for (let b = 0; b < 3; b++) {
      at.push(await batch(() => read(bombs.n)));
      at2.push(await batch(() => read(bombs.n2)));
    }
    report({ reader: 'registry ZIP', input: `a bomb ${input}`, n: 512, unit: 'MB inflated' }, median(at), median(at2), failures);
  }
  if (failures.length) {
    console.log(`over budget: ${failures.join('; ')}`);
    process.exit(1);
  }
}

function report(c: Pick<Case, 'reader' | 'input' | 'n' | 'unit'>, small: number, large: number, failures: string[], reportOnly?: string): void {
  const doubling = large / small;
  const sizes = c.unit === 'MB inflated' ? `${c.n / 1024} GB and ${(2 * c.n) / 1024} GB inflated` : `${size(c.n, c.unit)} and ${size(2 * c.n, c.unit)}`;
  const quick = large < FLOOR_MS;
  const met = doubling <= DOUBLING_GOAL || quick;
  console.log(`  ${c.reader}, ${c.input}: ${ms(small)} ms → ${ms(large)} ms (×${doubling.toFixed(2)}) at ${sizes}${reportOnly ? ` (reported: ${reportOnly})` : ''}`);
  const note = `${sizes}: ${ms(small)} ms, ${ms(large)} ms${quick ? `; under ${FLOOR_MS} ms at 2n` : ''}${reportOnly ? `; ${reportOnly}` : ''}`;
  printBench({ figure: `adversarial: ${c.reader}, ${c.input}, CPU 2n / n`, goal: reportOnly ? 'report' : `≤ ${DOUBLING_GOAL} (linear) or < ${FLOOR_MS} ms`, value: doubling, unit: '×', met, note });
  if (!met && !reportOnly) failures.push(`${c.reader}, ${c.input}: ×${doubling.toFixed(2)} for twice the input`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
