// The template studio: an .xslt/.xsl design rendered with a UBL-TR document of the workspace or a
// built-in sample, updated as either is edited (debounced). One panel per design; "Upload as e-Invoice
// Template…" hands the saved design file to the template update command.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { PaletteCommands, PreviewViewTypes } from '../constants';
import { log } from '../shell/log';
import { prompts, UserCancelledError } from '../shell/prompts';
import { ownArgs } from '../shell/testSeams';
import { documentLabel, LINES_SENT, openDocument } from './documentPreview';
import { pickInvoice, samplesFolder } from './invoicePicker';
import { readDocument, type ReadOptions } from './model/readDocument';
import type { ReadResult } from './model/types';
import { PreviewPanel } from './previewPanel';
import type { RestoreState } from './protocol';

/** Quiet time after the last keystroke in the design before it is rendered again. */
export const STUDIO_DEBOUNCE_MS = 300;

export function isDesign(doc: vscode.TextDocument): boolean {
  return /\.xslt?$/i.test(doc.uri.path) || doc.languageId === 'xsl';
}

class Studio implements vscode.Disposable {
  private invoice: vscode.TextDocument | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** The invoice's structured model, read again only when the invoice changes (not on design edits). */
  private read: { uri: string; version: number; result: ReadResult } | undefined;

  constructor(
    readonly design: vscode.TextDocument,
    readonly panel: PreviewPanel,
    private readonly registry: ReadOptions['registry'],
    private readonly samples: vscode.Uri,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0 || (e.document !== this.design && e.document !== this.invoice)) return;
        this.panel.debounce(() => this.refresh(), STUDIO_DEBOUNCE_MS);
      }),
    );
  }

  async useInvoice(uri: vscode.Uri): Promise<void> {
    this.invoice = await vscode.workspace.openTextDocument(uri);
    this.refresh();
  }

  get invoiceUri(): vscode.Uri | undefined {
    return this.invoice?.uri;
  }

  /** What the page keeps for a window reload: the design, and the document (a built-in sample by its name). */
  private restoreState(invoice: vscode.Uri): RestoreState {
    const sample = path.relative(this.samples.fsPath, invoice.fsPath);
    const isSample = invoice.scheme === 'file' && !sample.startsWith('..') && !path.isAbsolute(sample) && !sample.includes(path.sep);
    return { panel: 'studio', design: this.design.uri.toString(), ...(isSample ? { sample } : { invoice: invoice.toString() }) };
  }

  refresh(): void {
    if (!this.invoice) return;
    const xml = this.invoice.getText();
    const key = { uri: this.invoice.uri.toString(), version: this.invoice.version };
    if (this.read?.uri !== key.uri || this.read.version !== key.version) this.read = { ...key, result: readDocument(xml, { registry: this.registry, maxLines: LINES_SENT, l10n: vscode.l10n }).result };
    const result = this.read.result;
    this.panel.panel.title = vscode.l10n.t('Design {0} with {1}', documentLabel(this.design.uri), documentLabel(this.invoice.uri));
    this.panel.show({
      source: vscode.l10n.t('{0} with {1}', documentLabel(this.design.uri), documentLabel(this.invoice.uri)),
      result,
      xml,
      design: { origin: 'editor', text: this.design.getText(), name: documentLabel(this.design.uri) },
      mode: 'design',
      scripts: this.panel.scriptsAllowed,
      restore: this.restoreState(this.invoice.uri),
    });
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}

export class DesignStudio implements vscode.Disposable {
  private readonly studios = new Map<string, Studio>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly registry: ReadOptions['registry'],
  ) {}

  all(): Studio[] {
    return [...this.studios.values()];
  }

  /** Opens the studio of `design` (or reveals it) and renders it with `invoice`, or one the user picks. */
  async open(design: vscode.TextDocument, invoice?: vscode.Uri): Promise<Studio> {
    const key = design.uri.toString();
    let studio = this.studios.get(key);
    const chosen = invoice ?? (studio?.invoiceUri ? undefined : await this.pick(design));
    if (!studio) studio = this.adopt(design, vscode.window.createWebviewPanel(PreviewViewTypes.studio, vscode.l10n.t('Design {0}', documentLabel(design.uri)), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableFindWidget: true }));
    else studio.panel.panel.reveal(undefined, true);
    if (chosen) await studio.useInvoice(chosen);
    return studio;
  }

  /**
   * Takes over a panel VS Code brought back after a window reload: the design and the document it
   * showed (`state`: checked by the caller). When either cannot be opened any more, or the design has a
   * studio already, the panel is closed.
   */
  async restore(webviewPanel: vscode.WebviewPanel, state: Extract<RestoreState, { panel: 'studio' }> | undefined): Promise<void> {
    const design = state && (await openDocument(state.design));
    const invoiceUri = state?.sample ? vscode.Uri.joinPath(samplesFolder(this.extensionUri), state.sample).toString() : state?.invoice;
    const invoice = invoiceUri && (await openDocument(invoiceUri));
    if (!design || !invoice || this.studios.has(design.uri.toString())) {
      log.info(`Template studio: a restored panel was closed (${!state ? 'it kept no design' : !design ? `${state.design} cannot be opened` : !invoice ? `${invoiceUri ?? 'its document'} cannot be opened` : 'the design has a studio already'}).`);
      webviewPanel.dispose();
      return;
    }
    await this.adopt(design, webviewPanel).useInvoice(invoice.uri);
  }

  private adopt(design: vscode.TextDocument, webviewPanel: vscode.WebviewPanel): Studio {
    const key = design.uri.toString();
    const created: Studio = new Studio(
      design,
      new PreviewPanel(webviewPanel, 'studio', this.extensionUri, {
        upload: () => void this.upload(created.design).catch((e: unknown) => this.report(e)),
        pickInvoice: () => void this.pick(design).then((uri) => created.useInvoice(uri)).catch((e: unknown) => this.report(e)),
        scriptsChanged: () => created.refresh(),
      }),
      this.registry,
      samplesFolder(this.extensionUri),
    );
    created.panel.onDidDispose(() => {
      if (this.studios.get(key) === created) this.studios.delete(key);
      created.dispose();
    });
    this.studios.set(key, created);
    return created;
  }

  /** Asks which document to render `design` with. */
  private pick(design: vscode.TextDocument): Promise<vscode.Uri> {
    return pickInvoice(this.extensionUri, vscode.l10n.t('Preview {0} with…', documentLabel(design.uri)));
  }

  /** Saves the design (a new one: Save As) and runs the template update command with its file. */
  async upload(design: vscode.TextDocument): Promise<void> {
    let uri = design.uri;
    if (design.isUntitled) {
      const saved = await vscode.workspace.save(design.uri);
      if (!saved) throw new UserCancelledError();
      uri = saved;
    } else if (design.isDirty && !(await design.save())) throw new UserCancelledError();
    if (uri.scheme !== 'file') {
      void prompts.message('error', vscode.l10n.t('{0} is not a file on this computer; save it to a local folder to upload it.', documentLabel(uri)));
      return;
    }
    // Our own arguments (ownArgs): the command still asks which template the file replaces.
    await vscode.commands.executeCommand(PaletteCommands.settingsTemplate, ownArgs({ change: 'replaceFile', file: uri.fsPath }));
  }

  private report(error: unknown): void {
    if (error instanceof UserCancelledError) return;
    log.error(`Template studio: ${error instanceof Error ? error.message : String(error)}`);
    void prompts.message('error', error instanceof Error ? error.message : String(error));
  }

  dispose(): void {
    for (const s of this.studios.values()) s.dispose();
    this.studios.clear();
  }
}
