// Our file locks, files written whole and work pool against proper-lockfile, write-file-atomic and
// p-limit, in the same run on the same work (CONTRIBUTING.md, "Our code or a library"). As in
// libraries.bench.ts, each row is the library's figure with ours as the baseline: `ratio` > 1 means the
// library is slower or bigger. Behaviour the library lacks is a row too: its note says what happened.
// Run: npm run bench -- librariesFiles
import { spawn } from 'node:child_process';
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import * as properLockfile from 'proper-lockfile';
import writeFileAtomicLib from 'write-file-atomic';
import { drain } from '../../src/api/pool';
import { writeFileAtomic } from '../../src/files/atomicFile';
import { withFileLock } from '../../src/files/fileLock';
import { WindowsFileLocks } from '../support/windowsFileLocks';
import { bundleBytes, median, report } from './libraryFigures';

const RUNS = 3;

async function medianMs(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return median(times);
}

// ---- locks ----------------------------------------------------------------------------------------

/** proper-lockfile with the same polling as ours (10 ms doubling to 250 ms, for up to 60 s). */
const LIB_RETRIES = { retries: 300, minTimeout: 10, maxTimeout: 250, factor: 2 };

/** Ours on `file`: the lock beside it, named as proper-lockfile names its own. */
function withOurLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  return withFileLock(`${file}.lock`, work);
}

async function withLibLock<T>(file: string, work: () => Promise<T>, stale = 10_000): Promise<T> {
  const release = await properLockfile.lock(file, { realpath: false, retries: LIB_RETRIES, stale });
  try {
    return await work();
  } finally {
    await release();
  }
}

/** `holders` contenders in this process each add 1 to a counter file `rounds` times under the lock. */
async function contended(lock: (file: string, work: () => Promise<void>) => Promise<void>, dir: string, holders: number, rounds: number): Promise<void> {
  const counter = path.join(dir, 'counter');
  fs.writeFileSync(counter, '0');
  await Promise.all(
    Array.from({ length: holders }, async () => {
      for (let i = 0; i < rounds; i++) {
        await lock(counter, async () => {
          const n = Number(await fs.promises.readFile(counter, 'utf8'));
          await fs.promises.writeFile(counter, String(n + 1));
        });
      }
    }),
  );
  const total = Number(fs.readFileSync(counter, 'utf8'));
  if (total !== holders * rounds) throw new Error(`lost updates: ${total} of ${holders * rounds}`);
}

/**
 * A child process takes the lock and is killed (a window that crashed); how long this process then
 * waits for the lock. `lib`: the child takes it through proper-lockfile, else through ours.
 */
async function takeoverAfterCrash(dir: string, lib: boolean): Promise<number> {
  const file = path.join(dir, lib ? 'crash-lib' : 'crash-ours');
  fs.writeFileSync(file, '');
  const child = spawn(process.execPath, [__filename, '--hold-lock', lib ? 'lib' : 'ours', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', () => reject(new Error('the lock holder exited early')));
  });
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  const t0 = performance.now();
  if (lib) await withLibLock(file, async () => undefined);
  else await withOurLock(file, async () => undefined);
  return performance.now() - t0;
}

/** The child's half of takeoverAfterCrash: take the lock, say so, and hold it until killed. */
async function holdLockUntilKilled(kind: string, file: string): Promise<void> {
  const holdForever = async () => {
    process.stdout.write('held\n');
    await new Promise<void>(() => setInterval(() => undefined, 60_000));
  };
  await (kind === 'lib' ? withLibLock(file, holdForever) : withOurLock(file, holdForever));
}

async function locks(dir: string): Promise<void> {
  const ROUNDS = 200;
  const oursAlone = await medianMs(async () => {
    for (let i = 0; i < ROUNDS; i++) await withOurLock(path.join(dir, 'alone'), async () => undefined);
  });
  const libAlone = await medianMs(async () => {
    for (let i = 0; i < ROUNDS; i++) await withLibLock(path.join(dir, 'alone'), async () => undefined);
  });
  report(`lock: take and give back ${ROUNDS} times, no one else: proper-lockfile (time)`, libAlone, 'ms', oursAlone);

  const oursContended = await medianMs(() => contended((f, w) => withOurLock(f, w), dir, 4, 25));
  const libContended = await medianMs(() => contended((f, w) => withLibLock(f, w), dir, 4, 25));
  report('lock: 4 holders × 25 increments of one counter file (no update lost): proper-lockfile (time)', libContended, 'ms', oursContended);

  const oursTakeover = await takeoverAfterCrash(dir, false);
  const libTakeover = await takeoverAfterCrash(dir, true);
  report(
    'lock: taken after its holder crashed (process killed): proper-lockfile (time)',
    libTakeover,
    'ms',
    oursTakeover,
    'proper-lockfile waits until the lock is stale (mtime older than `stale`, at least 2 s, 10 s by default); ours reads the dead process id in the lock and takes it at once',
  );
}

// ---- files written whole --------------------------------------------------------------------------

async function atomicWrites(dir: string): Promise<void> {
  const small = Buffer.alloc(4096, 'a');
  const FILES = 500;
  const ours = await medianMs(async () => {
    for (let i = 0; i < FILES; i++) await writeFileAtomic(path.join(dir, `ours-${i}.txt`), small);
  });
  const lib = await medianMs(async () => {
    for (let i = 0; i < FILES; i++) await writeFileAtomicLib(path.join(dir, `lib-${i}.txt`), small);
  });
  report(`atomic write: ${FILES} files of 4 KB (each flushed to disk, then renamed): write-file-atomic (time)`, lib, 'ms', ours);

  const big = Buffer.alloc(64 * 1024 * 1024, 'b');
  const oursBig = await medianMs(() => writeFileAtomic(path.join(dir, 'ours-big.bin'), big));
  const libBig = await medianMs(() => writeFileAtomicLib(path.join(dir, 'lib-big.bin'), big));
  report('atomic write: one 64 MB file: write-file-atomic (time)', libBig, 'ms', oursBig);

  // Windows: another program (Excel, the indexer, antivirus) holds the target for 300 ms.
  const locks = new WindowsFileLocks().install();
  try {
    const outcome = async (write: (file: string) => Promise<void>, file: string): Promise<{ ms: number; error?: string }> => {
      fs.writeFileSync(file, 'before');
      locks.hold(file, { forMs: 300 });
      const t0 = performance.now();
      try {
        await write(file);
        if (fs.readFileSync(file, 'utf8') !== 'after') throw new Error('the target was not replaced');
        return { ms: performance.now() - t0 };
      } catch (error) {
        return { ms: performance.now() - t0, error: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
      } finally {
        locks.release(file);
      }
    };
    const oursHeld = await outcome((f) => writeFileAtomic(f, 'after'), path.join(dir, 'held-ours.csv'));
    const libHeld = await outcome((f) => writeFileAtomicLib(f, 'after'), path.join(dir, 'held-lib.csv'));
    if (oursHeld.error) throw new Error(`ours failed on a 300 ms hold: ${oursHeld.error}`);
    report(
      'atomic write: target held by another program for 300 ms (Windows EBUSY, simulated): write-file-atomic (time to an outcome)',
      libHeld.ms,
      'ms',
      oursHeld.ms,
      libHeld.error
        ? `write-file-atomic fails at once (${libHeld.error}) and leaves the file as it was; ours retries and writes it. Held for good, ours saves "name (2).ext" and says so (saveUserFile)`
        : 'write-file-atomic wrote it too',
    );
  } finally {
    locks.uninstall();
  }
}

// ---- the work pool --------------------------------------------------------------------------------

async function pools(): Promise<void> {
  // The one pool (src/api/pool.ts): bulk operations, the parallel page walk and reconciliation use it.
  const TASKS = 100_000;
  const CONCURRENCY = 4;
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
  let done = 0;
  const ours = await medianMs(async () => {
    done = 0;
    await drain(Array.from({ length: TASKS }, (_, i) => i), CONCURRENCY, async () => {
      await tick();
      done++;
    });
    if (done !== TASKS) throw new Error(`drain ran ${done} tasks`);
  });
  const lib = await medianMs(async () => {
    done = 0;
    const limit = pLimit(CONCURRENCY);
    await Promise.all(
      Array.from({ length: TASKS }, () =>
        limit(async () => {
          await tick();
          done++;
        }),
      ),
    );
    if (done !== TASKS) throw new Error(`p-limit ran ${done} tasks`);
  });
  report(`pool: ${TASKS.toLocaleString('en')} tasks, ${CONCURRENCY} at a time: p-limit (time)`, lib, 'ms', ours);

  const oursBytes = (await esbuild.transform(`export const drain = ${String(drain)}`, { minify: true, loader: 'js' })).code.length;
  const libBytes = await bundleBytes(`import pLimit from 'p-limit'; console.log(pLimit);`);
  report(
    'pool: p-limit (bundle, minified)',
    libBytes,
    'bytes',
    oursBytes,
    'with p-limit, work a task adds (a customer batch split after a 422) is outside the Promise.all the caller awaits: it needs its own count of pending work, which drain keeps',
  );
}

async function main(): Promise<void> {
  if (process.argv[2] === '--hold-lock') return holdLockUntilKilled(process.argv[3], process.argv[4]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nilvera-libs-files-'));
  try {
    await locks(dir);
    await atomicWrites(dir);
    await pools();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
