// GİB's verdict in the document preview's structured view: asked of the window's one GibRules
// (src/shell/gibRules.ts, loaded on first use, so the preview shows before the worker starts) after
// each update, and sent to the page on its own. The page gets the findings to list; where each one is
// stays here, and a click comes back as the verdict's id and the finding's index only: the host
// reveals its own document at its own position, never a line or URI the page names.
import * as vscode from 'vscode';
import { GibCommands, Settings } from '../constants';
import type { GibFinding } from '../gib/engine';
import type { GibRules, GibVerdict } from '../shell/gibRules';
import { log } from '../shell/log';
import type { GibFindingView, GibRulesAction, GibVerdictView } from './protocol';

/** Findings listed at most (each is a button; a broken 20 MB invoice can have thousands). */
export const GIB_FINDINGS_SHOWN = 200;

const showSignatureFindings = () => vscode.workspace.getConfiguration(Settings.section).get<boolean>(Settings.gibShowSignatureFindings, false) === true;

/** "GİB rules 20260312: 2 errors, 1 warning", "GİB XSD: no errors". */
export function verdictSummary(source: string, errors: number, warnings: number): string {
  const parts = [
    errors === 1 ? vscode.l10n.t('1 error') : errors > 1 ? vscode.l10n.t('{0} errors', errors) : '',
    warnings === 1 ? vscode.l10n.t('1 warning') : warnings > 1 ? vscode.l10n.t('{0} warnings', warnings) : '',
  ].filter(Boolean);
  return `${source}: ${parts.length ? parts.join(', ') : vscode.l10n.t('no errors')}`;
}

/** An XSD finding names its element only in libxml2's message: "Element '{ns}Name': …". */
function whereOf(f: GibFinding): string {
  if (f.elementPath) return f.elementPath;
  return /^Element '(?:\{[^}]*\})?([^']+)'/.exec(f.message)?.[1] ?? '';
}

/** The view of a checked document and where each listed finding is (1-based, as the engine says). */
export function checkedView(verdict: Extract<GibVerdict, { kind: 'checked' }>, id: number, withDrafts: boolean): { view: GibVerdictView; positions: Array<{ line: number; column: number }> } {
  const { documentType, findings } = verdict.validation;
  if (!documentType && findings.length === 0) return { view: { state: 'none' }, positions: [] };
  const listed = findings.filter((f) => withDrafts || !f.draft);
  // A receipt (CreditNote) is checked against the XSD only; a package without Schematron too.
  const source = documentType === 'CreditNote' || !verdict.release ? 'GİB XSD' : `GİB rules ${verdict.release}`;
  const errors = listed.filter((f) => f.severity === 'error').length;
  const shown = listed.slice(0, GIB_FINDINGS_SHOWN);
  return {
    view: {
      state: 'checked',
      id,
      summary: verdictSummary(source, errors, listed.filter((f) => f.severity === 'warning').length),
      errors,
      findings: shown.map((f): GibFindingView => ({ severity: f.severity, message: f.message, where: whereOf(f), line: f.line })),
      total: listed.length,
      hiddenDrafts: findings.length - listed.length,
    },
    positions: shown.map((f) => ({ line: f.line, column: f.column })),
  };
}

export class PreviewGibVerdict implements vscode.Disposable {
  /** Increases with every request: an answer to an older one is dropped. */
  private generation = 0;
  private answered = 0;
  private verdictId = 0;
  private positions: Array<{ line: number; column: number }> = [];
  private shownFor: string | undefined;
  private rules: GibRules | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly loadRules: () => Promise<GibRules>,
    private readonly send: (view: GibVerdictView) => void,
    /** Called when the verdict may have changed without an edit (rules installed, the setting changed). */
    private readonly recheck: () => void,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${Settings.section}.${Settings.gibShowSignatureFindings}`)) this.recheck();
      }),
    );
  }

  /** Asks for the verdict on `text` of `uri` and sends it when it comes; "checking" first for a document not shown yet. */
  async check(uri: vscode.Uri, text: string): Promise<void> {
    const generation = ++this.generation;
    if (this.shownFor !== uri.toString()) {
      this.shownFor = uri.toString();
      this.positions = [];
      this.send({ state: 'checking' });
    }
    let answer: ReturnType<typeof checkedView>;
    try {
      const rules = await this.rulesOnce();
      // Its own key: the editor's diagnostics ask for the same document, and a request waiting under the
      // same key is superseded by the other's (each would keep losing its answer to the other).
      const verdict = await rules.verdict(`preview:${uri.toString()}`, text);
      if (generation !== this.generation || verdict.kind === 'superseded') return;
      answer = verdict.kind === 'noRules' ? { view: { state: 'noRules' }, positions: [] } : checkedView(verdict, ++this.verdictId, showSignatureFindings());
    } catch (e) {
      if (generation !== this.generation) return;
      const message = e instanceof Error ? e.message : String(e);
      log.error(`Preview: GİB's rules could not check ${uri.toString()}: ${message}`);
      answer = { view: { state: 'failed', message }, positions: [] };
    }
    this.answered = generation;
    this.positions = answer.positions;
    this.send(answer.view);
  }

  /** A verdict was asked for and has not come yet (the tests wait for it). */
  get pending(): boolean {
    return this.answered !== this.generation;
  }

  /** Forgets the document (the panel closed or shows none). */
  reset(): void {
    this.answered = ++this.generation;
    this.shownFor = undefined;
    this.positions = [];
  }

  /** Where finding `index` of verdict `id` is (0-based), or undefined for a verdict no longer shown or an index it does not have. */
  positionOf(id: number, index: number): vscode.Position | undefined {
    const at = id === this.verdictId ? this.positions[index] : undefined;
    return at && new vscode.Position(at.line - 1, at.column - 1);
  }

  /** The offer's actions run GİB's commands (their own module asks and installs). */
  static runAction(action: GibRulesAction): void {
    const command = action === 'download' ? GibCommands.downloadRules : GibCommands.useRulesFromFile;
    void vscode.commands.executeCommand(command).then(undefined, (e: unknown) => log.error(`Preview: ${command} failed: ${e instanceof Error ? e.message : String(e)}`));
  }

  private async rulesOnce(): Promise<GibRules> {
    if (!this.rules) {
      this.rules = await this.loadRules();
      this.disposables.push(this.rules.onDidChangeRules(() => this.recheck()));
    }
    return this.rules;
  }

  dispose(): void {
    this.generation++;
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** Shows `doc` (in its visible editor, else in the column next to the preview's) with the start tag of the element at `position` selected. */
export async function revealElement(doc: vscode.TextDocument, position: vscode.Position, previewColumn: vscode.ViewColumn | undefined): Promise<void> {
  const start = doc.validatePosition(position);
  const name = /^<[\w.:-]+/.exec(doc.lineAt(start.line).text.slice(start.character))?.[0];
  // The cursor at the element's start, its name selected.
  const selection = new vscode.Selection(name ? start.translate(0, name.length) : start, start);
  const visible = vscode.window.visibleTextEditors.find((e) => e.document === doc);
  const beside = previewColumn === undefined ? vscode.ViewColumn.Beside : previewColumn > 1 ? previewColumn - 1 : previewColumn + 1;
  const editor = await vscode.window.showTextDocument(doc, { viewColumn: visible?.viewColumn ?? beside, selection, preserveFocus: false });
  // The option takes a range (the cursor at its end): the selection's direction is set after.
  editor.selection = selection;
  editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
