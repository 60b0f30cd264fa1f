// "Set API Key" and "Clear API Key" for the active environment; the key prompt and check the profile commands share.
import * as vscode from 'vscode';
import { KeyringUnavailableError } from './apiKeyStore';
import type { CompanyResponse as CompanySummary, NilveraClient } from '../api';
import type { EnvironmentId } from './environments';
import type { Profile } from './profileStore';
import { describeError } from './errorMessages';
import { offerSessionOnlyKey } from './keyringHelp';
import { log } from './log';
import { prompts, UserCancelledError } from './prompts';
import { rememberSecret } from './redact';
import { environmentLabel, type ShellServices } from './services';
import { withCancellableProgress } from './cancellableProgress';

type CheckResult = { ok: true; company: string; summary: CompanySummary } | { ok: false; reason: string };

/** GET /Company with a key not stored yet, under a cancellable progress notification. */
export function companyOfKey(client: () => Promise<NilveraClient>): Thenable<CompanySummary> {
  return withCancellableProgress(vscode.l10n.t('Checking the API key…'), async (signal) => {
    try {
      return await (await client()).company.get({ signal });
    } catch (error) {
      if (signal.aborted) throw new UserCancelledError();
      throw error;
    }
  });
}

async function checkKey(services: ShellServices, environment: EnvironmentId, key: string): Promise<CheckResult> {
  try {
    const company = await companyOfKey(async () => services.clientForKey(await services.baseUrl(environment, key), key));
    const name = [company.Name, company.TaxNumber ? `(${company.TaxNumber})` : ''].filter(Boolean).join(' ');
    return { ok: true, company: name || '-', summary: company };
  } catch (error) {
    if (error instanceof UserCancelledError) throw error;
    return { ok: false, reason: describeError(error).text || String(error) };
  }
}

/** Saves the key; when the keyring fails, offers to keep it for this session. Returns false if not kept. */
export async function saveKey(services: ShellServices, environment: EnvironmentId, key: string): Promise<boolean> {
  const name = services.secretName(environment);
  try {
    await services.keys.store(name, key);
    return true;
  } catch (error) {
    if (!(error instanceof KeyringUnavailableError)) throw error;
    log.warn(`SecretStorage failed: ${error.reason}`);
    if (!(await offerSessionOnlyKey(error))) return false;
    services.keys.storeForSession(name, key);
    return true;
  }
}

/** Asks for an API key (hidden input); the key is redacted from logs from here on. Cancel throws. */
export async function askApiKey(title: string): Promise<string> {
  const key = (
    await prompts.inputBox({
      title,
      prompt: vscode.l10n.t('Paste the API key created in the Nilvera portal. It is stored in VS Code’s secret storage.'),
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Enter the API key.')),
    })
  )?.trim();
  if (!key) throw new UserCancelledError();
  rememberSecret(key);
  return key;
}

/**
 * After "Set API Key" checked a key: a profile still called by its environment's name takes the
 * company's name, and its tax number is kept for the switch list.
 */
async function rememberCompany(services: ShellServices, environment: EnvironmentId, company: CompanySummary): Promise<void> {
  const profile = services.profileFor(environment);
  if (profile.environment === 'custom' && !profile.baseUrl) return;
  const next: Profile = { ...profile };
  if (company.Name && profile.name === environmentLabel(profile.environment)) next.name = company.Name;
  if (company.TaxNumber) next.taxNumber = company.TaxNumber;
  await services.profiles.store.put(next);
  services.profiles.touched();
}

export async function setApiKey(services: ShellServices): Promise<void> {
  const environment = services.environment();
  const label = environmentLabel(environment);
  // Resolving the URL first stops here when the environment cannot be reached at all.
  if (environment === 'custom') await services.baseUrl(environment);
  for (;;) {
    const key = await askApiKey(vscode.l10n.t('Nilvera: Set API Key ({0})', label));
    const check = await checkKey(services, environment, key);
    if (check.ok) {
      if (await saveKey(services, environment, key)) {
        log.info(`API key saved for ${environment}; the check against GET /Company succeeded.`);
        await rememberCompany(services, environment, check.summary);
        void prompts.message('info', vscode.l10n.t('API key saved for {0}. Company: {1}', label, check.company));
      }
      return;
    }
    const saveAnyway = vscode.l10n.t('Save Anyway');
    const reenter = vscode.l10n.t('Re-enter');
    const choice = await prompts.message('warning', vscode.l10n.t('The key could not be verified with GET /Company: {0}', check.reason), { modal: true }, saveAnyway, reenter);
    if (choice === saveAnyway) {
      if (await saveKey(services, environment, key)) log.info(`API key saved for ${environment} without a successful check.`);
      return;
    }
    if (choice !== reenter) throw new UserCancelledError();
  }
}

export async function clearApiKey(services: ShellServices): Promise<void> {
  const environment = services.environment();
  const label = environmentLabel(environment);
  if (!(await services.hasApiKey(environment))) {
    void prompts.message('info', vscode.l10n.t('No API key is stored for {0}.', label));
    return;
  }
  // Asked every time, modal: the key cannot be put back from here, and another extension may run
  // this command; only the user's yes removes it.
  const remove = vscode.l10n.t('Remove Key');
  const choice = await prompts.message(
    'warning',
    vscode.l10n.t('Remove the API key stored for {0}?', label),
    { modal: true, detail: vscode.l10n.t('Nilvera commands for {0} stop working until a key is set again. The key itself is not shown anywhere, so keep a copy from the Nilvera portal.', label) },
    remove,
  );
  if (choice !== remove) return;
  await services.keys.delete(services.secretName(environment));
  log.info(`API key cleared for ${environment}.`);
  void prompts.message('info', vscode.l10n.t('API key cleared for {0}.', label));
}
