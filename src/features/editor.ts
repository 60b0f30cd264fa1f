// The editor feature (loaded on first use, ./index.ts): tax-number hovers, the diagnostics of invoices and
// customer lists with their quick fixes, GİB's findings on UBL-TR documents (../editor/gib/). It loads
// on the first hover or when a document of ../editor/selectors.ts is open.
import type * as vscode from 'vscode';
import type { ShellServices } from '../shell/services';
import type { FeatureParts } from '../shell/featureParts';
import { trackRegistryDownloads } from '../walkthrough/registryProgress';
import { registerInvoiceDiagnostics } from '../editor/diagnostics/register';
import { registerGibDiagnostics } from '../editor/gib/register';
import { createTaxNumberHoverProvider } from '../editor/hover/register';

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices): FeatureParts {
  registerInvoiceDiagnostics(context, registerGibDiagnostics(context));
  trackRegistryDownloads(context);
  return { hover: createTaxNumberHoverProvider(context, shell) };
}
