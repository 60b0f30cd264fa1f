// Feature entry (its own bundle, src/features/index.ts): the document preview and the template studio.
import type * as vscode from 'vscode';
import type { ShellServices } from '../shell/services';
import { registerPreview } from '../preview/register';

export { deserializePreview } from '../preview/register';

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices): void {
  registerPreview(context, shell);
}
