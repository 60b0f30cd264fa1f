// Context keys for the "Get Started with Nilvera" walkthrough (contributes.walkthroughs): two of its
// steps complete on what really happened, not on a command having been run (which a cancelled
// download or an unopened file would also count):
//   nilvera.walkthrough.registryDownloaded: a registry list is on disk and indexed (./registryProgress.ts,
//     started by the features that open the registry);
//   nilvera.walkthrough.invoiceChecked: the editor shows Nilvera diagnostics for an open file (here).
// The other steps complete on VS Code's own events (nilvera.hasApiKey, onView, onCommand).
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../editor/selectors';
import { WalkthroughContextKeys } from './contextKeys';

export function registerWalkthroughProgress(context: vscode.ExtensionContext): void {
  let checked = false;
  const hasNilveraDiagnostics = (uris: readonly vscode.Uri[]): boolean =>
    uris.some((uri) => vscode.languages.getDiagnostics(uri).some((d) => d.source === DIAGNOSTIC_SOURCE));

  context.subscriptions.push(
    vscode.languages.onDidChangeDiagnostics((e) => {
      if (checked || !hasNilveraDiagnostics(e.uris)) return;
      checked = true;
      void vscode.commands.executeCommand('setContext', WalkthroughContextKeys.invoiceChecked, true);
    }),
  );
}
