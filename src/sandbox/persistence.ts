// Optional JSON persistence: changes are saved shortly after they happen (temp file + rename, so
// a crash never leaves a half-written file) and loaded at start.
import * as fs from 'node:fs';
import * as path from 'node:path';
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

export function loadData(file: string): PersistedData | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const data = JSON.parse(text) as PersistedData;
  if (data.format !== 1) throw new Error(`${file}: unknown data format`);
  return data;
}

export function saveDataSync(file: string, data: PersistedData): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(data));
  fs.renameSync(tmp, file);
}

/** Coalesces bursts of changes into one write. */
export class SaveScheduler {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly file: string, private readonly snapshot: () => PersistedData, private readonly delayMs = 200) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.delayMs);
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    saveDataSync(this.file, this.snapshot());
  }

  /** Writes now if a save is pending. */
  flushPending(): void {
    if (this.timer) this.flush();
  }
}
