// Feature entry (its own bundle, ./index.ts): GİB's validation rules on the user's computer, and a
// folder checked against them.
import type * as vscode from 'vscode';
import { registerCheckForNewerRules } from '../commands/gib/checkForNewerRules';
import { registerDownloadRules } from '../commands/gib/downloadRules';
import { registerUseRulesFromFile } from '../commands/gib/useRulesFromFile';
import { registerFolderValidation } from '../commands/gib/validateFolder';

export function activateFeature(context: vscode.ExtensionContext): void {
  context.subscriptions.push(registerDownloadRules(context));
  context.subscriptions.push(registerUseRulesFromFile(context));
  context.subscriptions.push(registerCheckForNewerRules(context));
  registerFolderValidation(context);
}
