// The Check Connection report as a read-only virtual Markdown document (scheme nilvera-connection),
// with "Copy Report" in its title bar.
import * as vscode from 'vscode';

export const REPORT_SCHEME = 'nilvera-connection';

export class ConnectionReportProvider implements vscode.TextDocumentContentProvider {
  private readonly reports = new Map<string, string>();
  private count = 0;

  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this);
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
}
