// Quick fixes for the "Nilvera" diagnostics. Stateless: each fix is derived from the diagnostic's
// code and the number under its range, so it stays right after edits moved the text around.
import * as vscode from 'vscode';
import { DiagnosticsCommands, PaletteCommands, TreeCommands } from '../../constants';
import { detectEncoding, type SourceEncoding } from '../../domain/textDecoding';
import type { RegistryDocumentType } from '../../domain/ubl/documentTypes';
import { activeAliases, type OfflineRegistry } from '../../registry/offlineLookup';
import { DIAGNOSTIC_SOURCE } from '../selectors';
import { checkNumber, correctedNumber, FindingCodes } from './rules';

export function codeOf(d: vscode.Diagnostic): string | undefined {
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  return code === undefined ? undefined : String(code);
}

function quickFix(title: string, d: vscode.Diagnostic): vscode.CodeAction {
  return Object.assign(new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix), { diagnostics: [d] });
}

export function commandFix(title: string, d: vscode.Diagnostic, command: string, args: unknown[] = []): vscode.CodeAction {
  return Object.assign(quickFix(title, d), { command: { title, command, arguments: args } });
}

export class TaxNumberCodeActions implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly registry: (documentType: RegistryDocumentType) => OfflineRegistry) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] | Promise<vscode.CodeAction[]> {
    const actions: vscode.CodeAction[] = [];
    let encodingNote: vscode.Diagnostic | undefined;
    for (const d of context.diagnostics) {
      if (d.source !== DIAGNOSTIC_SOURCE) continue;
      const taxNumber = doc.getText(d.range).trim();
      switch (codeOf(d)) {
        case FindingCodes.notUtf8:
          encodingNote = d;
          break;
        case FindingCodes.invalidTaxId: {
          const fix = this.checkDigitFix(doc, d, taxNumber);
          if (fix) actions.push(fix);
          break;
        }
        case FindingCodes.registryNotDownloaded:
          actions.push(this.downloadFix(d, 'Invoice'), this.lookUpFix(d, taxNumber, 'Invoice'));
          break;
        case FindingCodes.despatchRegistryNotDownloaded:
          actions.push(this.downloadFix(d, 'DespatchAdvice'), this.lookUpFix(d, taxNumber, 'DespatchAdvice'));
          break;
        case FindingCodes.notEInvoiceUser:
        case FindingCodes.eInvoiceUserOnEArchive:
        case FindingCodes.notEDespatchUser: {
          const documentType: RegistryDocumentType = codeOf(d) === FindingCodes.notEDespatchUser ? 'DespatchAdvice' : 'Invoice';
          actions.push(this.lookUpFix(d, taxNumber, documentType));
          const copy = this.copyAliasFix(d, taxNumber, documentType);
          if (copy) actions.push(copy);
          break;
        }
      }
    }
    return encodingNote ? this.encodingFixes(doc, encodingNote).then((fixes) => [...fixes, ...actions]) : actions;
  }

  /**
   * For a customer list VS Code read as UTF-8: reopen it in Windows-1254 when that is what its bytes are
   * (VS Code has no Mac Turkish, so a Mac file is not offered a reopen that would garble it), and import
   * it, which reads both.
   */
  private async encodingFixes(doc: vscode.TextDocument, d: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
    const fixes: vscode.CodeAction[] = [];
    const bytes = await vscode.workspace.fs.readFile(doc.uri).then((b) => b, () => undefined);
    const encoding: SourceEncoding | undefined = bytes ? detectEncoding(bytes.subarray(0, 256 * 1024), bytes.length <= 256 * 1024).encoding : undefined;
    if (encoding !== 'x-mac-turkish') {
      const title = vscode.l10n.t('Reopen with Encoding Windows-1254');
      const reopen = commandFix(title, d, DiagnosticsCommands.reopenWithEncoding, [doc.uri, 'windows1254']);
      reopen.isPreferred = true;
      fixes.push(reopen);
    }
    if (doc.uri.scheme === 'file') {
      const title =
        encoding === 'x-mac-turkish' ? vscode.l10n.t('Import Customers from This File (it is in Mac Turkish, which the import reads)') : vscode.l10n.t('Import Customers from This File');
      fixes.push(commandFix(title, d, TreeCommands.customersImport, [doc.uri]));
    }
    return fixes;
  }

  /** A checksum cannot say which digit is wrong; this offers the number the first nine digits complete to. */
  private checkDigitFix(doc: vscode.TextDocument, d: vscode.Diagnostic, taxNumber: string): vscode.CodeAction | undefined {
    const corrected = correctedNumber({ taxNumber, invalid: checkNumber(taxNumber) });
    if (!corrected) return undefined;
    const action = quickFix(vscode.l10n.t('Change to {0} (the check digits these first nine digits call for)', corrected), d);
    action.edit = new vscode.WorkspaceEdit();
    action.edit.replace(doc.uri, d.range, corrected);
    return action;
  }

  private lookUpFix(d: vscode.Diagnostic, taxNumber: string, userType: RegistryDocumentType): vscode.CodeAction {
    return commandFix(vscode.l10n.t('Look up in registry'), d, PaletteCommands.registryCheckTaxNumber, [{ taxNumber, userType }]);
  }

  private copyAliasFix(d: vscode.Diagnostic, taxNumber: string, documentType: RegistryDocumentType): vscode.CodeAction | undefined {
    const registry = this.registry(documentType);
    const taxpayer = registry.hasIndex() ? registry.lookup(taxNumber) : undefined;
    const alias = taxpayer ? activeAliases(taxpayer, 'PK')[0]?.name : undefined;
    if (!alias) return undefined;
    // The registry command copies a given alias and confirms it briefly.
    return commandFix(vscode.l10n.t('Copy the active PK alias ({0})', alias), d, PaletteCommands.registryCopyAlias, [alias]);
  }

  private downloadFix(d: vscode.Diagnostic, userType: RegistryDocumentType): vscode.CodeAction {
    const title = userType === 'Invoice' ? vscode.l10n.t('Download Registry List') : vscode.l10n.t('Download the e-Despatch Registry List');
    return commandFix(title, d, PaletteCommands.registryDownload, [{ aliasType: 'PK', userType }]);
  }
}
