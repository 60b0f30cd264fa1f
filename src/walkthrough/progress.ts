// Context keys for the "Get Started with Nilvera" walkthrough (contributes.walkthroughs): two of its
// steps complete on what really happened, not on a command having been run (which a cancelled
// download or an unopened file would also count):
//   nilvera.walkthrough.registryDownloaded: a registry list is on disk and indexed;
//   nilvera.walkthrough.invoiceChecked: the editor shows Nilvera diagnostics for an open file.
// The other steps complete on VS Code's own events (nilvera.hasApiKey, onView, onCommand).
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../editor/diagnostics/provider';
import { offlineRegistry, registryIndexRoot } from '../registry/offlineLookup';
import { GLOBAL_USER_TYPES } from '../api/types';

export const WalkthroughContextKeys = {
  registryDownloaded: 'nilvera.walkthrough.registryDownloaded',
  invoiceChecked: 'nilvera.walkthrough.invoiceChecked',
} as const;

function setContext(key: string, value: boolean): void {
  void vscode.commands.executeCommand('setContext', key, value);
}

export function registerWalkthroughProgress(context: vscode.ExtensionContext): void {
  const root = registryIndexRoot(context.globalStorageUri.fsPath);
  const registries = GLOBAL_USER_TYPES.map((userType) => offlineRegistry(root, userType));
  let downloaded = false;
  const updateDownloaded = (): void => {
    if (downloaded) return;
    downloaded = registries.some((r) => r.hasIndex());
    if (downloaded) setContext(WalkthroughContextKeys.registryDownloaded, true);
  };

  let checked = false;
  const hasNilveraDiagnostics = (uris: readonly vscode.Uri[]): boolean =>
    uris.some((uri) => vscode.languages.getDiagnostics(uri).some((d) => d.source === DIAGNOSTIC_SOURCE));

  context.subscriptions.push(
    // Fired after every download (invalidateOfflineRegistries), and when hovers or diagnostics first
    // open a list downloaded in an earlier session. No disk reads of its own at activation: VS Code
    // remembers a step once it was completed.
    ...registries.map((r) => r.onDidChange(updateDownloaded)),
    vscode.languages.onDidChangeDiagnostics((e) => {
      if (checked || !hasNilveraDiagnostics(e.uris)) return;
      checked = true;
      setContext(WalkthroughContextKeys.invoiceChecked, true);
    }),
  );
}
