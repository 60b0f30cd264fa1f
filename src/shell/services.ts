// The shell's services, each created on first use (activate() creates none of them): the key
// store, the sandbox launcher, the active connection profile and its API client. Every feature
// asks this object for "the active profile's" client, key, environment and URL; none keeps its own.
import * as vscode from 'vscode';
import type { DataArea } from './dataChanges';
import type { NilveraClient } from '../api';
import { ApiKeyStore, KeyringUnavailableError } from './apiKeyStore';
import { UserFacingError } from './errorMessages';
import { checkCustomUrl, FIXED_BASE_URLS, type EnvironmentId } from './environments';
import { ActiveProfile, type ProfileChange } from './activeProfile';
import { profileOrigin, profileSecretName, type Profile } from './profileStore';
import { guardStaleAnswers, ProfileSwitchedError } from './staleAnswers';
import { requestLogger } from './log';
import { SandboxLauncher } from './sandboxLauncher';
import { SerialMemento } from './serialMemento';
import { readSettings } from './settings';
import { WorkspaceUsage } from './workspaceUsage';

/** The environment cannot be used as configured (no valid custom URL, no sandbox key). */
export class EnvironmentNotReadyError extends UserFacingError {}

export function environmentLabel(environment: EnvironmentId): string {
  const labels: Record<EnvironmentId, string> = {
    production: vscode.l10n.t('Production'),
    test: vscode.l10n.t('Test'),
    sandbox: vscode.l10n.t('Sandbox'),
    custom: vscode.l10n.t('Custom URL'),
  };
  return labels[environment];
}

/** Creates an API client on the contract of src/api (loaded on first use, not at activation). */
async function createShellClient(baseUrl: string, getApiKey: () => Promise<string | undefined>, timeoutMs: number, signal?: AbortSignal): Promise<NilveraClient> {
  const api = await import('../api');
  return api.createClient({ baseUrl, getApiKey, timeoutMs, logger: requestLogger, ...(signal ? { signal } : {}) });
}

export class ShellServices implements vscode.Disposable {
  private keyStore: ApiKeyStore | undefined;
  private launcher: SandboxLauncher | undefined;
  private workspaceUsage: WorkspaceUsage | undefined;
  private profileState: ActiveProfile | undefined;
  private serialGlobalState: SerialMemento | undefined;
  private cachedClient: { signature: string; client: NilveraClient } | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private dataEmitter: vscode.EventEmitter<DataArea> | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    /**
     * Told when the active profile or a record changes, or the workspace becomes used (the context keys
     * and status bar follow). Wired when the profile state and the workspace's use are first made:
     * nothing can change them before then.
     */
    private readonly onStateChange: () => void = () => undefined,
  ) {}

  /** Disposed with the services. */
  private owned<T extends vscode.Disposable>(disposable: T): T {
    this.disposables.push(disposable);
    return disposable;
  }

  /** Tells whoever shows `area` (the views, when loaded) that its data changed. */
  dataChanged(area: DataArea): void {
    this.dataEmitter?.fire(area);
  }

  /** Fires when a feature changed data of an area (src/shell/dataChanges.ts); the views reload what shows it. */
  get onDidChangeData(): vscode.Event<DataArea> {
    return (this.dataEmitter ??= this.owned(new vscode.EventEmitter<DataArea>())).event;
  }

  get keys(): ApiKeyStore {
    return (this.keyStore ??= this.owned(new ApiKeyStore(this.context.secrets)));
  }

  /** Whether Nilvera was used in this workspace (no status bar and no request before: src/shell/workspaceUsage.ts). */
  get usage(): WorkspaceUsage {
    if (!this.workspaceUsage) {
      const usage = this.owned(new WorkspaceUsage(this.context.workspaceState));
      usage.onDidBecomeUsed(() => this.onStateChange());
      this.workspaceUsage = usage;
    }
    return this.workspaceUsage;
  }

  get sandbox(): SandboxLauncher {
    // The sandbox keeps its data between sessions in the extension's global storage, a file per running sandbox.
    return (this.launcher ??= new SandboxLauncher(this.context.extensionPath, {
      dir: vscode.Uri.joinPath(this.context.globalStorageUri, 'sandbox-data').fsPath,
      legacyFile: vscode.Uri.joinPath(this.context.globalStorageUri, 'sandbox-data.json').fsPath,
    }));
  }

  /** Every globalState read and write of the extension goes through this one serial writer (src/shell/serialMemento.ts). */
  get globalState(): vscode.Memento {
    return (this.serialGlobalState ??= new SerialMemento(this.context.globalState));
  }

  /** The window's profile state (records, the active one, its generation). */
  get profiles(): ActiveProfile {
    if (!this.profileState) {
      const profiles = this.owned(new ActiveProfile(this.context, environmentLabel, this.globalState));
      profiles.onDidChange(this.onStateChange);
      profiles.onDidChangeRecords(this.onStateChange);
      this.profileState = profiles;
    }
    return this.profileState;
  }

  /** The profile this window talks to. */
  activeProfile(): Profile {
    return this.profiles.current();
  }

  /** Fires when this window's active profile changes (trees, status bar and views reload). */
  get onDidChangeProfile(): vscode.Event<ProfileChange> {
    return this.profiles.onDidChange;
  }

  /** The active profile's environment. */
  environment(): EnvironmentId {
    return this.activeProfile().environment;
  }

  /**
   * The profile an environment means here: the active one when it is of that environment, else
   * the one that environment maps to (the most recently used, or its default profile).
   */
  profileFor(environment: EnvironmentId): Profile {
    const active = this.activeProfile();
    if (active.environment === environment) return active;
    return this.profiles.store.forEnvironment(environment, this.customBaseUrl(), environmentLabel(environment));
  }

  /** The custom base URL (of the active custom profile, else of the setting) when it is valid. */
  customBaseUrl(): string | undefined {
    const active = this.activeProfile();
    if (active.environment === 'custom') return active.baseUrl;
    const check = checkCustomUrl(readSettings().customUrl);
    return check.ok ? check.baseUrl : undefined;
  }

  /** SecretStorage name of the key of an environment's profile (see profileFor). */
  secretName(environment: EnvironmentId = this.environment()): string {
    return profileSecretName(this.profileFor(environment).id);
  }

  /** The secret name of the environment's profile once old keys are migrated; none for a custom one without a URL. */
  private async keyName(environment: EnvironmentId): Promise<string | undefined> {
    await this.profiles.ready();
    const profile = this.profileFor(environment);
    return profile.environment === 'custom' && !profile.baseUrl ? undefined : profileSecretName(profile.id);
  }

  async apiKey(environment: EnvironmentId = this.environment()): Promise<string | undefined> {
    const name = await this.keyName(environment);
    return name ? this.keys.get(name) : undefined;
  }

  /** Whether the environment's profile has a key: 'unreadable' when the keyring refused to say. */
  async keyStatus(environment: EnvironmentId = this.environment()): Promise<{ kind: 'set' | 'absent' } | { kind: 'unreadable'; reason: string }> {
    const name = await this.keyName(environment);
    const read = name ? await this.keys.read(name) : ({ kind: 'absent' } as const);
    return read.kind === 'found' ? { kind: 'set' } : read;
  }

  /**
   * Whether the commands that need a key are offered. A keyring that refused to be read counts as a key:
   * the key may be there, and running a command says what the keyring answered instead of hiding it.
   */
  async hasApiKey(environment: EnvironmentId = this.environment()): Promise<boolean> {
    return (await this.keyStatus(environment)).kind !== 'absent';
  }

  /**
   * The base URL of an environment. For the sandbox this starts the local server when none runs
   * (with `sandboxKey`, or the stored sandbox key), so it is only called when a request is due.
   */
  async baseUrl(environment: EnvironmentId = this.environment(), sandboxKey?: string): Promise<string> {
    switch (environment) {
      case 'production':
      case 'test':
        return FIXED_BASE_URLS[environment];
      case 'custom': {
        const url = this.profileFor('custom').baseUrl;
        if (!url) throw new EnvironmentNotReadyError(vscode.l10n.t('The Custom URL environment has no valid URL. Run "Nilvera: Switch Environment" and enter one.'));
        return url;
      }
      case 'sandbox': {
        const current = this.sandbox.current();
        if (current) return current.url;
        const key = sandboxKey ?? (await this.apiKey('sandbox'));
        if (!key) throw new EnvironmentNotReadyError(vscode.l10n.t('The sandbox is not running. Run "Nilvera: Try the Sandbox" to start it.'));
        return (await this.sandbox.ensure(key)).url;
      }
    }
  }

  /**
   * The client of the active profile; it reads the key on every request, so a new key applies at
   * once. It belongs to this generation: a profile switch aborts its requests (the generation's
   * AbortController) and turns any answer still arriving into a silent ProfileSwitchedError.
   */
  async client(): Promise<NilveraClient> {
    const profile = this.activeProfile();
    const generation = this.profiles.generation();
    const signal = this.profiles.signal();
    const isCurrent = (): boolean => this.profiles.generation() === generation;
    await this.profiles.ready();
    const baseUrl = await this.baseUrl(profile.environment);
    if (!isCurrent()) throw new ProfileSwitchedError('client');
    // The one place a key meets an address: it goes only to the origin its profile was saved for.
    const allowed = profileOrigin(profile, this.sandbox.current()?.url);
    if (!allowed || new URL(baseUrl).origin !== allowed) {
      throw new EnvironmentNotReadyError(vscode.l10n.t('The API key of profile "{0}" is only sent to the address it was saved for.', profile.name));
    }
    const timeoutMs = readSettings().requestTimeoutMs;
    const secretName = profileSecretName(profile.id);
    // A keyring that refuses to be read is said as such here, with help, before the API layer would
    // report the missing key as a rejected one (HTTP 401) on the first request.
    const read = await this.keys.read(secretName);
    if (read.kind === 'unreadable') throw new KeyringUnavailableError(read.reason, 'read');
    const signature = `${generation}|${profile.id}|${baseUrl}|${timeoutMs}`;
    if (this.cachedClient?.signature !== signature) {
      const raw = await createShellClient(
        baseUrl,
        async () => {
          if (!isCurrent()) throw new ProfileSwitchedError('client');
          return this.keys.get(secretName);
        },
        timeoutMs,
        signal,
      );
      if (!isCurrent()) throw new ProfileSwitchedError('client');
      this.cachedClient = { signature, client: guardStaleAnswers(raw, isCurrent) };
    }
    return this.cachedClient.client;
  }

  /** A one-off client for checking a key that is not stored yet. */
  clientForKey(baseUrl: string, key: string): Promise<NilveraClient> {
    return createShellClient(baseUrl, async () => key, readSettings().requestTimeoutMs);
  }

  async dispose(): Promise<void> {
    await this.launcher?.stop();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
