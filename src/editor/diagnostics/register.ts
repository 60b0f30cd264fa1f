// The tax-number diagnostics of UBL-TR documents and CSV files, registered when the editor feature loads (when
// such a document is open, src/features/index.ts); the registry index is opened on the first scan that needs it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DiagnosticsCommands, Settings } from '../../constants';
import type { RegistryDocumentType } from '../../domain/ubl/documentTypes';
import { offlineRegistry, registryIndexRoot } from '../../registry/offlineLookup';
import { registerCommand } from '../../shell/commandRunner';
import { UserFacingError } from '../../shell/errorMessages';
import { TaxNumberCodeActions } from './codeActions';
import { TaxNumberDiagnostics, type DocumentKind, type ScanTiming } from './provider';
import { DIAGNOSED_DOCUMENTS } from '../selectors';
import type { GibDiagnosticsTestState } from '../gib/register';

const DEBOUNCE_MS = 200;

function enabled(kind: DocumentKind): boolean {
  const config = vscode.workspace.getConfiguration(Settings.section);
  return config.get<boolean>(kind === 'invoice' ? Settings.editorInvoiceDiagnostics : Settings.editorCsvDiagnostics, true);
}

/** What the test hook returns: where the offline index lives and the last scans' durations; GİB's findings' state. */
export interface DiagnosticsTestState {
  indexRoot: string;
  timings: ScanTiming[];
  gib: GibDiagnosticsTestState;
}

/**
 * Reopens a document in `encoding` (a VS Code encoding id such as 'windows1254') through
 * openTextDocument's `encoding` option (VS Code 1.100 and later); VS Code reloads an open document in
 * place, and refuses while it has unsaved changes. Where the option has no effect, VS Code's own
 * "Reopen with Encoding" picker is opened instead.
 */
async function reopenWithEncoding(uri: vscode.Uri, encoding: string): Promise<vscode.TextDocument> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open?.isDirty) throw new UserFacingError(vscode.l10n.t('{0} has unsaved changes: save or revert them, then reopen it with another encoding.', path.basename(uri.fsPath)));
  const doc = await vscode.workspace.openTextDocument(uri, { encoding });
  await vscode.window.showTextDocument(doc, { preview: false });
  if (doc.encoding !== encoding) await vscode.commands.executeCommand('workbench.action.editor.changeEncoding');
  return doc;
}

export function registerInvoiceDiagnostics(context: vscode.ExtensionContext, gibTestState: () => GibDiagnosticsTestState): void {
  const indexRoot = registryIndexRoot(context.globalStorageUri.fsPath);
  const registry = (documentType: RegistryDocumentType) => offlineRegistry(indexRoot, documentType);
  const diagnostics = new TaxNumberDiagnostics({ registry, enabled, debounceMs: DEBOUNCE_MS });
  context.subscriptions.push(
    diagnostics,
    vscode.languages.registerCodeActionsProvider(DIAGNOSED_DOCUMENTS, new TaxNumberCodeActions(registry), TaxNumberCodeActions.metadata),
    // Tests and the benchmark read these through a command (their bundles do not share this module).
    registerCommand(DiagnosticsCommands.testHook, (): DiagnosticsTestState => ({ indexRoot, timings: [...diagnostics.timings], gib: gibTestState() })),
    // The quick fix passes both; anything else (another extension's call) is not a reopen.
    registerCommand(DiagnosticsCommands.reopenWithEncoding, (uri, encoding) => (uri instanceof vscode.Uri && typeof encoding === 'string' && encoding ? reopenWithEncoding(uri, encoding) : undefined)),
  );
  // Documents open before activation (restored editors) are scanned once activate() has returned.
  setTimeout(() => diagnostics.refreshAll(), 0);
}
