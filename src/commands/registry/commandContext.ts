// What the palette commands of this folder share: the shell, the extension context (global state
// and storage), and the detail document provider.
import * as vscode from 'vscode';
import { TreeCommands } from '../../constants';
import type { ShellServices } from '../../shell/services';
import type { RegistryDetailProvider } from './detailDocument';

export interface PaletteContext {
  shell: ShellServices;
  extension: vscode.ExtensionContext;
  details: RegistryDetailProvider;
}

export type DataArea = 'customers' | 'certificates' | 'company' | 'mailing' | 'taxOffice' | 'documents' | 'identifications';

/** Tells the views what changed. */
export async function notifyDataChanged(area: DataArea): Promise<void> {
  await vscode.commands.executeCommand(TreeCommands.dataChanged, { area });
}
