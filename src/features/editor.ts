// The editor feature (loaded on first use, src/features/index.ts): tax-number hovers, the diagnostics of
// invoices and customer lists with their quick fixes. activate() registers the hover shell and loads
// this feature when a hover is asked for or a document of ../editor/selectors.ts is open.
import type * as vscode from 'vscode';
import type { ShellServices } from '../shell/services';
import { trackRegistryDownloads } from '../walkthrough/registryProgress';
import { registerInvoiceDiagnostics } from '../editor/diagnostics/register';
import { createTaxNumberHoverProvider } from '../editor/hover/register';

let hovers: vscode.HoverProvider | undefined;

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices): void {
  hovers = createTaxNumberHoverProvider(context, shell);
  context.subscriptions.push({ dispose: () => (hovers = undefined) });
  registerInvoiceDiagnostics(context, shell);
  trackRegistryDownloads(context);
}

/** The hover shell's second half. */
export function provideHover(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): vscode.ProviderResult<vscode.Hover> {
  return hovers?.provideHover(document, position, token);
}
