// Optional JSON persistence. Every running sandbox has a data file of its own (with `dataDir`, a slot held
// by a lock that a crashed sandbox's successor takes over), so two VS Code windows never write one file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../files/atomicFile';
import { LockTimeoutError, withFileLock } from '../files/fileLock';
import { readFileRetrying } from '../files/lockedFiles';
import type { CustomerRecord, MutableState } from './records';
import type { RegistryOverrides } from './registry';

export interface PersistedData {
  format: 1;
  seed: number;
  state: MutableState;
  customers: CustomerRecord[];
  nextCustomerId: number;
  registry: RegistryOverrides;
}

export async function loadData(file: string): Promise<PersistedData | undefined> {
  const bytes = await readFileRetrying(file);
  if (!bytes) return undefined;
  const data = JSON.parse(bytes.toString('utf8')) as PersistedData;
  if (data.format !== 1) throw new Error(`${file}: unknown data format`);
  return data;
}

/** Slots a data folder offers: more running sandboxes than this on one machine is a mistake. */
const MAX_SLOTS = 32;

export interface DataSlot {
  file: string;
  /** Lets the slot go (after the last save). */
  release(): Promise<void>;
}

/** Holds `lockFile` until released; undefined when a live process holds it. */
function holdLock(lockFile: string): Promise<(() => Promise<void>) | undefined> {
  return new Promise((resolve, reject) => {
    let letGo: () => void = () => undefined;
    const until = new Promise<void>((r) => (letGo = r));
    const held = withFileLock(
      lockFile,
      async () => {
        resolve(async () => {
          letGo();
          await held;
        });
        await until;
      },
      { waitMs: 0 },
    );
    held.catch((error: unknown) => (error instanceof LockTimeoutError ? resolve(undefined) : reject(error)));
  });
}

/** The first data file of `dir` that no running sandbox holds, held by this process until released. */
export async function claimDataSlot(dir: string): Promise<DataSlot> {
  await fs.promises.mkdir(dir, { recursive: true });
  for (let n = 1; n <= MAX_SLOTS; n++) {
    const file = path.join(dir, `sandbox-${n}.json`);
    const release = await holdLock(`${file}.lock`);
    if (release) return { file, release };
  }
  throw new Error(`every data file in ${dir} is in use by a running sandbox`);
}

/**
 * Coalesces bursts of changes into one save, and saves one at a time. A failed save (a file held for
 * longer than the retries) is reported and tried again with the next change or at close.
 */
export class SaveScheduler {
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  /** Changes not yet in a save that succeeded. */
  private dirty = false;
  /** The last save's failure, until a save succeeds. */
  failure: Error | undefined;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => PersistedData,
    private readonly onError: (error: Error) => void = () => undefined,
    private readonly delayMs = 200,
  ) {}

  schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.delayMs);
    this.timer.unref();
  }

  /** Saves now (after any save under way); resolves when this save is done, whether it worked or not. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.chain = this.chain.then(async () => {
      // Taken when the save starts: changes made while an earlier save ran are in it.
      this.dirty = false;
      const data = this.snapshot();
      try {
        await writeFileAtomic(this.file, JSON.stringify(data));
        this.failure = undefined;
      } catch (error) {
        this.dirty = true;
        this.failure = error as Error;
        this.onError(this.failure);
      }
    });
    return this.chain;
  }

  /** Saves now if a change is not saved yet; resolves when everything is (or failed to be). */
  async flushPending(): Promise<void> {
    await this.chain;
    if (this.dirty || this.timer) await this.flush();
  }
}
