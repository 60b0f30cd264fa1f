// Points the extension under test at a suite's in-process sandbox: the Custom URL environment on
// loopback http, with the sandbox's full key. The switch reloads every tree open in the window (earlier
// suites leave views expanded), so this waits for those loads to finish before a test counts requests.
import * as vscode from 'vscode';
import { Settings } from '../../src/constants';
import type { NilveraExtensionApi } from '../../src/extension';
import { requestsSettled } from '../support/requestsSettled';
import type { SandboxHandle } from '../support/sandbox';

export async function useSandboxEnvironment(api: NilveraExtensionApi, sandbox: SandboxHandle): Promise<void> {
  const config = vscode.workspace.getConfiguration(Settings.section);
  await config.update(Settings.customUrl, sandbox.url, vscode.ConfigurationTarget.Global);
  await config.update(Settings.environment, 'custom', vscode.ConfigurationTarget.Global);
  const services = api.testing.services;
  if (services.environment() !== 'custom') throw new Error(`the environment is ${services.environment()}, not custom`);
  await services.keys.store(services.secretName('custom'), sandbox.keys.full);
  await requestsSettled(() => sandbox.requestLog().length);
}
