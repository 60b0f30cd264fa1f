// The profiles feature: "Add Profile", "Switch Profile", "Rename Profile", "Remove Profile" and "Add as
// Profile…" (a company of the Account view's list). Keys are checked with GET /Company before they are
// kept. The model (the active profile and its records) is the shell's.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { ProfileCommands } from '../constants';
import type { CompanyResponse as CompanySummary } from '../api';
import { registerCommand } from '../shell/commandRunner';
import { displayText, displayTextOr } from '../domain/displayText';
import { compareNames } from '../shell/displayFormat';
import { askCustomUrl } from '../shell/environmentCommands';
import { ENVIRONMENT_IDS, FIXED_BASE_URLS, type EnvironmentId } from '../shell/environments';
import { describeError, UserFacingError } from '../shell/errorMessages';
import { log } from '../shell/log';
import { prompts, UserCancelledError } from '../shell/prompts';
import { trustedValue } from '../shell/testSeams';
import { askApiKey, companyOfKey } from '../shell/apiKeyCommands';
import { environmentLabel, type ShellServices } from '../shell/services';
import { profileSecretName, type Profile } from '../shell/profileStore';

export function activateFeature(context: vscode.ExtensionContext, shell: ShellServices): void {
  context.subscriptions.push(
    registerCommand(ProfileCommands.add, () => addProfile(shell)),
    // Which account the window uses: a profile id only from the tests, another extension's is not taken.
    registerCommand(ProfileCommands.switch, (arg) => switchProfile(shell, trustedValue(arg))),
    registerCommand(ProfileCommands.rename, (arg) => renameProfile(shell, arg)),
    registerCommand(ProfileCommands.remove, (arg) => removeProfile(shell, arg)),
    registerCommand(ProfileCommands.addCompany, (arg) => addCompanyAsProfile(shell, arg)),
  );
}

/** Asks for a profile's name. It is shown in the status bar and lists: never the key pasted a second time. */
async function askName(options: vscode.InputBoxOptions, key: string | undefined): Promise<string> {
  const validateInput = (value: string) =>
    !displayText(value) ? vscode.l10n.t('Enter a name.') : key && value.includes(key) ? vscode.l10n.t('This is the API key: enter a name for the profile instead.') : undefined;
  // No bidi or control characters in a name shown in the status bar and lists (a company's name is the default).
  const name = displayText((await prompts.inputBox({ ...options, ignoreFocusOut: true, validateInput })) ?? '');
  if (!name) throw new UserCancelledError();
  return name;
}

interface ProfilePick extends vscode.QuickPickItem {
  profileId?: string;
  action?: 'add';
}

function profileItems(services: ShellServices): ProfilePick[] {
  const active = services.activeProfile();
  // The active profile first (marked), then the others by name.
  const list = [active, ...services.profiles.store.all().filter((p) => p.id !== active.id).sort((a, b) => compareNames(a.name, b.name))];
  return list.map((p) => ({
    profileId: p.id,
    label: `${p.id === active.id ? '$(check) ' : ''}${p.name}`,
    description: [p.taxNumber, environmentLabel(p.environment)].filter(Boolean).join(' · '),
    detail: p.environment === 'custom' ? p.baseUrl : p.environment === 'sandbox' ? vscode.l10n.t('Local sandbox') : FIXED_BASE_URLS[p.environment],
  }));
}

async function pickProfile(services: ShellServices, arg: unknown, title: string): Promise<Profile> {
  const id = typeof arg === 'string' ? arg : (arg as { profileId?: unknown } | undefined)?.profileId;
  if (typeof id === 'string') {
    const found = services.profiles.store.get(id);
    if (!found) throw new UserFacingError(vscode.l10n.t('There is no profile with the id {0}.', id));
    return found;
  }
  const picked = await prompts.quickPick(profileItems(services), { title, placeHolder: vscode.l10n.t('Choose a profile') });
  if (!picked?.profileId) throw new UserCancelledError();
  const profile = services.profiles.store.get(picked.profileId) ?? (services.activeProfile().id === picked.profileId ? services.activeProfile() : undefined);
  if (!profile) throw new UserCancelledError();
  return profile;
}

/**
 * GET /Company with a new profile's key, at the address the key will be sent to (for the sandbox, the
 * running one, started with `key`). A failure says that the key could not be verified.
 */
async function verifiedCompany(services: ShellServices, environment: EnvironmentId, customUrl: string | undefined, key: string): Promise<CompanySummary> {
  const baseUrl = environment === 'custom' ? (customUrl as string) : await services.baseUrl(environment, key);
  try {
    return await companyOfKey(() => services.clientForKey(baseUrl, key));
  } catch (error) {
    if (error instanceof UserCancelledError) throw error;
    throw new UserFacingError(vscode.l10n.t('The key could not be verified with GET /Company: {0}', describeError(error).text || String(error)));
  }
}

/** A new id for a profile the user adds (never one of the default ids, which have no dash-hex tail). */
function newProfileId(): string {
  return `p-${randomBytes(6).toString('hex')}`;
}

/** Stores the record and its key. */
async function saveProfile(services: ShellServices, profile: Profile, key: string): Promise<void> {
  await services.keys.store(profileSecretName(profile.id), key);
  await services.profiles.store.add(profile);
}

async function addProfile(services: ShellServices): Promise<void> {
  const items = ENVIRONMENT_IDS.map((environment) => ({ environment, label: environmentLabel(environment) }));
  const picked = await prompts.quickPick(items, { title: vscode.l10n.t('Nilvera: Add Profile'), placeHolder: vscode.l10n.t('Which environment is the account in?') });
  if (!picked) throw new UserCancelledError();
  const environment = picked.environment;
  const customUrl = environment === 'custom' ? await askCustomUrl() : undefined;
  const key = await askApiKey(vscode.l10n.t('Nilvera: Add Profile ({0})', environmentLabel(environment)));
  const company = await verifiedCompany(services, environment, customUrl, key);
  const title = vscode.l10n.t('Nilvera: Profile Name');
  const prompt = vscode.l10n.t('A name for this profile (the company name by default).');
  const name = await askName({ title, prompt, value: displayTextOr(company.Name, environmentLabel(environment)) }, key);
  const profile: Profile = { id: newProfileId(), name, environment, ...(customUrl ? { baseUrl: customUrl } : {}), ...(company.TaxNumber ? { taxNumber: company.TaxNumber } : {}) };
  await saveProfile(services, profile, key);
  services.profiles.switchTo(profile.id);
  log.info(`Profile ${profile.id} (${profile.environment}) added and active.`);
  void prompts.message('info', vscode.l10n.t('Profile "{0}" added and active.', name));
}

/**
 * "Add as Profile…" on a company of the Account view's list: asks for that company's key, checks
 * that GET /Company with it answers that company's tax number, and saves it as a profile of the
 * active profile's environment (the companies of one user live on the same platform).
 */
async function addCompanyAsProfile(services: ShellServices, arg: unknown): Promise<void> {
  const listed = (arg as { company?: { Name?: unknown; TaxNumber?: unknown } } | undefined)?.company;
  const taxNumber = typeof listed?.TaxNumber === 'string' ? listed.TaxNumber : '';
  const companyName = typeof listed?.Name === 'string' ? listed.Name : '';
  if (!taxNumber) throw new UserFacingError(vscode.l10n.t('Choose a company in the Account view\'s company list.'));
  const active = services.activeProfile();
  const existing = services.profiles.store.all().find((p) => p.taxNumber === taxNumber && p.environment === active.environment && p.baseUrl === active.baseUrl);
  if (existing) {
    void prompts.message('info', vscode.l10n.t('"{0}" already has a profile: {1}.', companyName || taxNumber, existing.name));
    return;
  }
  const key = await askApiKey(vscode.l10n.t('Nilvera: API Key of {0}', companyName || taxNumber));
  const company = await verifiedCompany(services, active.environment, active.baseUrl, key);
  if (company.TaxNumber !== taxNumber) {
    throw new UserFacingError(vscode.l10n.t('This key belongs to {0} ({1}), not to {2} ({3}); nothing was saved.', company.Name ?? '-', company.TaxNumber ?? '-', companyName || '-', taxNumber));
  }
  const profile: Profile = { id: newProfileId(), name: displayTextOr(company.Name, displayTextOr(companyName, taxNumber)), environment: active.environment, taxNumber };
  if (active.environment === 'custom' && active.baseUrl) profile.baseUrl = active.baseUrl;
  await saveProfile(services, profile, key);
  services.profiles.touched();
  log.info(`Profile ${profile.id} added from the company list.`);
  const switchNow = vscode.l10n.t('Switch to It');
  const choice = await prompts.message('info', vscode.l10n.t('Profile "{0}" added.', profile.name), undefined, switchNow);
  if (choice === switchNow) services.profiles.switchTo(profile.id);
}

/** Switches this window to a profile (arg: its id, for tests and links), or asks which. */
async function switchProfile(services: ShellServices, arg?: unknown): Promise<void> {
  if (typeof arg === 'string') return services.profiles.switchTo((await pickProfile(services, arg, '')).id);
  const items: ProfilePick[] = [...profileItems(services), { label: `$(add) ${vscode.l10n.t('Add Profile…')}`, action: 'add' }];
  const picked = await prompts.quickPick(items, { title: vscode.l10n.t('Nilvera: Switch Profile'), placeHolder: vscode.l10n.t('Which company account should this window use?') });
  if (!picked) throw new UserCancelledError();
  if (picked.action === 'add') return addProfile(services);
  if (picked.profileId && picked.profileId !== services.activeProfile().id) services.profiles.switchTo(picked.profileId, services.profiles.store.get(picked.profileId));
}

async function renameProfile(services: ShellServices, arg?: unknown): Promise<void> {
  const profile = await pickProfile(services, arg, vscode.l10n.t('Nilvera: Rename Profile'));
  const key = await services.keys.get(profileSecretName(profile.id));
  const name = await askName({ title: vscode.l10n.t('Nilvera: Rename Profile'), value: profile.name }, key);
  // Only if it still exists: a profile another window removed meanwhile is not brought back.
  await services.profiles.store.update(profile.id, (p) => ({ ...p, name }));
  services.profiles.touched();
}

async function removeProfile(services: ShellServices, arg?: unknown): Promise<void> {
  const profile = await pickProfile(services, arg, vscode.l10n.t('Nilvera: Remove Profile'));
  const remove = vscode.l10n.t('Remove');
  const choice = await prompts.message('warning', vscode.l10n.t('Remove the profile "{0}" and delete its API key from this computer?', profile.name), { modal: true }, remove);
  if (choice !== remove) throw new UserCancelledError();
  await services.keys.delete(profileSecretName(profile.id));
  await services.profiles.store.remove(profile.id);
  // The active one removed: the window goes back to what the settings name.
  if (services.activeProfile().id === profile.id) services.profiles.followSettings();
  else services.profiles.touched();
  log.info(`Profile ${profile.id} removed with its key.`);
}

