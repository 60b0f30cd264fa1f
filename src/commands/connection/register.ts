// The connection feature (loaded on first use, src/features/index.ts): "Nilvera: Check Connection", "Copy
// Report" and the report document.
import type * as vscode from 'vscode';
import { ConnectionCommands } from '../../constants';
import { registerCommand } from '../../shell/commandRunner';
import type { ShellServices } from '../../shell/services';
import { checkConnection, copyReport } from './checkConnection';
import { ConnectionReportProvider } from './reportDocument';

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices): void {
  const reports = new ConnectionReportProvider();
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '');
  context.subscriptions.push(
    reports.register(),
    registerCommand(ConnectionCommands.check, () => checkConnection(shell, reports, version)),
    registerCommand(ConnectionCommands.copyReport, (arg) => copyReport(reports, arg)),
  );
}
