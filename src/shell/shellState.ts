// Keeps the context keys (welcome views, menus) and the status bar in step with the active
// environment and whether it has a key. Refreshes are serialized so a burst of changes (a setting
// and a secret at once) ends in the latest state.
import * as vscode from 'vscode';
import { ContextKeys } from '../constants';
import type { EnvironmentId } from './environments';
import type { ShellServices } from './services';
import type { ShellStatusBar } from './statusBar';
import { walkthroughStepDone } from '../walkthrough/stepsDone';

export class ShellState {
  private chain: Promise<void> = Promise.resolve();
  private last: { environment: EnvironmentId; hasKey: boolean } | undefined;

  constructor(
    private readonly services: ShellServices,
    private readonly statusBar: () => ShellStatusBar,
  ) {}

  /** Re-reads the environment and its key; resolves when context keys and status bar are updated. */
  refresh(): Promise<void> {
    this.chain = this.chain.then(() => this.apply()).catch(() => undefined);
    return this.chain;
  }

  current(): { environment: EnvironmentId; hasKey: boolean } | undefined {
    return this.last;
  }

  private async apply(): Promise<void> {
    const environment = this.services.environment();
    const hasKey = await this.services.hasApiKey(environment);
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
