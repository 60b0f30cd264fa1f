// Read-only documents of this session under a scheme of ours (a record, a registry detail, a Check
// Connection report), kept by URI: nothing to save, no "unsaved changes" question when the tab closes.
import * as vscode from 'vscode';

export class VirtualDocuments<T> implements vscode.TextDocumentContentProvider {
  private readonly items = new Map<string, T>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(
    readonly scheme: string,
    private readonly render: (item: T) => string,
    /** What a URI of an earlier session (an item no longer kept) shows. */
    private readonly gone: () => string,
  ) {}

  /** The URI `/<name>` holding `item`; an item put again under the same name replaces the old one. */
  put(name: string, item: T): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${name}` });
    this.items.set(uri.toString(), item);
    this.changed.fire(uri);
    return uri;
  }

  get(uri: vscode.Uri): T | undefined {
    return this.items.get(uri.toString());
  }

  latest(): T | undefined {
    return [...this.items.values()].pop();
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const item = this.get(uri);
    return item === undefined ? this.gone() : this.render(item);
  }

  register(): vscode.Disposable {
    return vscode.Disposable.from(vscode.workspace.registerTextDocumentContentProvider(this.scheme, this), this.changed);
  }
}

/** Opens `uri` in an editor as `languageId` (a virtual document opens as plain text). */
export async function showAs(uri: vscode.Uri, languageId: string, options: vscode.TextDocumentShowOptions): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(uri);
  const typed = document.languageId === languageId ? document : await vscode.languages.setTextDocumentLanguage(document, languageId);
  return vscode.window.showTextDocument(typed, options);
}
