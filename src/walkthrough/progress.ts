// Progress of the "Get Started with Nilvera" walkthrough (contributes.walkthroughs): its steps
// complete on what really happened, not on a command having been run (which a cancelled download or
// an unopened file would also count), and VS Code is told at once (./stepsDone.ts):
//   connect: the active profile has a key (src/shell/shellState.ts);
//   customers: the Customers view showed a page (src/views/customers/customersRoot.ts);
//   checkTaxNumber: "Check a Tax Number" got its answer (src/commands/registry/lookups.ts);
//   downloadRegistry: a registry list is on disk and indexed (./registryProgress.ts, started by the
//     features that open the registry; context key nilvera.walkthrough.registryDownloaded);
//   invoice: the editor shows Nilvera diagnostics for an open file (here; nilvera.walkthrough.invoiceChecked).
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../editor/selectors';
import { useWalkthroughState, walkthroughStepDone } from './stepsDone';

export function registerWalkthroughProgress(context: vscode.ExtensionContext, globalState: vscode.Memento): void {
  useWalkthroughState(globalState);
  let checked = false;
  context.subscriptions.push(
    vscode.languages.onDidChangeDiagnostics((e) => {
      if (checked || !e.uris.some((uri) => vscode.languages.getDiagnostics(uri).some((d) => d.source === DIAGNOSTIC_SOURCE))) return;
      checked = true;
      walkthroughStepDone('invoice');
    }),
  );
}
