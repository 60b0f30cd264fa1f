import * as vscode from 'vscode';
import { Commands } from './constants';

// activate() only wires things up: no network and no secret reads here.
export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(Commands.sandboxStart, () => {
      void vscode.window.showInformationMessage(vscode.l10n.t('The sandbox environment arrives with the extension shell.'));
    }),
  );
}

export function deactivate(): void {
  // Nothing to release yet: subscriptions are disposed by VS Code.
}
