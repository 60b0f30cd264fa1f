// A window killed at each step of a registry list's download and index build, and of a reconciliation
// snapshot's save: a child process runs the real code (downloadAndIndex over real HTTP against the
// sandbox; SnapshotStore.save) and is killed with SIGKILL at one step (test/support/killPoints.ts).
// Then, as the next start does, the storage is read, swept (sweepRegistryStorage, SnapshotStore.sweep)
// and lists needing an index are rebuilt from their ZIP (listsNeedingIndex, rebuildFromZip). Every
// step must leave the old state or the new one, readable at once, and nothing behind after the sweep.
import * as assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createClient } from '../../../src/api';
import { checkZip } from '../../../src/domain/zip';
import { iterateRegistryZipBatches } from '../../../src/domain/registryZip';
import { completeVkn } from '../../../src/domain/taxId';
import { snapshotOf, SnapshotStore, type Snapshot } from '../../../src/reconciliation/snapshot';
import type { ReconRow } from '../../../src/reconciliation/classify';
import { downloadAndIndex } from '../../../src/registry';
import { defaultZipPath, listsNeedingIndex, rebuildFromZip, sweepRegistryStorage } from '../../../src/registry/listMaintenance';
import { OfflineRegistry, registryIndexRoot } from '../../../src/registry/offlineLookup';
import { armKillPoint, killNow, type KillPoint } from '../../support/killPoints';
import { startTestSandbox, type SandboxHandle } from '../../support/sandbox';

const NEW_TAXPAYER = completeVkn('864209753');
const NEW_TITLE = 'SONRADAN KAYITLI MÜKELLEF A.Ş.';
const SNAPSHOT_URL = 'https://api.nilvera.com';

interface Step {
  name: string;
  area: 'index' | 'snapshot';
  fs?: KillPoint;
  /** Killed when the index build on the way reports this many taxpayers. */
  atTaxpayers?: number;
}

const STEPS: Step[] = [
  { name: 'ZIP downloading, index built on the way', area: 'index', atTaxpayers: 5000 },
  { name: 'ZIP checked in its .part file, not renamed', area: 'index', fs: { op: 'rename', path: /\.part -> .*\.zip$/, when: 'before' } },
  { name: 'ZIP renamed into place, not yet marked for indexing', area: 'index', fs: { op: 'rename', path: /\.part -> .*\.zip$/, when: 'after' } },
  { name: 'marked for indexing, tax-number table being written', area: 'index', fs: { op: 'open', path: /taxnums\.z$/, when: 'before' } },
  { name: 'index files written, meta.json not yet', area: 'index', fs: { op: 'writeFile', path: /meta\.json$/, when: 'before' } },
  { name: 'install lock taken', area: 'index', fs: { op: 'link', path: /install\.lock$/, when: 'after' } },
  { name: 'build moved into place, current not switched', area: 'index', fs: { op: 'rename', path: /tmp-\d+-index-[^/\\]+ -> .*index-[\w-]+$/, when: 'after' } },
  { name: 'new current in its temporary file, not renamed', area: 'index', fs: { op: 'rename', path: /nilvera-tmp -> .*current$/, when: 'before' } },
  { name: 'current switched, replaced index not removed', area: 'index', fs: { op: 'rename', path: /nilvera-tmp -> .*current$/, when: 'after' } },
  { name: 'replaced index removed, lock not released', area: 'index', fs: { op: 'rm', path: /install\.lock$/, when: 'before' } },
  { name: 'snapshot lock taken', area: 'snapshot', fs: { op: 'link', path: /snapshot-\w+\.tsv\.lock$/, when: 'after' } },
  { name: 'snapshot half written to its temporary file', area: 'snapshot', fs: { op: 'halfWrite', path: /snapshot-\w+\.tsv\.\d+-\w+\.nilvera-tmp$/, when: 'after' } },
  { name: 'snapshot written, not renamed', area: 'snapshot', fs: { op: 'rename', path: /nilvera-tmp -> .*snapshot-\w+\.tsv$/, when: 'before' } },
  { name: 'snapshot renamed, lock not released', area: 'snapshot', fs: { op: 'rm', path: /snapshot-\w+\.tsv\.lock$/, when: 'before' } },
];

const row = (i: number, taxNumber: string, status: ReconRow['status'], pkAlias?: string): ReconRow => ({ customerId: i, name: `C${i}`, taxNumber, status, ...(pkAlias ? { pkAlias } : {}) }) as ReconRow;
const OLD_SNAPSHOT = snapshotOf(SNAPSHOT_URL, '2026-01-01T00:00:00.000Z', [row(1, completeVkn('111111111'), 'notUser')]);
/** Large enough that its save is more than one write. */
const NEW_SNAPSHOT = snapshotOf(
  SNAPSHOT_URL,
  '2026-02-01T00:00:00.000Z',
  Array.from({ length: 20_000 }, (_, i) => row(i + 1, completeVkn(String(200000000 + i)), 'user', `urn:mail:pk${i}@firma.com.tr`)),
);

function download(baseUrl: string, key: string, globalStorage: string) {
  const client = createClient({ baseUrl, getApiKey: async () => key });
  const zip = defaultZipPath(globalStorage, 'PK', 'Invoice');
  fs.mkdirSync(path.dirname(zip), { recursive: true });
  const storageDir = path.join(registryIndexRoot(globalStorage), 'PK-Invoice');
  return (onProgress?: (n: number) => void) =>
    downloadAndIndex((hooks) => client.registry.downloadList('PK', 'Invoice', { kind: 'file', path: zip, verifyZip: true, ...hooks }), zip, storageDir, { aliasType: 'PK', userType: 'Invoice' }, onProgress ? { onProgress } : {});
}

const CHILD = process.env.KILL_POINT_STEP;

async function child(step: Step): Promise<void> {
  const globalStorage = process.env.KILL_POINT_STORAGE as string;
  if (step.fs) await armKillPoint(step.fs);
  if (step.area === 'index') {
    const run = download(process.env.KILL_POINT_URL as string, process.env.KILL_POINT_KEY as string, globalStorage);
    await run((n) => {
      if (step.atTaxpayers !== undefined && n >= step.atTaxpayers) killNow();
    });
  } else {
    await new SnapshotStore(path.join(globalStorage, 'reconciliation')).save(NEW_SNAPSHOT);
  }
}

if (CHILD) {
  const step = STEPS.find((s) => s.name === CHILD) as Step;
  void child(step).then(
    () => process.exit(0), // the kill point was never reached: the parent reports it
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  const roots: string[] = [];
  let sandbox: SandboxHandle;

  /** Every file and folder under `dir`, relative, sorted. */
  const tree = (dir: string): string[] =>
    fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split(path.sep).join('/')).sort() : [];

  const setRegistry = async (withNewTaxpayer: boolean): Promise<void> => {
    const body = withNewTaxpayer ? { action: 'register', TaxNumber: NEW_TAXPAYER, Title: NEW_TITLE } : { action: 'deregister', TaxNumber: NEW_TAXPAYER };
    const res = await fetch(`${sandbox.url}/__sandbox/registry`, { method: 'POST', body: JSON.stringify(body) });
    assert.equal(res.status, 200);
  };

  /** The old state: a list downloaded and indexed, and a snapshot saved, before the list changed. */
  async function oldState(globalStorage: string): Promise<void> {
    await setRegistry(false);
    await download(sandbox.url, sandbox.keys.full, globalStorage)();
    await setRegistry(true);
    await new SnapshotStore(path.join(globalStorage, 'reconciliation')).save(OLD_SNAPSHOT);
  }

  before(async () => {
    sandbox = await startTestSandbox({ registry: 12_000, customers: 1, seed: 11 });
    // The two lists tell apart: the new one holds a taxpayer registered since.
    const reference = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-kill-reference-'));
    roots.push(reference);
    await oldState(reference);
    assert.equal(await zipState(reference), 'old');
    assert.equal(indexState(reference), 'old');
    await download(sandbox.url, sandbox.keys.full, reference)();
    assert.equal(await zipState(reference), 'new');
    assert.equal(indexState(reference), 'new');
  });
  after(async () => {
    await sandbox?.close();
    for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
  });

  /** Which list a reader sees: 'old', 'new', or what is wrong. */
  function indexState(globalStorage: string): string {
    const registry = new OfflineRegistry(registryIndexRoot(globalStorage), 'Invoice');
    try {
      if (!registry.hasIndex()) return 'NO LIST';
      return registry.lookup(NEW_TAXPAYER)?.title === NEW_TITLE ? 'new' : 'old';
    } finally {
      registry.close();
    }
  }

  /** Which list the ZIP holds ('old' or 'new'), or what is wrong with it. */
  async function zipState(globalStorage: string): Promise<string> {
    const zip = defaultZipPath(globalStorage, 'PK', 'Invoice');
    if (!fs.existsSync(zip)) return 'NO ZIP';
    try {
      await checkZip(zip);
      for await (const batch of iterateRegistryZipBatches(zip)) if (batch.some((t) => t.Identifier === NEW_TAXPAYER)) return 'new';
      return 'old';
    } catch (error) {
      return `DAMAGED (${String(error)})`;
    }
  }

  async function snapshotState(globalStorage: string): Promise<string> {
    const loaded: Snapshot | undefined = await new SnapshotStore(path.join(globalStorage, 'reconciliation')).load(SNAPSHOT_URL);
    if (!loaded) return 'NONE';
    if (loaded.takenAt === NEW_SNAPSHOT.takenAt && loaded.entries.size === NEW_SNAPSHOT.entries.size) return 'new';
    if (loaded.takenAt === OLD_SNAPSHOT.takenAt && loaded.entries.size === OLD_SNAPSHOT.entries.size) return 'old';
    return 'DAMAGED';
  }

  /** The next start: the sweep, then the rebuild of lists that need one (as upgradeOutdatedLists does). */
  async function nextStart(globalStorage: string): Promise<string[]> {
    const done: string[] = [];
    const sweep = await sweepRegistryStorage(globalStorage);
    if (sweep.removed.length) done.push(`swept ${sweep.removed.map((p) => path.basename(p).replace(/\d{6,}/g, '…').replace(/-[0-9a-f]{8,}/g, '')).join(', ')}`);
    for (const list of listsNeedingIndex(globalStorage)) {
      assert.ok(!list.requestedByLiveProcess, 'the killed download is not mistaken for a live one');
      done.push(`${list.reason} list ${await rebuildFromZip(globalStorage, list)} from its ZIP`);
    }
    const swept = await new SnapshotStore(path.join(globalStorage, 'reconciliation')).sweep();
    if (swept.length) done.push(`swept ${swept.map((p) => path.basename(p).replace(/-[0-9a-f]{6,}/g, '').replace(/\d{4,}/g, '…')).join(', ')}`);
    return done;
  }

  function runChild(step: Step, globalStorage: string): Promise<NodeJS.Signals | number | null> {
    const env = { ...process.env, KILL_POINT_STEP: step.name, KILL_POINT_STORAGE: globalStorage, KILL_POINT_URL: sandbox.url, KILL_POINT_KEY: sandbox.keys.full };
    const p = fork(__filename, [], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise((resolve) => p.once('exit', (code, signal) => resolve(signal ?? code)));
  }

  describe('a window killed at each step, then started again', () => {
    test(`${STEPS.length} kill points: the next start sees the old state or the new and sweeps the leftovers`, async () => {
      const table: string[][] = [];
      const problems: string[] = [];
      for (const step of STEPS) {
        const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-kill-'));
        roots.push(storage);
        await oldState(storage);
        const ended = await runChild(step, storage);
        if (ended !== 'SIGKILL') problems.push(`${step.name}: the child ended with ${String(ended)}, the kill point was never reached`);
        const isIndex = step.area === 'index';
        const seenAtOnce = isIndex ? `index ${indexState(storage)}, ZIP ${await zipState(storage)}` : `snapshot ${await snapshotState(storage)}`;
        const done = await nextStart(storage);
        const afterStart = isIndex ? `index ${indexState(storage)}, ZIP ${await zipState(storage)}` : `snapshot ${await snapshotState(storage)}`;
        const listDir = path.join(registryIndexRoot(storage), 'PK-Invoice');
        const left = [
          ...tree(listDir).filter((p) => p !== 'current' && p !== 'in-use' && !/^index-[\w-]+(\/|$)/.test(p)),
          ...tree(listDir).filter((p) => /^index-[\w-]+$/.test(p)).slice(1),
          ...tree(path.join(storage, 'registry-lists')).filter((p) => p !== 'registry-PK-Invoice.zip'),
          ...tree(path.join(storage, 'reconciliation')).filter((p) => !/^snapshot-\w+\.tsv$/.test(p)),
        ];
        for (const state of [seenAtOnce, afterStart]) if (/NO |DAMAGED|NONE/.test(state)) problems.push(`${step.name}: ${state}`);
        // No finished download is lost: once started again, the index is built from the ZIP on disk.
        if (isIndex && !/^index (old|new), ZIP \1$/.test(afterStart)) problems.push(`${step.name}: after the next start, ${afterStart}`);
        if (left.length) problems.push(`${step.name}: left behind after the sweep: ${left.join(', ')}`);
        table.push([step.name, ended === 'SIGKILL' ? 'killed' : String(ended), seenAtOnce, done.join('; ') || 'nothing to do', afterStart, left.length ? `LEFT ${left.join(', ')}` : 'nothing left']);
      }
      const widths = [0, 1, 2, 3, 4, 5].map((c) => Math.max(...table.map((r) => r[c].length), 10));
      const header = ['kill point', 'child', 'seen at once', 'next start did', 'then', 'leftovers'];
      console.log(
        [header, ...table]
          .map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join(' | '))
          .join('\n'),
      );
      assert.deepEqual(problems, []);
    });
  });
}
