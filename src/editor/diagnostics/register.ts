// The tax-number diagnostics of UBL-TR documents and CSV files, registered when the editor feature loads (when
// such a document is open, src/features/index.ts); the registry index is opened on the first scan that needs it.
import * as vscode from 'vscode';
import { DiagnosticsCommands, Settings } from '../../constants';
import { indexRoot } from '../../commands/registry/offlineRegistry';
import type { RegistryDocumentType } from '../../domain/ubl/documentTypes';
import { offlineRegistry } from '../../registry/offlineLookup';
import { registerCommand } from '../../shell/commandRunner';
import type { ShellServices } from '../../shell/services';
import { TaxNumberCodeActions } from './codeActions';
import { TaxNumberDiagnostics, type DocumentKind, type ScanTiming } from './provider';
import { DIAGNOSED_DOCUMENTS } from '../selectors';

const DEBOUNCE_MS = 200;

const SELECTOR = DIAGNOSED_DOCUMENTS;

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
  const registry = (documentType: RegistryDocumentType) => offlineRegistry(indexRoot({ extension: context }), documentType);
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
