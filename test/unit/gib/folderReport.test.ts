// A folder checked against GİB's rules and its report: every UBL-TR file, the others named as skipped,
// Markdown and CSV that say the same (the CSV read back by the repository's CSV reader), Cancel.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseCsv } from '../../../src/domain/csv';
import { escapeMarkdown as e } from '../../../src/domain/markdown';
import { checkWithEngine, countsOf, defaultReportName, reportCsv, reportFilesFor, reportMarkdown, validateFolder, type CheckFile, type FolderVerdict } from '../../../src/gib/folderReport';
import { gibDocumentRoot } from '../../../src/gib/documentRoots';
import { NO_GIB_DATA, sharedGibEngine } from '../../support/gibPackages';

// A clock whose day differs from UTC's late in the evening, so a report dated by UTC shows here (each
// test file runs in a process of its own).
process.env.TZ = 'America/New_York';

const engineOrSkip = sharedGibEngine();
const skip = !engineOrSkip && NO_GIB_DATA;
const fixtures = path.join(__dirname, '../../../../test/fixtures/gib');
const fixture = (name: string) => readFile(path.join(fixtures, name), 'utf8');

/** A batch as an integrator keeps one: a clean invoice, a broken one in a subfolder (whose name a spreadsheet would run), a despatch advice, other files. */
async function folderOfDocuments(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gib-folder-report-'));
  await writeFile(path.join(dir, 'a-clean.xml'), await fixture('folder-invoice.xml'));
  await mkdir(path.join(dir, '=batch'));
  await writeFile(path.join(dir, '=batch', 'b-broken.xml'), await fixture('folder-invoice-broken.xml'));
  await writeFile(path.join(dir, 'c-despatch.xml'), await fixture('folder-despatch.xml'));
  await writeFile(path.join(dir, 'notes.xml'), await fixture('folder-not-ubl.xml'));
  await writeFile(path.join(dir, 'readme.txt'), 'not xml');
  return dir;
}

const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
const ID_MESSAGE = "Geçersiz cbc:ID elemanı değeri. cbc:ID elemanı 'ABC2009123456789' formatında olmalıdır.";

test('a folder: each UBL-TR file checked, the others skipped; Markdown and CSV say the same', { skip }, async () => {
  const dir = await folderOfDocuments();
  try {
    const progress: string[] = [];
    const v = await validateFolder(checkWithEngine(await engineOrSkip!), dir, { onProgress: (done, total, file) => progress.push(`${done}/${total} ${file}`) });
    assert.deepEqual(v.files.map((f) => [f.file, f.documentType, f.findings.length]), [['=batch/b-broken.xml', 'Invoice', 3], ['a-clean.xml', 'Invoice', 0], ['c-despatch.xml', 'DespatchAdvice', 0]]);
    assert.deepEqual(v.skipped, ['notes.xml']);
    assert.deepEqual(progress, ['0/3 =batch/b-broken.xml', '1/3 a-clean.xml', '2/3 c-despatch.xml', '3/3 ']);
    assert.deepEqual(countsOf(v), { checked: 3, errors: 3, filesWithErrors: 1 });

    const broken = await fixture('folder-invoice-broken.xml');
    const idLine = lineOf(broken, '<cbc:ID>FLD-2026-42</cbc:ID>');
    const currencyLine = lineOf(broken, '<cbc:DocumentCurrencyCode>');
    const md = reportMarkdown(v, undefined, new Date(2026, 1, 1, 23, 30));
    assert.ok(md.startsWith(`# ${e("GİB's verdict")}: ${e(path.basename(dir))}\n\nGİB rules 20260312 · 2026-02-01\n\n${e('3 files checked: 3 errors in 1 file.')}\n`), md);
    assert.ok(!md.includes('partial'), md);
    assert.ok(
      md.includes(`## ${e('=batch/b-broken.xml')} (Invoice)\n\n| Line | Column | Severity | Rule | Message | Source |\n|---:|---:|---|---|---|---|\n| ${idLine} | 3 | error | InvoiceIDCheck | ${e(ID_MESSAGE)} | GİB rules 20260312 |\n`),
      md,
    );
    assert.ok(md.includes(`## ${e('a-clean.xml')} (Invoice)\n\nNo findings${e('.')}\n`), md);
    assert.ok(md.endsWith(`## ${e('Not UBL-TR documents, not checked: 1')}\n\n- ${e('notes.xml')}\n`), md);

    const csv = reportCsv(v, undefined, ';');
    assert.ok(csv.startsWith('\uFEFFFile;Line;Column;Severity;Rule;Message;Source\r\n'), csv);
    const rows = parseCsv(csv.slice(1), { delimiter: ';' }).records.map((r) => r.cells);
    // The folder name starting with '=' is a formula to a spreadsheet: the guard makes it text.
    assert.deepEqual(
      rows.slice(1).map((r) => [r[0], r[1], r[2], r[3], r[4], r[6]]),
      [
        ["'=batch/b-broken.xml", String(idLine), '3', 'error', 'InvoiceIDCheck', 'GİB rules 20260312'],
        ["'=batch/b-broken.xml", String(currencyLine), '3', 'error', 'CurrencyCodeCheck', 'GİB rules 20260312'],
        ["'=batch/b-broken.xml", String(currencyLine), '3', 'error', 'CurrencyCodeCheck', 'GİB rules 20260312'],
      ],
    );
    assert.deepEqual(rows.slice(1).map((r) => r[5]), [ID_MESSAGE, 'Geçersiz cbc:DocumentCurrencyCode elemanı değeri. Geçerli değerler için kod listesine bakınız.', 'Para birimi TRY olmayan belgelerde kur bilgisi zorunludur.']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('Cancel stops between files; the report says it is partial, in its title too', { skip }, async () => {
  const dir = await folderOfDocuments();
  try {
    const abort = new AbortController();
    const v = await validateFolder(checkWithEngine(await engineOrSkip!), dir, { signal: abort.signal, onProgress: (done) => done === 1 && abort.abort() });
    assert.equal(v.cancelled, true);
    // Cancelled once the first file was checked: the next is not started.
    assert.deepEqual(v.files.map((f) => f.file), ['=batch/b-broken.xml']);
    const md = reportMarkdown(v);
    assert.ok(md.startsWith(`# ${e("GİB's verdict (partial)")}: `), md);
    assert.ok(md.includes(`**${e('Partial report: cancelled after 1 of 3 files; the others were not checked.')}**`), md);
    assert.ok(md.includes(e('1 file checked: 3 errors in 1 file.')), md);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a file is told a UBL-TR document by its root element, not by the namespaces it mentions', () => {
  const gibDocumentTypeOfHead = (head: string) => gibDocumentRoot(head)?.localName;
  const ns = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
  assert.equal(gibDocumentTypeOfHead(`<?xml version="1.0"?>\n<!-- <Invoice> -->\n<Invoice xmlns="${ns}"><cbc:ID/>`), 'Invoice');
  assert.equal(gibDocumentTypeOfHead(`<inv:Invoice xmlns:inv="${ns}">`), 'Invoice');
  assert.equal(gibDocumentTypeOfHead(`<DespatchAdvice xmlns="urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2">`), 'DespatchAdvice');
  assert.equal(gibDocumentTypeOfHead(`<list xmlns:x="${ns}"><x:Invoice/></list>`), undefined, 'an Invoice inside another root');
  assert.equal(gibDocumentTypeOfHead(`<Invoice xmlns="urn:example:invoice">`), undefined, 'another namespace');
  const envelope = 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader';
  assert.equal(gibDocumentTypeOfHead(`<?xml version="1.0"?><sh:StandardBusinessDocument xmlns:sh="${envelope}">`), 'StandardBusinessDocument');
  assert.equal(gibDocumentTypeOfHead(`<wrapper xmlns:sh="${envelope}"><sh:StandardBusinessDocument>`), undefined);
  assert.equal(gibDocumentTypeOfHead('not xml at all'), undefined);
});

test('a file that is not a UBL-TR document is never handed to the check', async () => {
  const dir = await folderOfDocuments();
  try {
    const seen: string[] = [];
    const check: CheckFile = async (file) => {
      seen.push(path.relative(dir, file).split(path.sep).join('/'));
      return { validation: { documentType: 'Invoice', findings: [] }, release: '20260312' };
    };
    const v = await validateFolder(check, dir);
    assert.deepEqual(seen, ['=batch/b-broken.xml', 'a-clean.xml', 'c-despatch.xml']);
    assert.deepEqual(v.skipped, ['notes.xml']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the summary counts errors only, with one and many in their own words', () => {
  const finding = (severity: 'error' | 'info') => ({ line: 1, column: 1, severity, source: 'GİB rules 1', message: 'm', ruleContext: '', elementPath: '', contextPath: '', draft: false, kind: 'rule' as const });
  const verdict = (files: FolderVerdict['files']): FolderVerdict => ({ folder: '/x', release: '1', files, total: files.length, skipped: [], cancelled: false, draftsLeftOut: true });
  const md = (v: FolderVerdict) => reportMarkdown(v).split('\n')[4];
  assert.equal(md(verdict([{ file: 'a.xml', documentType: 'Invoice', findings: [finding('info')] }])), e('1 file checked: no errors.'));
  assert.equal(md(verdict([{ file: 'a.xml', documentType: 'Invoice', findings: [finding('error')] }, { file: 'b.xml', documentType: 'Invoice', findings: [] }])), e('2 files checked: 1 error in 1 file.'));
  assert.equal(
    md(verdict([{ file: 'a.xml', documentType: 'Invoice', findings: [finding('error'), finding('error')] }, { file: 'b.xml', documentType: 'Invoice', findings: [finding('error'), finding('info')] }])),
    e('2 files checked: 3 errors in 2 files.'),
  );
});

test("the report's files: the Markdown name chosen and the CSV beside it, whatever the chosen name ends with", () => {
  const dir = path.join(tmpdir(), 'reports');
  const at = (name: string) => path.join(dir, name);
  assert.deepEqual(reportFilesFor(at('gib-report-2026-03-02.md')), { markdown: at('gib-report-2026-03-02.md'), csv: at('gib-report-2026-03-02.csv') });
  assert.deepEqual(reportFilesFor(at('Batch.MD')), { markdown: at('Batch.MD'), csv: at('Batch.csv') });
  assert.deepEqual(reportFilesFor(at('batch.csv')), { markdown: at('batch.md'), csv: at('batch.csv') });
  assert.deepEqual(reportFilesFor(at('batch')), { markdown: at('batch.md'), csv: at('batch.csv') });
  assert.deepEqual(reportFilesFor(at('march.2026')), { markdown: at('march.2026.md'), csv: at('march.2026.csv') });
});

test("the default report name carries the day of the user's clock", () => {
  assert.equal(defaultReportName(new Date(2026, 0, 5, 23, 59)), 'gib-report-2026-01-05.md');
  assert.equal(defaultReportName(new Date(2026, 11, 31, 0, 1)), 'gib-report-2026-12-31.md');
});
