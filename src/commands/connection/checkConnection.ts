// "Nilvera: Check Connection": the read-only calls under a cancellable progress, then the report (a
// virtual Markdown document, scheme nilvera-connection) shown as its preview, with "Copy Report" in the
// title bar of both; `nilvera.connection.reportPreview` is true while a report's preview (a webview tab
// labelled with the document's file name) is the active tab.
import * as vscode from 'vscode';
import { ConnectionCommands } from '../../constants';
import { registerCommand } from '../../shell/commandRunner';
import { UserFacingError } from '../../shell/errorMessages';
import { isDataArea } from '../../shell/dataChanges';
import { rememberListAvailability } from '../../shell/missingOperation';
import { log } from '../../shell/log';
import { prompts } from '../../shell/prompts';
import { environmentLabel, type ShellServices } from '../../shell/services';
import { readSettings } from '../../shell/settings';
import { runChecks } from './probes';
import { buildReport, summarize, type ReportSummary } from './report';
import { readListFindings, readVerdicts, type ListFinding, type RowVerdict } from './verdicts';
import { withCancellableProgress } from '../../shell/cancellableProgress';
import { showAs, VirtualDocuments } from '../virtualDocuments';

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices): void {
  const reports = new ConnectionReportProvider();
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '');
  context.subscriptions.push(
    reports.register(),
    registerCommand(ConnectionCommands.check, () => checkConnection(shell, reports, version)),
    registerCommand(ConnectionCommands.copyReport, (arg) => copyReport(reports, arg)),
  );
}

const REPORT_SCHEME = 'nilvera-connection';
const REPORT_PREVIEW_CONTEXT = 'nilvera.connection.reportPreview';
const REPORT_NAME = /\bcheck-connection-\d+\.md$/;

class ConnectionReportProvider {
  private readonly reports = new VirtualDocuments<string>(REPORT_SCHEME, (markdown) => markdown, () => '');
  private count = 0;

  register(): vscode.Disposable {
    const updateContext = () => void vscode.commands.executeCommand('setContext', REPORT_PREVIEW_CONTEXT, this.activePreview() !== undefined);
    return vscode.Disposable.from(this.reports.register(), vscode.window.tabGroups.onDidChangeTabs(updateContext), vscode.window.tabGroups.onDidChangeTabGroups(updateContext));
  }

  /** Keeps a report for this session and returns its URI (one per run, so earlier ones stay open). */
  add(markdown: string): vscode.Uri {
    return this.reports.put(`check-connection-${++this.count}.md`, markdown);
  }

  /** The report of a URI, or the latest one. */
  get(uri?: vscode.Uri): string | undefined {
    return uri ? this.reports.get(uri) : this.reports.latest();
  }

  /** The report whose Markdown preview is the active tab, if one is. */
  activePreview(): vscode.Uri | undefined {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    if (!tab || !(tab.input instanceof vscode.TabInputWebview) || !/markdown\.preview/.test(tab.input.viewType)) return undefined;
    const name = REPORT_NAME.exec(tab.label)?.[0];
    if (!name) return undefined;
    const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${name}` });
    return this.reports.get(uri) !== undefined ? uri : undefined;
  }
}

export interface CheckConnectionResult {
  uri: vscode.Uri;
  markdown: string;
  verdicts: RowVerdict[];
  lists: ListFinding[];
  summary: ReportSummary;
}

/** Opens the report rendered; the Markdown source stays one click away ("Open Source" in the preview's title bar). */
export async function showReport(uri: vscode.Uri): Promise<void> {
  // No Markdown preview (the built-in Markdown extension is disabled): the source, as Markdown.
  await vscode.commands.executeCommand('markdown.showPreview', uri).then(undefined, () => showAs(uri, 'markdown', { preview: false }));
}

function summaryText(s: ReportSummary): string {
  if (s.differs > 0) {
    return vscode.l10n.t(
      'Check Connection: {0} calls. The service differs from both sandbox profiles in {1} row(s): {2}.',
      s.calls,
      s.differs,
      s.differingRows.join(', '),
    );
  }
  return vscode.l10n.t('Check Connection: {0} calls. {1} rows as the default profile, {2} as the alternate, {3} not checked.', s.calls, s.matchDefault, s.matchAlternate, s.notChecked);
}

export async function checkConnection(shell: ShellServices, reports: ConnectionReportProvider, extensionVersion: string): Promise<CheckConnectionResult | undefined> {
  const environment = shell.environment();
  const label = environmentLabel(environment);
  const key = await shell.apiKey(environment);
  if (!key) throw new UserFacingError(vscode.l10n.t('No API key is set for the {0} environment. Run "Nilvera: Set API Key" first.', label));
  const baseUrl = await shell.baseUrl(environment);

  const run = await withCancellableProgress(vscode.l10n.t('Checking the connection to {0}', label), (signal, progress) => {
    let reported = 0;
    return runChecks(
      { baseUrl, apiKey: key, timeoutMs: readSettings().requestTimeoutMs, log: (method, path, status, ms) => log.info(`check: ${method} ${path} ${status ?? '-'} ${ms} ms`) },
      {
        signal,
        onProgress: (done, total, template) => {
          const percent = Math.round((done / total) * 100);
          progress.report({ increment: percent - reported, message: template });
          reported = percent;
        },
      },
    );
  });

  const verdicts = readVerdicts(run);
  const lists = readListFindings(run);
  const markdown = buildReport(
    { environmentLabel: label, origin: new URL(baseUrl).origin, finishedAt: new Date().toISOString(), extensionVersion, vscodeVersion: vscode.version },
    run.results,
    verdicts,
    vscode.l10n,
    lists,
  );
  // The views read it when a list answers a bare 404 (an empty list, or no such operation).
  await rememberListAvailability(shell.globalState, baseUrl, Object.fromEntries(lists.flatMap((f) => (f.availability ? [[f.operation, f.availability] as const] : []))));
  // The view that shows each list reloads; its area is the operation's ('customers.list': customers).
  for (const f of lists) {
    const area = f.operation.slice(0, -'.list'.length);
    if (isDataArea(area)) shell.dataChanged(area);
  }

  const uri = reports.add(markdown);
  await showReport(uri);

  const summary = summarize(run.results, verdicts);
  const copy = vscode.l10n.t('Copy Report');
  // Not awaited: the notification stays until the user closes it; the command is done.
  void prompts
    .message(summary.differs > 0 ? 'warning' : 'info', summaryText(summary), undefined, copy)
    .then((choice) => (choice === copy ? vscode.commands.executeCommand(ConnectionCommands.copyReport, uri) : undefined));
  return { uri, markdown, verdicts, lists, summary };
}

/** Copies a report (the given one, the active editor's or preview's, or the latest) to the clipboard as Markdown. */
export async function copyReport(reports: ConnectionReportProvider, arg: unknown): Promise<string | undefined> {
  const candidates = [arg instanceof vscode.Uri ? arg : undefined, reports.activePreview(), vscode.window.activeTextEditor?.document.uri];
  const markdown = candidates.map((uri) => uri && reports.get(uri)).find((m) => m !== undefined) ?? reports.get();
  if (!markdown) throw new UserFacingError(vscode.l10n.t('There is no Check Connection report yet. Run "Nilvera: Check Connection" first.'));
  await vscode.env.clipboard.writeText(markdown);
  void prompts.message('info', vscode.l10n.t('The Check Connection report was copied as Markdown.'));
  return markdown;
}
