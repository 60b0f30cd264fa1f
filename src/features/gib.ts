// Feature entry (its own bundle, ./index.ts): GİB's rules on the VS Code side.
import type * as vscode from 'vscode';
import { registerFolderValidation } from '../commands/gib/validateFolder';

export function activateFeature(context: vscode.ExtensionContext): void {
  registerFolderValidation(context);
}
