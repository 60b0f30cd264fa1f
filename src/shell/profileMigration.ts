// Upgrade from one key per environment (secrets `nilvera.apiKey.<environment>` and
// `nilvera.apiKey.custom:<origin>`) to profiles: each stored key becomes the key of that
// environment's default profile, with nothing to type. Plain logic over SecretStorage- and
// Memento-shaped objects, so the unit tests run it in Node; idempotent (a second run finds no old
// secret and changes nothing).
import type * as vscode from 'vscode';
import { checkCustomUrl, type EnvironmentId } from './environments';
import { defaultProfileId, profileSecretName, type ProfileStore } from './profileStore';

/** The secret name of a key stored before there were profiles, which migrateLegacyKeys moves. */
export function legacySecretName(environment: EnvironmentId, customBaseUrl?: string): string {
  if (environment === 'custom') return `nilvera.apiKey.custom:${customBaseUrl ? new URL(customBaseUrl).origin : 'unset'}`;
  return `nilvera.apiKey.${environment}`;
}

export interface MigrationInput {
  secrets: Pick<vscode.SecretStorage, 'get' | 'store' | 'delete'>;
  store: ProfileStore;
  /**
   * Raw `nilvera.customUrl` values (user, workspace, folder): SecretStorage cannot list its names,
   * so a custom key is found through the URL it was saved for. A key for an origin no setting
   * names any more is picked up later, when that URL is set again (migrateCustomOrigin).
   */
  customUrls: readonly string[];
  /** Name of a new default profile (the UI's environment label). */
  label(environment: EnvironmentId): string;
}

/**
 * Moves the old key of one environment (or custom URL, when a setting names an origin the first run did
 * not see) to its default profile; returns that profile's id when it did.
 */
export async function migrateKey(
  input: Omit<MigrationInput, 'customUrls'>,
  environment: EnvironmentId,
  baseUrl?: string,
): Promise<string | undefined> {
  const oldName = legacySecretName(environment, baseUrl);
  let key: string | undefined;
  try {
    key = await input.secrets.get(oldName);
  } catch {
    return undefined; // An unreadable keyring: try again next time, lose nothing.
  }
  if (!key) return undefined;
  const id = defaultProfileId(environment, baseUrl);
  if (!input.store.get(id)) await input.store.add({ id, name: input.label(environment), environment, ...(baseUrl ? { baseUrl } : {}) });
  const newName = profileSecretName(id);
  // A key already under the new name was set after the upgrade (another window migrated, or the
  // user typed one): it is the newer one and stays.
  if (!(await input.secrets.get(newName))) await input.secrets.store(newName, key);
  // The old secret is kept until the copy is written (a keyring failure or a closed window in
  // between loses nothing: the next run starts again), then deleted, so that "Remove Profile"
  // really removes the key from the keyring and no second copy lingers under a name nothing reads.
  if ((await input.secrets.get(newName)) === undefined) return undefined;
  await input.secrets.delete(oldName);
  return id;
}

/** Ids of the profiles that received a key from an old secret in this run. */
export async function migrateLegacyKeys(input: MigrationInput): Promise<string[]> {
  const migrated: string[] = [];
  for (const environment of ['production', 'test', 'sandbox'] as const) {
    const id = await migrateKey(input, environment);
    if (id) migrated.push(id);
  }
  const origins = new Set<string>();
  for (const raw of input.customUrls) {
    const check = checkCustomUrl(raw);
    if (!check.ok) continue;
    const origin = new URL(check.baseUrl).origin;
    if (origins.has(origin)) continue;
    origins.add(origin);
    const id = await migrateKey(input, 'custom', check.baseUrl);
    if (id) migrated.push(id);
  }
  return migrated;
}
