// A context key that says something of the active editor (for menus' when-clauses), published when
// its value changes. An unset key reads as false: nothing is published until it first holds.
import * as vscode from 'vscode';

export function registerEditorContextKey(key: string, holds: (editor: vscode.TextEditor | undefined) => boolean, options: { onSelection?: boolean } = {}): vscode.Disposable {
  return new EditorContextKey(key, holds, options.onSelection ?? false);
}

// The listeners' bodies are methods, compiled when an editor first changes, not while activate() runs.
class EditorContextKey implements vscode.Disposable {
  private last = false;
  private readonly events: vscode.Disposable[];

  constructor(
    private readonly key: string,
    private readonly holds: (editor: vscode.TextEditor | undefined) => boolean,
    onSelection: boolean,
  ) {
    // No editor yet (a window starting up): the key stays unset, which reads as false.
    if (vscode.window.activeTextEditor) this.publish(vscode.window.activeTextEditor);
    this.events = [vscode.window.onDidChangeActiveTextEditor(this.publish, this)];
    if (onSelection) this.events.push(vscode.window.onDidChangeTextEditorSelection(this.selectionChanged, this));
  }

  private publish(editor: vscode.TextEditor | undefined): void {
    const value = this.holds(editor);
    if (value === this.last) return;
    this.last = value;
    void vscode.commands.executeCommand('setContext', this.key, value);
  }

  private selectionChanged(e: vscode.TextEditorSelectionChangeEvent): void {
    this.publish(e.textEditor);
  }

  dispose(): void {
    for (const e of this.events) e.dispose();
  }
}
