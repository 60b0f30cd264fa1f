// The one entry extension.ts calls for the tax-number diagnostics of invoices and CSV files.
// Registers the providers only; nothing is scanned or opened until a matching document is.
import * as vscode from 'vscode';
import { DiagnosticsCommands, Settings } from '../../constants';
import { indexRoot } from '../../commands/registry/offlineRegistry';
import { offlineRegistry } from '../../registry/offlineLookup';
import { registerCommand } from '../../shell/commandRunner';
import type { ShellServices } from '../../shell/services';
import { TaxNumberCodeActions } from './codeActions';
import { TaxNumberDiagnostics, type DocumentKind, type ScanTiming } from './provider';

const DEBOUNCE_MS = 200;

const SELECTOR: vscode.DocumentSelector = [
  { language: 'xml' },
  { pattern: '**/*.xml' },
  { language: 'csv' },
  { pattern: '**/*.{csv,tsv}' },
];

function enabled(kind: DocumentKind): boolean {
  const config = vscode.workspace.getConfiguration(Settings.section);
  return config.get<boolean>(kind === 'invoice' ? Settings.editorInvoiceDiagnostics : Settings.editorCsvDiagnostics, true);
}

/** What the test hook returns: where the offline index lives and the last scans' durations. */
export interface DiagnosticsTestState {
  indexRoot: string;
  timings: ScanTiming[];
}

export function registerInvoiceDiagnostics(context: vscode.ExtensionContext, _shell: ShellServices): void {
  const registry = () => offlineRegistry(indexRoot({ extension: context }));
  const diagnostics = new TaxNumberDiagnostics({ registry, enabled, debounceMs: DEBOUNCE_MS });
  context.subscriptions.push(
    diagnostics,
    vscode.languages.registerCodeActionsProvider(SELECTOR, new TaxNumberCodeActions(registry), TaxNumberCodeActions.metadata),
    // Tests and the benchmark read these through a command (their bundles do not share this module).
    registerCommand(DiagnosticsCommands.testHook, (): DiagnosticsTestState => ({ indexRoot: indexRoot({ extension: context }), timings: [...diagnostics.timings] })),
  );
  // Documents open before activation (restored editors) are scanned once activate() has returned.
  setTimeout(() => diagnostics.refreshAll(), 0);
}
