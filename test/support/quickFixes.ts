import * as vscode from 'vscode';
import { waitFor } from './waitFor';

/**
 * The quick fixes at `range` once their titles satisfy `check`. The provider is given the diagnostics
 * of VS Code's window, which has a new one a moment after this extension host does (the suites
 * wait on the host's): asked at once, it can still be given the previous ones.
 */
export function quickFixesWhere(uri: vscode.Uri, range: vscode.Range, what: string, check: (titles: string[]) => boolean): Promise<vscode.CodeAction[]> {
  return waitFor(async () => {
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range, vscode.CodeActionKind.QuickFix.value);
    return check(actions.map((a) => a.title)) && actions;
  }, what);
}
