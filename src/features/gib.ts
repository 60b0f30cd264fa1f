// Feature entry (its own bundle, ./index.ts): GİB's validation rules on the user's computer.
import type * as vscode from 'vscode';
import { registerCheckForNewerRules } from '../commands/gib/checkForNewerRules';
import { registerDownloadRules } from '../commands/gib/downloadRules';
import { registerUseRulesFromFile } from '../commands/gib/useRulesFromFile';

export function activateFeature(context: vscode.ExtensionContext): void {
  context.subscriptions.push(registerDownloadRules(context));
  context.subscriptions.push(registerUseRulesFromFile(context));
  context.subscriptions.push(registerCheckForNewerRules(context));
}
