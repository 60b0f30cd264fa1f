// The preview feature's registration (its entry is src/features/preview.ts): the commands, the restoring
// of panels after a window reload (activate() registers a serializer per view type and hands the panel
// over to `restore`), and the test seam that lists the open previews with what their pages
// reported.
import * as vscode from 'vscode';
import { PreviewCommands, PreviewViewTypes } from '../constants';
import { log } from '../shell/log';
import { registerCommand } from '../shell/commandRunner';
import { UserFacingError } from '../shell/errorMessages';
import type { FeatureParts } from '../shell/featureParts';
import { isUblDocument } from './contextKey';
import { DocumentPreview } from './documentPreview';
import { DesignStudio, isDesign } from './designStudio';
import type { PreviewPanel } from './previewPanel';
import { isRecord } from '../webviews/protocol';
import { restoreStateOf } from './protocol';
import { registryLists } from './registryLists';

/** The editor's document for a command run from a menu (its resource argument) or the palette. */
async function documentFor(arg: unknown): Promise<vscode.TextDocument | undefined> {
  if (arg instanceof vscode.Uri) return vscode.workspace.openTextDocument(arg);
  return vscode.window.activeTextEditor?.document;
}

/** What the test seam tells about a panel. */
function describePanel(panel: PreviewPanel, extra: Record<string, unknown> = {}) {
  return {
    kind: panel.kind,
    viewType: panel.panel.viewType,
    title: panel.panel.title,
    html: panel.panel.webview.html,
    localResourceRoots: (panel.panel.webview.options.localResourceRoots ?? []).map((u) => u.toString()),
    capabilities: panel.capabilities,
    latestSeq: panel.latestSeq,
    renders: [...panel.renders],
    gib: panel.gib?.verdict,
    firstShownAt: panel.firstShownAt,
    gibSent: [...panel.gibSent],
    ...extra,
  };
}

export function registerPreview(context: vscode.ExtensionContext): FeatureParts {
  const registry = registryLists(context);
  // GİB's rules on first use (a chunk of its own): the preview opens before any of it loads.
  const preview = new DocumentPreview(context.extensionUri, registry, async () => (await import('../shell/gibRules')).gibRules(context));
  const studio = new DesignStudio(context.extensionUri, registry);
  const restore = async (viewType: string, webviewPanel: vscode.WebviewPanel, state: unknown): Promise<void> => {
    try {
      if (viewType === PreviewViewTypes.document) await preview.restore(webviewPanel, restoreStateOf(state, 'document'));
      else if (viewType === PreviewViewTypes.studio) await studio.restore(webviewPanel, restoreStateOf(state, 'studio'));
      else webviewPanel.dispose();
    } catch (error) {
      // A panel that cannot be brought back is closed, not left blank.
      log.error(`Preview: restoring a ${viewType} panel failed: ${error instanceof Error ? error.message : String(error)}`);
      webviewPanel.dispose();
    }
  };
  context.subscriptions.push(
    preview,
    studio,
    registerCommand(PreviewCommands.document, async (arg) => {
      const doc = await documentFor(arg);
      if (!doc || !isUblDocument(doc)) throw new UserFacingError(vscode.l10n.t('Open a UBL-TR document (an e-invoice, e-Müstahsil receipt, despatch advice, receipt advice or application response) to preview it.'));
      preview.open(doc);
    }),
    registerCommand(PreviewCommands.design, async (arg) => {
      // From a menu: the design's URI; from tests: { design?, invoice? } as URIs or paths.
      const options = isRecord(arg) && !(arg instanceof vscode.Uri) ? arg : {};
      const asUri = (v: unknown) => (v instanceof vscode.Uri ? v : typeof v === 'string' ? vscode.Uri.file(v) : undefined);
      const designUri = arg instanceof vscode.Uri ? arg : asUri(options.design);
      const design = designUri ? await vscode.workspace.openTextDocument(designUri) : vscode.window.activeTextEditor?.document;
      if (!design || !isDesign(design)) throw new UserFacingError(vscode.l10n.t('Open an XSLT design (.xslt or .xsl file) to preview it with an invoice.'));
      await studio.open(design, asUri(options.invoice));
    }),
    registerCommand(PreviewCommands.uploadDesign, async (arg) => {
      // From the studio's title bar (its panel is active) or an editor of the design.
      const inStudio = arg instanceof vscode.Uri ? undefined : studio.all().find((s) => s.panel.panel.active)?.design;
      const target = inStudio ?? (await documentFor(arg));
      if (!target || !isDesign(target)) throw new UserFacingError(vscode.l10n.t('Open an XSLT design (.xslt or .xsl file) to upload it as an e-invoice template.'));
      await studio.upload(target);
    }),
    // Tests and the benchmark: the open previews, what their pages reported, a way to post as the page,
    // and one to hand a new panel to `restore` as VS Code does after a reload.
    registerCommand(PreviewCommands.testHook, async (arg) => {
      if (isRecord(arg) && isRecord(arg.restore) && typeof arg.restore.viewType === 'string') {
        const webviewPanel = vscode.window.createWebviewPanel(arg.restore.viewType, 'Restored', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });
        await restore(arg.restore.viewType, webviewPanel, arg.restore.state);
      }
      const panels = [
        ...(preview.panel ? [describePanel(preview.panel, { gibPending: preview.gibPending })] : []),
        ...studio.all().map((s) => describePanel(s.panel, { design: s.design.uri.toString(), invoice: s.invoiceUri?.toString() })),
      ];
      if (isRecord(arg) && typeof arg.simulate === 'object') {
        const target = arg.kind === 'studio' ? studio.all()[0]?.panel : preview.panel;
        target?.receive(arg.simulate);
      }
      return panels;
    }),
  );
  return { restore };
}
