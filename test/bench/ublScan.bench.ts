// The UBL-TR scanner on large documents, finished and half-typed (`npm run bench -- ublScan`):
//   - a 20 MB invoice with 10,000 lines (signed, with an embedded attachment), well-formed, and with
//     the half-typed states of an editor: an unclosed CDATA in the customer's number (the case that
//     once cost seconds and hundreds of MB a scan), in the ProfileID and in a line's note, an unclosed
//     comment, an unclosed attribute quote, a missing end tag, a start tag without its '>';
//   - a 20 MB despatch advice, well-formed and half-typed (an unclosed CDATA in the driver's TCKN, a
//     missing end tag).
// Each: CPU time per scan + rules (median of RUNS after warm-up) and the heap the scan leaves grown
// (gc() before it), printed next to the same document well-formed, measured in the same run; the goal
// is ≤ 2× its CPU time. Linear on any text: each half-typed variant, and text no editor produces
// (ADVERSARIAL), is also scanned at 10 MB, and its 20 MB time is at most 2.5× that (quadratic: 4×).
import * as path from 'node:path';
import { scanUbl } from '../../src/editor/diagnostics/ublScan';
import { documentFindings } from '../../src/editor/diagnostics/rules';
import { largeUbl, type LargeUblOptions } from '../support/largeUbl';
import { printBench } from './benchLine';

const root = path.resolve(__dirname, '..', '..', '..');
const fixture = (name: string) => path.join(root, 'test', 'fixtures', 'ubl', name);
const MB = 1024 * 1024;
const RUNS = 11;
const RATIO_GOAL = 2;
const DOUBLING_GOAL = 2.5;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

interface Measure {
  cpuMs: number;
  wallMs: number;
  heapMb: number;
  numbers: number;
  errors: number;
}

function once(text: string): { cpuMs: number; wallMs: number; numbers: number; errors: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const scan = scanUbl(text);
  const findings = documentFindings(scan, undefined);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs, numbers: scan.taxNumbers.length, errors: findings.filter((f) => f.severity === 'error').length };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function measure(text: string, runs = RUNS): Measure {
  // Warm-up: flattens the string built by replace() and lets the JIT settle.
  once(text);
  once(text);
  gc();
  const before = process.memoryUsage().heapUsed;
  const first = once(text);
  // A collection during the scan can make the difference negative: nothing measurable was left.
  const heapMb = Math.max(0, (process.memoryUsage().heapUsed - before) / MB);
  const results = [first];
  for (let i = 1; i < runs; i++) results.push(once(text));
  return { cpuMs: median(results.map((r) => r.cpuMs)), wallMs: median(results.map((r) => r.wallMs)), heapMb, numbers: first.numbers, errors: first.errors };
}

interface Variant {
  name: string;
  /** The half-typed edit of the well-formed text. */
  edit: (text: string) => string;
  /** Tax numbers the scan still finds (a sanity check that the edit took). */
  numbers: number;
}

interface Document {
  name: string;
  fixture: string;
  options: Omit<LargeUblOptions, 'targetChars'>;
  numbers: number;
  variants: Variant[];
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0) throw new Error(`${JSON.stringify(from)} not in the document`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** Replaces the occurrence nearest the middle of the text (an edit among the lines). */
function replaceMiddle(text: string, from: string, to: string): string {
  const at = text.indexOf(from, Math.floor(text.length / 2));
  if (at < 0) throw new Error(`${JSON.stringify(from)} not in the second half`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

const documents: Document[] = [
  {
    name: 'invoice, 10,000 lines',
    fixture: 'invoice-ticari-signed.xml',
    options: { line: 'InvoiceLine', lines: 10_000 },
    numbers: 4,
    variants: [
      { name: "unclosed CDATA in the customer's VKN", edit: (t) => replaceOnce(t, '<cbc:ID schemeID="VKN">1234567891', '<cbc:ID schemeID="VKN"><![CDATA[1234567891'), numbers: 3 },
      { name: 'unclosed CDATA in the ProfileID', edit: (t) => replaceOnce(t, '<cbc:ProfileID>TICARI', '<cbc:ProfileID><![CDATA[TICARI'), numbers: 0 },
      { name: "unclosed CDATA in a line's note", edit: (t) => replaceMiddle(t, '<cbc:Note>Sipariş', '<cbc:Note><![CDATA[Sipariş'), numbers: 4 },
      { name: 'unclosed comment before the customer', edit: (t) => replaceOnce(t, '<cac:AccountingCustomerParty>', '<!-- <cac:AccountingCustomerParty>'), numbers: 3 },
      { name: "unclosed quote in the customer's schemeID", edit: (t) => replaceOnce(t, 'schemeID="VKN">1234567891', 'schemeID="VKN>1234567891'), numbers: 3 },
      { name: "the supplier's end tag missing", edit: (t) => replaceOnce(t, '</cac:AccountingSupplierParty>', ''), numbers: 4 },
      { name: "a line's start tag without its '>'", edit: (t) => replaceMiddle(t, '<cac:InvoiceLine>', '<cac:InvoiceLine'), numbers: 4 },
    ],
  },
  {
    name: 'despatch advice',
    fixture: 'despatch-advice.xml',
    options: { line: 'DespatchLine', lines: 0 },
    numbers: 9,
    variants: [
      { name: "unclosed CDATA in the driver's TCKN", edit: (t) => replaceOnce(t, '<cbc:NationalityID>12345678951', '<cbc:NationalityID><![CDATA[12345678951'), numbers: 6 },
      { name: "the delivery customer's end tag missing", edit: (t) => replaceOnce(t, '</cac:DeliveryCustomerParty>', ''), numbers: 9 },
      { name: "a line's start tag without its '>'", edit: (t) => replaceMiddle(t, '<cac:DespatchLine>', '<cac:DespatchLine'), numbers: 9 },
    ],
  },
];

const f1 = (n: number) => n.toFixed(1);

/** Text no editor produces, inside a UBL root: the scan must stay linear on it too (no well-formed twin). */
const ADVERSARIAL: Array<{ name: string; unit: (i: number) => string }> = [
  { name: 'distinct elements never closed', unit: (i) => `<e${i}>text ` },
  { name: 'a deep stack and end tags that match nothing', unit: (i) => (i % 2 ? `</y${i}>` : '<x>') },
  { name: 'distinct elements nested, each holding a comment', unit: (i) => `<n${i}><!-- c -->` },
  { name: 'attribute quotes never closed', unit: () => '<a b="x>text</a>' },
  { name: 'CDATA sections everywhere', unit: () => '<cbc:Note><![CDATA[x]]></cbc:Note>' },
  { name: 'party identifications everywhere', unit: (i) => `<cac:PartyIdentification><cbc:ID schemeID="VKN">${1234567800 + (i % 100)}</cbc:ID></cac:PartyIdentification>` },
];

function adversarialText(unit: (i: number) => string, chars: number): string {
  const head = '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">';
  const parts = [head];
  let size = head.length;
  for (let i = 0; size < chars; i++) {
    const u = unit(i);
    parts.push(u);
    size += u.length;
  }
  return parts.join('');
}

function main(): void {
  const failures: string[] = [];
  for (const doc of documents) {
    const build = (mb: number) => largeUbl(fixture(doc.fixture), { ...doc.options, lines: doc.options.lines === 0 ? 0 : Math.round((doc.options.lines * mb) / 20), targetChars: mb * MB });
    const full = build(20);
    const half = build(10);
    const baseline = measure(full);
    if (baseline.numbers !== doc.numbers) throw new Error(`${doc.name}: ${baseline.numbers} tax numbers, expected ${doc.numbers}`);
    const label = `${doc.name}, ${f1(Buffer.byteLength(full) / MB)} MB`;
    console.log(`${label}, well-formed: CPU ${f1(baseline.cpuMs)} ms a scan (wall ${f1(baseline.wallMs)} ms), heap +${f1(baseline.heapMb)} MB, ${baseline.numbers} tax numbers, ${baseline.errors} errors`);
    printBench({ figure: `UBL scan, ${doc.name} 20 MB, well-formed, CPU per scan`, goal: 'report', value: baseline.cpuMs, unit: 'ms' });
    printBench({ figure: `UBL scan, ${doc.name} 20 MB, well-formed, heap growth per scan`, goal: 'report', value: baseline.heapMb, unit: 'MB' });
    for (const v of doc.variants) {
      const text = v.edit(full);
      const m = measure(text);
      if (m.numbers !== v.numbers) throw new Error(`${doc.name}, ${v.name}: ${m.numbers} tax numbers, expected ${v.numbers}`);
      const small = measure(v.edit(half));
      const ratio = m.cpuMs / baseline.cpuMs;
      const doubling = m.cpuMs / small.cpuMs;
      console.log(`  ${v.name}: CPU ${f1(m.cpuMs)} ms (${ratio.toFixed(2)}× well-formed; 10 MB ${f1(small.cpuMs)} ms, ×${doubling.toFixed(2)} for twice the text), wall ${f1(m.wallMs)} ms, heap +${f1(m.heapMb)} MB`);
      printBench({ figure: `UBL scan, ${doc.name} 20 MB, ${v.name}, CPU per scan`, goal: `≤ ${RATIO_GOAL}× well-formed`, value: m.cpuMs, unit: 'ms', baseline: baseline.cpuMs, met: ratio <= RATIO_GOAL });
      printBench({ figure: `UBL scan, ${doc.name} 20 MB, ${v.name}, heap growth per scan`, goal: 'report', value: m.heapMb, unit: 'MB', ...(baseline.heapMb > 0.01 ? { baseline: baseline.heapMb } : { note: 'well-formed left no measurable growth' }) });
      printBench({ figure: `UBL scan, ${doc.name}, ${v.name}, CPU 20 MB / 10 MB`, goal: `≤ ${DOUBLING_GOAL} (linear)`, value: doubling, unit: '×', met: doubling <= DOUBLING_GOAL });
      if (ratio > RATIO_GOAL) failures.push(`${doc.name}, ${v.name}: ${ratio.toFixed(2)}× well-formed`);
      if (doubling > DOUBLING_GOAL) failures.push(`${doc.name}, ${v.name}: ×${doubling.toFixed(2)} for twice the text`);
    }
  }
  console.log('adversarial text inside a UBL root (10 MB and 20 MB):');
  for (const a of ADVERSARIAL) {
    const small = measure(adversarialText(a.unit, 10 * MB), 5);
    const large = measure(adversarialText(a.unit, 20 * MB), 5);
    const doubling = large.cpuMs / small.cpuMs;
    console.log(`  ${a.name}: CPU ${f1(small.cpuMs)} ms → ${f1(large.cpuMs)} ms (×${doubling.toFixed(2)}), heap +${f1(large.heapMb)} MB`);
    printBench({ figure: `UBL scan, adversarial: ${a.name}, CPU 20 MB / 10 MB`, goal: `≤ ${DOUBLING_GOAL} (linear)`, value: doubling, unit: '×', met: doubling <= DOUBLING_GOAL, note: `20 MB: ${f1(large.cpuMs)} ms` });
    if (doubling > DOUBLING_GOAL) failures.push(`adversarial ${a.name}: ×${doubling.toFixed(2)} for twice the text`);
  }
  if (failures.length) {
    console.log(`over budget: ${failures.join('; ')}`);
    process.exit(1);
  }
}

main();
