// Extension-host suites against an in-process sandbox. `useSandboxEnvironment` points the extension
// at the sandbox: the Custom URL environment on loopback http, with the sandbox's full key. The switch
// reloads every tree open in the window (earlier suites leave views expanded), so it waits for those
// loads to finish before a test counts requests. `startSandboxSuite` is a suite's usual set-up around
// it, and its `close()` the matching tear-down.
import * as vscode from 'vscode';
import { Settings } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import type { Prompts } from '../../src/shell/prompts';
import { activateExtension } from './extension';
import { requestsSettled } from './requestsSettled';
import { startTestSandbox, type SandboxHandle, type SandboxOptions } from './sandbox';

/** Points the extension at `url` (the Custom URL environment) with `key` as that environment's key. */
export async function useCustomEnvironment(api: NilveraExtensionApi, url: string, key: string): Promise<void> {
  const config = vscode.workspace.getConfiguration(Settings.section);
  await config.update(Settings.customUrl, url, vscode.ConfigurationTarget.Global);
  await config.update(Settings.environment, 'custom', vscode.ConfigurationTarget.Global);
  const services = api.testing.services;
  if (services.environment() !== 'custom') throw new Error(`the environment is ${services.environment()}, not custom`);
  await services.keys.store(services.secretName('custom'), key);
}

export async function useSandboxEnvironment(api: NilveraExtensionApi, sandbox: SandboxHandle): Promise<void> {
  await useCustomEnvironment(api, sandbox.url, sandbox.keys.full);
  await requestsSettled(() => sandbox.requestLog().length);
}

/** Undoes `useCustomEnvironment`: forgets the key, and the environment, the URL and `settings` go back to their defaults. */
export async function leaveCustomEnvironment(api: NilveraExtensionApi, ...settings: string[]): Promise<void> {
  const services = api.testing.services;
  await services.keys.delete(services.secretName('custom'));
  const config = vscode.workspace.getConfiguration(Settings.section);
  for (const key of [Settings.environment, Settings.customUrl, ...settings]) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
}

export interface SandboxSuite {
  sandbox: SandboxHandle;
  api: NilveraExtensionApi;
  /** Puts the extension's prompts back, forgets the sandbox's key and environment, stops the sandbox. */
  close(): Promise<void>;
}

/** Starts a sandbox, activates the extension, answers its prompts with `prompts` and points it at the sandbox. */
export async function startSandboxSuite(options: SandboxOptions, prompts: Prompts): Promise<SandboxSuite> {
  const sandbox = await startTestSandbox(options);
  const api = await activateExtension();
  const restorePrompts = api.testing.replacePrompts(prompts);
  await useSandboxEnvironment(api, sandbox);
  const close = async () => {
    restorePrompts();
    await leaveCustomEnvironment(api);
    await sandbox.close();
  };
  return { sandbox, api, close };
}
