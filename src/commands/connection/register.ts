// Registers "Nilvera: Check Connection", "Copy Report" and the report document. Called once from
// activate(); nothing here touches the network.
import type * as vscode from 'vscode';
import { ConnectionCommands } from '../../constants';
import { registerCommand } from '../../shell/commandRunner';
import type { ShellServices } from '../../shell/services';
import { ConnectionReportProvider } from './reportDocument';

export function registerConnectionCommands(context: vscode.ExtensionContext, shell: ShellServices): vscode.Disposable[] {
  const reports = new ConnectionReportProvider();
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '');
  return [
    reports.register(),
    registerCommand(ConnectionCommands.check, async () => (await import('./checkConnection')).checkConnection(shell, reports, version)),
    registerCommand(ConnectionCommands.copyReport, async (arg) => (await import('./checkConnection')).copyReport(reports, arg)),
  ];
}
