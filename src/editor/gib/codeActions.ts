// The quick fixes of the note a UBL-TR document gets while GİB's rules are not installed: download
// them, or use them from a file. They only run those commands (src/constants.ts GibCommands); nothing
// is fetched until the user picks one.
import * as vscode from 'vscode';
import { GibCommands } from '../../constants';
import { GIB_NO_RULES_CODE } from './presentation';
import { codeOf, commandFix } from '../diagnostics/codeActions';

export class GibRulesCodeActions implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  provideCodeActions(_doc: vscode.TextDocument, _range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const note = context.diagnostics.find((d) => codeOf(d) === GIB_NO_RULES_CODE);
    if (!note) return [];
    const download = commandFix(vscode.l10n.t("Download GİB's validation rules"), note, GibCommands.downloadRules);
    download.isPreferred = true;
    return [download, commandFix(vscode.l10n.t("Use GİB's rules from a file…"), note, GibCommands.useRulesFromFile)];
  }
}
