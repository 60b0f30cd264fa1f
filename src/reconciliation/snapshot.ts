// The result of a run kept for the next one (tax number → status + active PK alias), the diff of two
// runs, and the store: one file per profile and base URL under the extension's global storage (several
// companies' profiles share https://api.nilvera.com, each compares with its own last run), written whole.
// Several windows may reconcile one account: each save takes the snapshot's lock and never replaces a
// later run's snapshot with an earlier one.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sweepTempFiles, writeFileAtomic } from '../files/atomicFile';
import { withFileLock } from '../files/fileLock';
import { processIsAlive, readFileRetrying, removeRetrying } from '../files/lockedFiles';
import type { ReconRow } from './classify';

/** Only the registry verdict is kept; invalid numbers cannot change, unchecked ones carry over. */
export type SnapshotStatus = 'user' | 'notUser' | 'invalid';

export interface SnapshotEntry {
  status: SnapshotStatus;
  pkAlias?: string;
}

export interface Snapshot {
  baseUrl: string;
  /** The connection profile whose account was reconciled (src/profiles). */
  profileId?: string;
  /** ISO time of the run. */
  takenAt: string;
  entries: Map<string, SnapshotEntry>;
}

export interface AliasChange {
  row: ReconRow;
  previousAlias?: string;
}

export interface Changes {
  newlyRegistered: ReconRow[];
  aliasChanged: AliasChange[];
  deregistered: ReconRow[];
}

/** What the next run compares with. A row whose lookup failed keeps its previous entry. */
export function snapshotOf(baseUrl: string, takenAt: string, rows: Iterable<ReconRow>, previous?: Snapshot, profileId?: string): Snapshot {
  const entries = new Map<string, SnapshotEntry>();
  for (const row of rows) {
    const entry = row.status === 'unchecked' ? previous?.entries.get(row.taxNumber) : { status: row.status, ...(row.pkAlias ? { pkAlias: row.pkAlias } : {}) };
    if (row.taxNumber && entry) entries.set(row.taxNumber, entry);
  }
  return { baseUrl, ...(profileId ? { profileId } : {}), takenAt, entries };
}

/**
 * Newly registered: a user now that was a non-user before; alias changed: a user both times with
 * another active PK alias; deregistered: a user before, not one now. These are registry changes: a
 * customer added since the previous run has no "before" and is not a change (importing 500
 * long-registered customers must not report 500 new registrations).
 */
export function diffRuns(previous: Snapshot, rows: Iterable<ReconRow>): Changes {
  const changes: Changes = { newlyRegistered: [], aliasChanged: [], deregistered: [] };
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.taxNumber)) continue;
    seen.add(row.taxNumber);
    const before = previous.entries.get(row.taxNumber);
    if (row.status === 'user') {
      if (before?.status === 'notUser') changes.newlyRegistered.push(row);
      else if (before?.status === 'user' && (before.pkAlias ?? '') !== (row.pkAlias ?? '')) changes.aliasChanged.push({ row, ...(before.pkAlias ? { previousAlias: before.pkAlias } : {}) });
    } else if (row.status === 'notUser' && before?.status === 'user') {
      changes.deregistered.push(row);
    }
  }
  return changes;
}

const STATUS_CODE: Record<SnapshotStatus, string> = { user: 'U', notUser: 'N', invalid: 'I' };
const CODE_STATUS: Record<string, SnapshotStatus> = { U: 'user', N: 'notUser', I: 'invalid' };
const FORMAT = 1;

/** One line of JSON metadata, then `taxNumber<TAB>status<TAB>alias` per line (compact for 100,000 rows). */
export function serializeSnapshot(s: Snapshot): string {
  const parts = [JSON.stringify({ format: FORMAT, baseUrl: s.baseUrl, ...(s.profileId ? { profileId: s.profileId } : {}), takenAt: s.takenAt, count: s.entries.size })];
  for (const [taxNumber, e] of s.entries) parts.push(`${taxNumber}\t${STATUS_CODE[e.status]}\t${e.pkAlias ?? ''}`);
  return parts.join('\n') + '\n';
}

/** Undefined for a file of another format or a damaged one (the next run then counts as the first). */
export function parseSnapshot(text: string): Snapshot | undefined {
  const lines = text.split('\n');
  let meta: { format?: number; baseUrl?: string; profileId?: unknown; takenAt?: string; count?: number };
  try {
    meta = JSON.parse(lines[0] ?? '') as typeof meta;
  } catch {
    return undefined;
  }
  if (meta.format !== FORMAT || typeof meta.baseUrl !== 'string' || typeof meta.takenAt !== 'string') return undefined;
  const entries = new Map<string, SnapshotEntry>();
  for (const line of lines.slice(1)) {
    if (!line) continue;
    const [taxNumber, code, alias] = line.split('\t');
    const status = CODE_STATUS[code ?? ''];
    if (!taxNumber || !status) return undefined;
    entries.set(taxNumber, alias ? { status, pkAlias: alias } : { status });
  }
  if (meta.count !== undefined && meta.count !== entries.size) return undefined;
  return { baseUrl: meta.baseUrl, ...(typeof meta.profileId === 'string' ? { profileId: meta.profileId } : {}), takenAt: meta.takenAt, entries };
}

export class SnapshotStore {
  constructor(
    /** e.g. <globalStorage>/reconciliation */
    readonly folder: string,
  ) {}

  /** The file of one profile's account: URL and profile are hashed, so neither appears in a file name. */
  fileFor(baseUrl: string, profileId?: string): string {
    const account = baseUrl.replace(/\/+$/, '').toLowerCase() + (profileId ? `\n${profileId}` : '');
    const hash = createHash('sha256').update(account).digest('hex').slice(0, 24);
    return path.join(this.folder, `snapshot-${hash}.tsv`);
  }

  async load(baseUrl: string, profileId?: string): Promise<Snapshot | undefined> {
    const s = await this.read(this.fileFor(baseUrl, profileId));
    return s && s.baseUrl === baseUrl && s.profileId === profileId ? s : undefined;
  }

  private async read(file: string): Promise<Snapshot | undefined> {
    const bytes = await readFileRetrying(file);
    return bytes && parseSnapshot(bytes.toString('utf8'));
  }

  /**
   * Writes the snapshot whole (temporary file, then rename) under its lock and returns its file. A
   * snapshot already there from a later run (another window's run that started after this one) is kept.
   */
  async save(snapshot: Snapshot): Promise<string> {
    const file = this.fileFor(snapshot.baseUrl, snapshot.profileId);
    await fs.promises.mkdir(this.folder, { recursive: true });
    await withFileLock(`${file}.lock`, async () => {
      const there = await this.read(file).catch(() => undefined);
      if (there && there.takenAt > snapshot.takenAt) return;
      await writeFileAtomic(file, serializeSnapshot(snapshot));
    });
    return file;
  }

  /**
   * What crashed saves left: temporary files of writers that are gone, and an older version's
   * `snapshot-*.part` files (their names carry the writer's pid too). Locks of dead holders are taken
   * over by the next save.
   */
  async sweep(): Promise<string[]> {
    const removed = await sweepTempFiles(this.folder, 24 * 3600_000);
    for (const name of await fs.promises.readdir(this.folder).catch(() => [] as string[])) {
      const file = path.join(this.folder, name);
      const part = /^snapshot-[0-9a-f]+\.tsv\.(\d+)\.\d+\.part$/.exec(name);
      if (part && Number(part[1]) !== process.pid && !processIsAlive(Number(part[1]))) {
        if (await removeRetrying(file, { totalMs: 0 }).then(() => true, () => false)) removed.push(file);
      } else if (/^snapshot-[0-9a-f]+\.tsv\.lock$/.test(name)) {
        // Taking the lock takes over a dead holder's and removes it; a live holder's is left alone.
        if (await withFileLock(file, async () => true, { waitMs: 0 }).catch(() => false)) removed.push(file);
      }
    }
    return removed;
  }
}
