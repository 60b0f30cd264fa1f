// The profile records, in a file of the extension's global storage (profiles.json) that every window
// shares. Not globalState: each window writes its whole copy and the last write wins, so two windows
// changing profiles at once lost a change or brought back a removed profile. Every change here is a
// read-modify-write of the file under a lock; reads are synchronous, with this window's pending changes
// applied on top. Plain logic over node:fs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkCustomUrl, FIXED_BASE_URLS, isEnvironmentId, type EnvironmentId } from './environments';

/** A connection profile: one company's account in one environment. */
export interface Profile {
  /** Stable id; the key lives in SecretStorage under profileSecretName(id). */
  id: string;
  /** What the user calls it (defaults to the company's name from GET /Company). */
  name: string;
  environment: EnvironmentId;
  /** Custom environment only: the base URL the key was saved for. */
  baseUrl?: string;
  /** The company's tax number, when known (shown in the switch list, checked by "Add as Profile"). */
  taxNumber?: string;
  /** Milliseconds since the epoch of the last switch to it (picks the profile an environment maps to). */
  lastUsedAt?: number;
}

export function profileSecretName(id: string): string {
  return `nilvera.apiKey.profile.${id}`;
}

/**
 * The id of the one profile an environment maps to when nothing else is chosen (the profile an
 * upgraded install gets, and what "Switch Environment" and the `nilvera.environment` setting pick
 * when no other profile of that environment exists). Deterministic, so the migration and the
 * settings never create two of them. A custom URL gets one per origin, as its key always did.
 */
export function defaultProfileId(environment: EnvironmentId, customBaseUrl?: string): string {
  if (environment !== 'custom') return environment;
  return `custom:${customBaseUrl ? new URL(customBaseUrl).origin : 'unset'}`;
}

/**
 * The origin a profile's key may be sent to. The sandbox's port changes from run to run, so a
 * sandbox key may go to the running loopback sandbox only (`sandboxUrl`); undefined means nowhere.
 */
export function profileOrigin(profile: Profile, sandboxUrl: string | undefined): string | undefined {
  if (profile.environment === 'custom') {
    const check = checkCustomUrl(profile.baseUrl ?? '');
    return check.ok ? new URL(check.baseUrl).origin : undefined;
  }
  if (profile.environment !== 'sandbox') return new URL(FIXED_BASE_URLS[profile.environment]).origin;
  const url = sandboxUrl ? new URL(sandboxUrl) : undefined;
  return url && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) ? url.origin : undefined;
}

/** Reads a stored record defensively (globalState may hold anything an older version wrote). */
export function parseProfile(value: unknown): Profile | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || !v.id || typeof v.name !== 'string' || !isEnvironmentId(v.environment)) return undefined;
  const profile: Profile = { id: v.id, name: v.name, environment: v.environment };
  if (v.environment === 'custom') {
    const check = checkCustomUrl(typeof v.baseUrl === 'string' ? v.baseUrl : '');
    if (!check.ok) return undefined;
    profile.baseUrl = check.baseUrl;
  }
  if (typeof v.taxNumber === 'string' && v.taxNumber) profile.taxNumber = v.taxNumber;
  if (typeof v.lastUsedAt === 'number' && Number.isFinite(v.lastUsedAt)) profile.lastUsedAt = v.lastUsedAt;
  return profile;
}

/** Does the profile belong to this environment (and, for custom, this origin)? */
export function profileMatches(profile: Profile, environment: EnvironmentId, customBaseUrl?: string): boolean {
  if (profile.environment !== environment) return false;
  if (environment !== 'custom') return true;
  if (!customBaseUrl || !profile.baseUrl) return false;
  return new URL(profile.baseUrl).origin === new URL(customBaseUrl).origin;
}

/** The part of vscode.Memento the migration from globalState reads. */
export interface MementoLike {
  get<T>(key: string): T | undefined;
}

/** Where releases before the file kept the records (read once, when there is no file yet). */
export const PROFILES_STATE_KEY = 'nilvera.profiles';
export const PROFILES_FILE = 'profiles.json';

type Change = (records: Profile[]) => Profile[];

/** Valid records only, each id once (the file, or globalState, may hold anything an older version wrote). */
function parseRecords(raw: unknown): Profile[] {
  if (!Array.isArray(raw)) return [];
  const byId = new Map<string, Profile>();
  for (const p of raw.map(parseProfile)) if (p && !byId.has(p.id)) byId.set(p.id, p);
  return [...byId.values()];
}

export class ProfileStore {
  private readonly file: string;
  /** The file's records as last read, and how the file looked then. */
  private cached: { signature: string; records: Profile[] } | undefined;
  /** This window's changes not written yet, in order: reads apply them on top of the file. */
  private readonly pending: Change[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    /** The extension's global storage folder (shared by every window). */
    folder: string,
    /** globalState of releases that kept the records there: the records until the file exists. */
    private readonly legacy?: MementoLike,
  ) {
    this.file = path.join(folder, PROFILES_FILE);
  }

  all(): Profile[] {
    let records = this.stored();
    for (const change of this.pending) records = change(records);
    return records;
  }

  get(id: string): Profile | undefined {
    return this.all().find((p) => p.id === id);
  }

  /** Adds the record, or replaces the one with its id. */
  put(profile: Profile): Promise<void> {
    return this.change((records) => [...records.filter((p) => p.id !== profile.id), profile]);
  }

  /** Adds the record unless one with its id exists (another window may have stored it first). */
  add(profile: Profile): Promise<void> {
    return this.change((records) => (records.some((p) => p.id === profile.id) ? records : [...records, profile]));
  }

  /**
   * Changes the record with this id, if it still exists when the change is written: a profile another
   * window removed (its key deleted) is never brought back by a rename or a switch here.
   */
  update(id: string, change: (profile: Profile) => Profile): Promise<void> {
    return this.change((records) => records.map((p) => (p.id === id ? { ...change(p), id } : p)));
  }

  remove(id: string): Promise<void> {
    return this.change((records) => records.filter((p) => p.id !== id));
  }

  /**
   * The profile an environment (and custom origin) maps to: always its default profile (the one an
   * upgrade puts the old key in), so "Switch Environment" and the settings are predictable and
   * never pick one of several companies by chance; other profiles are reached by "Switch Profile".
   * The record is returned as a draft when not stored yet (ActiveProfile stores it once used).
   */
  forEnvironment(environment: EnvironmentId, customBaseUrl: string | undefined, defaultName: string): Profile {
    const stored = this.get(defaultProfileId(environment, customBaseUrl));
    if (stored && profileMatches(stored, environment, customBaseUrl)) return stored;
    // Custom without a valid URL: a placeholder that is never stored (it cannot hold a key).
    return { id: defaultProfileId(environment, customBaseUrl), name: defaultName, environment, ...(customBaseUrl && environment === 'custom' ? { baseUrl: customBaseUrl } : {}) };
  }

  /** The records in the file (read again when it changed); globalState's until the file exists. */
  private stored(): Profile[] {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(this.file, { throwIfNoEntry: false });
    } catch {
      stat = undefined;
    }
    if (!stat) return parseRecords(this.legacy?.get<unknown>(PROFILES_STATE_KEY));
    const signature = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    if (this.cached?.signature !== signature) {
      try {
        this.cached = { signature, records: parseRecords(JSON.parse(fs.readFileSync(this.file, 'utf8'))) };
      } catch {
        // Held for a moment (Windows) or not JSON: the last records read stand until the next read.
        return this.cached?.records ?? [];
      }
    }
    return this.cached.records;
  }

  /** Applies `change` to the file's current records under the lock, one change at a time per window. */
  private change(change: Change): Promise<void> {
    this.pending.push(change);
    const write = this.queue.then(async () => {
      // Loaded on the first change: activation only reads.
      const [{ withFileLock }, { writeFileAtomic }] = await Promise.all([import('../files/fileLock'), import('../files/atomicFile')]);
      // The global storage folder does not exist until something creates it.
      await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
      await withFileLock(`${this.file}.lock`, async () => {
        const current = await this.readForChange();
        await writeFileAtomic(this.file, JSON.stringify(change(current), null, 2) + '\n');
      });
    });
    this.queue = write.catch(() => undefined);
    return write.finally(() => {
      this.pending.splice(this.pending.indexOf(change), 1);
    });
  }

  private async readForChange(): Promise<Profile[]> {
    const { readFileRetrying } = await import('../files/lockedFiles');
    const bytes = await readFileRetrying(this.file);
    // No file yet: the records releases before kept in globalState become its first content.
    return parseRecords(bytes ? JSON.parse(bytes.toString('utf8')) : this.legacy?.get<unknown>(PROFILES_STATE_KEY));
  }
}
