// Which profile this window talks to. The choice is per window (remembered per workspace in
// workspaceState); when the user-level settings `nilvera.environment` / `nilvera.customUrl`
// change, the window follows them to that environment's profile. Each switch
// starts a new generation: the previous one's AbortController fires (its requests stop) and
// answers that still arrive for it are dropped (staleAnswers.ts).
import * as vscode from 'vscode';
import { Settings } from '../constants';
import { checkCustomUrl, type EnvironmentId } from './environments';
import { log } from './log';
import { readSettings } from './settings';
import { migrateKey, migrateLegacyKeys } from './profileMigration';
import { defaultProfileId, ProfileStore, type Profile } from './profileStore';

export const ACTIVE_PROFILE_STATE_KEY = 'nilvera.activeProfile';

export interface ProfileChange {
  profile: Profile;
  generation: number;
}

export class ActiveProfile implements vscode.Disposable {
  readonly store: ProfileStore;
  private activeId: string | undefined;
  private settingsSeen: string | undefined;
  private gen = 0;
  private controller = new AbortController();
  private readonly changed = new vscode.EventEmitter<ProfileChange>();
  private readonly recordsChanged = new vscode.EventEmitter<void>();
  /** Fires when a record changed without a switch (renamed, removed, company name learnt). */
  readonly onDidChangeRecords = this.recordsChanged.event;
  private migration: Promise<unknown> | undefined;
  private readonly originMigrations = new Map<string, Promise<unknown>>();
  /** Fires after the active profile changed (a switch here, or the settings moved it). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly label: (environment: EnvironmentId) => string,
    /** Where releases before profiles.json kept the records (read until the file exists). */
    globalState: vscode.Memento,
  ) {
    this.store = new ProfileStore(context.globalStorageUri.fsPath, globalState);
  }

  /** The active profile (synchronous: records live in memory; no secret is read). */
  current(): Profile {
    const settings = readSettings();
    const signature = `${settings.environment}|${settings.customUrl}`;
    if (this.settingsSeen === undefined) {
      this.settingsSeen = signature;
      const remembered = this.context.workspaceState.get<string>(ACTIVE_PROFILE_STATE_KEY);
      this.activeId = remembered && this.store.get(remembered) ? remembered : this.fromSettings().id;
    } else if (signature !== this.settingsSeen) {
      this.settingsSeen = signature;
      const target = this.fromSettings();
      if (target.id !== this.activeId) this.switchTo(target.id, target);
    }
    const active = this.activeId ? this.store.get(this.activeId) : undefined;
    if (active) return active;
    // Removed (here or in another window), or a custom placeholder: back to what the settings say.
    const fallback = this.fromSettings();
    if (fallback.id !== this.activeId) this.switchTo(fallback.id, fallback);
    return fallback;
  }

  generation(): number {
    return this.gen;
  }

  /** Aborts when the window leaves the current generation's profile. */
  signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * "Switch Environment" (and "Try the Sandbox") write the settings, then call this: the
   * window moves to the profile of that environment (the most recently used one, else its default
   * profile, created now), even when the setting already had that value.
   */
  followSettings(): Profile {
    this.current();
    const target = this.fromSettings();
    if (target.id !== this.activeId) this.switchTo(target.id, target);
    return this.current();
  }

  /** Makes `id` the active profile of this window; a new generation even when it already was. */
  switchTo(id: string, record?: Profile): void {
    // A default profile becomes a stored record once it is used (a custom one needs its URL).
    if (record && record.id === id && !this.store.get(id) && (record.environment !== 'custom' || record.baseUrl)) void this.store.add(record).catch((e: unknown) => log.warn(`profile ${id} could not be stored: ${String(e)}`));
    this.activeId = id;
    this.controller.abort();
    this.controller = new AbortController();
    this.gen++;
    void this.context.workspaceState.update(ACTIVE_PROFILE_STATE_KEY, id);
    const profile = this.store.get(id);
    const now = Date.now();
    if (profile) void this.store.update(id, (p) => ({ ...p, lastUsedAt: now })).catch((e: unknown) => log.warn(`profile ${id}: the last use could not be stored: ${String(e)}`));
    this.changed.fire({ profile: profile ?? this.fromSettings(), generation: this.gen });
  }

  touched(): void {
    this.recordsChanged.fire();
  }

  /**
   * Old keys become profile keys before any key is read: once per window for the settings'
   * custom URLs, and again for a custom URL the settings name later.
   */
  async ready(): Promise<void> {
    const secrets = this.context.secrets;
    this.migration ??= this.migrate().catch(() => undefined);
    await this.migration;
    const profile = this.current();
    if (profile.environment === 'custom' && profile.baseUrl && profile.id === defaultProfileId('custom', profile.baseUrl)) {
      const origin = new URL(profile.baseUrl).origin;
      if (!this.originMigrations.has(origin)) {
        this.originMigrations.set(origin, migrateKey({ secrets, store: this.store, label: this.label }, 'custom', profile.baseUrl).catch(() => undefined));
      }
      await this.originMigrations.get(origin);
    }
  }

  /** One run of the upgrade from per-environment keys (idempotent; ready() runs it once per window). */
  migrate(): Promise<string[]> {
    return migrateLegacyKeys({ secrets: this.context.secrets, store: this.store, customUrls: customUrlValues(), label: this.label });
  }

  private fromSettings(): Profile {
    const settings = readSettings();
    const check = settings.environment === 'custom' ? checkCustomUrl(settings.customUrl) : undefined;
    const customBaseUrl = check?.ok ? check.baseUrl : undefined;
    return this.store.forEnvironment(settings.environment, customBaseUrl, this.label(settings.environment));
  }

  dispose(): void {
    this.controller.abort();
    this.changed.dispose();
    this.recordsChanged.dispose();
  }
}

/** Every value of `nilvera.customUrl` (user, workspace, folder) an old key may have been saved for. */
function customUrlValues(): string[] {
  const inspected = vscode.workspace.getConfiguration(Settings.section).inspect<string>(Settings.customUrl);
  return [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue].filter((v): v is string => typeof v === 'string');
}
