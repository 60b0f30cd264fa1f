// A connection profile: one company's account in one environment. Plain logic (no `vscode`
// import) so the unit tests can run it in Node.
import { checkCustomUrl, FIXED_BASE_URLS, isEnvironmentId, type EnvironmentId } from './environments';

export interface Profile {
  /** Stable id; the key lives in SecretStorage under profileSecretName(id). */
  id: string;
  /** What the user calls it (defaults to the company's name from GET /Company). */
  name: string;
  environment: EnvironmentId;
  /** Custom environment only: the base URL the key was saved for. */
  baseUrl?: string;
  /** The company's tax number, when known (shown in the switch list, checked by "Add as Profile"). */
  taxNumber?: string;
  /** Milliseconds since the epoch of the last switch to it (picks the profile an environment maps to). */
  lastUsedAt?: number;
}

export const PROFILE_SECRET_PREFIX = 'nilvera.apiKey.profile.';

export function profileSecretName(id: string): string {
  return `${PROFILE_SECRET_PREFIX}${id}`;
}

/**
 * The id of the one profile an environment maps to when nothing else is chosen (the profile an
 * upgraded install gets, and what "Switch Environment" and the `nilvera.environment` setting pick
 * when no other profile of that environment exists). Deterministic, so the migration and the
 * settings never create two of them. A custom URL gets one per origin, as its key always did.
 */
export function defaultProfileId(environment: EnvironmentId, customBaseUrl?: string): string {
  if (environment !== 'custom') return environment;
  return `custom:${customBaseUrl ? new URL(customBaseUrl).origin : 'unset'}`;
}

/**
 * The origin a profile's key may be sent to. The sandbox's port changes from run to run, so a
 * sandbox key may go to the running loopback sandbox only (`sandboxUrl`); undefined means nowhere.
 */
export function profileOrigin(profile: Profile, sandboxUrl: string | undefined): string | undefined {
  if (profile.environment === 'custom') {
    const check = checkCustomUrl(profile.baseUrl ?? '');
    return check.ok ? new URL(check.baseUrl).origin : undefined;
  }
  if (profile.environment !== 'sandbox') return new URL(FIXED_BASE_URLS[profile.environment]).origin;
  const url = sandboxUrl ? new URL(sandboxUrl) : undefined;
  return url && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) ? url.origin : undefined;
}

/** Reads a stored record defensively (globalState may hold anything an older version wrote). */
export function parseProfile(value: unknown): Profile | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || !v.id || typeof v.name !== 'string' || !isEnvironmentId(v.environment)) return undefined;
  const profile: Profile = { id: v.id, name: v.name, environment: v.environment };
  if (v.environment === 'custom') {
    const check = checkCustomUrl(typeof v.baseUrl === 'string' ? v.baseUrl : '');
    if (!check.ok) return undefined;
    profile.baseUrl = check.baseUrl;
  }
  if (typeof v.taxNumber === 'string' && v.taxNumber) profile.taxNumber = v.taxNumber;
  if (typeof v.lastUsedAt === 'number' && Number.isFinite(v.lastUsedAt)) profile.lastUsedAt = v.lastUsedAt;
  return profile;
}

/** Does the profile belong to this environment (and, for custom, this origin)? */
export function profileMatches(profile: Profile, environment: EnvironmentId, customBaseUrl?: string): boolean {
  if (profile.environment !== environment) return false;
  if (environment !== 'custom') return true;
  if (!customBaseUrl || !profile.baseUrl) return false;
  return new URL(profile.baseUrl).origin === new URL(customBaseUrl).origin;
}
