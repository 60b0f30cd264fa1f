// Tax-number hovers in XML, CSV/TSV, JSON and plain-text files: checksum verdict, what the offline
// registry list says, and (only when nilvera.editor.hoverOnlineLookup is on) the live registry.
// activate() registers a shell for the documents of ../selectors.ts that loads the editor feature on
// the first hover; the registry index is opened on the first hover over a valid number.
import * as vscode from 'vscode';
import { Settings } from '../../constants';
import { checkTaxId } from '../../domain/taxId';
import { formatDateTime } from '../../shell/displayFormat';
import type { ShellServices } from '../../shell/services';
import { CARD_COMMANDS, hoverCardMarkdown, type OnlineFinding, type RegistryFinding } from './hoverCard';
import { HoverOnlineLookup } from './onlineLookup';
import { gibPlaceholderOf } from '../../domain/ubl/taxSchemes';
import { saysTaxNumber } from './taxNumberContext';
import { taxNumberAt } from './taxNumberTokens';
import { XML_CONTEXT_CHARS, xmlSaysTaxNumber } from './xmlTaxNumberContext';

// In JSON and plain text a 10-digit number is as often a Unix timestamp or an id: a hover shows there
// only where a key, label or column header says tax number (taxNumberContext.ts). In XML, only where
// the element says so (a tax scheme, a UBL-TR tax-number element, a tax-number name: xmlTaxNumberContext.ts).
const NEEDS_LABEL = new Set(['json', 'jsonc', 'plaintext']);

/** Whether the document around the number found on `line` says it is a tax number. */
function labelledHere(document: vscode.TextDocument, line: number, start: number): boolean {
  if (document.languageId === 'xml') {
    const at = document.offsetAt(new vscode.Position(line, start));
    return xmlSaysTaxNumber(document.getText(new vscode.Range(document.positionAt(Math.max(0, at - XML_CONTEXT_CHARS)), new vscode.Position(line, start))));
  }
  if (NEEDS_LABEL.has(document.languageId)) return saysTaxNumber(document.lineAt(line).text, start, document.lineCount > 1 ? document.lineAt(0).text : undefined);
  return true;
}

async function offlineFinding(context: vscode.ExtensionContext, taxNumber: string): Promise<RegistryFinding> {
  const { offlineRegistry, registryIndexRoot } = await import('../../registry/offlineLookup');
  const registry = offlineRegistry(registryIndexRoot(context.globalStorageUri.fsPath));
  const lists = registry.lists();
  if (lists.length === 0) return { state: 'noIndex' };
  const taxpayer = registry.lookup(taxNumber);
  // Not found: as of the oldest list consulted.
  return taxpayer ? { state: 'found', taxpayer } : { state: 'missing', downloadedAt: lists.map((l) => l.downloadedAt).sort()[0] };
}

export function createTaxNumberHoverProvider(context: vscode.ExtensionContext, shell: ShellServices): vscode.HoverProvider {
  const onlineLookup = new HoverOnlineLookup(shell);
  return {
    async provideHover(document, position, token) {
      const config = vscode.workspace.getConfiguration(Settings.section);
      if (!config.get<boolean>(Settings.editorTaxNumberHovers, true)) return undefined;
      const found = taxNumberAt(document.lineAt(position.line).text, position.character);
      if (!found) return undefined;
      if (!labelledHere(document, position.line, found.start)) return undefined;
      const check = checkTaxId(found.text);
      // GİB's placeholders fail the check digits on purpose: the card says what they stand for.
      const placeholder = gibPlaceholderOf(found.text);
      let registry: RegistryFinding | undefined;
      let online: OnlineFinding | undefined;
      if (check.valid) {
        registry = await offlineFinding(context, check.value).catch((): RegistryFinding => ({ state: 'noIndex' }));
        // The network only when the user allowed it, never for a number that cannot exist, and no request
        // before Nilvera is used in this workspace (src/shell/workspaceUsage.ts).
        if (config.get<boolean>(Settings.editorHoverOnlineLookup, false) && shell.usage.isUsed()) online = await onlineLookup.find(check.value, token);
      }
      if (token.isCancellationRequested) return undefined;
      const markdown = new vscode.MarkdownString(hoverCardMarkdown({ check, registry, online, placeholder }, vscode.l10n, formatDateTime));
      markdown.isTrusted = { enabledCommands: Object.values(CARD_COMMANDS) };
      return new vscode.Hover(markdown, new vscode.Range(position.line, found.start, position.line, found.end));
    },
  };
}
