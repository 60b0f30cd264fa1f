// "Nilvera: Check Connection": the read-only calls against the selected environment under a
// cancellable progress notification, then the report rendered (Markdown preview, its source one
// click away) and a summary notification with "Copy Report".
import * as vscode from 'vscode';
import { ConnectionCommands, TreeCommands } from '../../constants';
import { UserFacingError } from '../../shell/errorMessages';
import { rememberListAvailability, type EmptyListRead, type ListAvailability } from '../../shell/listAvailability';
import { log } from '../../shell/log';
import { prompts } from '../../shell/prompts';
import { environmentLabel, type ShellServices } from '../../shell/services';
import { readSettings } from '../../shell/settings';
import { runChecks } from './probes';
import { buildReport, summarize, type ReportSummary } from './report';
import type { ConnectionReportProvider } from './reportDocument';
import { readListFindings, readVerdicts, type ListFinding, type RowVerdict } from './verdicts';
import { withCancellableProgress } from '../../shell/cancellableProgress';

export interface CheckConnectionResult {
  uri: vscode.Uri;
  markdown: string;
  verdicts: RowVerdict[];
  lists: ListFinding[];
  summary: ReportSummary;
}

/** Opens the report rendered; the Markdown source stays one click away ("Open Source" in the preview's title bar). */
export async function showReport(uri: vscode.Uri): Promise<void> {
  try {
    await vscode.commands.executeCommand('markdown.showPreview', uri);
    return;
  } catch {
    // No Markdown preview (the built-in Markdown extension is disabled): the source, as Markdown.
  }
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(document, 'markdown');
  await vscode.window.showTextDocument(document, { preview: false });
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
  const timeoutMs = readSettings().requestTimeoutMs;

  const run = await withCancellableProgress(vscode.l10n.t('Checking the connection to {0}', label), (signal, progress) => {
    let reported = 0;
    return runChecks(
      { baseUrl, apiKey: key, timeoutMs, log: (method, path, status, ms) => log.info(`check: ${method} ${path} ${status ?? '-'} ${ms} ms`) },
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
  const found: Partial<Record<EmptyListRead, ListAvailability>> = {};
  for (const f of lists) if (f.availability) found[f.operation] = f.availability;
  await rememberListAvailability(shell.globalState, baseUrl, found);
  // The view that shows each list reloads; its area is the operation's ('customers.list': customers).
  for (const f of lists) {
    const area = f.operation.slice(0, -'.list'.length);
    void Promise.resolve(vscode.commands.executeCommand(TreeCommands.dataChanged, { area })).catch(() => undefined);
  }

  const uri = reports.add(markdown);
  await showReport(uri);

  const summary = summarize(run.results, verdicts);
  const copy = vscode.l10n.t('Copy Report');
  // Not awaited: the notification stays until the user closes it; the command is done.
  void prompts.message(summary.differs > 0 ? 'warning' : 'info', summaryText(summary), undefined, copy).then((choice) => {
    if (choice === copy) return vscode.commands.executeCommand(ConnectionCommands.copyReport, uri);
    return undefined;
  });
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
