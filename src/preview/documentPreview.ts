// "Preview Document": one panel beside the editor that follows it, as the Markdown preview does. It shows
// the UBL-TR document of the active editor (the last one, while another kind of file is active) through
// its embedded design, or as the structured view, and updates as the document is edited (debounced).
// After a window reload the panel comes back showing the same document (restore()).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PreviewViewTypes } from '../constants';
import { log } from '../shell/log';
import type { GibRules } from '../shell/gibRules';
import { isUblDocument } from './contextKey';
import { PreviewGibVerdict, revealElement } from './gibVerdict';
import { readDocument, type ReadOptions } from './model/readDocument';
import { PreviewPanel } from './previewPanel';
import type { DesignSource, RestoreState, ViewMode } from './protocol';

/** Quiet time after the last edit before the preview is brought up to date. */
export const DOCUMENT_DEBOUNCE_MS = 250;
/** Lines sent to the page (the totals checks cover them all): a 20 MB invoice has some 55,000. */
export const LINES_SENT = 1000;

export function documentLabel(uri: vscode.Uri): string {
  return uri.scheme === 'untitled' ? uri.path : path.basename(uri.fsPath || uri.path);
}

/** The document at a URI kept in a page's state, or undefined when it cannot be opened (gone, not text). */
export async function openDocument(uri: string): Promise<vscode.TextDocument | undefined> {
  try {
    return await vscode.workspace.openTextDocument(vscode.Uri.parse(uri, true));
  } catch {
    return undefined;
  }
}

export class DocumentPreview implements vscode.Disposable {
  /** The open preview, if any (the test seam reads it). */
  panel: PreviewPanel | undefined;
  private document: vscode.TextDocument | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly gib: PreviewGibVerdict;
  /** A verdict on the document shown is on its way (the test seam reads it). */
  get gibPending(): boolean {
    return this.gib.pending;
  }

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly registry: ReadOptions['registry'],
    gibRules: () => Promise<GibRules>,
  ) {
    this.gib = new PreviewGibVerdict(gibRules, (verdict) => this.panel?.showGib(verdict), () => this.checkGib());
    this.disposables.push(
      this.gib,
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (this.panel && editor && editor.document !== this.document && isUblDocument(editor.document)) this.follow(editor.document);
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document !== this.document || e.contentChanges.length === 0) return;
        this.panel?.debounce(() => this.refresh(), DOCUMENT_DEBOUNCE_MS);
      }),
    );
  }

  /** Opens (or reveals) the preview for `doc`, beside the editor. */
  open(doc: vscode.TextDocument): void {
    if (!this.panel) this.adopt(vscode.window.createWebviewPanel(PreviewViewTypes.document, vscode.l10n.t('Preview {0}', documentLabel(doc.uri)), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableFindWidget: true }));
    else this.panel.panel.reveal(undefined, true);
    this.follow(doc);
  }

  /**
   * Takes over a panel VS Code brought back after a window reload and shows the document it showed
   * (`state`: checked by the caller). A document that is gone, or no longer a UBL-TR document, closes
   * the panel; so does a second panel (there is one preview).
   */
  async restore(webviewPanel: vscode.WebviewPanel, state: Extract<RestoreState, { panel: 'document' }> | undefined): Promise<void> {
    const doc = state && (await openDocument(state.document));
    if (!doc || !isUblDocument(doc) || this.panel) {
      log.info(`Preview: a restored panel was closed (${!state ? 'it kept no document' : !doc ? `${state.document} cannot be opened` : this.panel ? 'a preview is open already' : `${state.document} is not a UBL-TR document`}).`);
      webviewPanel.dispose();
      return;
    }
    this.adopt(webviewPanel);
    this.follow(doc);
  }

  private adopt(webviewPanel: vscode.WebviewPanel): void {
    const panel = new PreviewPanel(webviewPanel, 'document', this.extensionUri, {
      gibReveal: (verdict, index) => void this.revealFinding(verdict, index),
      gibRules: (action) => PreviewGibVerdict.runAction(action),
    });
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
      this.document = undefined;
      this.gib.reset();
    });
    this.panel = panel;
  }

  private follow(doc: vscode.TextDocument): void {
    this.document = doc;
    if (this.panel) this.panel.panel.title = vscode.l10n.t('Preview {0}', documentLabel(doc.uri));
    this.refresh();
  }

  /** Reads the document's current text and sends it to the page. */
  refresh(): void {
    const doc = this.document;
    if (!this.panel || !doc) return;
    const text = doc.getText();
    const { result, design } = readDocument(text, { registry: this.registry, maxLines: LINES_SENT, l10n: vscode.l10n });
    const source: DesignSource = { origin: 'embedded', ...(design ?? { problem: 'none' }) };
    const mode: ViewMode = source.text !== undefined ? 'design' : 'structured';
    // The text goes to the page only when it can render it through a design (it can be 20 MB).
    const renderable = source.text !== undefined && this.panel.capabilities?.xslt !== false;
    this.panel.show({ source: documentLabel(doc.uri), result, xml: renderable ? text : '', design: source, mode, scripts: false, restore: { panel: 'document', document: doc.uri.toString() } });
    // After the update is on its way: the verdict never holds up the document's first paint.
    void this.gib.check(doc.uri, text);
  }

  /** Asks for GİB's verdict again on the document shown (rules installed, the setting changed). */
  private checkGib(): void {
    if (this.panel && this.document) void this.gib.check(this.document.uri, this.document.getText());
  }

  /** The page asked to go to a finding it was sent: found by the host in its own list, or nothing is done. */
  private async revealFinding(verdict: number, index: number): Promise<void> {
    const doc = this.document;
    const position = doc && this.gib.positionOf(verdict, index);
    if (!doc || !position) {
      log.warn(`Preview: dropped a request to reveal finding ${index} of verdict ${verdict}, which is not shown.`);
      return;
    }
    await revealElement(doc, position, this.panel?.panel.viewColumn);
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
