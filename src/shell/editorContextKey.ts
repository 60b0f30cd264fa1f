// A context key that says something of the active editor (for menus' when-clauses), published when
// its value changes. An unset key reads as false: nothing is published until it first holds.
import * as vscode from 'vscode';

export function registerEditorContextKey(key: string, holds: (editor: vscode.TextEditor | undefined) => boolean, options: { onSelection?: boolean } = {}): vscode.Disposable {
  let last = false;
  const publish = (editor: vscode.TextEditor | undefined) => {
    const value = holds(editor);
    if (value === last) return;
    last = value;
    void vscode.commands.executeCommand('setContext', key, value);
  };
  // No editor yet (a window starting up): the key stays unset, which reads as false.
  if (vscode.window.activeTextEditor) publish(vscode.window.activeTextEditor);
  const events = [vscode.window.onDidChangeActiveTextEditor(publish)];
  if (options.onSelection) events.push(vscode.window.onDidChangeTextEditorSelection((e) => publish(e.textEditor)));
  return vscode.Disposable.from(...events);
}
