// A folder checked against GİB's rules and its report: every UBL-TR file, the others named as skipped,
// Markdown and CSV that say the same (the CSV read back by the repository's CSV reader), Cancel.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseCsv } from '../../../src/domain/csv';
import { escapeMarkdown as e } from '../../../src/domain/markdown';
import { reportCsv, reportMarkdown, validateFolder } from '../../../src/gib/folderReport';
import { NO_GIB_DATA, sharedGibEngine } from '../../support/gibPackages';

const engineOrSkip = sharedGibEngine();
const skip = !engineOrSkip && NO_GIB_DATA;
const fixtures = path.join(__dirname, '../../../../test/fixtures/gib');

async function folderOfDocuments(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gib-folder-report-'));
  const invoice = await readFile(path.join(fixtures, 'invoice.xml'), 'utf8');
  await writeFile(path.join(dir, 'a-clean.xml'), invoice);
  await mkdir(path.join(dir, 'batch'));
  await writeFile(path.join(dir, 'batch', 'b-broken.xml'), invoice.replace('<cbc:ID>NLV2026000000001</cbc:ID>', '<cbc:ID>NLV-1</cbc:ID>').replace('<cbc:DocumentCurrencyCode>TRY<', '<cbc:DocumentCurrencyCode>USD<'));
  await writeFile(path.join(dir, 'c-despatch.xml'), await readFile(path.join(fixtures, 'despatch-advice.xml'), 'utf8'));
  await writeFile(path.join(dir, 'notes.xml'), '<notes>=SUM(A1)</notes>');
  await writeFile(path.join(dir, 'readme.txt'), 'not xml');
  return dir;
}

test('a folder: each UBL-TR file checked, the others skipped; Markdown and CSV say the same', { skip }, async () => {
  const dir = await folderOfDocuments();
  try {
    const progress: string[] = [];
    const v = await validateFolder(await engineOrSkip!, dir, { onProgress: (done, total, file) => progress.push(`${done}/${total} ${file}`) });
    assert.deepEqual(v.files.map((f) => [f.file, f.documentType, f.findings.length]), [['a-clean.xml', 'Invoice', 0], ['batch/b-broken.xml', 'Invoice', 2], ['c-despatch.xml', 'DespatchAdvice', 0]]);
    assert.deepEqual(v.skipped, ['notes.xml']);
    assert.deepEqual(progress, ['0/4 a-clean.xml', '1/4 batch/b-broken.xml', '2/4 c-despatch.xml', '3/4 notes.xml', '4/4 ']);

    const md = reportMarkdown(v, undefined, new Date('2026-02-01T10:00:00Z'));
    const invoice = await readFile(path.join(fixtures, 'invoice.xml'), 'utf8');
    const lineOf = (needle: string): number => invoice.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const idLine = lineOf('<cbc:ID>NLV2026000000001</cbc:ID>');
    const currencyLine = lineOf('<cbc:DocumentCurrencyCode>');
    const idMessage = "Geçersiz cbc:ID elemanı değeri. cbc:ID elemanı 'ABC2009123456789' formatında olmalıdır.";
    assert.ok(md.startsWith(`# ${e("GİB's verdict")}: ${e(path.basename(dir))}\n\nGİB rules 20260312 · 2026-02-01\n\n${e('3 documents checked, 1 with errors, 2 errors in all.')}\n`), md);
    assert.ok(md.includes(`## ${e('batch/b-broken.xml')} (Invoice)\n\n| Line | Severity | Source | Rule | Message |\n|---:|---|---|---|---|\n| ${idLine} | error | GİB rules 20260312 | InvoiceIDCheck | ${e(idMessage)} |\n`), md);
    assert.ok(md.includes(`## ${e('a-clean.xml')} (Invoice)\n\nNo findings${e('.')}\n`), md);
    assert.ok(md.endsWith(`## ${e('Not UBL-TR documents (not checked)')}\n\n- ${e('notes.xml')}\n`), md);

    const csv = reportCsv(v);
    assert.ok(csv.startsWith('\uFEFFFile,Line,Column,Severity,Source,Rule,Message\r\n'));
    const rows = parseCsv(csv.slice(1)).records.map((r) => r.cells);
    assert.deepEqual(rows.slice(1).map((r) => [r[0], r[1], r[3], r[5]]), [['batch/b-broken.xml', String(idLine), 'error', 'InvoiceIDCheck'], ['batch/b-broken.xml', String(currencyLine), 'error', 'CurrencyCodeCheck']]);
    assert.equal(rows[1][6], idMessage);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('Cancel stops between files; the report says it was cancelled', { skip }, async () => {
  const dir = await folderOfDocuments();
  try {
    const abort = new AbortController();
    const v = await validateFolder(await engineOrSkip!, dir, { signal: abort.signal, onProgress: (done) => done === 1 && abort.abort() });
    assert.equal(v.cancelled, true);
    assert.deepEqual(v.files.map((f) => f.file), ['a-clean.xml', 'batch/b-broken.xml']);
    assert.ok(reportMarkdown(v).includes(`**${e('Cancelled: the files below were checked before it.')}**`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
