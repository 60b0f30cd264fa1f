// What the palette commands of this folder share: the shell, the extension context (global state
// and storage), and the detail document provider.
import type * as vscode from 'vscode';
import type { ShellServices } from '../../shell/services';
import type { RegistryDetailProvider } from './detailDocument';

export interface PaletteContext {
  shell: ShellServices;
  extension: vscode.ExtensionContext;
  details: RegistryDetailProvider;
}
