// Keeps the context keys (welcome views, menus) and the status bar in step with the active
// environment and whether it has a key. Refreshes are serialized so a burst of changes (a setting
// and a secret at once) ends in the latest state.
import * as vscode from 'vscode';
import { ContextKeys } from '../constants';
import { KeyringUnavailableError } from './apiKeyStore';
import type { EnvironmentId } from './environments';
import { openKeyringHelp } from './keyringHelp';
import { log } from './log';
import { prompts } from './prompts';
import type { ShellServices } from './services';
import { ShellStatusBar } from './statusBar';
import { walkthroughStepDone } from '../walkthrough/stepsDone';

export class ShellState implements vscode.Disposable {
  private chain: Promise<void> = Promise.resolve();
  /** The keyring answers already shown in this window: each is told once, not on every refresh. */
  private readonly toldUnreadable = new Set<string>();
  private last: { environment: EnvironmentId; hasKey: boolean } | undefined;
  private bar: ShellStatusBar | undefined;

  constructor(private readonly services: ShellServices) {}

  /** The status bar entries, made on first use. */
  statusBar(): ShellStatusBar {
    return (this.bar ??= new ShellStatusBar(this.services));
  }

  dispose(): void {
    this.bar?.dispose();
  }

  /** Re-reads the environment and its key; resolves when context keys and status bar are updated. */
  refresh(): Promise<void> {
    this.chain = this.chain.then(() => this.apply()).catch(() => undefined);
    return this.chain;
  }

  current(): { environment: EnvironmentId; hasKey: boolean } | undefined {
    return this.last;
  }

  private warnUnreadable(reason: string): void {
    if (this.toldUnreadable.has(reason)) return;
    this.toldUnreadable.add(reason);
    const error = new KeyringUnavailableError(reason, 'read');
    log.warn(`SecretStorage could not be read: ${reason}`);
    const tryAgain = vscode.l10n.t('Try Again');
    const help = vscode.l10n.t('Open Keyring Help');
    void prompts.message('warning', error.message, undefined, tryAgain, help).then(async (choice) => {
      if (choice === help) await openKeyringHelp();
      if (choice === tryAgain) {
        this.toldUnreadable.delete(reason);
        await this.refresh();
      }
    });
  }

  private async apply(): Promise<void> {
    const environment = this.services.environment();
    const status = await this.services.keyStatus(environment);
    // A keyring that refused to be read keeps the commands: the key may be there (apiKeyStore.ts).
    const hasKey = status.kind !== 'absent';
    if (status.kind === 'unreadable') this.warnUnreadable(status.reason);
    await vscode.commands.executeCommand('setContext', ContextKeys.environment, environment);
    await vscode.commands.executeCommand('setContext', ContextKeys.hasApiKey, hasKey);
    if (hasKey) walkthroughStepDone('connect');
    // Until Nilvera is used in this workspace: no status-bar item, and so no credits request.
    if (this.services.usage.isUsed()) await this.statusBar().update(environment, hasKey);
    else this.statusBar().hide();
    // Published last: whoever sees it can rely on context keys and status bar being updated.
    this.last = { environment, hasKey };
  }
}
