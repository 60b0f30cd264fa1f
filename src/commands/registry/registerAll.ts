// The registry feature (loaded on first use, src/features/index.ts): the palette commands of the taxpayer
// registry, the offline registry list, templates, series, mailing and the tax office.
import type * as vscode from 'vscode';
import type { ShellServices } from '../../shell/services';
import { registerSettingsCommands } from '../settingsCommands';
import { closeOpenReader } from './offlineRegistry';
import { paletteContext, registerRegistryCommands } from './register';
import { trackRegistryDownloads } from '../../walkthrough/registryProgress';

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices): void {
  const ctx = paletteContext(context, shell);
  context.subscriptions.push(...registerRegistryCommands(ctx), ...registerSettingsCommands(ctx), { dispose: closeOpenReader });
  trackRegistryDownloads(context);
}
