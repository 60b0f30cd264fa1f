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
   * The profile an environment (and custom origin) maps to: always its default profile (the one an
   * upgrade puts the old key in), so "Switch Environment" and the settings are predictable and
   * never pick one of several companies by chance; other profiles are reached by "Switch Profile".
   * The record is returned as a draft when not stored yet (ActiveProfile stores it once used).
   */
  forEnvironment(environment: EnvironmentId, customBaseUrl: string | undefined, defaultName: string): { profile: Profile } {
    const stored = this.get(defaultProfileId(environment, customBaseUrl));
    if (stored && profileMatches(stored, environment, customBaseUrl)) return { profile: stored };
    const profile: Profile = { id: defaultProfileId(environment, customBaseUrl), name: defaultName, environment };
    // Custom without a valid URL: a placeholder that is never stored (it cannot hold a key).
    if (customBaseUrl && environment === 'custom') profile.baseUrl = customBaseUrl;
    return { profile };
  }

  /** A new id for a profile the user adds (never one of the default ids, which have no dash-hex tail). */
  static newId(random: () => string): string {
    return `p-${random()}`;
  }
}
