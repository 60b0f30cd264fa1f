// "Try the Sandbox": runs the local stand-in API (or uses the external one of the development
// hook), stores its key as the Sandbox environment's key and switches to it.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { saveKey } from './apiKeyCommands';
import { log } from './log';
import { prompts } from './prompts';
import type { ShellServices } from './services';
import { writeEnvironment } from './settings';
import { externalSandbox } from './sandboxLauncher';

export async function startSandbox(services: ShellServices): Promise<void> {
  const running = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Starting the Nilvera sandbox…') },
    async () => {
      const external = externalSandbox();
      if (external) return external;
      // A new sandbox's key is shaped like the platform's: 64 upper-case hex characters.
      const key = (await services.apiKey('sandbox')) ?? randomBytes(32).toString('hex').toUpperCase();
      return services.sandbox.ensure(key);
    },
  );
  if (!(await saveKey(services, 'sandbox', running.key))) return;
  await writeEnvironment('sandbox');
  services.profiles.followSettings();
  log.info(`Sandbox environment active at ${running.url}${running.external ? ' (external, from NILVERA_SANDBOX_URL)' : ''}.`);
  void prompts.message('info', vscode.l10n.t('The sandbox runs at {0}. Its data is made up; requests never leave this machine.', running.url));
}

export async function stopSandbox(services: ShellServices): Promise<void> {
  const running = services.sandbox.current();
  if (!running || running.external) {
    void prompts.message('info', vscode.l10n.t('No sandbox started by this window is running.'));
    return;
  }
  await services.sandbox.stop();
  void prompts.message('info', vscode.l10n.t('The sandbox has stopped.'));
}
