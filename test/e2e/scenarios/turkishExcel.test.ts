// A Turkish desktop, in the UI: VS Code's display language is Turkish (the system's is English), so an
// export opens in Excel with Turkish regional settings as columns: `;`, UTF-8 with its BOM, Turkish
// letters intact, read here as Excel reads it; Cancel keeps the previous export. An export whose file
// is held open (as Excel holds it: the file made immutable, so replacing it fails with EPERM as on
// Windows) is kept under another name and the message says so, with "Try Again". Customer lists saved by Excel for Mac (Mac Turkish) and
// Excel for Windows (Windows-1254) import with their names right; one whose bytes cannot tell is asked
// about with names shown both ways. The registry's figures are in Turkish number format.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Workbench } from '../index';
import { answerFileDialog, nls, notificationGone, openWorkbench, repoRoot, runAsking, steps, waitUntil, workspaceFolder } from '../index';
import { parseCsv } from '../../../src/domain/csv';
import { completeTckn, completeVkn } from '../../../src/domain/taxId';

const turkish = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.tr.json'), 'utf8')) as Record<string, string>;

/** A runtime message as the extension shows it in Turkish, its {n} filled in (when given). */
function tr(english: string, ...args: Array<string | number>): string {
  const text = turkish[english];
  assert.ok(text, `no Turkish for "${english}"`);
  return args.length ? text.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])) : text;
}

/** The longest part of a Turkish message without placeholders, to find it on screen. */
const start = (english: string): string => tr(english).split(/\{\d+\}/).map((p) => p.trim()).sort((a, b) => b.length - a.length)[0];

let wb: Workbench;
let folder: string;

/** Fresh valid tax numbers, so every import creates its customers anew. */
let seed = 642_000_000;
const fresh = (length: number): string => (length === 10 ? completeVkn(String(++seed)) : completeTckn(String(++seed)));

async function customerName(taxNumber: string): Promise<string | undefined> {
  const res = await fetch(`${wb.sandbox!.url}/general/Customers/GetCustomerInfo/${taxNumber}`, { headers: { Authorization: `Bearer ${wb.sandbox!.keys.full}`, Accept: 'application/json' } });
  return res.ok ? ((await res.json()) as { Name: string }).Name : undefined;
}

/** A toast (or notification-center entry) whose text contains `text`; its text. */
async function notification(text: string | RegExp, timeoutMs = 60_000): Promise<string> {
  const matches = (n: string) => (typeof text === 'string' ? n.includes(text) : text.test(n));
  return waitUntil(async () => (await wb.notifications().catch(() => [] as string[])).find(matches), `a notification with ${String(text)}`, timeoutMs, 250);
}

/**
 * The toast showing `text`, faded in completely and expanded (VS Code shows a long message without
 * buttons on one line until its chevron is clicked), for a screenshot that can be read.
 */
async function settledToast(text: string): Promise<void> {
  const toast = wb.page.locator('.notification-toast', { hasText: text }).first();
  await toast.waitFor();
  await waitUntil(async () => ((await toast.evaluate((el) => getComputedStyle(el).opacity)) === '1' ? true : undefined), `the toast "${text}" to show fully`, 5_000, 100);
  const expand = toast.locator('.codicon-notifications-expand');
  if (await expand.count()) {
    await toast.hover();
    await expand.first().click();
    await toast.locator('.notification-list-item.expanded').waitFor();
  }
}

/** Runs a palette command by its Turkish title, for commands that open their own quick input. */
async function runTurkish(key: string): Promise<void> {
  await runAsking(wb.page, `Nilvera: ${nls(`%${key}%`, 'tr')}`);
}

/**
 * The file as Excel with Turkish regional settings reads a CSV: a UTF-8 BOM means UTF-8 (without one,
 * the ANSI code page), and the columns are split at the list separator of the regional settings, `;`.
 */
function asTurkishExcelReads(bytes: Buffer): string[][] {
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a UTF-8 BOM, or Excel reads the letters in Windows-1254');
  return parseCsv(bytes.subarray(3).toString('utf8'), { delimiter: ';' }).records.map((r) => r.cells);
}

/** Makes a file refuse to be replaced or deleted (EPERM), as a file open in Excel on Windows does. */
function immutable(file: string, on: boolean): boolean {
  return spawnSync('chattr', [on ? '+i' : '-i', file], { stdio: 'ignore' }).status === 0;
}

before(async () => {
  // The system's locale is English; only VS Code's display language is Turkish.
  process.env.LANG = 'en_US.UTF-8';
  process.env.LC_ALL = 'en_US.UTF-8';
  wb = await openWorkbench({ scenario: 'turkish-excel', locale: 'tr', sandbox: { registry: 5_000 } });
  folder = workspaceFolder(wb.page);
  await steps(wb, async () => {
    await wb.openContainer('Nilvera');
    await wb.runCommand(`Nilvera: ${nls('%command.apiKey.set%', 'tr')}`);
    await wb.inputBox(wb.sandbox!.keys.full);
    await notification(start('API key saved for {0}. Company: {1}').split('.')[0]);
  });
});

after(async () => {
  await wb?.close();
});

test('export with a Turkish display language: Excel reads it in columns (";", BOM, Turkish letters); a file held open is kept under another name', { timeout: 240_000 }, async () => {
  await steps(wb, async () => {
    const target = path.join(folder, 'musteriler-disa.csv');
    await runTurkish('command.customers.export');
    await answerFileDialog(wb.page, target);
    const done = await notification(start('Exported {0} customers to {1}.'));
    const note = tr('Columns are separated by {0}, as Excel expects with the display language {1}; the "nilvera.csv.separator" setting changes this.', '";"', 'tr');
    assert.ok(done.includes(note), done);
    // The progress notification has closed; the message, which says which separator, fully shown.
    await notificationGone(wb, tr('Exporting customers'));
    await settledToast(note);
    await wb.screenshot('export finished, separated by semicolons for Turkish Excel');
    const rows = asTurkishExcelReads(fs.readFileSync(target));
    assert.deepEqual(rows[0], ['TaxNumber', 'Name', 'TaxDepartment', 'Address', 'Country', 'City', 'District', 'PostalCode', 'Phone', 'Fax', 'Email', 'WebSite', 'IsExport'], 'the header in 13 columns');
    assert.equal(rows.length, 301, 'a row for each of the 300 customers');
    assert.ok(rows.every((r) => r.length === 13), 'every row in 13 columns');
    const first = rows[1];
    assert.equal(await customerName(first[0]), first[1], 'the name as the service has it, Turkish letters intact');
    assert.ok(rows.some((r) => /[çğıöşüÇĞİÖŞÜ]/.test(r[1])), 'Turkish letters in the names');

    // Cancel halfway (each page answers slowly): the previous export stays as it was, no partial file.
    const previous = fs.readFileSync(target);
    await wb.sandbox!.control('faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ latencyMs: 1500, match: { method: 'GET', path: '^/general/customers$' } }) });
    try {
      await runTurkish('command.customers.export');
      await answerFileDialog(wb.page, target);
      const progress = wb.page.locator('.notification-toast', { hasText: tr('Exporting customers') }).first();
      await progress.locator('.monaco-button', { hasText: 'Cancel' }).click({ timeout: 30_000 });
      await notificationGone(wb, tr('Exporting customers'));
    } finally {
      await wb.sandbox!.control('faults', { method: 'DELETE' });
    }
    assert.deepEqual(fs.readFileSync(target), previous, 'Cancel left the previous export as it was');
    // VS Code closes the toast as soon as Cancel is clicked; the export removes its temporary file once
    // the aborted request has settled, a moment later. Wait for that, not for the toast.
    const temps = () => fs.readdirSync(folder).filter((n) => n.endsWith('.nilvera-tmp'));
    for (const until = Date.now() + 15_000; temps().length > 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(temps(), [], 'no partial file left');
    assert.deepEqual(fs.readFileSync(target), previous, 'the previous export still as it was once the export stopped');

    // Excel has the file open: on Windows it cannot be replaced. Here it is made immutable (as root).
    if (!immutable(target, true)) {
      console.log('turkish-excel: chattr +i is not allowed here (not root); the lock message is not shown');
      return;
    }
    try {
      const before = fs.readFileSync(target);
      await runTurkish('command.customers.export');
      await answerFileDialog(wb.page, target);
      const second = path.join(folder, 'musteriler-disa (2).csv');
      // About 10 s of retries, then the export is kept beside it and the message names the file.
      const held = await notification(tr('{0} is open in another program, e.g. Excel: close it and try again.', target), 60_000);
      assert.ok(held.includes(tr('The new file was saved as {0}.', second)), held);
      await notificationGone(wb, tr('Exporting customers'));
      await settledToast(tr('The new file was saved as {0}.', second));
      await wb.screenshot('the export file is open in another program: kept as (2), Try Again offered');
      assert.deepEqual(fs.readFileSync(target), before, 'the file in use is unchanged');
      assert.equal(asTurkishExcelReads(fs.readFileSync(second)).length, 301);
      // "Excel" closes the file; Try Again puts the new export in its place.
      immutable(target, false);
      const toast = wb.page.locator('.notification-toast', { hasText: tr('The new file was saved as {0}.', second) }).first();
      await toast.locator('.monaco-button', { hasText: tr('Try Again') }).click();
      await waitUntil(async () => (!fs.existsSync(second) ? true : undefined), 'the kept export to move into place');
      assert.equal(asTurkishExcelReads(fs.readFileSync(target)).length, 301);
      await notificationGone(wb, tr('{0} is open in another program, e.g. Excel: close it and try again.', target));
      await settledToast(tr('Exported {0} customers to {1}.', 300, target));
      await wb.screenshot('after Try Again the export is in place');
    } finally {
      immutable(target, false);
    }
  });
});

test('import a Mac Turkish and a Windows-1254 customer list: names with their Turkish letters; an undecidable one is asked about with names both ways', { timeout: 240_000 }, async () => {
  await steps(wb, async () => {
    const labels = { 'x-mac-turkish': tr('Mac Turkish (Excel for Mac)'), 'windows-1254': tr('Windows-1254 (Turkish, Excel for Windows)') } as const;
    for (const encoding of ['x-mac-turkish', 'windows-1254'] as const) {
      // The fixture (made by Python's codecs) with fresh tax numbers: digits are the same bytes in both encodings.
      const map = new Map<string, string>();
      const text = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'encodings', `customers-tr-excel.${encoding}.csv`)).toString('latin1').replace(/;(\d{10,11})(?=;)/g, (all, tax: string) => {
        const valid = tax.length === 10 ? completeVkn(tax.slice(0, 9)) === tax : tax[0] !== '0' && completeTckn(tax.slice(0, 9)) === tax;
        if (!valid) return all;
        const f = fresh(tax.length);
        map.set(tax, f);
        return `;${f}`;
      });
      const source = path.join(folder, `musteriler-${encoding}.csv`);
      fs.writeFileSync(source, Buffer.from(text, 'latin1'));
      await runTurkish('command.customers.import');
      await answerFileDialog(wb.page, source);
      const readAs = tr('Read as {0}.', labels[encoding]);
      const summary = await notification(readAs);
      assert.ok(summary.startsWith(tr('Import finished: {0} created, {1} rejected, {2} unconfirmed, {3} not sent.', 16, 4, 0, 0)), summary);
      await notificationGone(wb, tr('Importing customers from {0}', path.basename(source)));
      await settledToast(readAs);
      await wb.screenshot(`imported a ${encoding} list`);
      assert.equal(await customerName(map.get('6656437912')!), 'Anadolu Gıda Sanayi ve Ticaret A.Ş.');
      assert.equal(await customerName(map.get('4742312098')!), 'Boğaziçi Lojistik Ltd. Şti.');
      await wb.page.keyboard.press('Escape');
    }

    // Only letters that read as letters either way (Ü or İ, Ş): the bytes cannot tell, so the user picks.
    const taxes = [fresh(10), fresh(10)];
    const unclear = path.join(folder, 'belirsiz.csv');
    fs.writeFileSync(unclear, Buffer.from(`Unvan;VKN\r\n\xdcNAL A.\xde.;${taxes[0]}\r\n\xdcZ\xdcM LTD;${taxes[1]}\r\n`, 'latin1'));
    await runTurkish('command.customers.import');
    await answerFileDialog(wb.page, unclear);
    const pick = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: labels['x-mac-turkish'] }).first();
    await pick.waitFor({ timeout: 30_000 });
    const items = await wb.quickPickItems();
    assert.deepEqual(items.map((i) => i.split('\n')[0]), [labels['windows-1254'], labels['x-mac-turkish']]);
    assert.ok((await wb.page.locator('.quick-input-widget').innerText()).includes('İNAL A.Ş.'), 'the Mac reading of the names is shown');
    assert.ok((await wb.page.locator('.quick-input-widget').innerText()).includes('ÜNAL A.Ş.'), 'the Windows reading of the names is shown');
    await wb.screenshot('which encoding: names read both ways');
    await wb.quickPick(labels['x-mac-turkish']);
    await notification(tr('Import finished: {0} created, {1} rejected, {2} unconfirmed, {3} not sent.', 2, 0, 0, 0));
    assert.equal(await customerName(taxes[0]), 'İNAL A.Ş.');
  });
});

test('the registry list download says its figures in Turkish number format, not the system\'s English one', { timeout: 180_000 }, async () => {
  await steps(wb, async () => {
    await runTurkish('command.registry.download');
    await wb.quickPick(tr('PK: receiving mailboxes'));
    await wb.quickPick(tr('e-Invoice (Invoice)'));
    await wb.quickPick(tr('Extension storage'));
    const done = await notification(start('Registry list {0}/{1} downloaded ({2}, {3} taxpayers) and ready for offline search.'), 120_000);
    assert.match(done, /5\.000 mükellef/, done);
    assert.doesNotMatch(done, /5,000/);
    await settledToast(start('Registry list {0}/{1} downloaded ({2}, {3} taxpayers) and ready for offline search.'));
    await wb.screenshot('registry list downloaded, figures in Turkish format');
  });
});
