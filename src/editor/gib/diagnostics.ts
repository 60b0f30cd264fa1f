// GİB's verdict on every open UBL-TR document, in Problems as the user types: one diagnostic per
// finding at the element it is about, with GİB's words and the release as its source. Verdicts come
// only from the window's one GibRules (src/shell/gibRules.ts, loaded on the first UBL-TR document);
// typing is debounced, an answer for an older text is dropped, a closed document keeps nothing, and
// new rules (installed here or in another window) re-check every open UBL-TR document.
import * as vscode from 'vscode';
import { Settings } from '../../constants';
import type { GibFinding, GibSeverity } from '../../gib/engine';
import type { GibRules, GibVerdict } from '../../shell/gibRules';
import { log } from '../../shell/log';
import { findingRange, lineStarts } from './findingRange';
import { GIB_NO_RULES_CODE, gibMessage, noRulesMessage, shownFindings } from './presentation';
import { GIB_DEBOUNCE_MS } from './debounce';
import { gibDocumentRoot, GIB_SNIFF_CHARS, type GibDocumentRoot } from '../../gib/documentRoots';
import { KeyedDebounce } from '../keyedDebounce';
import { documentKind } from '../diagnostics/provider';

/** The name of the collection (apart from the tax-number diagnostics' "nilvera"). */
export const GIB_DIAGNOSTICS_NAME = 'nilvera-gib';
/** The source of the note shown while no rules are installed. */
export const GIB_RULES_SOURCE = 'GİB rules';

const SEVERITY: Record<GibSeverity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

function showSignatureFindings(): boolean {
  return vscode.workspace.getConfiguration(Settings.section).get<boolean>(Settings.gibShowSignatureFindings, false);
}

interface Shown {
  readonly diagnostic: vscode.Diagnostic;
  readonly draft: boolean;
  readonly kind: GibFinding['kind'];
  readonly message: string;
}

export class GibDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection(GIB_DIAGNOSTICS_NAME);
  private readonly pending = new KeyedDebounce();
  /** The latest request per document: an answer to any other is dropped. */
  private readonly latest = new Map<string, number>();
  /** Every finding of each document's last verdict, shown or not (the signature setting filters them). */
  private readonly published = new Map<string, { uri: vscode.Uri; all: Shown[] }>();
  private readonly disposables: vscode.Disposable[] = [];
  private requests = 0;

  constructor(
    private readonly rules: () => Promise<GibRules>,
    private readonly debounceMs = GIB_DEBOUNCE_MS,
  ) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((doc) => this.schedule(doc, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.schedule(e.document, this.debounceMs);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.forget(doc.uri)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${Settings.section}.${Settings.gibShowSignatureFindings}`)) for (const key of this.published.keys()) this.show(key);
      }),
    );
  }

  /** Checks every open document (at start-up and when the installed rules change). */
  refreshAll(): void {
    for (const doc of vscode.workspace.textDocuments) this.schedule(doc, 0);
  }

  schedule(doc: vscode.TextDocument, delayMs: number): void {
    // An XML document of a scheme we read; whether it is UBL-TR is decided by its head.
    if (documentKind(doc) !== 'invoice') return;
    this.pending.schedule(doc.uri.toString(), delayMs, () => {
      if (!doc.isClosed) void this.check(doc);
    });
  }

  /** Asks for GİB's verdict on the document's current text and publishes it unless a newer request or an edit overtook it. */
  async check(doc: vscode.TextDocument): Promise<void> {
    const key = doc.uri.toString();
    const root = gibDocumentRoot(doc.getText(new vscode.Range(new vscode.Position(0, 0), doc.positionAt(GIB_SNIFF_CHARS))));
    if (!root) {
      this.drop(key, doc.uri);
      return;
    }
    const request = ++this.requests;
    this.latest.set(key, request);
    const version = doc.version;
    const text = doc.getText();
    let verdict: GibVerdict;
    try {
      verdict = await (await this.rules()).verdict(key, text);
    } catch (e) {
      log.warn(`GİB's rules could not check ${doc.uri.fsPath || key}: ${(e as Error)?.message ?? String(e)}`);
      return;
    }
    if (this.latest.get(key) !== request || doc.isClosed || doc.version !== version || verdict.kind === 'superseded') return;
    this.published.set(key, { uri: doc.uri, all: this.diagnosticsOf(doc, text, root, verdict) });
    this.show(key);
  }

  private diagnosticsOf(doc: vscode.TextDocument, text: string, root: GibDocumentRoot, verdict: Exclude<GibVerdict, { kind: 'superseded' }>): Shown[] {
    if (verdict.kind === 'noRules') {
      // Never an error and never a request of its own: one note at the root, with the quick fixes.
      const note = new vscode.Diagnostic(new vscode.Range(doc.positionAt(root.nameStart), doc.positionAt(root.nameEnd)), noRulesMessage(vscode.l10n), vscode.DiagnosticSeverity.Information);
      note.source = GIB_RULES_SOURCE;
      note.code = GIB_NO_RULES_CODE;
      return [{ diagnostic: note, draft: false, kind: 'note', message: note.message }];
    }
    const starts = lineStarts(text);
    return verdict.validation.findings.map((f) => {
      const { start, end } = findingRange(text, starts, f.line, f.column);
      const d = new vscode.Diagnostic(new vscode.Range(doc.positionAt(start), doc.positionAt(end)), gibMessage(vscode.l10n, f), SEVERITY[f.severity]);
      d.source = f.source;
      if (f.rule) d.code = f.rule;
      return { diagnostic: d, draft: f.draft, kind: f.kind, message: f.message };
    });
  }

  private show(key: string): void {
    const published = this.published.get(key);
    if (published) this.collection.set(published.uri, shownFindings(published.all, showSignatureFindings()).map((s) => s.diagnostic));
  }

  private drop(key: string, uri: vscode.Uri): void {
    this.latest.delete(key);
    this.published.delete(key);
    this.collection.delete(uri);
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.pending.cancel(key);
    this.drop(key, uri);
  }

  dispose(): void {
    this.pending.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.collection.dispose();
  }
}
