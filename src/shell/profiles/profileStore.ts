// The profile records, kept in the extension's global state (shared by every window). Plain
// logic over a Memento-shaped store, so the unit tests run it in Node.
import { defaultProfileId, parseProfile, profileMatches, type Profile } from './profile';
import type { EnvironmentId } from '../environments';

/** The part of vscode.Memento this uses. VS Code updates the in-memory value at once, persists later. */
export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export const PROFILES_STATE_KEY = 'nilvera.profiles';

export class ProfileStore {
  constructor(private readonly memento: MementoLike) {}

  all(): Profile[] {
    const raw = this.memento.get<unknown>(PROFILES_STATE_KEY);
    if (!Array.isArray(raw)) return [];
    const seen = new Set<string>();
    const out: Profile[] = [];
    for (const item of raw) {
      const p = parseProfile(item);
      if (p && !seen.has(p.id)) {
        seen.add(p.id);
        out.push(p);
      }
    }
    return out;
  }

  get(id: string): Profile | undefined {
    return this.all().find((p) => p.id === id);
  }

  /** Adds or replaces the record with this id. */
  async put(profile: Profile): Promise<void> {
    const others = this.all().filter((p) => p.id !== profile.id);
    await this.memento.update(PROFILES_STATE_KEY, [...others, profile]);
  }

  async remove(id: string): Promise<void> {
    await this.memento.update(
      PROFILES_STATE_KEY,
      this.all().filter((p) => p.id !== id),
    );
  }

  /**
   * The profile an environment (and custom origin) maps to: the most recently used matching one,
   * else the default profile, which is created on the spot (its record only, never a key).
   */
  forEnvironment(environment: EnvironmentId, customBaseUrl: string | undefined, defaultName: string): { profile: Profile; write?: Promise<void> } {
    const matching = this.all().filter((p) => profileMatches(p, environment, customBaseUrl));
    matching.sort((a, b) => (b.lastUsedAt ?? 0) - (a.lastUsedAt ?? 0));
    if (matching[0]) return { profile: matching[0] };
    const profile: Profile = { id: defaultProfileId(environment, customBaseUrl), name: defaultName, environment };
    // Custom without a valid URL: a placeholder that is never stored (it cannot hold a key).
    if (environment === 'custom' && !customBaseUrl) return { profile };
    if (customBaseUrl && environment === 'custom') profile.baseUrl = customBaseUrl;
    return { profile, write: this.put(profile) };
  }

  /** A new id for a profile the user adds (never one of the default ids, which have no dash-hex tail). */
  static newId(random: () => string): string {
    return `p-${random()}`;
  }
}
