// The shell's services, each created on first use (activate() creates none of them): the key
// store, the sandbox launcher and the API client of the active environment.
import * as vscode from 'vscode';
import type { ShellClient } from './apiContract';
import { ApiKeyStore } from './apiKeyStore';
import { UserFacingError } from './errorMessages';
import { checkCustomUrl, FIXED_BASE_URLS, secretNameFor, type EnvironmentId } from './environments';
import { requestLogger } from './log';
import { SandboxLauncher } from './sandboxLauncher';
import { readSettings } from './settings';
import { WorkspaceUsage } from './workspaceUsage';

/** The environment cannot be used as configured (no valid custom URL, no sandbox key). */
export class EnvironmentNotReadyError extends UserFacingError {}

export function environmentLabel(environment: EnvironmentId): string {
  switch (environment) {
    case 'production':
      return vscode.l10n.t('Production');
    case 'test':
      return vscode.l10n.t('Test');
    case 'sandbox':
      return vscode.l10n.t('Sandbox');
    case 'custom':
      return vscode.l10n.t('Custom URL');
  }
}

/** Creates an API client on the contract of src/api (loaded on first use, not at activation). */
export async function createShellClient(baseUrl: string, getApiKey: () => Promise<string | undefined>, timeoutMs: number): Promise<ShellClient> {
  const api = await import('../api');
  return api.createClient({ baseUrl, getApiKey, timeoutMs, logger: requestLogger });
}

export class ShellServices implements vscode.Disposable {
  private keyStore: ApiKeyStore | undefined;
  private launcher: SandboxLauncher | undefined;
  private workspaceUsage: WorkspaceUsage | undefined;
  private cachedClient: { signature: string; client: ShellClient } | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly context: vscode.ExtensionContext) {}

  get keys(): ApiKeyStore {
    if (!this.keyStore) {
      this.keyStore = new ApiKeyStore(this.context.secrets);
      this.disposables.push(this.keyStore);
    }
    return this.keyStore;
  }

  /** Whether Nilvera was used in this workspace (no status bar and no request before: src/shell/workspaceUsage.ts). */
  get usage(): WorkspaceUsage {
    if (!this.workspaceUsage) {
      this.workspaceUsage = new WorkspaceUsage(this.context.workspaceState);
      this.disposables.push(this.workspaceUsage);
    }
    return this.workspaceUsage;
  }

  get sandbox(): SandboxLauncher {
    // The sandbox keeps its data between sessions in the extension's global storage.
    this.launcher ??= new SandboxLauncher(this.context.extensionPath, vscode.Uri.joinPath(this.context.globalStorageUri, 'sandbox-data.json').fsPath);
    return this.launcher;
  }

  environment(): EnvironmentId {
    return readSettings().environment;
  }

  /** The custom base URL when it is valid, else undefined. */
  customBaseUrl(): string | undefined {
    const check = checkCustomUrl(readSettings().customUrl);
    return check.ok ? check.baseUrl : undefined;
  }

  secretName(environment: EnvironmentId = this.environment()): string {
    return secretNameFor(environment, environment === 'custom' ? this.customBaseUrl() : undefined);
  }

  async apiKey(environment: EnvironmentId = this.environment()): Promise<string | undefined> {
    if (environment === 'custom' && !this.customBaseUrl()) return undefined;
    return this.keys.get(this.secretName(environment));
  }

  async hasApiKey(environment: EnvironmentId = this.environment()): Promise<boolean> {
    return (await this.apiKey(environment)) !== undefined;
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
        const url = this.customBaseUrl();
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

  /** The client of the active environment; it reads the key on every request, so a new key applies at once. */
  async client(): Promise<ShellClient> {
    const environment = this.environment();
    const baseUrl = await this.baseUrl(environment);
    const timeoutMs = readSettings().requestTimeoutMs;
    const secretName = this.secretName(environment);
    const signature = `${baseUrl}|${secretName}|${timeoutMs}`;
    if (this.cachedClient?.signature !== signature) {
      const client = await createShellClient(baseUrl, () => this.keys.get(secretName), timeoutMs);
      this.cachedClient = { signature, client };
    }
    return this.cachedClient.client;
  }

  /** A one-off client for checking a key that is not stored yet. */
  async clientForKey(environment: EnvironmentId, key: string): Promise<ShellClient> {
    const baseUrl = await this.baseUrl(environment, key);
    return createShellClient(baseUrl, async () => key, readSettings().requestTimeoutMs);
  }

  async dispose(): Promise<void> {
    await this.launcher?.stop();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
