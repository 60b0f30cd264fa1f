// API keys per environment, in VS Code's SecretStorage only. When the OS keyring is unavailable a
// key may be kept in memory for this session; it is never written to settings or files. A keyring that
// refuses to be read (a locked macOS keychain, access denied, no keyring service) is not "no key": the
// key may well be stored, so reading reports it as a KeyringUnavailableError, and the shell keeps the
// commands that need a key (src/shell/services.ts keyStatus).
import * as vscode from 'vscode';
import { keyringAdvice } from './keyringHelp';
import { rememberSecret } from './redact';

const SECRET_PREFIX = 'nilvera.apiKey.';

/** SecretStorage failed (a locked or refused keychain, no OS keyring on Linux); `reason` is the platform's message. */
export class KeyringUnavailableError extends Error {
  constructor(
    readonly reason: string,
    readonly operation: 'read' | 'write' = 'write',
  ) {
    super(
      operation === 'read'
        ? `${vscode.l10n.t('The operating system keychain did not give VS Code the API key ({0}); the key may still be stored.', reason)} ${keyringAdvice()}`
        : vscode.l10n.t('The operating system keychain refused to store the API key ({0}).', reason),
    );
    this.name = 'KeyringUnavailableError';
  }
}

/** What reading a key found. */
export type KeyRead = { kind: 'found'; key: string } | { kind: 'absent' } | { kind: 'unreadable'; reason: string };

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

  /** The key, none, or why the keyring could not be read. */
  async read(name: string): Promise<KeyRead> {
    const session = this.sessionOnly.get(name);
    if (session) return { kind: 'found', key: session };
    let key: string | undefined;
    try {
      key = await this.secrets.get(name);
    } catch (error) {
      return { kind: 'unreadable', reason: error instanceof Error ? error.message : String(error) };
    }
    rememberSecret(key);
    return key ? { kind: 'found', key } : { kind: 'absent' };
  }

  /** The key, or undefined when none is stored; throws KeyringUnavailableError when the keyring refuses. */
  async get(name: string): Promise<string | undefined> {
    const read = await this.read(name);
    if (read.kind === 'unreadable') throw new KeyringUnavailableError(read.reason, 'read');
    return read.kind === 'found' ? read.key : undefined;
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
