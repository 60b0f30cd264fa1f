// One preview webview panel: its page, the checked messages from it, and the updates sent to it. An
// update waits until the page said it is ready and only the latest one is kept (a burst of edits sends
// one). The page reports each update it has shown; those reports are kept for the tests and the benchmark.
import * as vscode from 'vscode';
import { log } from '../shell/log';
import { newNonce, prepareWebview } from '../webviews/html';
import { previewPage } from './page';
import { previewLabels } from './labels';
import { checkPreviewMessage, type GibMessage, type GibRulesAction, type GibVerdictView, type PageMessage, type PanelKind, type UpdateMessage } from './protocol';

export type RenderReport = Pick<Extract<PageMessage, { type: 'rendered' }>, 'seq' | 'mode' | 'outcome'> & {
  /** From the update's arrival in the page to the rendering shown (page clock). */
  pageMs: number;
  /** When the host received the report (performance.now()). */
  at: number;
};

export type Unsent = Omit<UpdateMessage, 'type' | 'seq' | 'xml'> & { xml: string };

export class PreviewPanel implements vscode.Disposable {
  private ready = false;
  private pending: UpdateMessage | undefined;
  /** The latest update's sequence number (0 before the first). */
  latestSeq = 0;
  private lastXml: string | undefined;
  /** The latest update whole (text included), sent again when the page reloads. */
  private latest: UpdateMessage | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  readonly renders: RenderReport[] = [];
  /** When the first update was handed to show() (host clock): before the page is ready, it waits. */
  firstShownAt: number | undefined;
  /** What the page said it can do, once ready. */
  capabilities: { xslt: boolean; engine: string } | undefined;
  /**
   * The studio's user turned the design's scripts on in this panel (off again after a window reload).
   * Always false in the document preview, whose designs come with other companies' invoices.
   */
  scriptsAllowed = false;
  /** GİB's verdict last sent (document preview only), sent again when the page reloads. */
  gib: GibMessage | undefined;
  /** Each verdict state sent and when (host clock), for the tests: the document shows before its verdict. */
  readonly gibSent: Array<{ state: GibVerdictView['state']; at: number }> = [];
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly kind: PanelKind,
    extensionUri: vscode.Uri,
    private readonly handlers: { upload?(): void; pickInvoice?(): void; scriptsChanged?(): void; gibReveal?(verdict: number, index: number): void; gibRules?(action: GibRulesAction): void } = {},
  ) {
    const scriptUri = prepareWebview(panel, extensionUri, 'preview').toString();
    const { cspSource } = panel.webview;
    const nonces = { pageNonce: newNonce(), designNonce: newNonce() };
    panel.webview.html = previewPage({ kind, title: panel.title, language: vscode.env.language, cspSource, scriptUri, ...nonces });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Runs `update` once edits pause for `ms`: each call restarts the wait, an update shown or a close cancels it. */
  debounce(update: () => void, ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(update, ms);
  }

  /** Sends the document and design to show; the document's text only when it changed. */
  show(update: Unsent): void {
    clearTimeout(this.timer);
    this.latestSeq += 1;
    this.firstShownAt ??= performance.now();
    this.latest = { type: 'update', ...update, seq: this.latestSeq };
    this.pending = this.latest;
    this.flush();
  }

  /** Sends GİB's verdict on the document shown (apart from the update: it comes when the worker answers). */
  showGib(verdict: GibVerdictView): void {
    this.gib = { type: 'gib', verdict };
    this.gibSent.push({ state: verdict.state, at: performance.now() });
    if (this.gibSent.length > 50) this.gibSent.splice(0, this.gibSent.length - 50);
    if (this.ready) void this.panel.webview.postMessage(this.gib);
  }

  private flush(): void {
    if (!this.ready || !this.pending) return;
    const message = { ...this.pending };
    this.pending = undefined;
    if (message.xml === this.lastXml) delete message.xml;
    else this.lastXml = message.xml;
    void this.panel.webview.postMessage(message);
  }

  /** Checks and handles a message from the page (the test seam posts as the page through it too). */
  receive(raw: unknown): void {
    const checked = checkPreviewMessage(raw);
    if (!checked.ok) {
      log.warn(`Preview (${this.kind}): dropped a page message: ${checked.reason}.`);
      return;
    }
    const message = checked.message;
    switch (message.type) {
      case 'ready':
        this.capabilities = { xslt: message.xslt, engine: message.engine };
        // A page that (re)loads has nothing: the next update carries the document's text again.
        this.lastXml = undefined;
        void this.panel.webview.postMessage({ type: 'init', panel: this.kind, labels: previewLabels(), locale: vscode.env.language });
        this.ready = true;
        if (!message.xslt) log.info(`Preview: the webview (${message.engine}) has no XSLTProcessor; designs cannot be rendered.`);
        if (!this.pending && this.latest) this.pending = { ...this.latest, seq: ++this.latestSeq };
        this.flush();
        if (this.gib) void this.panel.webview.postMessage(this.gib);
        return;
      case 'rendered':
        this.renders.push({ seq: message.seq, mode: message.mode, outcome: message.outcome, pageMs: message.ms, at: performance.now() });
        if (this.renders.length > 200) this.renders.splice(0, this.renders.length - 200);
        return;
      case 'mode':
        // The page keeps the mode the user chose in its own state.
        return;
      case 'upload':
      case 'pickInvoice':
        this.handlers[message.type]?.();
        return;
      case 'scripts':
        if (this.kind !== 'studio') {
          log.warn(`Preview (${this.kind}): dropped a request to run a design's scripts; only the template studio runs them.`);
          return;
        }
        this.scriptsAllowed = message.allow;
        log.info(`Template studio: the design's scripts turned ${message.allow ? 'on' : 'off'} for this panel.`);
        this.handlers.scriptsChanged?.();
        return;
      case 'gibReveal':
      case 'gibRules':
        if (!this.handlers.gibReveal || !this.handlers.gibRules) {
          log.warn(`Preview (${this.kind}): dropped a ${message.type} message; only the document preview shows GİB's verdict.`);
          return;
        }
        if (message.type === 'gibReveal') this.handlers.gibReveal(message.verdict, message.index);
        else this.handlers.gibRules(message.action);
        return;
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.disposables.length === 0) return;
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.disposed.fire();
    this.disposed.dispose();
  }
}
