// Typed reads of the extension's settings. Values are re-read on every call: VS Code caches
// configuration, so this is cheap, and it always reflects the latest change.
import * as vscode from 'vscode';
import { Settings } from '../constants';
import { isEnvironmentId, type EnvironmentId } from './environments';

function clamp(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.round(value))) : fallback;
}

export function readSettings() {
  const config = vscode.workspace.getConfiguration(Settings.section);
  const environment = config.get<string>(Settings.environment);
  return {
    environment: isEnvironmentId(environment) ? environment : ('production' as EnvironmentId),
    // The raw value; in an untrusted workspace VS Code ignores a workspace's value (restrictedConfigurations).
    customUrl: config.get<string>(Settings.customUrl) ?? '',
    pageSize: clamp(config.get(Settings.pageSize), 1, 100, 20),
    requestTimeoutMs: clamp(config.get(Settings.requestTimeoutSeconds), 1, 600, 30) * 1000,
    creditWarningThreshold: clamp(config.get(Settings.creditWarningThreshold), 0, Number.MAX_SAFE_INTEGER, 100),
  };
}

/**
 * The environment and the custom URL are the user's choices: always written to user settings, never
 * into a workspace's `.vscode/settings.json` (a folder someone else made). Returns the workspace's own
 * value when it overrides the choice in this window (the caller tells the user); in an untrusted
 * workspace VS Code ignores it (`restrictedConfigurations` in package.json).
 */
export async function writeSetting(name: 'environment' | 'customUrl', value: string): Promise<string | undefined> {
  await vscode.workspace.getConfiguration(Settings.section).update(name, value, vscode.ConfigurationTarget.Global);
  const now = vscode.workspace.getConfiguration(Settings.section);
  if (now.get(name) === value) return undefined;
  const workspaceValue = now.inspect<unknown>(name)?.workspaceValue;
  return typeof workspaceValue === 'string' ? workspaceValue : String(now.get(name));
}

/**
 * Settings that change what the trees show: where requests go and how pages are cut. Editor settings
 * (hovers, diagnostics) do not reload the trees, so toggling one sends no request.
 */
export function affectsTrees(event: vscode.ConfigurationChangeEvent): boolean {
  const names = [Settings.environment, Settings.customUrl, Settings.pageSize, Settings.requestTimeoutSeconds];
  return names.some((name) => event.affectsConfiguration(`${Settings.section}.${name}`));
}
