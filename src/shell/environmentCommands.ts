// "Switch Environment": Production, Test, Sandbox or a custom URL; each keeps its own key. "Try the
// Sandbox": runs the local stand-in API (or uses the external one of the development hook), stores its
// key as the Sandbox environment's key and switches to it.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { saveKey } from './apiKeyCommands';
import { checkCustomUrl, ENVIRONMENT_IDS, FIXED_BASE_URLS, isEnvironmentId, type CustomUrlCheck, type EnvironmentId } from './environments';
import { log } from './log';
import { prompts, UserCancelledError } from './prompts';
import { environmentLabel, type ShellServices } from './services';
import { Settings } from '../constants';
import { readSettings, writeSetting } from './settings';
import { externalSandbox } from './sandboxLauncher';

function customUrlProblem(check: CustomUrlCheck): string | undefined {
  if (check.ok) return undefined;
  const problems: Record<typeof check.reason, string> = {
    empty: vscode.l10n.t('Enter the base URL of the API.'),
    invalid: vscode.l10n.t('This is not a valid http(s) URL.'),
    insecure: vscode.l10n.t('Use https; plain http is only allowed for localhost and 127.0.0.1.'),
    credentials: vscode.l10n.t('Do not put a user name or password in the URL.'),
  };
  return problems[check.reason];
}

export async function askCustomUrl(value?: string): Promise<string> {
  const typed = await prompts.inputBox({
    title: vscode.l10n.t('Nilvera: Custom URL'),
    prompt: vscode.l10n.t('Base URL of the API, without /general (for example https://nilvera.example.com).'),
    value,
    ignoreFocusOut: true,
    validateInput: (text) => customUrlProblem(checkCustomUrl(text)),
  });
  const check = checkCustomUrl(typed ?? '');
  if (!check.ok) throw new UserCancelledError();
  return check.baseUrl;
}

function describeUrl(services: ShellServices, environment: EnvironmentId): string {
  if (environment === 'custom') return services.customBaseUrl() ?? vscode.l10n.t('not set');
  if (environment !== 'sandbox') return FIXED_BASE_URLS[environment];
  return services.sandbox.current()?.url ?? vscode.l10n.t('local server, started on demand');
}

/** Switches to `target`, or asks which environment when none is given. */
export async function switchEnvironment(services: ShellServices, target?: unknown): Promise<void> {
  let environment: EnvironmentId;
  if (isEnvironmentId(target)) environment = target;
  else {
    const active = services.environment();
    const items: Array<vscode.QuickPickItem & { environment: EnvironmentId }> = [];
    for (const id of ENVIRONMENT_IDS) {
      const hasKey = await services.hasApiKey(id);
      items.push({
        environment: id,
        label: `${id === active ? '$(check) ' : ''}${environmentLabel(id)}`,
        description: describeUrl(services, id),
        detail: hasKey ? vscode.l10n.t('API key stored') : vscode.l10n.t('No API key'),
      });
    }
    const picked = await prompts.quickPick(items, { title: vscode.l10n.t('Nilvera: Switch Environment'), placeHolder: vscode.l10n.t('Where should the extension send its requests?') });
    if (!picked) throw new UserCancelledError();
    environment = picked.environment;
  }
  if (environment === 'custom') await writeUserChoice(Settings.customUrl, await askCustomUrl(readSettings().customUrl));
  if (environment === 'sandbox' && !(await services.hasApiKey('sandbox'))) {
    // Without a key the sandbox is useless: start it, which stores its key and switches.
    await startSandbox(services);
    return;
  }
  await writeUserChoice(Settings.environment, environment);
  // Switch Environment moves this window to that environment's profile (its most recently used,
  // else its default profile, created now), also when the setting already had that value.
  services.profiles.followSettings();
}

/** Writes the user's choice to user settings; says so when this workspace's own value overrides it here. */
async function writeUserChoice(name: 'environment' | 'customUrl', value: string): Promise<void> {
  const overriding = await writeSetting(name, value);
  if (overriding === undefined) return;
  const open = vscode.l10n.t('Open Workspace Settings');
  const text = vscode.l10n.t('Your choice is saved in your user settings, but this workspace sets "nilvera.{0}" to "{1}", which applies in this window. Remove it from the workspace settings to use your choice here.', name, overriding);
  // Not awaited: the switch goes on while the message waits for the user.
  void prompts.message('warning', text, undefined, open).then((choice) => (choice === open ? vscode.commands.executeCommand('workbench.action.openWorkspaceSettingsFile') : undefined));
}

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
  await writeUserChoice(Settings.environment, 'sandbox');
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
