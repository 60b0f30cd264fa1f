// API keys per environment, in VS Code's SecretStorage only. When the OS keyring is unavailable a
// key may be kept in memory for this session; it is never written to settings or files.
import * as vscode from 'vscode';
import { rememberSecret } from './redact';

const SECRET_PREFIX = 'nilvera.apiKey.';

/** SecretStorage failed (typically no OS keyring on Linux); `reason` is the platform's message. */
export class KeyringUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`The OS keyring is unavailable: ${reason}`);
    this.name = 'KeyringUnavailableError';
  }
}

export class ApiKeyStore implements vscode.Disposable {
  private readonly sessionOnly = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<string>();
  private readonly subscription: vscode.Disposable;
  /** Fires with the secret name when a key changes here or in another window. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key.startsWith(SECRET_PREFIX)) this.changed.fire(e.key);
    });
  }

  async get(name: string): Promise<string | undefined> {
    const session = this.sessionOnly.get(name);
    if (session) return session;
    let key: string | undefined;
    try {
      key = await this.secrets.get(name);
    } catch {
      // An unreadable keyring means no stored key; storing reports the cause to the user.
      key = undefined;
    }
    rememberSecret(key);
    return key || undefined;
  }

  async store(name: string, key: string): Promise<void> {
    rememberSecret(key);
    try {
      await this.secrets.store(name, key);
    } catch (error) {
      throw new KeyringUnavailableError(error instanceof Error ? error.message : String(error));
    }
    this.sessionOnly.delete(name);
    this.changed.fire(name);
  }

  /** Keeps the key in memory until the window closes (the keyring fallback the user agreed to). */
  storeForSession(name: string, key: string): void {
    rememberSecret(key);
    this.sessionOnly.set(name, key);
    this.changed.fire(name);
  }

  async delete(name: string): Promise<void> {
    this.sessionOnly.delete(name);
    try {
      await this.secrets.delete(name);
    } catch (error) {
      throw new KeyringUnavailableError(error instanceof Error ? error.message : String(error));
    }
    this.changed.fire(name);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.sessionOnly.clear();
  }
}
