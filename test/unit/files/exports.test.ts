// Files written for the user (src/files/userFiles.ts, used by the customer and reconciliation exports and
// the rejected rows of an import): a cancel or a failure leaves the previous file as it was; a target held
// open by "Excel" (test/support/windowsFileLocks.ts) is waited for, then the new file is kept under a
// numbered name; and a process killed at any step of an export leaves the previous file or the new one,
// never a cut-off one, with its temporary file swept by the next export. Crashes are real child processes
// running this bundle, stopped with SIGKILL at each kill point.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { TEMP_SUFFIX } from '../../../src/files/atomicFile';
import { FileLockedError, renameRetrying, setLockRetryDefault } from '../../../src/files/lockedFiles';
import { saveUserFile } from '../../../src/files/userFiles';
import { reconciliationCsvLines, writeReconciliationCsv, type ExportLabels } from '../../../src/reconciliation/export';
import type { ReconciliationReport } from '../../../src/reconciliation/report';
import type { ReconRow } from '../../../src/reconciliation/classify';
import { freshFolderPerTest, runAsChild, spawnChild, tempFilesIn } from '../../support/childProcess';

const LABELS: ExportLabels = {
  header: ['Durum', 'Müşteri No', 'Ünvan', 'VKN/TCKN', 'PK Etiketi', 'Listedeki Ünvan', 'Neden', 'Değişiklik', 'Önceki Etiket'],
  status: { user: 'Kullanıcı', notUser: 'Kullanıcı değil', invalid: 'Geçersiz', unchecked: 'Denetlenmedi' },
  change: { newlyRegistered: 'Yeni', aliasChanged: 'Etiket', deregistered: 'Çıktı' },
  reason: () => 'hatalı',
};

/** A reconciliation of `n` customers, all e-invoice users: about 100 bytes a line. */
function reportOf(n: number, tag: string): ReconciliationReport {
  const users: ReconRow[] = Array.from({ length: n }, (_, i) => ({
    customerId: i + 1,
    name: `Şirket ${tag} ${i} Gıda Sanayi A.Ş.`,
    taxNumber: '4540536920',
    status: 'user',
    pkAlias: `urn:mail:defaultpk${i}@${tag}.com.tr`,
  }));
  const base = { baseUrl: 'http://sandbox', takenAt: '2026-01-01T00:00:00.000Z', source: 'online', listRequests: 1, lookupRequests: 1, classifyMs: 0, totalCustomers: n };
  return { ...base, users, notUsers: [], invalid: [], unchecked: [] } as ReconciliationReport;
}

/**
 * The child: exports a 60,000-customer reconciliation (about 6 MB) to `target` and stops for good at
 * its kill point, told on stdout, where the parent kills it. The kill points are reached by wrapping
 * node:fs in this process only.
 */
async function child(point: string, target: string): Promise<void> {
  const fsModule = process.getBuiltinModule('node:fs') as typeof fs;
  const stop = (): Promise<never> => {
    process.stdout.write(`at ${point}\n`);
    return new Promise<never>(() => setInterval(() => undefined, 1000));
  };
  const open = fsModule.promises.open;
  fsModule.promises.open = (async (...args: Parameters<typeof open>) => {
    const handle = await open(...args);
    if (String(args[0]).endsWith(TEMP_SUFFIX)) {
      if (point === 'created') await stop();
      const writeFile = handle.writeFile.bind(handle);
      let writes = 0;
      handle.writeFile = (async (...a: Parameters<typeof writeFile>) => {
        await writeFile(...a);
        if (++writes === 20 && point === 'midWrite') await stop();
      }) as typeof handle.writeFile;
    }
    return handle;
  }) as typeof open;
  const rename = fsModule.promises.rename;
  fsModule.promises.rename = (async (from: fs.PathLike, to: fs.PathLike) => {
    if (point === 'beforeRename') await stop();
    await rename(from, to);
    if (point === 'afterRename') await stop();
  }) as typeof rename;
  await writeReconciliationCsv(target, reportOf(60_000, 'new'), LABELS, { delimiter: ';' });
  process.stdout.write('done\n');
}

if (!runAsChild(child)) {
  let dir = '';
  const locks = freshFolderPerTest('user-files-', (d) => (dir = d));
  const previous = [...reconciliationCsvLines(reportOf(50, 'old'), LABELS, ';')].join('');
  const complete = [...reconciliationCsvLines(reportOf(60_000, 'new'), LABELS, ';')].join('');

  test('a write that fails (a cancel, a failed request, a full disk) leaves the previous file and no temporary file', async () => {
    const target = path.join(dir, 'customers.csv');
    fs.writeFileSync(target, previous);
    for (const failure of [Object.assign(new Error('cancelled'), { name: 'AbortError' }), Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' })]) {
      await assert.rejects(
        saveUserFile(target, async (file) => {
          await file.write('x'.repeat(200_000));
          throw failure;
        }),
        (e) => e === failure,
      );
      assert.equal(fs.readFileSync(target, 'utf8'), previous);
      assert.deepEqual(tempFilesIn(dir), []);
    }
    // An abort signal raised after the last row (Cancel at the very end) also keeps the previous file.
    const controller = new AbortController();
    await assert.rejects(saveUserFile(target, async (file) => {
      await file.write('late');
      controller.abort();
    }, { signal: controller.signal }));
    assert.equal(fs.readFileSync(target, 'utf8'), previous);
    assert.deepEqual(tempFilesIn(dir), []);
  });

  test('a target held open in "Excel" is waited for, then the export is kept as "name (2).csv"; Try Again moves it once released', async () => {
    const restore = setLockRetryDefault(300);
    try {
      const target = path.join(dir, 'reconciliation.csv');
      fs.writeFileSync(target, previous);
      fs.writeFileSync(path.join(dir, 'reconciliation (2).csv'), 'an older export the user kept');
      locks.hold(target, { code: 'EBUSY', blocksReading: true });
      const started = Date.now();
      // 800 customers: the count that made the old stream wait for a 'drain' that never came.
      const { lines, saved } = await writeReconciliationCsv(target, reportOf(800, 'new'), LABELS, { delimiter: ';' });
      assert.ok(Date.now() - started >= 280, 'the hold was waited for first');
      assert.ok(locks.refusals(target) >= 3);
      assert.equal(lines, 800);
      assert.deepEqual(saved, { path: path.join(dir, 'reconciliation (3).csv'), heldTarget: target });
      assert.equal(fs.readFileSync(path.join(dir, 'reconciliation (3).csv'), 'utf8'), [...reconciliationCsvLines(reportOf(800, 'new'), LABELS, ';')].join(''));
      assert.equal(fs.readFileSync(path.join(dir, 'reconciliation (2).csv'), 'utf8'), 'an older export the user kept', 'an existing file is never overwritten');
      locks.release(target);
      assert.equal(fs.readFileSync(target, 'utf8'), previous);
      assert.deepEqual(tempFilesIn(dir), []);
      // Still held: Try Again fails with the lock; released: the new file takes the target's place.
      locks.hold(target, { code: 'EPERM' });
      await assert.rejects(renameRetrying(saved.path, target, { totalMs: 50 }), FileLockedError);
      locks.release(target);
      await renameRetrying(saved.path, target);
      assert.equal(fs.readFileSync(target, 'utf8').split('\r\n').length, 802);
      assert.ok(!fs.existsSync(path.join(dir, 'reconciliation (3).csv')));
    } finally {
      restore();
    }
  });

  test('a brief hold (antivirus, indexer) is waited out and the target replaced', async () => {
    const target = path.join(dir, 'customers.csv');
    fs.writeFileSync(target, previous);
    locks.hold(target, { code: 'EPERM', forMs: 150 });
    const saved = await saveUserFile(target, (file) => file.write('new export'));
    assert.deepEqual(saved, { path: target });
    assert.equal(fs.readFileSync(target, 'utf8'), 'new export');
  });

  test('kill points of an export: the previous file or the new one, never a cut-off one; the next export sweeps the leftovers', async () => {
    locks.uninstall(); // the child has no fault layer; its kill points are its own
    const outcomes: string[] = [];
    for (const point of ['created', 'midWrite', 'beforeRename', 'afterRename']) {
      const target = path.join(dir, `${point}.csv`);
      fs.writeFileSync(target, previous);
      const writer = spawnChild(__filename, point, target);
      try {
        assert.equal(await writer.firstLine, `at ${point}`);
      } finally {
        writer.kill();
        await writer.done;
      }
      const now = fs.readFileSync(target, 'utf8');
      const leftovers = tempFilesIn(dir);
      if (point === 'afterRename') {
        assert.equal(now, complete, 'after the rename the new export is there, whole');
        assert.deepEqual(leftovers, []);
      } else {
        assert.equal(now, previous, `killed at ${point}: the previous export is untouched`);
        assert.equal(leftovers.length, 1, `killed at ${point}: its temporary file is left`);
        if (point !== 'created') assert.ok(fs.statSync(path.join(dir, leftovers[0])).size > 0);
      }
      // The next export into the folder sweeps what the dead writer left, and succeeds.
      const next = await saveUserFile(target, (file) => file.write('next export'));
      assert.deepEqual(next, { path: target });
      assert.equal(fs.readFileSync(target, 'utf8'), 'next export');
      assert.deepEqual(tempFilesIn(dir), [], `after the next export (${point})`);
      outcomes.push(`${point}: ${point === 'afterRename' ? 'new file whole' : 'previous file intact'}, leftover ${leftovers.length}, swept`);
    }
    console.log(`export kill points: ${outcomes.join('; ')}`);
  });
}
