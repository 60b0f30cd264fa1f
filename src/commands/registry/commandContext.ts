// What the palette commands of this folder share: the shell, the extension context (global state
// and storage), the full API client, and the detail document provider.
import * as vscode from 'vscode';
import type { NilveraClient } from '../../api';
import type { ShellServices } from '../../shell/services';
import type { RegistryDetailProvider } from './detailDocument';

export interface PaletteContext {
  shell: ShellServices;
  extension: vscode.ExtensionContext;
  details: RegistryDetailProvider;
}

/** The shell types its client as the slice it uses itself; the object is src/api's full client. */
export async function fullClient(ctx: Pick<PaletteContext, 'shell'>): Promise<NilveraClient> {
  return (await ctx.shell.client()) as unknown as NilveraClient;
}

export const DATA_CHANGED_COMMAND = 'nilvera.internal.dataChanged';

export type DataArea = 'customers' | 'certificates' | 'company' | 'mailing' | 'taxOffice' | 'documents' | 'identifications';

/** Tells the views what changed. */
export async function notifyDataChanged(area: DataArea): Promise<void> {
  await vscode.commands.executeCommand(DATA_CHANGED_COMMAND, { area });
}
