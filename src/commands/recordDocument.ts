// Read-only record details (a customer, a certificate, the company) as virtual JSON documents
// (scheme nilvera-record), as the registry detail does: nothing to save, no "unsaved changes"
// question when the tab closes. The records of this session are kept by URI.
import * as vscode from 'vscode';

export const RECORD_SCHEME = 'nilvera-record';

class RecordDocuments implements vscode.TextDocumentContentProvider {
  private readonly records = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** The URI of a record's document; a record shown again under the same name replaces the old text. */
  put(name: string, record: unknown): vscode.Uri {
    // One path segment: a name with slashes (a company title) must not become folders.
    const uri = vscode.Uri.from({ scheme: RECORD_SCHEME, path: `/${name.replace(/[\\/]/g, '-')}.json` });
    this.records.set(uri.toString(), JSON.stringify(record, null, 2) + '\n');
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.records.get(uri.toString()) ?? vscode.l10n.t('This record is no longer available. Open it again from its view.');
  }
}

const documents = new RecordDocuments();

/** Registers the provider (once, from the views' registration). */
export function registerRecordDocuments(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(RECORD_SCHEME, documents);
}

/** Opens a record read-only in a preview tab named `name`. */
export async function showRecord(record: unknown, name: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(documents.put(name, record));
  const json = document.languageId === 'json' ? document : await vscode.languages.setTextDocumentLanguage(document, 'json');
  return vscode.window.showTextDocument(json, { preview: true });
}
