// The Check Connection report as a read-only virtual Markdown document (scheme nilvera-connection),
// shown rendered in VS Code's Markdown preview. "Copy Report" sits in the title bar of the document
// and of its preview: `nilvera.connection.reportPreview` is true while a report's preview is the
// active tab (a preview is a webview tab labelled with the document's file name).
import * as vscode from 'vscode';

export const REPORT_SCHEME = 'nilvera-connection';
export const REPORT_PREVIEW_CONTEXT = 'nilvera.connection.reportPreview';
const REPORT_NAME = /\bcheck-connection-\d+\.md$/;

export class ConnectionReportProvider implements vscode.TextDocumentContentProvider {
  private readonly reports = new Map<string, string>();
  private count = 0;

  register(): vscode.Disposable {
    const updateContext = () => void vscode.commands.executeCommand('setContext', REPORT_PREVIEW_CONTEXT, this.activePreview() !== undefined);
    return vscode.Disposable.from(
      vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this),
      vscode.window.tabGroups.onDidChangeTabs(updateContext),
      vscode.window.tabGroups.onDidChangeTabGroups(updateContext),
    );
  }

  /** Keeps a report for this session and returns its URI (one per run, so earlier ones stay open). */
  add(markdown: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/check-connection-${++this.count}.md` });
    this.reports.set(uri.toString(), markdown);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.reports.get(uri.toString()) ?? '';
  }

  /** The report of a URI, or the latest one. */
  get(uri?: vscode.Uri): string | undefined {
    if (uri) return this.reports.get(uri.toString());
    return [...this.reports.values()].pop();
  }

  /** The report whose Markdown preview is the active tab, if one is. */
  activePreview(): vscode.Uri | undefined {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    if (!tab || !(tab.input instanceof vscode.TabInputWebview) || !/markdown\.preview/.test(tab.input.viewType)) return undefined;
    const name = REPORT_NAME.exec(tab.label)?.[0];
    if (!name) return undefined;
    const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${name}` });
    return this.reports.has(uri.toString()) ? uri : undefined;
  }
}
