// "Has the user used Nilvera in this workspace?" Until they have, the extension shows no status-bar
// item and sends no request, even when an XML file (a pom.xml, a .csproj) woke it up. Used means: a
// Nilvera command ran, a Nilvera view was shown, or an editor showed a UBL-TR invoice or a customer
// list (recognised by content). The answer is remembered per workspace (workspaceState), so a
// workspace where Nilvera was used once shows its status bar from the start next time.
import * as vscode from 'vscode';
import { setCommandObserver } from './commandRunner';

const STATE_KEY = 'nilvera.usedInWorkspace';
/** Context key, for menus and welcome content that should stay away until then. */
export const USED_CONTEXT_KEY = 'nilvera.usedInWorkspace';

export type UseReason = 'command' | 'view' | 'invoice' | 'customerList';

/** Schemes of documents a person opens (not the output channel, git's originals or settings). */
const USER_SCHEMES = new Set(['file', 'untitled', 'vscode-remote', 'vscode-vfs']);

export class WorkspaceUsage implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<UseReason>();
  /** Fires once, when the workspace turns from unused to used. */
  readonly onDidBecomeUsed = this.changed.event;
  private used: boolean;

  constructor(private readonly memento: vscode.Memento) {
    this.used = memento.get<boolean>(STATE_KEY, false);
    // An unset context key reads as false: only a used workspace needs a call at activation.
    if (this.used) void vscode.commands.executeCommand('setContext', USED_CONTEXT_KEY, true);
  }

  isUsed(): boolean {
    return this.used;
  }

  markUsed(reason: UseReason): void {
    if (this.used) return;
    this.used = true;
    void this.memento.update(STATE_KEY, true);
    void vscode.commands.executeCommand('setContext', USED_CONTEXT_KEY, true);
    this.changed.fire(reason);
  }

  /** Forgets the mark (the extension-host tests start from an unused workspace this way). */
  async forget(): Promise<void> {
    this.used = false;
    await this.memento.update(STATE_KEY, undefined);
    await vscode.commands.executeCommand('setContext', USED_CONTEXT_KEY, false);
  }

  /** Marks the workspace used when `doc`, shown in an editor, is an invoice or a customer list. */
  async noteShownDocument(doc: vscode.TextDocument): Promise<void> {
    if (this.used || !USER_SCHEMES.has(doc.uri.scheme)) return;
    // The sniffing (the editor's CSV and UBL scanners) loads with the first document shown.
    const { nilveraContentOf, SNIFF_CHARS } = await import('./nilveraContent');
    if (this.used) return;
    const kind = nilveraContentOf(doc.getText(new vscode.Range(new vscode.Position(0, 0), doc.positionAt(SNIFF_CHARS))));
    if (kind) this.markUsed(kind);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/**
 * A Nilvera command counts as the first use. Set by activate() itself, so a command that arrives
 * before the editor watchers (trackWorkspaceUse) are in place is counted too.
 */
export function markUsedOnCommands(usage: () => WorkspaceUsage): vscode.Disposable {
  setCommandObserver((id) => {
    // Test and tooling commands are not a person using Nilvera.
    if (!id.includes('.internal.')) usage().markUsed('command');
  });
  return { dispose: () => setCommandObserver(undefined) };
}

/**
 * Watches editors for the first use: those showing an invoice or a customer list, now and from now
 * on. Views report themselves (src/commands/viewCommands.ts). `usage` is asked for on the first
 * event, not here: whoever makes it is told when the workspace becomes used (ShellServices.usage).
 */
export function trackWorkspaceUse(usage: () => WorkspaceUsage): vscode.Disposable {
  const check = (editors: readonly vscode.TextEditor[]) => {
    for (const editor of editors) void usage().noteShownDocument(editor.document);
  };
  const disposables: vscode.Disposable[] = [
    vscode.window.onDidChangeVisibleTextEditors(check),
    // A pasted or typed invoice in an open editor counts once it is one.
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!usage().isUsed() && vscode.window.visibleTextEditors.some((ed) => ed.document === e.document)) void usage().noteShownDocument(e.document);
    }),
  ];
  // Editors restored at start-up, or opened before this ran.
  check(vscode.window.visibleTextEditors);
  return vscode.Disposable.from(...disposables);
}
