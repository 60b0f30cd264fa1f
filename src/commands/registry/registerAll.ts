// The one entry extension.ts calls for the palette commands of this area (registry and settings).
import type * as vscode from 'vscode';
import type { ShellServices } from '../../shell/services';
import { registerSettingsCommands } from '../settings/register';
import { closeOpenReader } from './offlineRegistry';
import { paletteContext, registerRegistryCommands } from './register';

export function registerPaletteCommands(context: vscode.ExtensionContext, shell: ShellServices): vscode.Disposable[] {
  const ctx = paletteContext(context, shell);
  return [...registerRegistryCommands(ctx), ...registerSettingsCommands(ctx), { dispose: closeOpenReader }];
}
